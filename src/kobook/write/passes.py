"""Passes that prepare the transformed AST for a particular output.

They are the writer's side of the pipeline (like mdBook's renderer-specific
preprocessing): numbering text the reader sees, footnotes as the PDF needs
them, math as SVG, links between HTML pages.  Each is a small function over a
list of blocks.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from ..cache import Cache
from ..korean.hangul import has_hangul
from ..load import Config
from ..parse.ast import attr, iter_nodes, keyval, raw_inline, walk
from .mathsvg import MathError, render_math

Blocks = list[dict[str, Any]]

# U+2028/U+2029: WeasyPrint fails on a U+2029 beside a space (AssertionError) and
# XeLaTeX has no glyph for either.  The build's KO014 fix replaces them in prose;
# with ``normalize: false``, or in code and titles, the print writers still must
# not pass them on, so the finished HTML/LaTeX gets a space for each.
SEPARATOR_SPACES = str.maketrans({"\u2028": " ", "\u2029": " "})


def without_separators(text: str) -> str:
    """``text`` with every line/paragraph separator (U+2028, U+2029) as a space."""
    return text.translate(SEPARATOR_SPACES) if ("\u2028" in text or "\u2029" in text) else text


CODE_ALIASES = {
    "cuda": "cpp",
    "cu": "cpp",
    "c++": "cpp",
    "sh": "bash",
    "shell": "bash",
    "zsh": "bash",
    "console": "bash",
    "py": "python",
    "python3": "python",
    "yml": "yaml",
}


def heading_numbers(blocks: Blocks, config: Config) -> Blocks:
    """Put the numbers the transforms assigned into the heading text (``3장``, ``3.1``)."""
    words = config.words

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Header":
            return None
        level, attrs, inlines = node["c"]
        number = keyval(attrs, "number")
        if not number:
            return None
        if level == 1:
            label = {
                "t": "Span",
                "c": [
                    attr("", ["chapter-number"]),
                    [{"t": "Str", "c": words.label("chapter", number)}],
                ],
            }
        else:
            label = {"t": "Span", "c": [attr("", ["section-number"]), [{"t": "Str", "c": number}]]}
        return {"t": "Header", "c": [level, attrs, [label, {"t": "Space"}, *inlines]]}

    return walk(blocks, action)


def equation_numbers(blocks: Blocks) -> Blocks:
    """``Div.equation`` gets its ``(3.1)`` beside the formula."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "equation" not in node["c"][0][1]:
            return None
        number = keyval(node["c"][0], "number") or ""
        tag = {"t": "Span", "c": [attr("", ["eqno"]), [{"t": "Str", "c": f"({number})"}]]}
        inner = node["c"][1]
        if inner and inner[0]["t"] == "Para":
            inner = [{"t": "Para", "c": [*inner[0]["c"], tag]}, *inner[1:]]
        return {"t": "Div", "c": [node["c"][0], inner]}

    return walk(blocks, action)


def upright_hangul(blocks: Blocks) -> Blocks:
    """Hangul inside emphasis is never slanted: mark it so the CSS sets it upright in sans."""

    def mark(node: dict[str, Any]) -> Any:
        """Inside emphasis: every Hangul word, however deeply nested (bold, links)."""
        if node["t"] == "Str" and has_hangul(node["c"]):
            return {"t": "Span", "c": [attr("", ["hangul"]), [node]]}
        if node["t"] == "Span" and "hangul" in node["c"][0][1]:
            return node
        return None

    def action(node: dict[str, Any]) -> Any:
        if node["t"] == "Emph":
            return {"t": "Emph", "c": walk(node["c"], mark)}
        return None

    return walk(blocks, action)


def code_languages(blocks: Blocks) -> Blocks:
    """Map language names pandoc's highlighter lacks (``cuda``) to close ones (``cpp``)."""
    for node in iter_nodes(blocks):
        if node["t"] == "CodeBlock":
            classes = node["c"][0][1]
            for name in list(classes):
                alias = CODE_ALIASES.get(name.lower())
                if alias and alias not in classes:
                    classes.insert(0, alias)
    return blocks


def footnotes_inline(blocks: Blocks) -> Blocks:
    """``Note`` → ``Span.footnote`` holding its text, for CSS ``float: footnote``."""

    def flatten(note_blocks: Blocks) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for index, block in enumerate(note_blocks):
            if index:
                out.append({"t": "LineBreak"})
            if block["t"] in ("Para", "Plain"):
                out += block["c"]
            elif block["t"] == "CodeBlock":
                out.append({"t": "Code", "c": [attr(), block["c"][1]]})
            elif block["t"] in ("BulletList", "OrderedList"):
                items = block["c"] if block["t"] == "BulletList" else block["c"][1]
                for number, item in enumerate(items, 1):
                    bullet = "•" if block["t"] == "BulletList" else f"{number}."
                    if number > 1:
                        out.append({"t": "LineBreak"})
                    out += [{"t": "Str", "c": bullet}, {"t": "Space"}, *flatten(item)]
        return out

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Note":
            return None
        return {"t": "Span", "c": [attr("", ["footnote"]), walk(flatten(node["c"]), action)]}

    return walk(blocks, action)


def math_as_svg(
    blocks: Blocks, cache: Cache | None, on_error: Callable[[str, str], None]
) -> Blocks:
    """``Math`` → ``<img>`` of an SVG drawn by ziamath (WeasyPrint has no MathML).

    An expression ziamath cannot draw is reported through ``on_error`` and shown
    as its TeX source in code style (never silently dropped).
    """

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Math":
            return None
        display = node["c"][0]["t"] == "DisplayMath"
        tex = node["c"][1]
        try:
            image = render_math(tex, display, cache)
        except MathError as exc:
            on_error(tex, str(exc))
            return {"t": "Code", "c": [attr("", ["math-error"]), tex]}
        style = (
            f"width:{image.width_em:.3f}em;height:{image.height_em:.3f}em;"
            f"vertical-align:-{image.depth_em:.3f}em"
        )
        cls = "math display" if display else "math inline"
        alt = html.escape(tex, quote=True)
        tag = f'<img class="{cls}" style="{style}" alt="{alt}" src="{image.data_uri()}">'
        if display:
            tag = f'<span class="math-display">{tag}</span>'
        return raw_inline("html", tag)

    return walk(blocks, action)


def rewrite_links(blocks: Blocks, page_of: dict[str, str], current: str) -> Blocks:
    """``#id`` → ``other-chapter.html#id`` when the id lives on another page."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Link":
            return None
        url = node["c"][2][0]
        if url.startswith("#"):
            page = page_of.get(url[1:])
            if page and page != current:
                node["c"][2][0] = f"{page}{url}"
        return None

    return walk(blocks, action)


# Emoji: pictographs, dingbats, flags and keycaps, with their joiners and selectors.
EMOJI = re.compile(
    "(?:[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u2300-\u23ff\u2190-\u21ff"
    "\u2100-\u214f\u3030\u303d\u3297\u3299\u00a9\u00ae\u203c\u2049]"
    "[\ufe0f\u200d\U0001f3fb-\U0001f3ff\u20e3]*)+"
)
EMOJI_SPLIT = re.compile(f"({EMOJI.pattern})")


def is_emoji_run(text: str) -> bool:
    """True for runs the emoji font should draw (not arrows/℃ etc. text fonts have)."""
    return any(ord(c) >= 0x1F000 or c in "\ufe0f\u200d" or 0x2600 <= ord(c) <= 0x27BF for c in text)


def emoji(blocks: Blocks) -> Blocks:
    """Wrap emoji in ``Span.emoji`` so the writer can give them the emoji font."""

    def split(node: dict[str, Any]) -> Any:
        if node["t"] != "Str" or not EMOJI.search(node["c"]):
            return None
        out = []
        for index, part in enumerate(EMOJI_SPLIT.split(node["c"])):
            if not part:
                continue
            if index % 2 and is_emoji_run(part):
                out.append({"t": "Span", "c": [attr("", ["emoji"]), [{"t": "Str", "c": part}]]})
            else:
                out.append({"t": "Str", "c": part})
        return out

    return walk(blocks, split)
