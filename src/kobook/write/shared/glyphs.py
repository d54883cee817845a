"""Which characters of the book no installed font can draw, known before any layout.

Each PDF engine finds a character without a glyph only as it lays the page out
(WeasyPrint after minutes of layout on a long book, XeLaTeX in its log), so the
build first asks fontconfig, for every distinct character of the text and code,
whether the print set-up's fonts or any installed font has it.  A character no
font has is GLYPH001 at once, with the place it is written; the engines' own
checks still catch what their fallback misses.  Math is left out: the math
font, or the SVG math kobook draws, carries it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from ...errors import Diagnostic, KobookError
from ...model import Book, Doc
from ...parse.ast import iter_nodes
from .fontcoverage import covers, fallback_family
from .fonts import FontSet


def text_chars(docs: Iterable[Doc]) -> set[str]:
    """Every character a reader sees of the text and the code."""
    chars: set[str] = set()
    for doc in docs:
        for node in iter_nodes(doc.blocks):
            kind = node["t"]
            if kind == "Str":
                chars.update(node["c"])
            elif kind in ("Code", "CodeBlock"):
                chars.update(node["c"][1])
    return chars


def drawable(char: str) -> bool:
    """False for characters no font is asked for: spaces, ASCII, marks, controls."""
    return not (
        char.isspace()
        or ord(char) < 0x80
        or unicodedata.category(char) in ("Cf", "Mn", "Me", "Cc", "Cs")
    )


def missing_glyphs(
    book: Book, chars: Iterable[str], fonts: FontSet, engine: str
) -> list[Diagnostic]:
    """GLYPH001 for each of ``chars`` that neither ``fonts`` nor any installed font has."""
    stacks = [*fonts.serif, *fonts.sans, *fonts.mono, *fonts.emoji]
    problems = []
    for char in sorted(set(chars)):
        if not drawable(char) or any(covers(f, char) for f in stacks) or fallback_family(char):
            continue
        problems.append(
            Diagnostic(
                "GLYPH001",
                f"{engine}: no installed font has '{char}' (U+{ord(char):04X})",
                book.locate(char),
                "install a font that has it (kobook doctor), or replace the character",
            )
        )
    return problems


def refuse_missing(problems: list[Diagnostic]) -> None:
    """Stop the build before layout when characters have no font (``--keep-going`` goes on)."""
    if problems:
        raise KobookError.summarising(
            f"{len(problems)} character(s) have no glyph in any installed font; "
            "the PDF was not written",
            "GLYPH001",
            problems,
            "see the list below; --keep-going writes the PDF anyway",
        )
