"""Running programs and stopping on signals (``kobook/tools.py``)."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kobook import tools
from kobook.errors import KobookError

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


# --- deadline: a limit on work done in this process (WeasyPrint's layout) ----------------


def spin() -> None:
    """Work that goes on until something stops it."""
    while True:
        sum(range(1000))


def test_work_past_its_deadline_is_stopped_with_limit006(tmp_path: Path) -> None:
    with pytest.raises(KobookError) as info, tools.deadline(0.05, "spinning", tmp_path, "stop"):
        spin()
    assert info.value.code == "LIMIT006" and "spinning took longer than 0.05 s" in str(info.value)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # the timer is off again
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL


def test_a_deadline_whose_error_was_swallowed_still_stops(tmp_path: Path) -> None:
    """As WeasyPrint around an SVG image: the error is caught inside, the work ends as if
    nothing happened; the deadline raises it on the way out."""
    limit = tools.deadline(0.05, "drawing", tmp_path, "")
    with pytest.raises(KobookError) as info, limit, contextlib.suppress(BaseException):
        spin()
    assert info.value.code == "LIMIT006"


def test_work_within_its_deadline_goes_on(tmp_path: Path) -> None:
    with tools.deadline(60, "a short job", tmp_path, ""):
        total = sum(range(1000))
    assert total == 499500 and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_no_deadline_outside_the_main_thread(tmp_path: Path) -> None:
    """Only the main thread gets signals: a build run from another thread has no limit
    (and sets no handler)."""
    seen: list[object] = []

    def job() -> None:
        with tools.deadline(0.01, "in a thread", tmp_path, ""):
            seen.append(signal.getitimer(signal.ITIMER_REAL))

    thread = threading.Thread(target=job)
    thread.start()
    thread.join()
    assert seen == [(0.0, 0.0)]
