"""Which characters a font has, and which installed font has a character (fontconfig).

XeTeX has no font fallback: a character the current font lacks is simply
dropped (with a "Missing character" line in the log).  The XeLaTeX writer
uses this to draw such characters (``𝑣``, ``∗`` in prose) from a font that has
them, the way Pango does on its own for WeasyPrint.
"""

from __future__ import annotations

import bisect
import functools

from .fonts import fontconfig

PREFERRED = (
    "DejaVu Sans",
    "Noto Sans Math",
    "STIX Two Math",
    "Latin Modern Math",
    "Noto Sans Symbols",
    "Noto Sans Symbols 2",
    "DejaVu Serif",
    "FreeSerif",
)


@functools.cache
def charset(family: str) -> tuple[list[int], list[int]]:
    """Sorted (starts, ends) of the code point ranges ``family`` covers."""
    out = fontconfig("fc-match", "--format=%{charset}", family)
    starts: list[int] = []
    ends: list[int] = []
    for item in out.split():
        low, _, high = item.partition("-")
        try:
            first = int(low, 16)
            last = int(high, 16) if high else first
        except ValueError:
            continue
        starts.append(first)
        ends.append(last)
    return starts, ends


def covers(family: str, char: str) -> bool:
    starts, ends = charset(family)
    index = bisect.bisect_right(starts, ord(char)) - 1
    return index >= 0 and ord(char) <= ends[index]


@functools.cache
def fallback_family(char: str) -> str | None:
    """An installed (non-emoji) family that has ``char``, preferring common ones."""
    out = fontconfig("fc-list", f":charset={ord(char):x}", "family")
    families = {line.split(",")[0].strip() for line in out.splitlines() if line.strip()}
    families = {f for f in families if "emoji" not in f.lower()}
    for name in PREFERRED:
        if name in families:
            return name
    return sorted(families)[0] if families else None
