"""Run the ``pandoc`` binary that ships with pypandoc-binary (no system pandoc needed)."""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from ..errors import KobookError

# pandoc's own markdown (not commonmark): ``**“강조”**를`` is bold there.
# east_asian_line_breaks stays off: Korean separates words with spaces, so a soft
# line break between two Hangul words must remain a space.
READER = "markdown-east_asian_line_breaks"


@functools.cache
def pandoc_path() -> str:
    """Path of the pandoc binary: pypandoc-binary's, else one on PATH."""
    try:
        import pypandoc

        path = pypandoc.get_pandoc_path()
        if path and Path(path).exists():
            return str(path)
    except (ImportError, OSError):
        pass
    found = shutil.which("pandoc")
    if found:
        return found
    raise KobookError(
        "pandoc not found",
        code="ENV001",
        hint="pip install pypandoc-binary (kobook's own dependency; reinstall kobook)",
    )


@functools.cache
def pandoc_version() -> str:
    out = subprocess.run(
        [pandoc_path(), "--version"], capture_output=True, text=True, check=True
    ).stdout
    return out.split("\n", 1)[0].split()[-1]


def run_pandoc(args: list[str], stdin: str, *, what: str = "pandoc") -> str:
    """Run pandoc with ``args`` on ``stdin``; a failure becomes a :class:`KobookError`."""
    proc = subprocess.run(
        [pandoc_path(), *args],
        input=stdin.encode("utf-8"),
        capture_output=True,
    )
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip()
        raise KobookError(f"{what} failed: {message}", code="PANDOC001")
    return proc.stdout.decode("utf-8")


def markdown_to_ast(
    text: str, extra_args: list[str] | None = None, *, reader: str = READER
) -> dict[str, Any]:
    """Parse Markdown into pandoc's JSON AST (a dict with ``blocks`` and ``meta``)."""
    out = run_pandoc(["-f", reader, "-t", "json", *(extra_args or [])], text, what="parse")
    return dict(json.loads(out))


def ast_to(doc: dict[str, Any], to: str, args: list[str] | None = None) -> str:
    """Render a JSON AST with one of pandoc's writers (``html5``, ``latex``, ...)."""
    return run_pandoc(["-f", "json", "-t", to, *(args or [])], json.dumps(doc), what=f"{to}")
