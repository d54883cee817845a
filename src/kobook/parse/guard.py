"""What pandoc must not be given, found in the source before it runs (LIMIT001/2/5).

A few hundred bytes of Markdown can keep pandoc busy for hours or make the
AST too deep for Python: ``'> ' * 250`` raised ``RecursionError``, 10⁵
nested quotes or list items kept pandoc running (its work grows with the
square of the depth), and ``'[' * 20`` takes pandoc 100 s (each ``[`` is tried
as a link, and every failed try parses the rest of the paragraph again).  So
each chapter is scanned line by line first, outside fenced code, for

* how deeply block quotes, list items and ``:::`` divs nest (LIMIT001),
* how many ``[`` are open at once in a paragraph (LIMIT002),
* and the book's footnotes are counted (LIMIT005),

with the file and line of the first place past the limit.  The scan is
deliberately simple and errs on the side of counting too much, far below
the limits of ``limits.py``; after parsing, :func:`check_depth` measures the
real depth of the AST, the last word for what the scan cannot see.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import limits
from ..errors import KobookError
from ..model import Chapter

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
# One container marker: a quote's ">", or a list item's bullet or number and its space.
MARKER = re.compile(r"[ \t]*(?:>|(?:[-+*]|\d{1,9}[.)]|#[.)]|[a-zA-Z][.)]|\(\w{1,9}\))(?=[ \t]|$))")
DIV_FENCE = re.compile(r"^ {0,3}(:{3,})[ \t]*(\S*)")
# A line that starts a block of its own: a heading, a table row, a list item.
OWN_BLOCK = re.compile(r"[ \t]*(?:#|\||\+[-=])")
# Where the bracket scan has something to do.
SPECIAL = re.compile(r"\\.|`+|\$\$|\$|\[|\]")
NOTE = re.compile(r"\[\^[^\]\s]+\](?!:)|\^\[")
TAG = re.compile(r"<(/?)([A-Za-z][\w-]*)(?:\s[^<>]*?)?(/?)>")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
VOID |= {"track", "wbr", "param", "keygen"}
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1(?!`)")


@dataclass(frozen=True)
class Line:
    """A line of a chapter outside fenced code: its number in the chapter and its text."""

    number: int  # 1-based, in the chapter's text
    text: str


def prose_lines(text: str) -> Iterator[Line]:
    """The lines of ``text`` outside fenced code blocks (``` and ~~~), numbered from 1."""
    fence = ""
    for number, line in enumerate(text.split("\n"), 1):
        match = FENCE.match(line)
        if fence:
            if match and match.group(1).startswith(fence) and not match.group(2).strip():
                fence = ""
            continue
        if match and not (match.group(1)[0] == "`" and "`" in match.group(2)):
            fence = match.group(1)[0] * len(match.group(1))
            continue
        yield Line(number, line)


def markers(line: str) -> tuple[int, str, list[int]]:
    """How many container markers start ``line``, the rest, and where each marker starts.

    Leading indentation before a list item counts one level per two columns
    (``"    - c"`` is the third level of an indented list); the positions are
    0-based columns of the markers actually written.  Linear in the line's
    length: a line may hold 10⁵ markers.
    """
    starts: list[int] = []
    pos = 0
    rule = rule_start(line)
    while pos < rule:
        match = MARKER.match(line, pos)
        if match is None:
            break
        start = match.end() - len(match.group(0).lstrip(" \t"))
        if start >= rule:
            break  # "- - -" and "* * *" are rules, not lists
        starts.append(start)
        pos = match.end()
    count = len(starts)
    if count and line[starts[0]] != ">":
        count += len(line[: starts[0]].expandtabs(4)) // 2
    return count, line[pos:], starts


def rule_start(line: str) -> int:
    """Where a thematic break (``- - -``, ``***``) ending ``line`` starts, else its length."""
    end = len(line.rstrip(" \t"))
    if end == 0 or line[end - 1] not in "-*_":
        return len(line)
    char = line[end - 1]
    start = end
    while start > 0 and line[start - 1] in (char, " ", "\t"):
        start -= 1
    while line[start] in " \t":
        start += 1
    return start if line.count(char, start, end) >= 3 else len(line)


def check_nesting(text: str, path: Path | None, line_offset: int = 0) -> None:
    """LIMIT001 at the first line nesting quotes, lists and divs deeper than the limit."""
    divs = 0
    for line in prose_lines(text):
        count, rest, starts = markers(line.text)
        fence = DIV_FENCE.match(rest)
        if fence:
            if fence.group(2):
                divs += 1
            elif divs:
                divs -= 1
                continue
        depth = divs + count
        if depth > limits.MAX_NESTING:
            # The column of the first marker past the limit (indentation levels come first).
            past = limits.MAX_NESTING - divs - (count - len(starts))
            col = starts[past] if 0 <= past < len(starts) else (starts or [0])[0]
            raise KobookError(
                f"block quotes, lists and divs nest {depth} deep here "
                f"(at most {limits.MAX_NESTING})",
                code="LIMIT001",
                file=path,
                line=line_offset + line.number,
                col=col + 1,
                hint="no book needs this: flatten the nesting (it is refused before "
                "pandoc runs, since pandoc and the writers slow down or fail on it)",
            )


def check_brackets(text: str, path: Path | None, line_offset: int = 0) -> None:
    """LIMIT002 at the ``[`` that opens one bracket too many in a paragraph.

    An unclosed ``[`` counts as open until the paragraph ends; code spans,
    math and escaped brackets do not count.
    """
    depth = 0
    display_math = False
    for line in prose_lines(text):
        count, rest, _ = markers(line.text)
        col = len(line.text) - len(rest)
        if not rest.strip():
            depth = 0  # a blank line ends the paragraph
            display_math = False
            continue
        if (count and not line.text.lstrip().startswith(">")) or OWN_BLOCK.match(rest):
            depth = 0  # and so does a new list item, heading or table row
        index = 0
        while True:
            match = SPECIAL.search(rest, index)
            if match is None:
                break
            token = match.group(0)
            index = match.end()
            if token == "$$":
                display_math = not display_math
            elif display_math or token.startswith("\\"):
                continue
            elif token.startswith("`"):
                span_end = re.compile(f"(?<!`){token}(?!`)").search(rest, index)
                index = span_end.end() if span_end else index
            elif token == "$":
                close = rest.find("$", index)
                inner = rest[index:close] if close > index else ""
                if inner and not inner[0].isspace() and not inner[-1].isspace():
                    index = close + 1
            elif token == "]":
                depth = max(depth - 1, 0)
            else:
                depth += 1
                if depth > limits.MAX_BRACKET_DEPTH:
                    raise KobookError(
                        f"{depth} '[' are open at once in this paragraph "
                        f"(at most {limits.MAX_BRACKET_DEPTH}; an unclosed '[' stays open "
                        "to the end of the paragraph)",
                        code="LIMIT002",
                        file=path,
                        line=line_offset + line.number,
                        col=col + match.start() + 1,
                        hint="close the brackets, write a literal one as \\[ , or put "
                        "intervals such as [0, 1) in math ($[0, 1)$): pandoc's time "
                        "doubles with each one",
                    )


def check_book(chapters: list[Chapter]) -> None:
    """Every check of this module over a whole book, chapter by chapter in reading order.

    The build runs it right after loading: the build-time fixes already parse
    the text (and may ask pandoc), so nothing later may see what is refused here.
    """
    for chapter in chapters:
        check_source(chapter)
    check_footnotes(chapters)


def check_source(chapter: Chapter) -> None:
    """Refuse a chapter pandoc should not parse (LIMIT001, LIMIT002), with file:line."""
    check_text(chapter.text, chapter.path, chapter.line_offset)


def check_text(text: str, path: Path | None, line_offset: int = 0) -> None:
    """:func:`check_source` for any Markdown text (``line_offset``: lines before it)."""
    check_nesting(text, path, line_offset)
    check_brackets(text, path, line_offset)


def check_footnotes(chapters: list[Chapter]) -> None:
    """LIMIT005 at the first footnote past :data:`~kobook.limits.MAX_FOOTNOTES` in the book.

    References (``[^1]``) and inline notes (``^[...]``) outside code are counted.
    """
    total = 0
    for chapter in chapters:
        if "^" not in chapter.text:
            continue
        for line in prose_lines(chapter.text):
            if "^" not in line.text:
                continue
            prose = CODE_SPAN.sub("", line.text)
            for match in NOTE.finditer(prose):
                total += 1
                if total > limits.MAX_FOOTNOTES:
                    raise KobookError(
                        f"more than {limits.MAX_FOOTNOTES} footnotes in the book; "
                        "this is the first one past the limit",
                        code="LIMIT005",
                        file=chapter.path,
                        line=chapter.source_line(line.number),
                        col=match.start() + 1 if prose == line.text else 0,
                        hint="each footnote costs the PDF engine about 40 ms: turn "
                        "some into text or references, or build the book in parts",
                    )


def depth_of(blocks: list[Any]) -> tuple[int, Any]:
    """The deepest nesting of pandoc elements in ``blocks`` and the deepest element.

    Elements opened by raw HTML (``<b>``, ``<blockquote>``: pandoc keeps them
    as raw text) count too, since the PDF engine nests them all the same.
    Iterative: it must work on exactly the documents that are too deep to recurse over.
    """
    deepest: tuple[int, Any] = (0, None)
    html_open = 0  # raw HTML elements open at this point of the document
    stack: list[tuple[Any, int]] = [(blocks, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if "t" in item:
                depth += 1
                if item["t"] in ("RawBlock", "RawInline") and item["c"][0] == "html":
                    html_open = max(html_open + html_nesting(item["c"][1]), 0)
                if depth + html_open > deepest[0]:
                    deepest = (depth + html_open, item)
            stack.extend((value, depth) for value in reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend((value, depth) for value in reversed(item))
    return deepest


def html_nesting(html: str) -> int:
    """How many more HTML elements are open after ``html`` than before (can be negative)."""
    change = 0
    for match in TAG.finditer(html):
        closing, name, self_closing = match.groups()
        if closing:
            change -= 1
        elif not self_closing and name.lower() not in VOID:
            change += 1
    return change


def deeper_than(blocks: list[Any], limit: int) -> bool:
    """Whether any element of ``blocks`` stands deeper than ``limit`` (counted as
    :func:`depth_of` counts).  Recursive, and it stops at the first element past the
    limit, so it never recurses much deeper than ``limit``; a few times quicker than
    :func:`depth_of`, which is asked for the depth only when this says it is too deep."""
    html_open = 0

    def deeper(value: Any, depth: int) -> bool:
        nonlocal html_open
        if type(value) is list:
            for item in value:  # noqa: SIM110 - any() of a generator: 3x slower, 2x deeper
                if type(item) is not str and deeper(item, depth):
                    return True
            return False
        if type(value) is not dict:
            return False
        if "t" in value:
            depth += 1
            if value["t"] in ("RawBlock", "RawInline") and value["c"][0] == "html":
                html_open = max(html_open + html_nesting(value["c"][1]), 0)
            if depth + html_open > limit:
                return True
        for item in value.values():  # noqa: SIM110 - as above
            if type(item) is not str and deeper(item, depth):
                return True
        return False

    return deeper(blocks, 0)


def check_depth(blocks: list[Any], chapter: Chapter) -> None:
    """LIMIT001 when the parsed chapter nests deeper than every stage can follow."""
    if not deeper_than(blocks, limits.MAX_AST_DEPTH):
        return
    depth, node = depth_of(blocks)
    location = None
    raw = node["c"][1] if node["t"] in ("RawBlock", "RawInline") else ""
    words = [raw] if raw else [n["c"] for n in _strings(node)]
    for word in words[:3]:
        location = chapter.locate(word)
        if location is not None:
            break
    raise KobookError(
        f"the text nests {depth} elements deep (quotes, lists, divs, emphasis, links, "
        f"spans inside each other; at most {limits.MAX_AST_DEPTH})",
        code="LIMIT001",
        file=chapter.path,
        line=location.line if location else chapter.source_line(1),
        col=location.col if location else 0,
        hint="flatten the deepest nesting (raw <div>s, emphasis or spans inside each other)",
    )


def _strings(node: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    stack = [node]
    while stack and len(found) < 3:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("t") == "Str":
                found.append(item)
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return found
