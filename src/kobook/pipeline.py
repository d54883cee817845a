"""The pipeline's first stages, run the same way by ``kobook build`` and ``kobook preview``:
load → dialect → guard.

What they decide (which files are chapters, what the dialect converted, which of the
book's templates are not used without ``--trust``, which sources pandoc must not
parse) is decided here once, so the preview shows what the build would make.  The
preview passes a :class:`Memo`: a chapter whose text has not changed is not checked
again.  The later stages (normalize, parse, transform) take the book this returns;
the preview memoises them itself (``preview/passmemo.py``), and both hand the
transformed chapters to the same writers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .dialect import convert_book
from .errors import Diagnostic
from .load import load_book
from .model import Book, Chapter
from .parse.guard import check_footnotes, check_source
from .write.shared.templates import untrusted as untrusted_templates


@dataclass
class Memo:
    """What a caller that runs the stages again and again keeps between runs."""

    checked: set[tuple[str, str, int]] = field(default_factory=set)  # texts guard passed


@dataclass
class Front:
    """A loaded, converted and checked book, with what the stages said about it."""

    book: Book
    notes: list[str]  # what was chosen on the reader's behalf (which files are chapters)
    diagnostics: list[Diagnostic]  # the layout's notes, the dialect's report, SEC005


def front(root: Path, *, trust: bool = False, memo: Memo | None = None) -> Front:
    """load → dialect → guard for the project ``root``."""
    book = load_book(root)
    book.trusted = trust
    notes = [f"chapters: {book.discovery}: " + ", ".join(chapter_names(book))]
    diagnostics = list(book.notes)
    diagnostics += untrusted_templates(book.root, trust)  # SEC005: not used, said once
    report = convert_book(book)  # the dialect stage: distill / mdBook → pandoc Markdown
    if report.converted:
        done = ", ".join(f"{name} ×{n}" for name, n in sorted(report.converted.items()))
        notes.append(f"dialect {book.config.get('dialect')}: converted {done}")
    diagnostics += report.problems + report.notes
    guard(book.chapters, memo)
    return Front(book, notes, diagnostics)


def guard(chapters: list[Chapter], memo: Memo | None = None) -> None:
    """LIMIT001/002/005 before any stage reads the text (the build-time fixes parse it
    too); with ``memo``, a text checked by an earlier run is not checked again."""
    checked = set()
    for chapter in chapters:
        key = (chapter.text, str(chapter.path), chapter.line_offset)
        if memo is None or key not in memo.checked:
            check_source(chapter)
        checked.add(key)
    if memo is not None:
        memo.checked = checked
    check_footnotes(chapters)


def chapter_names(book: Book) -> list[str]:
    """The chapter files relative to the project, each once, in reading order."""
    names: list[str] = []
    for chapter in book.chapters:
        try:
            name = chapter.path.relative_to(book.root).as_posix()
        except ValueError:
            name = str(chapter.path)
        if name not in names:
            names.append(name)
    return names
