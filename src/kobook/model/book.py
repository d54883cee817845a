"""A book as every stage sees it: :class:`Book` (metadata and chapters in reading order)
and :class:`Chapter` (one chapter's text and where each line came from).

``load`` makes them, dialects rewrite chapters' text, ``parse`` turns each into a
document, and every later stage and writer reads them; none of those stages is
imported here.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, Location
from .config import Config
from .expansion import Expansion
from .origins import Origin


class TextIndex:
    """Line starts and needle places of one text, each found once (for :meth:`Chapter.locate`).

    Results are assigned whole, never extended in place, so chapters located
    from two threads (the HTML writer's) see complete lists.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._lines: list[int] | None = None
        self._places: dict[str, list[int]] = {}

    def places(self, needle: str) -> list[int]:
        found = self._places.get(needle)
        if found is None:
            found = []
            at = self.text.find(needle)
            while at >= 0:
                found.append(at)
                at = self.text.find(needle, at + len(needle))
            self._places[needle] = found
        return found

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        lines = self._lines
        if lines is None:
            lines = [0] + [m.end() for m in re.finditer("\n", self.text)]
            self._lines = lines
        line = bisect.bisect_right(lines, offset)
        return line, offset - lines[line - 1] + 1


@dataclass
class Chapter:
    """One chapter's source: the text kobook builds from and where it came from."""

    id: str
    path: Path
    text: str
    line_offset: int = 0  # lines of ``path`` before ``text`` starts
    title: str = ""
    number: int | None = None  # None: unnumbered (preface, references, ``{-}``)
    shift: int = 0  # heading levels to remove (chapter-level - 1)
    # "chapter" | "preface" | "appendix" | "backmatter" | "front" (front-matter: before
    # the body, in the front matter's folios: load/front.py)
    kind: str = "chapter"
    meta: dict[str, Any] = field(default_factory=dict)  # the file's front matter
    lang: str = ""  # BCP 47: front matter ``lang``, else the book's
    # File and line of each line of ``text`` once a dialect has rewritten it or joined
    # several files (``kobook.model.origins``); empty: line ``n`` is ``path:line_offset+n``.
    origins: tuple[Origin, ...] = ()
    part: str = ""  # the title of the part this chapter opens (mdBook ``# Part`` lines)
    _text_index: TextIndex | None = field(default=None, init=False, repr=False, compare=False)

    def source_line(self, local_line: int) -> int:
        """Line in :attr:`path` of a 1-based line of :attr:`text` (see :meth:`where`)."""
        if self.origins and 0 < local_line <= len(self.origins):
            return self.origins[local_line - 1][1]
        return self.line_offset + local_line

    def where(self, local_line: int = 1, col: int = 0) -> Location:
        """The file, line and column a 1-based line of :attr:`text` came from.

        A chapter an mdBook ``SUMMARY.md`` builds from several files, or one
        with ``{{#include}}`` lines, names the file each line was written in.
        """
        if self.origins:
            index = min(max(local_line, 1), len(self.origins)) - 1
            path, line = self.origins[index]
            return Location(path, line, col)
        return Location(self.path, self.line_offset + local_line, col)

    def locate(self, needle: str, occurrence: int = 0) -> Location | None:
        """Where ``needle`` appears (its ``occurrence``-th time, from 0; past the
        last one, the last one), or None.

        Passes report every occurrence of a needle in turn, so the places of
        each needle and the start of each line are found once per text
        (:class:`TextIndex`): a chapter with 20,000 findings stays linear.
        """
        if not needle:
            return None
        index = self._index()
        if occurrence == 0:
            at = self.text.find(needle)
        else:
            places = index.places(needle)
            at = places[min(occurrence, len(places) - 1)] if places else -1
        if at < 0:
            return None
        line, col = index.line_col(at)
        return self.where(line, col)

    def _index(self) -> TextIndex:
        index = self._text_index
        if index is None or index.text is not self.text:
            index = self._text_index = TextIndex(self.text)
        return index


@dataclass
class Book:
    """A loaded book: validated metadata plus its chapters in reading order."""

    root: Path
    config: Config
    chapters: list[Chapter] = field(default_factory=list)
    discovery: str = ""  # which files are chapters, and why (printed by the build)
    notes: list[Diagnostic] = field(default_factory=list)  # info: what the layout skipped
    # What its includes and macros have added so far (one budget per build).
    expansion: Expansion = field(default_factory=Expansion, repr=False, compare=False)
    # Built with --trust: its raw LaTeX and its templates that are code are used as they are.
    trusted: bool = False

    @property
    def title(self) -> str:
        return self.config.title

    def locate(self, needle: str) -> Location:
        """The first chapter and line where ``needle`` appears (for messages)."""
        for chapter in self.chapters:
            found = chapter.locate(needle)
            if found is not None:
                return found
        return Location()
