"""Typst's messages in the book's terms: a line of book.typ traced back to its chapter
file and line, a limit placed at the book's own template, characters no font has."""

from __future__ import annotations

import re

from ...errors import Diagnostic, KobookError, Location
from ...model import Book
from ..shared.common import chapter_at
from .passes import CHAPTER_MARK, TEMPLATES

# --- The compiler ----------------------------------------------------------------------

WHERE = re.compile(r"┌─ (?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+)")


def source_location(book: Book, source: str, line: int) -> Location:
    """Where line ``line`` of book.typ came from: its chapter's file and, as far as its
    text tells, the line there; before the first chapter, the template."""
    chapter_id = chapter_at(source, line, CHAPTER_MARK)
    chapter = next((c for c in book.chapters if c.id == chapter_id), None)
    if chapter is None:
        return Location(None)
    text = source.splitlines()[line - 1] if 0 < line <= len(source.splitlines()) else ""
    pieces = re.split(r"#[a-z.]+|[\[\]{}()\"\\*_`$<>#=]", text)
    for piece in sorted({p.strip() for p in pieces if len(p.strip()) >= 2}, key=len, reverse=True):
        found = chapter.locate(piece)
        if found is not None:
            return Location(found.file, found.line)
    return chapter.where(1)


def diagnostic_of(book: Book, source: str, text: str, code: str, severity: str) -> Diagnostic:
    """A Typst message (its first line, without Typst's ``error:`` prefix) as kobook's."""
    sections = re.split(r"\n(?=(?:error|warning): )", text.strip())
    wanted = "error: " if code == "TYP001" else "warning: "
    text = next((s for s in sections if s.startswith(wanted)), sections[0])
    message = text.strip().splitlines()[0] if text.strip() else "Typst failed"
    message = re.sub(r"^(error|warning):\s*", "", message)
    found = WHERE.search(text)
    location = source_location(book, source, int(found.group("line"))) if found else Location(None)
    return Diagnostic(
        code,
        f"Typst: {message}",
        location,
        "this comes from the Typst engine; --engine weasyprint builds the book too",
        severity,
    )


def limit_error(book: Book, error: KobookError) -> KobookError:
    """A Typst run stopped at a limit, placed where Typst code can come from: the book's
    own template when it has one (nothing of a chapter is Typst code), else the book."""
    own = book.root / "templates" / TEMPLATES / "book.typ"
    return KobookError(
        error.diagnostic.message,
        code=error.code,
        file=own if own.is_file() else book.config.path,
        hint=error.diagnostic.hint,
    )
