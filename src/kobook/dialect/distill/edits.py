"""Small rewrites of a chapter's :class:`Lines` that keep every line's origin.

``Lines.sub`` replaces whole matches; a ``<div markdown=1>`` … ``</div>`` pair
is better rewritten as two small edits (the opening tag, the closing tag) so
the lines between keep their own origins (``Lines.edit``, the rule both use).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors import Location
from ...model.origins import Lines


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` by ``new``."""

    start: int
    end: int
    new: str


def apply_edits(lines: Lines, edits: list[Edit]) -> Lines:
    """``lines`` with non-overlapping ``edits`` applied, origins kept (:meth:`Lines.edit`)."""
    return lines.edit((e.start, e.end, e.new) for e in edits)


def where(lines: Lines, offset: int) -> Location:
    """The file, line and column that character ``offset`` of ``lines`` came from."""
    path, line = lines.origin(offset)
    start = lines.text.rfind("\n", 0, offset) + 1
    return Location(path, line, offset - start + 1)


def line_bounds(text: str, start: int, end: int) -> tuple[str, str]:
    """The text before ``start`` on its line and after ``end`` on its line."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return text[line_start:start], text[end : len(text) if line_end < 0 else line_end]


def as_block(text: str, start: int, end: int, block: str) -> str:
    """``block`` (one or more lines) as a paragraph of its own in place of ``text[start:end]``.

    Blank lines are added where the neighbouring text would otherwise run into
    it; the indentation of the line it stands on is repeated (inside a list
    item the block stays in the item).
    """
    before, after = line_bounds(text, start, end)
    indent = before if not before.strip() else re.match(r"[ \t]*", before).group(0)  # type: ignore[union-attr]
    body = block.replace("\n", "\n" + indent) if indent else block
    head = ""
    if before.strip():
        head = "\n\n" + indent
    elif start - len(before) > 0 and not previous_line_blank(text, start - len(before)):
        head = "\n" + indent
    tail = ""
    if after.strip():
        tail = "\n\n" + indent
    elif not next_line_blank(text, end + len(after)):
        tail = "\n"
    return head + body + tail


def previous_line_blank(text: str, line_start: int) -> bool:
    """True when the line before the one starting at ``line_start`` is blank (or none)."""
    if line_start <= 0:
        return True
    prev_start = text.rfind("\n", 0, line_start - 1) + 1
    return not text[prev_start : line_start - 1].strip()


def next_line_blank(text: str, line_end: int) -> bool:
    """True when the line after the one ending at ``line_end`` is blank (or none)."""
    if line_end >= len(text):
        return True
    following = text.find("\n", line_end + 1)
    return not text[line_end + 1 : len(text) if following < 0 else following].strip()
