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
from ..parse.ast import attr, iter_nodes, keyval, raw_block, raw_inline, stringify, walk
from .mathsvg import MathError, img_tag, render_math

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
            return {"t": "Code", "c": [attr("", ["math-error"]), tex.strip()]}
        return raw_inline("html", img_tag(image, tex, display))

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


def details_html(blocks: Blocks) -> Blocks:
    """``Div.callout-details`` → ``<details class="details"><summary>…</summary>…</details>``.

    Runs after the sanitizer: these tags are kobook's own.  The PDF engines keep
    the callout box (always open: the answers stay readable in print).
    """

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "callout-details" not in node["c"][0][1]:
            return None
        ident = node["c"][0][0]
        body = node["c"][1]
        title: list[dict[str, Any]] = []
        if body and body[0]["t"] == "Div" and "callout-title" in body[0]["c"][0][1]:
            title = [i for b in body[0]["c"][1] for i in b.get("c", [])]
            body = body[1:]
        id_attr = f' id="{html.escape(ident, quote=True)}"' if ident else ""
        return [
            raw_block("html", f'<details class="details"{id_attr}>'),
            raw_block("html", "<summary>"),
            {"t": "Plain", "c": title},
            raw_block("html", "</summary>"),
            *walk(body, action),
            raw_block("html", "</details>"),
        ]

    return walk(blocks, action)


# An embedded page runs its scripts in an opaque origin: no allow-same-origin, so it
# cannot read the site's storage or reach into the page that frames it.
EMBED_SANDBOX = "allow-scripts"


def embeds_html(blocks: Blocks) -> Blocks:
    """``Div.embed[src]`` → the page in a sandboxed ``<iframe>`` (its copy in the site).

    The caption of its static figure, if any, stays under the frame, so the
    figure numbers are the same as in the PDF.  Runs after the sanitizer.
    """

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "embed" not in node["c"][0][1]:
            return None
        src = keyval(node["c"][0], "src")
        if not src:
            return None
        ident = node["c"][0][0]
        figure = next((b for b in node["c"][1] if b["t"] == "Figure"), None)
        caption = figure["c"][1][1] if figure is not None else []
        ident = ident or (figure["c"][0][0] if figure is not None else "")
        title = keyval(node["c"][0], "title") or stringify(caption) or src
        id_attr = f' id="{html.escape(ident, quote=True)}"' if ident else ""
        frame = (
            f'<iframe class="embed-frame" src="{html.escape(src, quote=True)}" '
            f'sandbox="{EMBED_SANDBOX}" loading="lazy" referrerpolicy="no-referrer" '
            f'title="{html.escape(title, quote=True)}"></iframe>'
        )
        out = [raw_block("html", f'<figure class="embed"{id_attr}>'), raw_block("html", frame)]
        if caption:
            out += [raw_block("html", "<figcaption>"), *caption, raw_block("html", "</figcaption>")]
        return [*out, raw_block("html", "</figure>")]

    return walk(blocks, action)
