"""A Markdown file split into prose spans, with line/column lookup and suppressions."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from .fences import as_commonmark
from .inline import mask_inline

# Blocks whose text is never prose.
CODE_BLOCKS = {
    "fence",
    "code_block",
    "html_block",
    "front_matter",
    "math_block",
    "math_block_label",
    "hr",
}
IGNORE = re.compile(r"<!--\s*kobook-ignore\s*([A-Z0-9 ,]*)-->")
DIV_FENCE = re.compile(r"^[ \t]*:{3,}.*$", re.M)
TABLE_RULE = re.compile(
    r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$", re.M
)
BLANK_LINE = re.compile(r"\n[ \t]*(?=\n)")
LINK_DEFINITION = re.compile(r"^ {0,3}\[(?!\^)[^\]]+\]:[ \t]*\S.*$", re.M)
# A dialect's block markers, title and all: MkDocs admonitions (``!!! note "참고"``,
# collapsible ``???``/``???+``) and content tabs (``=== "탭"``).  MkDocs needs their
# straight quotes: ``--fix`` curled them (KO007) and the admonition became a paragraph.
DIALECT_MARKER = re.compile(r"^[ \t]*(?:!!!|\?\?\?\+?|===)[ \t]+\S.*$", re.M)
LINE = re.compile(r"[^\n]*(?:\n|$)")


@dataclass
class Block:
    """A paragraph-like block: its kind, first and last line (0-based, exclusive)."""

    kind: str
    start_line: int
    end_line: int
    ignore: frozenset[str] | None = None  # rules suppressed here (empty set: all)


@dataclass
class SourceDoc:
    """One Markdown source: the text, the prose spans, blocks and where lines start."""

    path: Path | None
    text: str
    spans: list[tuple[int, int]] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    line_starts: list[int] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    _paragraph_ends: list[int] = field(default_factory=list, repr=False)

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset."""
        index = bisect.bisect_right(self.line_starts, offset) - 1
        return index + 1, offset - self.line_starts[index] + 1

    def line_offset(self, line: int) -> int:
        """Offset of the start of a 0-based line."""
        if line >= len(self.line_starts):
            return len(self.text)
        return self.line_starts[line]

    def suppressed(self, rule: str, offset: int) -> bool:
        """True when a ``<!-- kobook-ignore -->`` comment covers ``offset`` for ``rule``."""
        line = self.position(offset)[0] - 1
        for block in self.blocks:
            inside = block.ignore is not None and block.start_line <= line < block.end_line
            if inside and (not block.ignore or rule in block.ignore):
                return True
        return False

    def prose(self) -> list[tuple[int, str]]:
        """``(offset, text)`` of every prose span."""
        return [(start, self.text[start:end]) for start, end in self.spans]

    def paragraph_prose(self, offset: int) -> str:
        """The prose of the paragraph (text between blank lines) holding ``offset``.

        Language-aware rules ask it which language a finding's text is in.
        """
        if not self._paragraph_ends:
            ends = [m.start() for m in BLANK_LINE.finditer(self.text)]
            self._paragraph_ends = [*ends, len(self.text)]
        index = bisect.bisect_left(self._paragraph_ends, offset)
        end = self._paragraph_ends[min(index, len(self._paragraph_ends) - 1)]
        start = self._paragraph_ends[index - 1] if index > 0 else 0
        first = bisect.bisect_right(self.spans, (start, -1))
        parts = []
        for span_start, span_end in self.spans[max(first - 1, 0) :]:
            if span_start >= end:
                break
            if span_end > start:
                parts.append(self.text[max(span_start, start) : min(span_end, end)])
        return " ".join(parts)


def markdown_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True})
    md.enable("table")
    md.use(front_matter_plugin)
    md.use(dollarmath_plugin, allow_space=True, double_inline=True)
    md.use(footnote_plugin)
    return md


_PARSER: MarkdownIt | None = None


def parser() -> MarkdownIt:
    global _PARSER
    if _PARSER is None:
        _PARSER = markdown_parser()
    return _PARSER


def line_starts(text: str) -> list[int]:
    starts = [0]
    for match in re.finditer("\n", text):
        starts.append(match.end())
    return starts


def parse_source(text: str, path: Path | None = None) -> SourceDoc:
    """Find the prose of ``text`` (see the package docstring)."""
    doc = SourceDoc(path=path, text=text, line_starts=line_starts(text))
    tokens = parser().parse(as_commonmark(text))
    doc.tokens = tokens
    blocked = [False] * (len(doc.line_starts) + 1)

    def block_lines(start: int, end: int) -> None:
        for line in range(start, min(end, len(blocked))):
            blocked[line] = True

    pending_ignore: frozenset[str] | None = None
    depth_stack: list[Token] = []
    # Inline syntax never crosses a block: a stray backtick in one paragraph must not
    # pair with the opening one of a code span in the next.  Each inline token (a
    # paragraph, heading, table cell's row) and each stretch between blank lines is
    # masked on its own.
    breaks: set[int] = set()
    blank: set[int] = set()
    for index, each in enumerate(LINE.finditer(text)):
        if not each.group(0).strip(" \t\r\n"):
            blank.add(index)
            breaks.update((index, index + 1))
    # Lines with text that no inline token holds are syntax: reference definitions
    # (their URL and title may sit on the lines after ``[ref]:``) and the like.
    inline_lines: set[int] = set()
    for token in tokens:
        if token.type == "inline" and token.map:
            breaks.update(token.map)
            inline_lines.update(range(*token.map))
    for line in range(len(doc.line_starts)):
        if line not in inline_lines and line not in blank:
            block_lines(line, line + 1)
    for token in tokens:
        if token.type in CODE_BLOCKS and token.map:
            block_lines(*token.map)
            if token.type == "html_block":
                match = IGNORE.search(token.content)
                if match:
                    names = re.split(r"[\s,]+", match.group(1).strip())
                    pending_ignore = frozenset(n for n in names if n)
            continue
        if token.nesting == 1:
            depth_stack.append(token)
        elif token.nesting == -1 and depth_stack:
            depth_stack.pop()
        # The suppression applies to the next top-level block.
        if token.nesting == 1 and token.level == 0 and token.map:
            doc.blocks.append(
                Block(token.type.removesuffix("_open"), token.map[0], token.map[1], pending_ignore)
            )
            pending_ignore = None
    # Syntax-only lines inside prose blocks: fenced div markers, table rules, link definitions,
    # a dialect's block markers.
    for pattern in (DIV_FENCE, TABLE_RULE, LINK_DEFINITION, DIALECT_MARKER):
        for match in pattern.finditer(text):
            line = doc.position(match.start())[0] - 1
            block_lines(line, line + 1)
    # Prose spans: unblocked lines, minus inline syntax.
    line_count = len(doc.line_starts)
    line = 0
    while line < line_count:
        if blocked[line]:
            line += 1
            continue
        first = line
        line += 1
        while line < line_count and not blocked[line] and line not in breaks:
            line += 1
        start = doc.line_offset(first)
        end = doc.line_offset(line) if line < line_count else len(text)
        for span_start, span_end in mask_inline(text, start, end):
            if span_end > span_start:
                doc.spans.append((span_start, span_end))
    doc.spans = without_open_comments(text, doc.spans)
    return doc


def without_open_comments(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` minus HTML comments that run past their block.

    pandoc reads ``글 <!-- 원문\n\n원문 -->`` as one paragraph holding one
    comment; markdown-it (and so each block's masking) sees two paragraphs.
    """
    out: list[tuple[int, int]] = []
    cut_until = -1
    for start, end in spans:
        start = max(start, cut_until)
        while start < end:
            opening = text.find("<!--", start, end)
            closing = text.find("-->", opening + 4) if opening >= 0 else -1
            if closing < 0:
                out.append((start, end))
                break
            if opening > start:
                out.append((start, opening))
            cut_until = start = closing + 3
    return out
