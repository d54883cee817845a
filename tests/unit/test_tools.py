"""Running programs and stopping on signals (``kobook/tools.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SWALLOWED = """
import os, signal, sys, time
from pathlib import Path
from kobook.tools import Interrupted, stop_on_signals
from kobook.write.shared.common import atomic_output

stop_on_signals()
out = Path(sys.argv[1])
try:
    with atomic_output(out) as tmp:
        tmp.write_bytes(b"%PDF")
        try:  # as WeasyPrint draws an SVG image: it catches BaseException and logs it
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        except BaseException:
            pass
    print("written")
except Interrupted as exc:
    print("interrupted", exc.signum)
"""


def test_an_interruption_a_library_swallowed_still_writes_nothing(tmp_path: Path) -> None:
    """A SIGTERM whose exception a library catches does not let the build finish: the
    output is not moved into place and the run ends as interrupted."""
    out = tmp_path / "book.pdf"
    done = subprocess.run(
        [sys.executable, "-c", SWALLOWED, str(out)], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.split() == ["interrupted", "15"], done.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []
