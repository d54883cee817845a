"""What every family of output passes shares: the blocks they take, and text without the
line and paragraph separators no engine draws."""

from __future__ import annotations

from typing import Any

Blocks = list[dict[str, Any]]

# U+2028/U+2029: WeasyPrint fails on a U+2029 beside a space (AssertionError) and
# XeLaTeX has no glyph for either.  The build's KO014 fix replaces them in prose;
# with ``normalize: false``, or in code and titles, the print writers still must
# not pass them on, so the finished HTML/LaTeX gets a space for each.
SEPARATOR_SPACES = str.maketrans({"\u2028": " ", "\u2029": " "})


def without_separators(text: str) -> str:
    """``text`` with every line/paragraph separator (U+2028, U+2029) as a space."""
    return text.translate(SEPARATOR_SPACES) if ("\u2028" in text or "\u2029" in text) else text
