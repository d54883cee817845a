"""What a dialect is: a source format turned into the pandoc Markdown kobook builds.

Like mdBook's preprocessors, a dialect is a small object behind a small
interface.  It may say which files are chapters and in what order (mdBook's
``SUMMARY.md``, distill's ``section_number``), and it rewrites each chapter's
text into pandoc Markdown, keeping for every output line the file and line it
came from, so every later diagnostic still points at what the translator wrote.
What it converted and what it could not is counted in a :class:`Report`
(``kobook import`` prints it; the build reports what was not converted).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..errors import Diagnostic, Location

Origin = tuple[Path, int]  # (file, 1-based line)


@dataclass
class Lines:
    """Text as lines, each with its origin; rewriting keeps the origins right.

    ``replace`` substitutes a regex in the joined text; a replacement with as
    many line breaks as the match keeps every origin, one with more (an
    included file) or fewer is mapped by :meth:`splice` instead.
    """

    lines: list[str]
    origins: list[Origin]

    @classmethod
    def of(cls, text: str, path: Path, first_line: int = 1) -> Lines:
        lines = text.split("\n")
        return cls(lines, [(path, first_line + i) for i in range(len(lines))])

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def origin(self, offset: int) -> Origin:
        """Where the character at ``offset`` of :attr:`text` came from."""
        line = self.text.count("\n", 0, offset)
        return self.origins[min(line, len(self.origins) - 1)]

    def sub(
        self,
        pattern: re.Pattern[str],
        replace: Callable[[re.Match[str]], str | Lines],
    ) -> int:
        """Replace every match of ``pattern``; return how many were replaced.

        ``replace`` returns text (origins follow the match's lines; extra lines
        take the last line's origin) or :class:`Lines` with their own origins
        (an included file).
        """
        text = self.text
        pieces: list[Lines] = []
        position = 0
        count = 0
        for match in pattern.finditer(text):
            result = replace(match)
            pieces.append(self._slice(text, position, match.start()))
            pieces.append(self._replacement(text, match, result))
            position = match.end()
            count += 1
        if not count:
            return 0
        pieces.append(self._slice(text, position, len(text)))
        joined = join(pieces)
        self.lines, self.origins = joined.lines, joined.origins
        return count

    def _slice(self, text: str, start: int, end: int) -> Lines:
        first = text.count("\n", 0, start)
        part = text[start:end]
        count = part.count("\n") + 1
        return Lines(part.split("\n"), self.origins[first : first + count])

    def _replacement(self, text: str, match: re.Match[str], result: str | Lines) -> Lines:
        if isinstance(result, Lines):
            return result
        first = text.count("\n", 0, match.start())
        span = match.group(0).count("\n") + 1
        own = self.origins[first : first + span]
        lines = result.split("\n")
        origins = [own[min(i, len(own) - 1)] for i in range(len(lines))]
        return Lines(lines, origins)


def join(pieces: list[Lines]) -> Lines:
    """Concatenate pieces of text where each piece continues the previous line."""
    lines: list[str] = []
    origins: list[Origin] = []
    for index, piece in enumerate(pieces):
        if index and lines:
            lines[-1] += piece.lines[0]
            lines.extend(piece.lines[1:])
            origins.extend(piece.origins[1:])
        else:
            lines.extend(piece.lines)
            origins.extend(piece.origins)
    return Lines(lines, origins)


@dataclass
class Report:
    """What a dialect converted, and where it could not, per construct."""

    converted: Counter[str] = field(default_factory=Counter)
    problems: list[Diagnostic] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)  # info: dropped decoration

    def count(self, construct: str, n: int = 1) -> None:
        if n:
            self.converted[construct] += n

    def problem(
        self,
        code: str,
        message: str,
        where: Origin,
        hint: str = "",
        severity: str = "warning",
    ) -> None:
        location = Location(where[0], where[1])
        target = self.notes if severity == "info" else self.problems
        target.append(Diagnostic(code, message, location, hint, severity))

    def merge(self, other: Report) -> None:
        self.converted.update(other.converted)
        self.problems += other.problems
        self.notes += other.notes


class Dialect(Protocol):
    """A source format kobook can build in place."""

    name: str

    def detect(self, root: Path) -> bool:
        """True when ``root`` looks like a repository of this dialect."""
        ...

    def metadata(self, root: Path) -> dict[str, Any]:
        """What the repository says about the book (title, authors, lang, ...)."""
        ...
