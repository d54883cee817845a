"""Figures: check the image exists, drop file-name captions, number and label them.

``![스크린샷 2025-06-27 오후 3.52.11.png](images/a.png)`` is how screenshots
arrive from editors: the alt text is a file name, not a caption, so it is
dropped (FIG002).  A figure with a caption, or with a ``#fig:`` id, is numbered
per chapter and its caption starts with ``그림 3.2.``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..parse import Doc
from ..parse.ast import attr, iter_nodes, stringify, walk
from .context import Context, Target

IMAGE_EXT = r"(?:png|jpe?g|gif|svg|webp|bmp|tiff?|pdf|heic)"
FILE_NAME = re.compile(rf"^\S.{{0,150}}\.{IMAGE_EXT}$", re.IGNORECASE)


def is_file_name(text: str) -> bool:
    """True for alt texts like ``image.png`` or ``스크린샷 2025-06-27 오후 3.52.11.png``."""
    text = text.strip()
    return bool(FILE_NAME.match(text)) and len(text.split()) <= 8


def resolve_image(url: str, doc: Doc, ctx: Context) -> Path | None:
    """Find an image relative to its chapter file, then to the project root."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", url, re.IGNORECASE):
        return None  # http:, data: ... — not a local file
    from urllib.parse import unquote

    name = unquote(url.split("#", 1)[0].split("?", 1)[0])
    for base in (doc.chapter.path.parent, ctx.root):
        candidate = (base / name).resolve()
        if candidate.is_file():
            return candidate
    return None


def check_images(doc: Doc, ctx: Context) -> Doc:
    """IMG001: every local image exists; targets become paths relative to the project."""
    seen: dict[str, int] = {}

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Image":
            return None
        url = node["c"][2][0]
        occurrence = seen.get(url, 0)
        seen[url] = occurrence + 1
        if re.match(r"^[a-z][a-z0-9+.-]*:", url, re.IGNORECASE):
            return None
        found = resolve_image(url, doc, ctx)
        if found is None:
            ctx.problem(
                doc.chapter,
                "IMG001",
                f"image file not found: {url}",
                needle=url,
                occurrence=occurrence,
                hint="check the path (relative to the chapter file or the project folder); "
                "--keep-going builds with a placeholder",
            )
            return {
                "t": "Span",
                "c": [attr("", ["missing-image"]), [{"t": "Str", "c": f"[그림 없음: {url}]"}]],
            }
        try:
            node["c"][2][0] = found.relative_to(ctx.root).as_posix()
        except ValueError:
            node["c"][2][0] = found.as_posix()
        ctx.source_urls[(doc.chapter.id, node["c"][2][0])] = url
        return None

    doc.blocks = walk(doc.blocks, action)
    return doc


def number_caption(
    kind: str, word: str, attrs: list[Any], caption: list[Any], doc: Doc, ctx: Context
) -> None:
    """Number a captioned figure or table (or one with a ``fig:``/``tbl:`` id).

    The caption starts with ``그림 3.2.``, the number goes in ``data-number`` for
    writers, and the id becomes a cross-reference target.
    """
    blocks = caption[1]
    ident = attrs[0]
    if not stringify(blocks).strip() and not ident.startswith(f"{kind}:"):
        return
    number = ctx.next_number(doc.chapter, kind)
    if blocks and blocks[0]["t"] in ("Plain", "Para"):
        blocks[0]["c"] = [caption_label(word, number), {"t": "Space"}, *blocks[0]["c"]]
    else:
        caption[1] = [{"t": "Plain", "c": [caption_label(word, number)]}]
    attrs[2] = [kv for kv in attrs[2] if kv[0] != "number"] + [["number", number]]
    if ident:
        ctx.targets[ident] = Target(kind, ident, doc.chapter.id, number, f"{word} {number}")


def caption_label(kind_word: str, number: str) -> dict[str, Any]:
    return {
        "t": "Span",
        "c": [attr("", ["caption-label"]), [{"t": "Str", "c": f"{kind_word}\u00a0{number}."}]],
    }


def implicit_figures(doc: Doc, ctx: Context) -> Doc:
    """``![](a.png){#fig:x}`` alone in a paragraph is a figure too (pandoc needs alt text)."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] not in ("Para", "Plain") or len(node["c"]) != 1:
            return None
        image = node["c"][0]
        if image["t"] != "Image" or not image["c"][0][0].startswith("fig:"):
            return None
        ident = image["c"][0][0]
        image["c"][0][0] = ""
        caption = [{"t": "Plain", "c": image["c"][1]}] if image["c"][1] else []
        return {
            "t": "Figure",
            "c": [attr(ident), [None, caption], [{"t": "Plain", "c": [image]}]],
        }

    doc.blocks = walk(doc.blocks, action)
    return doc


def number_figures(doc: Doc, ctx: Context) -> Doc:
    word = ctx.book.config.captions["figure"]
    seen: dict[str, int] = {}  # images by source URL, to place messages on repeats
    for node in iter_nodes(doc.blocks):
        if node["t"] == "Image":
            source_url = ctx.source_urls.get((doc.chapter.id, node["c"][2][0]), node["c"][2][0])
            seen[source_url] = seen.get(source_url, 0) + 1
        if node["t"] != "Figure":
            continue
        attrs, caption, body = node["c"]
        blocks = caption[1]
        text = stringify(blocks).strip()
        if text and is_file_name(text):
            url = next((i["c"][2][0] for i in iter_nodes(body) if i["t"] == "Image"), "")
            source_url = ctx.source_urls.get((doc.chapter.id, url), url)
            ctx.problem(
                doc.chapter,
                "FIG002",
                f"image alt text is a file name, not a caption: {text}",
                needle=source_url or text,
                occurrence=seen.get(source_url, 0),
                hint="write a caption, or leave the brackets empty: ![](images/x.png)",
                fatal=False,
            )
            caption[1] = blocks = []
            text = ""
            for image in iter_nodes(body):
                if image["t"] == "Image":
                    image["c"][1] = []
        number_caption("fig", word, attrs, caption, doc, ctx)
    return doc
