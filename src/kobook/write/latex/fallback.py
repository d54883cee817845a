"""Characters the LaTeX fonts lack, drawn from an installed font that has them, in prose
and in code alike.

XeTeX has no font fallback: a Hindi or Arabic word in a sentence, or in a string
of a code example (the Rust book has both), came out as nothing.  kobook asks
fontconfig for a family that has each such character (the one WeasyPrint and
Typst fall back to) and sets runs of them in it, ``{\\kofbA नमस्ते}``: one run per
family, so a word keeps its shaping (Arabic joins, Devanagari conjuncts), and
combining marks stay with their letter.  Hangul and CJK are xeCJK's.

In code the same runs go into a ``KoCode`` block (fvextra with ``commandchars``,
as pandoc's ``Highlighting``), in the code box every code block has; the code's other
characters are escaped for it.  Inline code becomes ``\\texttt{…}`` with runs.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ...korean.hangul import has_hangul
from ...parse.ast import raw_block, raw_inline, walk
from ..shared.fontcoverage import covers, fallback_family
from .values import latex_escape

Blocks = list[dict[str, Any]]
CJK_RANGES = ((0x2E80, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x20000, 0x2FFFF))


def handled(char: str, font: str) -> bool:
    """True when ``font`` (or xeCJK, or newunicodechar's ↪) draws ``char`` without help."""
    code = ord(char)
    return (
        char.isascii()
        or char.isspace()
        or char == "\u21aa"  # the code continuation mark: \newunicodechar in the template
        or has_hangul(char)
        or any(low <= code <= high for low, high in CJK_RANGES)
        or covers(font, char)
    )


def runs(text: str, font: str) -> list[tuple[str | None, str]]:
    """``text`` cut into ``(family, piece)``: ``None`` for what ``font`` draws, else the
    installed family that has the piece's characters.  A combining mark joins the run
    of the letter before it."""
    out: list[tuple[str | None, str]] = []
    for char in text:
        family = None
        if out and out[-1][0] is not None and unicodedata.category(char) in ("Mn", "Mc", "Me"):
            family = out[-1][0]
        elif not handled(char, font):
            family = fallback_family(char)
        if out and out[-1][0] == family:
            out[-1] = (family, out[-1][1] + char)
        else:
            out.append((family, char))
    return out


def command(family: str, used: dict[str, str]) -> str:
    """The font-switch command for ``family`` (declared in the preamble from ``used``)."""
    return used.setdefault(family, f"kofb{chr(ord('A') + len(used))}")


def code_escape(text: str) -> str:
    """Text inside a ``commandchars=\\\\\\{\\}`` Verbatim: only ``\\``, ``{`` and ``}`` matter."""
    marks = {"\\": "\\textbackslash{}", "{": "\\{", "}": "\\}"}
    return re.sub(r"[\\{}]", lambda m: marks[m.group(0)], text)


def fallback_fonts(blocks: Blocks, main: str, mono: str, used: dict[str, str]) -> Blocks:
    """Prose, inline code and code blocks with runs the fonts lack in a family that has them."""

    def action(node: dict[str, Any]) -> Any:
        kind = node["t"]
        if kind == "Str":
            pieces = runs(node["c"], main)
            if all(family is None for family, _ in pieces):
                return None
            return [
                {"t": "Str", "c": piece}
                if family is None
                else raw_inline("latex", f"{{\\{command(family, used)} {latex_escape(piece)}}}")
                for family, piece in pieces
            ]
        if kind == "Code":
            pieces = runs(node["c"][1], mono)
            if all(family is None for family, _ in pieces):
                return None
            inner = "".join(
                latex_escape(piece)
                if family is None
                else f"{{\\{command(family, used)} {latex_escape(piece)}}}"
                for family, piece in pieces
            )
            return raw_inline("latex", f"\\texttt{{{inner}}}")
        if kind == "CodeBlock":
            pieces = runs(node["c"][1], mono)
            if all(family is None for family, _ in pieces):
                return None
            inner = "".join(
                code_escape(piece)
                if family is None  # {} ends the command: a space would be printed in code
                else f"{{\\{command(family, used)}{{}}{code_escape(piece)}}}"
                for family, piece in pieces
            )
            return raw_block(
                "latex",
                f"\\begin{{kocodebox}}\n\\begin{{KoCode}}\n{inner}\n"
                "\\end{KoCode}\n\\end{kocodebox}",
            )
        return None

    return walk(blocks, action)
