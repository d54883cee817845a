"""KO010: bold or italic that GitHub/CommonMark shows as literal asterisks.

pandoc's markdown reads ``**커널(kernel)**이라고`` and ``**“강조”**를`` as bold;
CommonMark does not, because a closing ``**`` after punctuation must be
followed by a space or punctuation (the "flanking" rules).  A repository that is
also read on GitHub shows the asterisks.  Reported with the reason; with
``check: {fix-emphasis: true}`` the quotes or the parenthesis move outside
the markers (``“**강조**”를``, ``**커널**(kernel)이라고``), which both read as bold.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from ..source import SourceDoc
from .model import Finding, Settings

SPAN = re.compile(r"(?<![*\\])(\*\*|__)(?=\S)((?:\\.|[^\\\n])+?)(?<=\S)\1(?!\*)")
QUOTES = {"“": "”", "‘": "’", '"': '"', "'": "'", "「": "」", "『": "』"}


def punctuation(char: str) -> bool:
    return bool(char) and unicodedata.category(char)[0] in "PS"


def left_flanking(before: str, after: str) -> bool:
    if not after or after.isspace():
        return False
    return not punctuation(after) or not before or before.isspace() or punctuation(before)


def right_flanking(before: str, after: str) -> bool:
    if not before or before.isspace():
        return False
    return not punctuation(before) or not after or after.isspace() or punctuation(after)


def commonmark_reads(text: str, start: int, end: int, marker: str) -> bool:
    """Would CommonMark read ``text[start:end]`` (``**…**``) as emphasis?"""
    size = len(marker)
    open_before = text[start - 1 : start] if start else ""
    open_after = text[start + size : start + size + 1]
    close_before = text[end - size - 1 : end - size]
    close_after = text[end : end + 1]
    can_open = left_flanking(open_before, open_after)
    can_close = right_flanking(close_before, close_after)
    if marker == "__":  # underscores also need no letter on the outside
        can_open = can_open and not (open_before.isalnum())
        can_close = can_close and not (close_after.isalnum())
    return can_open and can_close


def rewrite(inner: str, marker: str) -> str | None:
    """A form both CommonMark and pandoc read as emphasis, or None."""
    if len(inner) > 2 and inner[0] in QUOTES and inner[-1] == QUOTES[inner[0]]:
        return f"{inner[0]}{marker}{inner[1:-1]}{marker}{inner[-1]}"
    match = re.match(r"^(.*\S)(\([^()]*\))$", inner)
    if match and not punctuation(match.group(1)[-1]):
        return f"{marker}{match.group(1)}{marker}{match.group(2)}"
    return None


def regions(doc: SourceDoc) -> list[tuple[int, str]]:
    """Prose spans joined across backslash escapes (``**f\\***`` is one span)."""
    merged: list[list[int]] = []
    for start, end in doc.spans:
        if merged and re.fullmatch(r"(?:\\.)+", doc.text[merged[-1][1] : start]):
            merged[-1][1] = end
        else:
            merged.append([start, end])
    return [(start, doc.text[start:end]) for start, end in merged]


def nested(text: str, start: int, marker: str) -> bool:
    """Is an odd number of ``marker`` open before ``start`` in its paragraph?"""
    paragraph = max(text.rfind("\n\n", 0, start), 0)
    return text.count(marker, paragraph, start) % 2 == 1


def ko010_emphasis(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    text = doc.text
    for offset, prose in regions(doc):
        for match in SPAN.finditer(prose):
            start, end = offset + match.start(), offset + match.end()
            marker, inner = match.group(1), match.group(2)
            if commonmark_reads(text, start, end, marker):
                continue
            fixed = rewrite(inner, marker) if settings.fix_emphasis else None
            if fixed and nested(text, start, marker):
                fixed = None  # moving markers inside another **…** changes both spans
            yield Finding(
                "KO010",
                start,
                end,
                f"GitHub/CommonMark shows {marker}{inner}{marker} with literal asterisks: "
                "punctuation next to the markers needs a space on the outside "
                "(pandoc reads it as bold)",
                fixed,
            )


# KO015 ---------------------------------------------------------------------------
# A heading's ``**``/``__`` that pandoc cannot pair shows as literal asterisks in
# the heading, the contents and the running head; a pair that crosses a bracket
# (``누적 (**gradient accumulation)**``) sets half of the parentheses in bold.
MARKER_RUN = re.compile(r"\*{2,}|_{2,}")
BRACKETS = {"(": ")", "[": "]", "{": "}", "“": "”", "‘": "’", "「": "」", "『": "』"}
CLOSERS = {close: open_ for open_, close in BRACKETS.items()}


@dataclass(frozen=True)
class Marker:
    start: int
    end: int
    char: str


def heading_ranges(doc: SourceDoc) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of each heading's text (ATX or setext)."""
    ranges = []
    for index, token in enumerate(doc.tokens):
        if token.type != "heading_open" or index + 1 >= len(doc.tokens):
            continue
        inline = doc.tokens[index + 1]
        if inline.type == "inline" and inline.map:
            first, last = inline.map
            ranges.append((doc.line_offset(first), doc.line_offset(last)))
    return ranges


def markers_in(doc: SourceDoc, start: int, end: int) -> list[Marker]:
    """Runs of two or more ``*`` or ``_`` in the prose of ``text[start:end]``."""
    found = []
    for span_start, span_end in doc.spans:
        if span_end <= start or span_start >= end:
            continue
        low, high = max(span_start, start), min(span_end, end)
        for match in MARKER_RUN.finditer(doc.text, low, high):
            before = doc.text[match.start() - 1 : match.start()]
            after = doc.text[match.end() : match.end() + 1]
            if match.group(0)[0] == "_" and before.isalnum() and after.isalnum():
                continue  # snake__case: pandoc's intraword underscores are text
            found.append(Marker(match.start(), match.end(), match.group(0)[0]))
    return found


def pair_markers(
    text: str, markers: list[Marker]
) -> tuple[list[tuple[Marker, Marker]], list[Marker]]:
    """Pair markers as pandoc's reader does for these cases; return pairs and leftovers.

    pandoc opens emphasis at a marker followed by a non-space and closes it at
    one preceded by a non-space (unlike CommonMark, punctuation around it does
    not matter: that is KO010's business).
    """
    pairs: list[tuple[Marker, Marker]] = []
    stack: list[Marker] = []
    lone: list[Marker] = []
    for marker in markers:
        before = text[marker.start - 1 : marker.start] if marker.start else ""
        after = text[marker.end : marker.end + 1]
        can_close = bool(before) and not before.isspace()
        can_open = bool(after) and not after.isspace()
        if not can_open and not can_close:
            continue  # "2 ** 3": a free-standing operator, meant as text
        opener = next((m for m in reversed(stack) if m.char == marker.char), None)
        if can_close and opener is not None:
            while stack[-1] is not opener:
                lone.append(stack.pop())
            stack.pop()
            pairs.append((opener, marker))
        elif can_open:
            stack.append(marker)
        else:
            lone.append(marker)
    return pairs, sorted(lone + stack, key=lambda m: m.start)


def unbalanced(doc: SourceDoc, start: int, end: int) -> tuple[str, str]:
    """Brackets the prose of ``text[start:end]`` closes without opening, and opens
    without closing (``"gradient accumulation)"`` → ``(")", "")``)."""
    opened: list[str] = []
    closed = ""
    for span_start, span_end in doc.spans:
        for index in range(max(span_start, start), min(span_end, end)):
            char = doc.text[index]
            if char in BRACKETS:
                opened.append(char)
            elif char in CLOSERS:
                if opened and opened[-1] == CLOSERS[char]:
                    opened.pop()
                else:
                    closed += char
    return closed, "".join(opened)


def ko015_heading_emphasis(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    text = doc.text
    for start, end in heading_ranges(doc):
        pairs, lone = pair_markers(text, markers_in(doc, start, end))
        for marker in lone:
            run = text[marker.start : marker.end]
            yield Finding(
                "KO015",
                marker.start,
                marker.end,
                f"heading: '{run}' opens or closes no emphasis (pandoc shows it as literal "
                "asterisks): remove it, or put it next to the words it marks",
                None,
            )
        for opener, closer in pairs:
            closed, opened = unbalanced(doc, opener.end, closer.start)
            if not closed and not opened:
                continue
            marks = text[opener.start : opener.end]
            inner = text[opener.end : closer.start]
            inside = inner[: -len(closed)] if closed and inner.endswith(closed) else inner
            suggestion = f"{marks}{inside}{marks}{inner[len(inside) :]}"
            if opened and inner.startswith(opened):
                suggestion = f"{opened}{marks}{inner[len(opened) :]}{marks}"
            yield Finding(
                "KO015",
                opener.start,
                closer.end,
                f"heading: emphasis {marks}{inner}{marks} crosses a bracket "
                f"('{closed or opened}' only inside it): write {suggestion}",
                None,
            )
