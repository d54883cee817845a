"""Code blocks: language names the highlighter lacks mapped to close ones, and long lines
wrapped at token boundaries to the columns a page has (and back, for copying)."""

from __future__ import annotations

import unicodedata
from typing import Any

from ....parse.ast import acts_on, iter_nodes
from .base import Blocks
from .words import glued

CODE_ALIASES = {
    "cuda": "cpp",
    "cu": "cpp",
    "c++": "cpp",
    "sh": "bash",
    "shell": "bash",
    "zsh": "bash",
    "console": "bash",
    "py": "python",
    "python3": "python",
    "yml": "yaml",
}


def code_languages(blocks: Blocks) -> Blocks:
    """Map language names pandoc's highlighter lacks (``cuda``) to close ones (``cpp``)."""
    for node in iter_nodes(blocks):
        code_language(node)
    return blocks


@acts_on("CodeBlock")
def code_language(node: dict[str, Any]) -> None:
    """:func:`code_languages` of one node, in place (an action that replaces nothing)."""
    if node["t"] == "CodeBlock":
        classes = node["c"][0][1]
        for name in list(classes):
            alias = CODE_ALIASES.get(name.lower())
            if alias and alias not in classes:
                classes.insert(0, alias)


# --- Code blocks: wrap long lines at token boundaries, with a continuation mark -------------

CONTINUATION = "\u21aa"  # ↪, drawn at the start of a continuation line, inside the box
# A line may break after these (and at a space); never inside a name or number.
BREAK_AFTER_CODE = frozenset(",.;([{=+-*/%&|<>:")
# Marks that may also start a token (a flag, a negative number, ``*args``): a break after
# them only where they stand between two operands.
SIGNS = frozenset("+-*")


def code_width(text: str) -> int:
    """Columns ``text`` takes in a monospace font: wide (Hangul, CJK) characters count 2."""

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def code_break(text: str, end: int) -> bool:
    """Whether a code line may break before ``text[end]``: at a space, after ``,`` ``(`` etc.

    Not where a Korean word meets a bracket or Latin text (:func:`glued`), not
    inside a run of marks (``--``, ``->``, ``==``, ``**``) and not after a sign
    that starts a token (``--nproc_per_node``, ``-1``, ``*args``): those belong to
    the word after them; nor inside a number (``1.0e-4``); nor after a bracket that
    opens a group after a space (``10층 (80층 모델)``: it goes with the group, the
    break falls at the space before it).
    """
    if not text[:end].strip():
        return False
    char = text[end - 1]
    following = text[end : end + 1]
    if following == " " or char == " ":
        return True
    if glued(char, following):
        return False  # a Korean word in a comment keeps its bracket: 값(브로드캐스트)
    if char not in BREAK_AFTER_CODE or following in BREAK_AFTER_CODE:
        return False
    before = text[end - 2 : end - 1]
    if char == "." and following.isdigit():
        return False  # 1.0e-4
    if char in SIGNS:
        return before.isalnum() or before in ("_", ")", "]", "}", "'", '"')
    return not (char in "([{" and before in ("", " "))


def wrap_code_line(line: str, columns: int) -> list[str]:
    """``line`` cut into pieces of at most ``columns`` columns at token boundaries.

    Breaks fall at a space or after ``,`` ``.`` ``(`` and operators, never inside a
    name; continuation pieces carry the line's indent, two more spaces and ``↪ ``.
    Only a token longer than a whole line is cut inside.  Joining the pieces
    without their continuation prefixes gives the line back (spaces at a break
    stay at the end of the piece before it).
    """
    if columns < 12 or code_width(line) <= columns:
        return [line]
    indent = line[: len(line) - len(line.lstrip(" "))]
    prefix = indent + "  " + CONTINUATION + " "
    pieces: list[str] = []
    rest = line
    room = columns
    while code_width(rest) > room:
        cut = 0
        used = 0
        for index, char in enumerate(rest):
            used += code_width(char)
            if used > room:
                break
            end = index + 1
            if code_break(rest, end):
                cut = end
        if cut == 0 or (not pieces and cut <= len(indent)):
            cut = max(1, index)  # one token longer than a line: cut it
        while cut < len(rest) and rest[cut] == " ":
            cut += 1
        pieces.append(rest[:cut])
        rest = rest[cut:]
        room = columns - code_width(prefix)
    pieces.append(rest)
    return [pieces[0]] + [prefix + piece for piece in pieces[1:]]


def unwrap_code_lines(lines: list[str]) -> list[str]:
    """The source lines back from wrapped ones (the inverse of :func:`wrap_code_line`)."""
    out: list[str] = []
    for line in lines:
        stripped = line.lstrip(" ")
        if out and stripped.startswith(CONTINUATION + " "):
            out[-1] += stripped[2:]
        else:
            out.append(line)
    return out


def wrap_code(blocks: Blocks, columns: int) -> Blocks:
    """Every code block's long lines wrapped to ``columns`` (see :func:`wrap_code_line`).

    The writer knows the box's width in characters from the page geometry and
    the code font size; the rule is the same for every engine.  Changes
    ``blocks`` in place and returns them.
    """
    for node in iter_nodes(blocks):
        if node["t"] == "CodeBlock":
            text = node["c"][1]
            lines = [p for line in text.split("\n") for p in wrap_code_line(line, columns)]
            node["c"][1] = "\n".join(lines)
    return blocks
