"""What transforms share: the book, the numbering registry, and collected diagnostics."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ..cache import Cache
from ..errors import Diagnostic, KobookError, Location
from ..model import Book, Chapter
from .remote import Budget, Limits


@dataclass(frozen=True)
class Target:
    """Something a cross-reference can point at (a figure, table, equation, section)."""

    kind: str  # "fig" | "tbl" | "eq" | "sec"
    id: str
    chapter_id: str
    label: str  # the number as printed: "3.2", or the title for unnumbered sections
    text: str  # what a reference prints: "그림 3.2", "식 (3.1)", "3.2절", "2장"


@dataclass
class Context:
    """Shared state of one build's transform passes."""

    book: Book
    keep_going: bool = False
    cache: Cache | None = None
    # No downloads: every remote image is IMG002 (``--offline``).
    offline: bool = False
    # The folders the build writes into: no pass reads them.
    outputs: tuple[Path, ...] = ()
    remote_limits: Limits = field(default_factory=Limits)
    remote_budget: Budget | None = None
    # Remote image URL -> its local copy, or the reason it has none.
    remote: dict[str, Path | str] = field(default_factory=dict)
    targets: dict[str, Target] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    seen_ids: set[str] = field(default_factory=set)
    # chapter id -> {an id as its authors wrote it (or a tool's id of a heading): its id now}
    anchors: dict[str, dict[str, str]] = field(default_factory=dict)
    counters: dict[tuple[str, str], int] = field(default_factory=dict)
    # Each file a chapter is made of -> that chapter (``chapter_links.py``), made once.
    chapter_files: dict[Path, Chapter] | None = None
    # (chapter id, URL after check_images) -> URL as written, for messages.
    source_urls: dict[tuple[str, str], str] = field(default_factory=dict)
    # What a pass reads once a build (the glossary the index marks), by the pass's key.
    memo: dict[tuple[str, str], Any] = field(default_factory=dict)

    def next_number(self, chapter: Chapter, kind: str) -> str:
        """The next number of ``kind`` ("fig", "tbl", "eq"): ``3.2`` (or ``3-2``, the
        book's ``captions.separator``) per chapter, else ``7``."""
        per_chapter = self.book.config.number_by_chapter and chapter.number is not None
        scope = chapter.id if per_chapter else "book"
        key = (scope, kind)
        self.counters[key] = self.counters.get(key, 0) + 1
        count = self.counters[key]
        separator = self.book.config.caption_separator
        return f"{chapter.number}{separator}{count}" if per_chapter else str(count)

    @property
    def root(self) -> Path:
        return self.book.root

    def locate(self, chapter: Chapter, needle: str, occurrence: int = 0) -> Location:
        """Where ``needle`` appears in a chapter's source (else the chapter's first line);
        a URL pandoc percent-encoded (``%5B::1%5D``) is looked for as written, too."""
        found = chapter.locate(needle, occurrence)
        if not found and "%" in needle:
            found = chapter.locate(unquote(needle), occurrence)
        return found or chapter.where(1, 0)

    def problem(
        self,
        chapter: Chapter,
        code: str,
        message: str,
        *,
        needle: str = "",
        occurrence: int = 0,
        hint: str = "",
        fatal: bool = True,
    ) -> None:
        """Report a problem: an error (raised) unless ``keep_going`` or not ``fatal``.

        ``needle`` is the text the problem is about; ``occurrence`` says which of
        its appearances in the chapter (0 = first) so repeated text is placed right.
        """
        location = self.locate(chapter, needle, occurrence)
        if fatal and not self.keep_going:
            raise KobookError(
                message,
                code=code,
                file=location.file,
                line=location.line,
                col=location.col,
                hint=hint,
            )
        self.diagnostics.append(
            Diagnostic(code, message, location, hint, "error" if fatal else "warning")
        )


REF_ID = re.compile(r"^(fig|tbl|eq|sec|lst):")
