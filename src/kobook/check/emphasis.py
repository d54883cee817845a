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
