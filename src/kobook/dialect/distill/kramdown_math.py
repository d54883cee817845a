r"""kramdown's ``$$``: display math only as a paragraph of its own.

kramdown has one math delimiter, ``$$``.  A ``$$…$$`` that is its paragraph's
only content (after a list or quote marker) is display math; anywhere else,
inside a sentence, it is inline math.  pandoc reads every ``$$…$$`` as display
math, so the inline ones become ``$…$`` (pandoc's inline math: no space inside
the dollars).  The TeX inside is never touched (``\\[0.5em]``,
``\begin{align*}``); code was masked before this runs.

A single ``$`` is no math delimiter to kramdown: ``$\\{U_Y\\}$`` is text, its
Markdown escapes are undone (``\\`` → ``\``), and MathJax reads ``$\{U_Y\}$``
in the page.  pandoc reads ``$…$`` as math verbatim, so inside it kramdown's
escapes are undone here: the formula built is the formula the site shows.
"""

from __future__ import annotations

import re

from ...model.origins import Lines
from ...source.inline import math_span
from .. import Report
from .edits import Edit, apply_edits, where

# kramdown's escapable characters (ESCAPED_CHARS): ``\\x`` is ``x`` outside ``$$`` math.
ESCAPE = re.compile(r"\\([\\.*_+`<>()\[\]{}#!:|\"'$=-])")
PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
BLANK_LINE = re.compile(r"\n[ \t]*(?=\n)")
MARKERS = re.compile(r"^(?:[ \t]*(?:>|[-*+]|\d+[.)])(?=[ \t]))*[ \t]*")


def math_spans(paragraph: str) -> list[tuple[int, int]] | None:
    """``(start, end)`` of each ``$$…$$`` of a paragraph; None when a ``$$`` is left open."""
    spans: list[tuple[int, int]] = []
    index = 0
    while True:
        start = find_dollars(paragraph, index)
        if start < 0:
            return spans
        end = find_dollars(paragraph, start + 2)
        if end < 0:
            return None
        spans.append((start, end + 2))
        index = end + 2


def find_dollars(text: str, start: int) -> int:
    """The next ``$$`` not escaped as ``\\$``."""
    index = text.find("$$", start)
    while index > 0 and text[index - 1] == "\\":
        index = text.find("$$", index + 1)
    return index


def is_display(paragraph: str, spans: list[tuple[int, int]]) -> bool:
    """True when the paragraph is nothing but its ``$$…$$`` (kramdown's math block)."""
    rest = []
    done = 0
    for start, end in spans:
        rest.append(paragraph[done:start])
        done = end
    rest.append(paragraph[done:])
    leftover = "".join(rest)
    return bool(spans) and not MARKERS.sub("", leftover, count=1).strip()


def join_blocks(lines: Lines) -> Lines:
    """Blank lines inside a ``$$`` math block dropped (pandoc would end the math there)."""
    text = lines.text
    edits = []
    for start, end in math_blocks(text):
        for blank in BLANK_LINE.finditer(text, start, end):
            edits.append(Edit(blank.start(), blank.end(), ""))
    return apply_edits(lines, edits)


def math_blocks(text: str) -> list[tuple[int, int]]:
    """Spans of the ``$$`` math blocks holding blank lines (kramdown allows them).

    A block opens with ``$$`` at the start of a line (after list or quote
    markers) and closes with ``$$`` at the end of one; ``$$`` pairs are taken in
    order, and an inline one never crosses a blank line.
    """
    found: list[tuple[int, int]] = []
    index = 0
    while True:
        start = find_dollars(text, index)
        end = find_dollars(text, start + 2) if start >= 0 else -1
        if end < 0:
            return found
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end + 2)
        opens_line = not MARKERS.sub("", text[line_start:start], count=1).strip()
        closes_line = not text[end + 2 : len(text) if line_end < 0 else line_end].strip()
        blank = PARAGRAPH_BREAK.search(text, start, end) is not None
        if opens_line and closes_line:
            if blank:
                found.append((start, end + 2))
            index = end + 2
        else:
            index = start + 2 if blank else end + 2


def single_dollar_escapes(lines: Lines, report: Report) -> Lines:
    """Inside pandoc's ``$…$`` math (not ``$$``), kramdown's Markdown escapes undone."""
    text = lines.text
    edits = []
    index = text.find("$")
    while index >= 0:
        if text.startswith("$$", index):
            close = find_dollars(text, index + 2)
            index = text.find("$", close + 2) if close >= 0 else -1
            continue
        if index > 0 and text[index - 1] == "\\":
            index = text.find("$", index + 1)
            continue
        stop = PARAGRAPH_BREAK.search(text, index)
        end = math_span(text, index, stop.start() if stop else len(text))
        if end is None:
            index = text.find("$", index + 1)
            continue
        inner = text[index + 1 : end - 1]
        unescaped = ESCAPE.sub(r"\1", inner)
        if unescaped != inner:
            edits.append(Edit(index + 1, end - 1, unescaped))
            report.count("math-unescaped")
        index = text.find("$", end)
    return apply_edits(lines, edits)


def convert(lines: Lines, report: Report) -> Lines:
    """Inline ``$$…$$`` → ``$…$``; display ones counted and kept (DIA140 for an open ``$$``)."""
    lines = single_dollar_escapes(join_blocks(lines), report)
    text = lines.text
    edits = []
    bounds = [0] + [m.end() for m in PARAGRAPH_BREAK.finditer(text)]
    ends = [m.start() for m in PARAGRAPH_BREAK.finditer(text)] + [len(text)]
    for start, end in zip(bounds, ends, strict=True):
        paragraph = text[start:end]
        if "$$" not in paragraph:
            continue
        spans = math_spans(paragraph)
        if spans is None:
            report.cannot(
                "DIA140",
                "$$ opens math that no $$ closes in this paragraph (left as it is)",
                where(lines, start + find_last_open(paragraph)),
                "close the math with $$ (a blank line ends a paragraph and its math)",
            )
            continue
        if is_display(paragraph, spans):
            report.count("math-display", len(spans))
            continue
        for math_start, math_end in spans:
            inner = paragraph[math_start + 2 : math_end - 2].strip()
            if not inner:
                continue
            edits.append(Edit(start + math_start, start + math_end, f"${inner}$"))
            report.count("math-inline")
    return apply_edits(lines, edits)


def find_last_open(paragraph: str) -> int:
    """Where the unclosed ``$$`` of a paragraph is."""
    index, last = 0, 0
    while True:
        found = find_dollars(paragraph, index)
        if found < 0:
            return last
        last = found
        index = found + 2
