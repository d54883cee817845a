"""The EPUB's accessibility claims, made only where they are true.

pandoc writes the same schema.org metadata into every package: ``alternativeText``
even when every image's text is a placeholder, no ``visual`` access mode for a book
of diagrams, no summary and no ``conformsTo``.  Here the claims follow the book:
an image with neither its own text nor a caption is A11Y001 at its source line (the
build says where to write one), and while one remains the package claims neither
``alternativeText`` nor EPUB Accessibility 1.1 conformance; MathML is a feature
when the book has formulas.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...lang.words import Words
from ...parse.ast import iter_nodes

CONFORMS = "EPUB Accessibility 1.1 - WCAG 2.1 Level AA"
SCHEMA = re.compile(
    r'\s*<meta property="(?:schema:access[^"]*|dcterms:conformsTo)"[^>]*>[^<]*</meta>'
)


@dataclass
class Claims:
    """What the book holds, read while its chapters are prepared."""

    images: int = 0
    undescribed: int = 0
    math: bool = False

    def read(self, blocks: list[Any]) -> None:
        for node in iter_nodes(blocks):
            if node["t"] == "Image":
                self.images += 1
            elif node["t"] == "Math":
                self.math = True


def package_metadata(opf: str, claims: Claims, words: Words) -> str:
    """``content.opf`` with pandoc's accessibility metadata replaced by true claims."""
    described = claims.undescribed == 0
    modes = ["textual", "visual"] if claims.images else ["textual"]
    sufficient = ["textual"] if described else ["textual,visual"]
    features = ["readingOrder", "structuralNavigation", "tableOfContents"]
    if claims.images and described:
        features.append("alternativeText")
    if claims.math:
        features.append("MathML")
    features.append("displayTransformability")
    told = ["a11y-navigation"]
    if claims.images:
        told.append("a11y-described" if described else "a11y-undescribed")
    if claims.math:
        told.append("a11y-math")
    summary = " ".join(words.word(key) for key in told)
    lines = [f'<meta property="schema:accessMode">{m}</meta>' for m in modes]
    lines += [f'<meta property="schema:accessModeSufficient">{m}</meta>' for m in sufficient]
    lines += [f'<meta property="schema:accessibilityFeature">{f}</meta>' for f in features]
    lines.append('<meta property="schema:accessibilityHazard">none</meta>')
    lines.append(f'<meta property="schema:accessibilitySummary">{escape(summary)}</meta>')
    if described:
        lines.append(f'<meta property="dcterms:conformsTo">{CONFORMS}</meta>')
    block = "".join(f"\n    {line}" for line in lines)
    cleaned = SCHEMA.sub("", opf)
    return cleaned.replace("</metadata>", f"{block}\n  </metadata>", 1)


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


MATH = re.compile(r"<math\b(?![^>]*\balttext=)([^>]*)>(.*?)</math>", re.S)
TEX = re.compile(r'<annotation encoding="application/x-tex">([^<]*)</annotation>')


def math_alttext(page: str) -> str:
    """Each MathML formula with its TeX as ``alttext``: what a reading system without
    MathML speaks (the TeX is already in the formula's annotation, escaped)."""

    def add(match: re.Match[str]) -> str:
        tex = TEX.search(match.group(2))
        if tex is None:
            return match.group(0)
        alt = " ".join(tex.group(1).split()).replace('"', "&quot;")
        return f'<math alttext="{alt}"{match.group(1)}>{match.group(2)}</math>'

    return MATH.sub(add, page)
