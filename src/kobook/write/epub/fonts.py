"""``epub: {embed-fonts: true}``: the book's fonts inside the EPUB, subset to its text.

A reader's own fonts may lack Hangul, or draw it in a face the translator did
not choose.  The body, heading and code fonts are subset (fontTools, which
WeasyPrint brings) to the characters the chapters use, so a CJK font of tens of
megabytes adds a few hundred kilobytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...model import Book, Doc
from ..shared.common import text_chars
from ..shared.fonts import FontSet, font_face


@dataclass(frozen=True)
class Embedded:
    """A subset font file and the CSS family that names it."""

    family: str  # kobook-serif, kobook-sans, kobook-mono
    path: Path
    weight: str


def characters(book: Book, docs: list[Doc]) -> set[str]:
    """Every character of the chapters' text and code, the title and names."""
    chars = set(book.config.title) | {" ", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
    for name in [*book.config.authors, *book.config.translators]:
        chars.update(name)
    for doc in docs:
        chars |= text_chars(doc.blocks)
    return chars


def embedded(book: Book, docs: list[Doc], folder: Path, fonts: FontSet) -> list[Embedded]:
    """The subset fonts written into ``folder`` (a font fontconfig cannot find is skipped:
    the reader's own font is used for that role)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    text = "".join(sorted(characters(book, docs)))
    found = []
    roles = [
        ("kobook-serif", fonts.serif[0], "normal"),
        ("kobook-sans", f"{fonts.sans[0]}:bold", "bold"),
        ("kobook-mono", fonts.mono[0], "normal"),
    ]
    for family, pattern, weight in roles:
        face = font_face(pattern)
        if face is None:
            continue
        font = TTFont(face[0], fontNumber=face[1], lazy=False)
        options = subset.Options()
        options.name_IDs = ["*"]
        options.layout_features = ["*"]
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(font)
        suffix = ".otf" if "CFF " in font else ".ttf"
        path = folder / f"{family}{suffix}"
        font.save(path)
        found.append(Embedded(family, path, weight))
    return found
