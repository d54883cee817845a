"""Text whose every line remembers the file and line it came from.

A dialect rewrites a chapter (``{{#include}}`` pulls in another file, a
``{% details %}`` tag becomes a ``:::`` line, a multi-line ``<d-footnote>``
becomes one ``^[…]``), and an mdBook chapter is several files joined.  Every
diagnostic after that must still name the file and line the translator wrote,
so text travels with one origin per line (:class:`Lines`) and the chapter keeps
them (:attr:`kobook.model.Chapter.origins`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

Origin = tuple[Path, int]  # a file and a 1-based line in it


@dataclass(frozen=True)
class Lines:
    """``text`` with ``origins[i]`` the origin of its line ``i`` (0-based).

    There is always one more origin than newlines.  Rewrites go through
    :meth:`sub`, which keeps the origins of untouched text and gives the lines
    of a replacement the origins of the lines they replace.
    """

    text: str
    origins: tuple[Origin, ...]

    @classmethod
    def of(cls, text: str, path: Path, first_line: int = 1) -> Lines:
        """A file's text (or part of it starting at ``first_line``)."""
        count = text.count("\n") + 1
        return cls(text, tuple((path, first_line + i) for i in range(count)))

    @classmethod
    def join(cls, parts: Iterable[Lines], separator: str = "\n\n") -> Lines:
        """Several texts one after the other; separator lines take the next part's first origin."""
        texts: list[str] = []
        origins: list[Origin] = []
        gaps = separator.count("\n")
        for part in parts:
            if texts:
                texts.append(separator)
                origins.extend([part.origins[0]] * gaps)
                origins.extend(part.origins[1:])
            else:
                origins.extend(part.origins)
            texts.append(part.text)
        if not texts:
            return cls("", ())
        return cls("".join(texts), tuple(origins))

    def origin(self, offset: int) -> Origin:
        """The origin of the line holding character ``offset``."""
        line = self.text.count("\n", 0, max(0, min(offset, len(self.text))))
        return self.origins[min(line, len(self.origins) - 1)]

    def sub(self, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str]) -> Lines:
        """Each match of ``pattern`` replaced by ``replace(match)``, origins kept (:meth:`edit`)."""
        edits = []
        for match in pattern.finditer(self.text):
            new = replace(match)
            if new != match.group(0):
                edits.append((match.start(), match.end(), new))
        return self.edit(edits)

    def edit(self, edits: Iterable[tuple[int, int, str]]) -> Lines:
        """``text[start:end]`` replaced by ``new`` for each edit, origins kept.

        An edit with as many lines as the text it replaces maps line to line;
        any other gives all its lines the origin of its first line (that is
        where a message about it should point), and the text after it keeps
        the origin of the line it continues.  An edit overlapping an earlier
        one is skipped.
        """
        ordered = sorted(edits, key=lambda e: (e[0], e[1]))
        if not ordered:
            return self
        text = self.text
        starts = line_starts(text)
        pieces: list[str] = []
        origins: list[Origin] = [self.origins[0]] if self.origins else []
        done = 0

        def line_of(offset: int) -> int:
            return bisect.bisect_right(starts, offset) - 1

        def copy(start: int, end: int) -> None:
            pieces.append(text[start:end])
            first = line_of(start)
            newlines = text.count("\n", start, end)
            origins.extend(self.origins[first + 1 : first + 1 + newlines])

        for start, end, new in ordered:
            if start < done:
                continue
            copy(done, start)
            pieces.append(new)
            first = line_of(start)
            new_lines = new.count("\n")
            if text.count("\n", start, end) == new_lines:
                origins.extend(self.origins[first + 1 : first + 1 + new_lines])
            else:
                origins.extend([self.origins[first]] * new_lines)
                if new_lines:
                    origins[-1] = self.origins[line_of(end)]
            done = end
        copy(done, len(text))
        return Lines("".join(pieces), tuple(origins))

    def map_lines(self, change: Callable[[str, Origin], str | None]) -> Lines:
        """Each line through ``change`` (None drops it); a result with newlines keeps the origin."""
        texts: list[str] = []
        origins: list[Origin] = []
        for line, origin in zip(self.text.split("\n"), self.origins, strict=True):
            new = change(line, origin)
            if new is None:
                continue
            texts.append(new)
            origins.extend([origin] * (new.count("\n") + 1))
        return Lines("\n".join(texts), tuple(origins))


def line_starts(text: str) -> list[int]:
    """Offsets where each line of ``text`` starts."""
    return [0] + [m.end() for m in re.finditer("\n", text)]
