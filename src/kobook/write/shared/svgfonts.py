"""The book's fonts for the text of its SVG figures, where an engine would guess.

An SVG names its fonts (``Arial``, ``Helvetica``, or only ``sans-serif``) and
leaves the rest to the renderer.  Typst's SVG renderer has no generic families
of its own and takes the first font it knows for a name it lacks: on a machine
with the Un fonts, a figure's labels came out in the handwriting face UnPen.
Here each font list of an SVG gets the book's stack for its generic family
(serif, sans-serif or monospace; sans-serif when it names none), and the root
element a sans-serif default, so a renderer finds one of the book's fonts
after the ones the figure asked for.
"""

from __future__ import annotations

import re

# font-family="…" or font-family='…' (an attribute), and font-family: …; (CSS).
ATTRIBUTE = re.compile(r"""(font-family\s*=\s*)(["'])(.*?)\2""", re.S)
PROPERTY = re.compile(r"""(font-family\s*:\s*)([^;"'}>]*(?:(["'])[^"']*\3[^;"'}>]*)*)""")
ROOT = re.compile(r"<svg\b[^>]*>", re.S)
# A family name as it may stand in the rewritten list: no quote, bracket or separator
# (a name from the figure that is anything else is dropped, never copied into markup).
SAFE = re.compile(r"[^'\"<>&;,{}()\\]+")
GENERIC = {"serif": "serif", "sans-serif": "sans", "monospace": "mono", "sans": "sans"}


def families(value: str) -> list[str]:
    """The names in a CSS font list, unquoted."""
    return [name.strip().strip("'\"").strip() for name in value.split(",") if name.strip()]


def completed(value: str, stacks: dict[str, list[str]]) -> str:
    """A font list with the book's stack for its generic family after its own names
    (the generic name last, as CSS wants it); names quoted with single quotes."""
    names = families(value)
    generic = next((GENERIC[n.lower()] for n in names if n.lower() in GENERIC), "sans")
    own = [n for n in names if n.lower() not in GENERIC and SAFE.fullmatch(n)]
    added = [n for n in stacks.get(generic, []) if n not in own and SAFE.fullmatch(n)]
    css_generic = {"serif": "serif", "sans": "sans-serif", "mono": "monospace"}[generic]
    return ", ".join(f"'{name}'" for name in [*own, *added]) + f", {css_generic}"


def with_book_fonts(svg: str, stacks: dict[str, list[str]]) -> str:
    """``svg`` with every font list completed (:func:`completed`) and the root element
    given the sans-serif stack, unless it names a font list itself."""

    def attribute(match: re.Match[str]) -> str:
        return f'{match.group(1)}"{completed(match.group(3), stacks)}"'

    def css(match: re.Match[str]) -> str:
        return match.group(1) + completed(match.group(2), stacks)

    text = ATTRIBUTE.sub(attribute, svg)
    text = PROPERTY.sub(css, text)
    root = ROOT.search(text)
    if root and "font-family" not in root.group(0):
        tag = root.group(0)
        default = completed("sans-serif", stacks)
        closing = "/>" if tag.endswith("/>") else ">"
        tag = tag[: -len(closing)].rstrip() + f' font-family="{default}"' + closing
        text = text[: root.start()] + tag + text[root.end() :]
    return text
