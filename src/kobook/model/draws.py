"""What a writer does with the book's constructs, as data (mdBook's renderers declare what
they support the same way): each writer's registry entry holds one :class:`Draws`, and one
pass (``transform/leaks/drawable.py``), not the writer, reports what it leaves out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

# What a writer does with a construct: draws it as written, converts it (math to SVG or
# MathML, raw HTML to the text between its tags, a video to its fallback text), or drops it.
How = Literal["drawn", "converted", "dropped"]


def tags(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Raw HTML no writer that lays HTML out draws: frames, media, scripts (WeasyPrint leaves them
# out; the EPUB keeps their fallback text).
NOT_LAID_OUT = tags(
    "iframe frame frameset video audio object embed applet canvas script template portal"
)
# Raw HTML whose meaning goes with its tags, where pandoc's LaTeX and Typst writers drop the
# tags and keep the text between them (<span>, <sup>, <b>, <a>, <div> lose nothing worth
# a warning: html-markup draws <sup>/<sub>/<kbd>/<mark> before any writer).
MEANING_IN_TAGS = tags("img svg math picture table")


@dataclass(frozen=True)
class Draws:
    """What one writer does with the book's constructs: LEAK002 for what it drops,
    TYP003/RAW001 for raw formats no writer of the build draws, TEX005 notes raw LaTeX the
    others ignore; the writers never decide that themselves."""

    raw: Mapping[str, How]  # raw formats (``{=html}`` and raw HTML tags, ``{=latex}``, …)
    html: Mapping[str, How] = field(default_factory=dict)  # raw HTML elements (else: raw["html"])
    html_blocks: How = "drawn"  # a raw HTML block with text of its own (pandoc's LaTeX drops it)
    # A tag that is no HTML element (mdBook's <Listing>): its text shows, its meaning goes.
    unknown_html: How = "converted"
    elements: Mapping[str, How] = field(default_factory=dict)  # AST elements (else: drawn)

    def format(self, name: str) -> How:
        """What it does with raw ``name`` blocks (a format it does not name: dropped)."""
        return self.raw.get(name, "dropped")

    def tag(self, name: str, known: bool = True) -> How:
        """What it does with a raw HTML tag called ``name`` (lower case; ``known``: an HTML
        element)."""
        return self.html.get(name, self.format("html") if known else self.unknown_html)

    def element(self, name: str) -> How:
        return self.elements.get(name, "drawn")

    @property
    def formats(self) -> frozenset[str]:
        """The raw formats whose blocks reach its output (drawn or converted)."""
        return frozenset(name for name, how in self.raw.items() if how != "dropped")
