"""TeX math → SVG for WeasyPrint (which has no MathML), cached by expression.

ziamath draws the formula as paths with Latin Modern Math when installed (its
weight matches the Korean serif; ``mathfont:`` picks another), else with the STIX
Two Math font it ships, so nothing is downloaded and no font is needed at PDF
time.  The SVG's baseline offset becomes a ``vertical-align`` so inline math sits
on the text baseline.  Math fonts have no Hangul: a top-level ``\\text{한글}`` is
drawn from a Hangul TrueType/OpenType font through ``ziamath.Text`` instead.

The site uses the same drawings for the formulas pandoc cannot turn into
MathML (:func:`img_tag`, alt text = the TeX), so every output draws a formula
or reports it (MATH001, located by :func:`formula_location`) and shows its
TeX in code style: never as ``$$…$$`` text.
"""

from __future__ import annotations

import base64
import functools
import html
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ... import limits
from ...cache import Cache, digest
from ...errors import Diagnostic, Location
from ...korean.hangul import has_hangul
from ...model import Chapter
from ...transform.math_macros import without_size_switches
from . import svgclean
from .fonts import fontconfig

SIZE = 20.0  # drawing size in px; the result is scaled in em, so any size works
# 2: size switches dropped, definitions refused; 3: inline math in text style, the font in the key;
# 4: a drawing with no height is an error; 5: array rows ziamath can draw (drawable_rows);
# 6: cleaned as every published SVG; 7: a drawing past MAX_MATH_EM is an error;
# 8: escaped signs in \text (text_escapes)
RENDERER_VERSION = "8"
# The default math font when installed (Debian fonts-lmodern, which TeX Live needs anyway):
# its strokes match Noto Serif CJK's Latin, where STIX Two (ziamath's own, the fallback)
# reads as bold next to the Korean serif.  ``mathfont:`` in metadata.yaml picks another.
DEFAULT_MATH_FONT = "Latin Modern Math"


@dataclass(frozen=True)
class MathImage:
    """An SVG and how to place it in text of font size 1em."""

    svg: str
    width_em: float
    height_em: float
    depth_em: float  # below the baseline

    def data_uri(self) -> str:
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg.encode()).decode()

    def css(self) -> str:
        """Its size in em, sitting on the baseline (the site's and the EPUB's ``style``)."""
        return (
            f"width:{self.width_em:.3f}em;height:{self.height_em:.3f}em;"
            f"vertical-align:-{self.depth_em:.3f}em"
        )

    def to_json(self) -> str:
        return json.dumps(self.__dict__)


class MathError(ValueError):
    """ziamath could not draw the expression."""


@functools.cache
def hangul_text_font() -> str | None:
    """A Hangul TrueType/OpenType file (ziafont reads neither .ttc nor bitmap fonts)."""
    out = fontconfig("fc-list", ":lang=ko", "file", "family")
    files = [line.split(":", 1)[0] for line in out.splitlines()]
    files = [f for f in files if f.lower().endswith((".ttf", ".otf"))]
    preferred = ("Myeongjo", "Batang", "Serif", "Gothic")
    for word in preferred:
        for path in files:
            if word.lower() in path.lower() and "bold" not in path.lower():
                return path
    return files[0] if files else None


@functools.cache
def font_file(family: str) -> str | None:
    """The TrueType/OpenType file of an installed font family (fontconfig), else None."""
    out = fontconfig("fc-list", f":family={family}", "file")
    files = sorted(line.split(":", 1)[0].strip() for line in out.splitlines())
    return next((f for f in files if f.lower().endswith((".otf", ".ttf"))), None)


def math_font(name: str | None = None) -> str | None:
    """The math font file for ``name`` (``mathfont:``), else the default's; None means
    STIX Two Math, the font ziamath ships (always there)."""
    return font_file(name or DEFAULT_MATH_FONT)


def stix_math_font() -> str:
    """STIX Two Math as shipped inside ziamath (a dependency): no system font needed."""
    import ziamath

    path = Path(ziamath.__file__).parent / "fonts" / "STIXTwoMath-Regular.ttf"
    return str(path) if path.is_file() else ""


def math_family(name: str | None = None) -> tuple[str, str]:
    """The math font's family and, when it is not installed, the folder of its file
    (ziamath's STIX Two Math): the same font the WeasyPrint and XeLaTeX engines use."""
    if name:
        return name, ""
    if math_font():
        return DEFAULT_MATH_FONT, ""
    stix = stix_math_font()
    return "STIX Two Math", str(Path(stix).parent) if stix else ""


def font_key(font: str | None) -> str:
    """The font's part of a cache key: its file name, so caches move between machines."""
    return font.rsplit("/", 1)[-1] if font else "stix"


def split_hangul_text(tex: str) -> list[tuple[str, str]]:
    """Cut ``a + \\text{메모리}`` into ``[("math", "a +"), ("text", "메모리")]`` at depth 0."""
    pieces: list[tuple[str, str]] = []
    depth = 0
    index = 0
    start = 0
    while index < len(tex):
        char = tex[index]
        if char == "\\" and tex.startswith("\\text{", index) and depth == 0:
            end = matching_brace(tex, index + 5)
            inner = tex[index + 6 : end]
            if has_hangul(inner):
                if tex[start:index].strip():
                    pieces.append(("math", tex[start:index]))
                pieces.append(("text", inner))
                index = start = end + 1
                continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "\\":
            index += 1
        index += 1
    if tex[start:].strip():
        pieces.append(("math", tex[start:]))
    return pieces


def matching_brace(tex: str, open_index: int) -> int:
    depth = 0
    for index in range(open_index, len(tex)):
        if tex[index] == "{" and tex[index - 1] != "\\":
            depth += 1
        elif tex[index] == "}" and tex[index - 1] != "\\":
            depth -= 1
            if depth == 0:
                return index
    return len(tex) - 1


# Left in a formula only when ``transform/math_macros.py`` could not read them:
# ziamath would expand them itself, with no limit (a macro bomb).
DEFINITION = re.compile(
    r"\\(?:[gex]?def|let|(?:re|provide|new)command|DeclareMathOperator)(?![A-Za-z])"
)


# What ziamath's TeX reader (latex2mathml) makes of a command it does not know: the
# name as a symbol, so the drawing would show ``\blue`` in letters.
UNKNOWN = re.compile(r">[^<]*?(\\[A-Za-z]+)[^<]*</m(?:i|o|text)>")


def unknown_commands(tex: str) -> list[str]:
    """Commands ziamath would draw as their names (``\\blue{x}`` with no ``\\def``)."""
    from ziamath.tex import tex2mml

    try:
        return UNKNOWN.findall(tex2mml(tex))
    except Exception:  # drawing reports the same failure, with its reason
        return []


# A row's extra space (``\\[10pt]``), and a row with nothing in it (``\hline \\``).
ROW_SPACE = re.compile(r"(\\\\)\s*\[\s*-?[\d.]+\s*(?:pt|em|ex|mm|cm|in|mu|bp|pc|dd|sp)\s*\]")
EMPTY_ROW = re.compile(r"(\\\\)((?:\s|\\hline)*)(?=\\\\)")


def drawable_rows(tex: str) -> str:
    """Array rows as ziamath can draw them.

    ziamath does not read a row's extra space and prints it (``[10pt]``) in
    front of the next row: the space is dropped.  It gives an empty row the
    bounds of an empty box (±10,000), and the whole formula a height of
    −19,946: such a row gets an invisible strut (``\\vphantom{x}``), a line's
    height as in TeX.  The transformers chapter of the scaling book has both.
    """
    tex = ROW_SPACE.sub(r"\1", tex)
    return EMPTY_ROW.sub(lambda m: f"{m.group(1)}{m.group(2)}\\vphantom{{x}} ", tex)


TEXT_GROUP = re.compile(r"\\text\{([^{}]*)\}")
TEXT_ESCAPE = re.compile(r"\\([_&%#$])")


def text_escapes(tex: str) -> str:
    """``\\text{all\\_reduce}`` as ziamath can draw it: its reader keeps ``\\_`` inside
    ``\\text`` as two characters (the drawing showed the backslash) and writes ``&`` into
    MathML unescaped (the formula failed).  Each escaped sign is set upright between two
    pieces of text, in one group: ``{\\text{all}\\mathrm{\\_}\\text{reduce}}``."""

    def split(match: re.Match[str]) -> str:
        if not TEXT_ESCAPE.search(match.group(1)):
            return match.group(0)
        inner = TEXT_ESCAPE.sub(lambda m: f"}}\\mathrm{{\\{m.group(1)}}}\\text{{", match.group(1))
        # One group, so ``x_\\text{a\\_b}`` keeps the whole text in the subscript.
        return "{" + f"\\text{{{inner}}}".replace("\\text{}", "") + "}"

    return TEXT_GROUP.sub(split, tex)


def draw(tex: str, display: bool, font: str | None = None) -> MathImage:
    """Draw one expression (uncached) with the math font file ``font`` (None: STIX Two).

    Inline math is set in TeX's text style (``inline=True``): a fraction in a line of
    text at text size, as XeLaTeX sets it, not the display fraction that opens the line.
    """
    import ziamath

    tex = text_escapes(drawable_rows(without_size_switches(tex.strip())))
    if DEFINITION.search(tex):
        raise MathError("a macro definition kobook cannot read (delimited parameters?)")
    if unknown := unknown_commands(tex):
        raise MathError(f"unknown command {unknown[0]}")
    try:
        if has_hangul(tex):
            pieces = split_hangul_text(tex)
            if any(kind == "math" and has_hangul(value) for kind, value in pieces):
                raise MathError("Hangul inside math must be in a top-level \\text{...}")
            hangul = hangul_text_font()
            if hangul is None:
                raise MathError("no Hangul TrueType/OpenType font for \\text{...} in math")
            style = "\\displaystyle " if display else ""
            text = "".join(
                TEXT_ESCAPE.sub(r"\1", value) if kind == "text" else f"${style}{value}$"
                for kind, value in pieces
            )
            svg = ziamath.Text(text, textfont=hangul, mathfont=font, size=SIZE).svg()
        else:
            mathstyle = "display" if display else None
            svg = ziamath.Latex(
                tex, size=SIZE, mathstyle=mathstyle, font=font, inline=not display
            ).svg()
    except MathError:
        raise
    except Exception as exc:  # ziamath raises many kinds for unsupported input
        raise MathError(str(exc) or type(exc).__name__) from None
    match = re.search(r'viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"', svg)
    if not match:
        raise MathError("no viewBox in ziamath output")
    _x, y, width, height = (float(v) for v in match.groups())
    if width <= 0 or height <= 0:
        # ``$[F]\\{U_Y\\} \to [F_Y]$``: a TeX line break in inline math, which ziamath
        # draws as a box of negative height (nothing, or lines on top of each other).
        raise MathError("ziamath drew it with no height (a \\\\ line break in inline math?)")
    depth = height + y  # y is negative: the baseline is at 0
    largest = max(width, height) / SIZE
    if largest > limits.MAX_MATH_EM:  # \rule{100000pt}{100000pt}: a drawing past any page
        raise MathError(f"its drawing is {largest:,.0f} em across, more than {limits.MAX_MATH_EM}")
    return MathImage(svg, width / SIZE, height / SIZE, max(0.0, depth) / SIZE)


def math_key(tex: str, display: bool, font: str | None) -> str:
    """The cache key of a drawing (also what ``weasyprint.writer.math_cached`` looks for)."""
    return digest("math", RENDERER_VERSION, font_key(font), "display" if display else "inline", tex)


def render_math(tex: str, display: bool, cache: Cache | None, font: str | None = None) -> MathImage:
    """Draw ``tex`` (cached by content) with the math font file ``font`` (None: the
    default, :func:`math_font`); raises :class:`MathError` for what ziamath cannot do."""
    font = font or math_font()
    key = math_key(tex, display, font)
    if cache is not None:
        hit = cache.get("math", key, ".json")
        if hit is not None:
            data = json.loads(hit)
            if "error" in data:
                raise MathError(data["error"])
            return MathImage(**data)
    try:
        image = draw(tex, display, font)
        # Drawn by kobook, published like any SVG: through the same cleaner.
        image = replace(image, svg=(svgclean.clean(image.svg.encode()) or b"").decode())
    except MathError as exc:
        if cache is not None:
            cache.put("math", key, json.dumps({"error": str(exc)}).encode(), ".json")
        raise
    if cache is not None:
        cache.put("math", key, image.to_json().encode(), ".json")
    return image


def img_tag(image: MathImage, tex: str, display: bool) -> str:
    """The ``<img>`` of a drawn formula, sized in em and sitting on the baseline; its
    alt text is the TeX (what a screen reader or a copy gets)."""
    cls = "math display" if display else "math inline"
    alt = html.escape(tex.strip(), quote=True)
    tag = f'<img class="{cls}" style="{image.css()}" alt="{alt}" src="{image.data_uri()}">'
    return f'<span class="math-display">{tag}</span>' if display else tag


Formula = tuple[str, bool]  # its TeX, and whether it is display math


def formula(node: dict[str, Any]) -> Formula:
    """A ``Math`` node's TeX and kind: how the site and the EPUB tell formulas apart."""
    return node["c"][1], node["c"][0]["t"] == "DisplayMath"


def undrawn(chapter: Chapter | None, tex: str, reason: str, shown_in: str) -> Diagnostic:
    """MATH001: ``tex`` could not be drawn, and is shown as source in ``shown_in``."""
    return Diagnostic(
        "MATH001",
        f"math could not be drawn ({reason}): {tex.strip()[:60]}",
        formula_location(chapter, tex) if chapter else Location(None),
        f"simplify the TeX or report it; it is shown as source {shown_in}",
        "warning",
    )


def formula_location(chapter: Chapter, tex: str) -> Location:
    """Where a formula is in the chapter's source, for MATH001.

    The formula as written first; else its longest line found (macros expanded
    by ``math_macros`` changed some lines, and a long line is rarely in another
    formula); else the chapter's first line.
    """
    lines = [tex.strip(), *sorted((ln.strip() for ln in tex.splitlines()), key=len, reverse=True)]
    for needle in lines:
        if len(needle) >= 3 and (found := chapter.locate(needle)) is not None:
            return found
    return chapter.where(1)
