"""Running XeLaTeX: twice for the table of contents, with TeX's file access paranoid, and
what it refused to read or write said in the book's terms."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from ... import limits, tools
from ...errors import KobookError
from ...model import Book
from ...reproducible import latex_environment
from ..shared.latexmeta import (
    first_error,
)
from .places import includes_location

MISSING = re.compile(r"Missing character: There is no (.) \(U\+([0-9A-F]+)\) in font ([^!]+)!")


# kpathsea "paranoid": TeX opens no file outside its working folder (no absolute or
# ../ path, no dot file) for reading or writing; and no shell escape (\write18).
PARANOID = {"openin_any": "p", "openout_any": "p", "shell_escape": "f"}


def run_xelatex(tex: Path, epoch: int | None = None) -> subprocess.CompletedProcess[str]:
    """Run latexmk (else xelatex) on ``tex`` in its folder, paranoid and without shell
    escape; latexmk reads no rc file (a ``latexmkrc`` is Perl code).  ``epoch`` dates
    the PDF and pins xdvipdfmx's font subset tags and ``/ID`` (kobook.reproducible)."""
    latexmk = shutil.which("latexmk")
    if latexmk:
        command = [
            latexmk,
            "-norc",
            "-xelatex",
            "-latexoption=-no-shell-escape",
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-file-line-error",
            "-f-",
            tex.name,
        ]
    else:
        command = [
            "xelatex",
            "-no-shell-escape",
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-file-line-error",
            tex.name,
        ]
    return tools.run(
        command,
        cwd=tex.parent,
        text=True,
        errors="replace",
        env={**latex_environment(os.environ, epoch), **PARANOID},
        timeout=limits.XELATEX_TIMEOUT,
        what="XeLaTeX",
        hint="build a few chapters at a time (--chapter) to find the one it is stuck on, "
        "or use --engine weasyprint",
    )


PARANOID_REFUSAL = re.compile(r"Not (reading from|writing to) (.+?) \((?:openin|openout)_any = p\)")


def paranoid_refusal(output: str, log: str, book: Book) -> KobookError | None:
    """SEC001 when XeLaTeX stopped because kpathsea refused a file outside its folder.

    The book's raw LaTeX named it (an ``\\input{/etc/hostname}`` passed by
    ``--trust``); the message says so, at the line that names it.  Only when the
    error that stopped XeLaTeX is about that file (a refusal TeX got past, as
    ``\\IfFileExists`` does, is no error).
    """
    error = first_error(log)
    for match in PARANOID_REFUSAL.finditer(output):
        action, name = match.group(1).split()[0], match.group(2)
        if error is not None and name in error.message:
            break
    else:
        return None
    where = book.locate(name)
    if where.file is None:
        where = includes_location(book, name)
    return KobookError(
        f"XeLaTeX may not {'read' if action == 'reading' else 'write'} {name}: it opens "
        "files only inside its working folder",
        code="SEC001",
        file=where.file,
        line=where.line,
        hint="raw LaTeX cannot read or write files outside the book's build; put what it "
        "needs into the book as Markdown",
    )
