"""The content ledger: the last stage of every build, after ``write``.

It counts what the transformed book holds (text of paragraphs, headings, captions,
cells and code; headings' identifiers; links; images; tables; footnotes; display
math; super- and subscripts) and reads each output back from the file the writer
made (the PDF's text, link annotations and glyph sizes; the HTML book's and the
EPUB's DOM).  A construct an output lacks is a warning at its source line (LOST001
text, LOST002 an element, LOST003 a script printed on the line); ``--strict``
fails the build.  This is how "nothing is lost in silence" is enforced for every
writer at once, rather than trusted to each of them.

Which reader an output gets is this registry's: one per output kind.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ..cache import Cache
from ..errors import Diagnostic, KobookError
from ..model import Doc
from .compare import differences
from .expected import Expected, expected
from .found import Found

__all__ = ["READERS", "Expected", "Found", "expected", "fail_on_losses", "verify"]


def _pdf(path: Path, docs: list[Doc], label: str, cache: Cache | None) -> Found:
    from .pdf import read_pdf

    return read_pdf(path, f"the {label}")


def _html(path: Path, docs: list[Doc], label: str, cache: Cache | None) -> Found:
    from ..write.html.writer import page_name
    from .markup import read_site

    return read_site(path, [page_name(doc) for doc in docs], cache)


def _epub(path: Path, docs: list[Doc], label: str, cache: Cache | None) -> Found:
    from .markup import read_epub

    return read_epub(path, cache)


# output kind -> reader(the written file, the chapters it holds, the writer's label, the
# build's cache: what was read of a page is kept by the page's bytes)
READERS: dict[str, Callable[[Path, list[Doc], str, Cache | None], Found]] = {
    "pdf": _pdf,
    "html": _html,
    "epub": _epub,
}


def verify(
    docs: list[Doc],
    made: list[tuple[str, Path, str]],
    reported: list[Diagnostic],
    cache: Cache | None = None,
    book: Expected | None = None,
) -> list[Diagnostic]:
    """What each output lacks of ``docs``: ``made`` is ``(output kind, file, writer's
    label)`` per output.  The book is counted once for all of them (``book``: that count,
    when the caller made it, :func:`expected` of ``docs``); constructs with a
    diagnostic of their own in ``reported`` (the build's, before the ledger) are explained
    and not repeated.  ``cache``: the build's, where what the ledger found of each chapter
    and read of each page is kept (a warm build reads only what changed)."""
    explained = {
        (str(d.location.file), d.location.line)
        for d in reported
        if d.location.file is not None
        and d.severity in ("error", "warning")
        and d.code not in LOST_CODES  # one output's loss explains no other's
    }
    # A character no font has is drawn as a box (GLYPH001, said once per character):
    # every passage holding it is explained, wherever it stands.
    boxes = {
        chr(int(code, 16))
        for d in reported
        if d.code == "GLYPH001"
        for code in re.findall(r"U\+([0-9A-F]{4,6})", d.message)
    }
    book = book if book is not None else expected(docs, cache)
    lost: list[Diagnostic] = []
    for output, path, label in made:
        found = READERS[output](path, docs, label, cache)
        lost += differences(book, found, explained, boxes if output == "pdf" else set())
    return lost


def fail_on_losses(diagnostics: list[Diagnostic]) -> None:
    """``--strict``: raise when the ledger found anything an output lost."""
    lost = [d for d in diagnostics if d.code in LOST_CODES]
    if lost:
        raise KobookError.summarising(
            f"{len(lost)} construct(s) of the book are missing from an output (--strict)",
            "LOST004",
            lost[:20],
            "report them to kobook with the files and lines; build without --strict meanwhile",
        )


LOST_CODES = {"LOST001", "LOST002", "LOST003"}
