"""Text as LaTeX reads it literally (``latex_escape``), and the marks the writer leaves in
the generated source to find its chapters again."""

from __future__ import annotations

import unicodedata

CHAPTER_MARK = "%% kobook-chapter: "


# Control characters are spaces; format characters (bidi marks, joiners) have no glyph in
# the text fonts and nothing to draw: XeLaTeX reported them as missing glyphs.
INVISIBLE = {"Cc": " ", "Cf": ""}


def latex_escape(text: str) -> str:
    """``text`` as LaTeX that prints it literally: every special character escaped, quotes
    and hyphens kept straight (the fonts' TeX ligatures would curl ``"`` and join ``--``),
    line breaks and control characters as spaces (a blank line would end the argument),
    invisible format characters left out."""
    table = {
        '"': r"\textquotedbl{}",
        "'": r"\textquotesingle{}",
        "`": r"\textasciigrave{}",
        "\\": r"\textbackslash{}",
        "{": r"\{",
        "}": r"\}",
        "#": r"\#",
        "$": r"\$",
        "%": r"\%",
        "&": r"\&",
        "_": r"\_",
        "^": r"\textasciicircum{}",
        "~": r"\textasciitilde{}",
    }
    out = "".join(table.get(c, INVISIBLE.get(unicodedata.category(c), c)) for c in text)
    return out.replace("--", "-{}-").replace("--", "-{}-")


# Books set with xeCJK; Korean and English (and other languages) keep ko.TeX.
XECJK_LANGUAGES = ("zh-Hans", "zh-Hant", "ja")
