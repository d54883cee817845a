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

from ..boundary import is_file_url, within
from ..model import Doc
from ..parse.ast import attr, iter_nodes, rewrite, stringify
from . import remote
from .context import Context, Target
from .image_files import image_warnings, unreadable_image
from .remote_images import (
    HTML_FORMATS,
    download_images,
    lone_local_img,
    lone_remote_img,
    raw_remote_images,
    remote_image,
)

IMAGE_EXT = r"(?:png|jpe?g|gif|svg|webp|bmp|tiff?|pdf|heic)"
FILE_NAME = re.compile(rf"^\S.{{0,150}}\.{IMAGE_EXT}$", re.IGNORECASE)


def is_file_name(text: str) -> bool:
    """True for alt texts like ``image.png`` or ``스크린샷 2025-06-27 오후 3.52.11.png``."""
    text = text.strip()
    return bool(FILE_NAME.match(text)) and len(text.split()) <= 8


def resolve_image(url: str, doc: Doc, ctx: Context) -> Path | None:
    """Find an image relative to its chapter file, then to the project root.

    The path is resolved (symlinks followed): the caller checks that it lies
    inside the book (SEC001) before anything reads it.
    """
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
    """IMG001: every local image exists; targets become paths relative to the project.

    IMG002: every remote image is downloaded (:mod:`.remote`) and points at the
    local copy, or is reported; a lone raw ``<img src="https://...">`` becomes
    an image node first, so it is downloaded too, and so does a lone ``<img>`` naming
    an image of the book (:func:`book_image`).
    """
    seen: dict[str, int] = {}
    download_images(doc, ctx)

    def action(node: dict[str, Any]) -> Any:
        if node["t"] in ("RawInline", "RawBlock") and node["c"][0] in HTML_FORMATS:
            image = lone_remote_img(node["c"][1])
            if image is None and (local := book_image(node["c"][1], doc, ctx)) is not None:
                action(local)  # as a Markdown image: its path made the project's
                return local if node["t"] == "RawInline" else {"t": "Plain", "c": [local]}
            if image is None:
                return raw_remote_images(node, doc, ctx, seen)
            url = image["c"][2][0]
            occurrence = seen.get(url, 0)
            seen[url] = occurrence + 1
            result = remote_image(image, url, occurrence, doc, ctx)
            return result if node["t"] == "RawInline" else {"t": "Plain", "c": [result]}
        if node["t"] != "Image":
            return None
        url = node["c"][2][0]
        occurrence = seen.get(url, 0)
        seen[url] = occurrence + 1
        if is_file_url(url):
            return refused_image(url, "a file: URL is never read", occurrence, doc, ctx)
        if remote.has_scheme(url):
            return remote_image(node, url, occurrence, doc, ctx)
        found = resolve_image(url, doc, ctx)
        if found is not None and not within(found, ctx.root):
            return refused_image(url, f"it resolves to {found}", occurrence, doc, ctx)
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
                "c": [
                    attr("", ["missing-image"]),
                    [{"t": "Str", "c": f"[{ctx.book.config.words.word('missing-image')}: {url}]"}],
                ],
            }
        unreadable = unreadable_image(found)
        if unreadable:
            ctx.problem(
                doc.chapter,
                "IMG003",
                f"image file cannot be used: {url}: {unreadable}",
                needle=url,
                occurrence=occurrence,
                hint="open it in an image editor and save it again as PNG or JPEG; "
                "--keep-going builds with a placeholder",
            )
            return missing_placeholder(url, ctx)
        for warning in image_warnings(found):
            ctx.problem(
                doc.chapter,
                "IMG005",
                f"image {url}: {warning}",
                needle=url,
                occurrence=occurrence,
                hint="open it in an image editor and save it again as PNG or JPEG",
                fatal=False,
            )
        try:
            node["c"][2][0] = found.relative_to(ctx.root).as_posix()
        except ValueError:
            node["c"][2][0] = found.as_posix()
        ctx.source_urls[(doc.chapter.id, node["c"][2][0])] = url
        return None

    doc.blocks = rewrite(doc.blocks, action)
    return doc


def book_image(html: str, doc: Doc, ctx: Context) -> dict[str, Any] | None:
    """The image node for raw HTML that is one plain ``<img>`` tag naming a readable image
    of the book (:func:`~.remote_images.lone_local_img`), relative to its chapter's file
    first as a Markdown image is: then every writer draws it, and the site copies its
    file (left as raw HTML, the site linked a file it never copied, and the Typst PDF
    dropped it).  Any other ``<img>`` stays raw HTML, with what the writers say of it
    (EPUB001, SEC002, the sanitizer's HTML001)."""
    image = lone_local_img(html)
    if image is None:
        return None
    found = resolve_image(image["c"][2][0], doc, ctx)
    if found is None or not within(found, ctx.root) or unreadable_image(found):
        return None
    return image


def refused_image(url: str, why: str, occurrence: int, doc: Doc, ctx: Context) -> dict[str, Any]:
    """SEC001 for an image outside the book (or a ``file:`` URL); the placeholder with
    ``--keep-going``.  Nothing is read from it."""
    ctx.problem(
        doc.chapter,
        "SEC001",
        f"image resolves outside the book folder: {url} ({why})",
        needle=url,
        occurrence=occurrence,
        hint="copy the image into the book (images/) and link it by a relative path; "
        "--keep-going builds with a placeholder",
    )
    return missing_placeholder(url, ctx)


def missing_placeholder(url: str, ctx: Context) -> dict[str, Any]:
    """``[그림 없음: URL]`` where an image cannot be used."""
    text = f"[{ctx.book.config.words.word('missing-image')}: {url}]"
    return {"t": "Span", "c": [attr("", ["missing-image"]), [{"t": "Str", "c": text}]]}


KIND_WORD = {"fig": "figure", "tbl": "table", "lst": "listing"}


def number_caption(kind: str, attrs: list[Any], caption: list[Any], doc: Doc, ctx: Context) -> None:
    """Number a captioned figure or table (or one with a ``fig:``/``tbl:`` id).

    The caption starts with ``그림 3.2.``, the number goes in ``data-number`` for
    writers, and the id becomes a cross-reference target.
    """
    blocks = caption[1]
    ident = attrs[0]
    if not stringify(blocks).strip() and not ident.startswith(f"{kind}:"):
        return
    number = ctx.next_number(doc.chapter, kind)
    words = ctx.book.config.words
    label = caption_label(words.caption(KIND_WORD[kind], number))
    if blocks and blocks[0]["t"] in ("Plain", "Para"):
        blocks[0]["c"] = [label, {"t": "Space"}, *blocks[0]["c"]]
    else:
        caption[1] = [{"t": "Plain", "c": [label]}]
    attrs[2] = [kv for kv in attrs[2] if kv[0] != "number"] + [["number", number]]
    if ident:
        ctx.targets[ident] = Target(
            kind, ident, doc.chapter.id, number, words.label(KIND_WORD[kind], number)
        )


def caption_label(text: str) -> dict[str, Any]:
    """``그림 3.2.`` with a no-break space, so the number never starts a line alone."""
    return {
        "t": "Span",
        "c": [attr("", ["caption-label"]), [{"t": "Str", "c": text.replace(" ", "\u00a0")}]],
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

    doc.blocks = rewrite(doc.blocks, action)
    return doc


def number_figures(doc: Doc, ctx: Context) -> Doc:
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
                hint="describe what the image shows: ![what it shows](images/x.png)",
                fatal=False,
            )
            caption[1] = blocks = []
            text = ""
            for image in iter_nodes(body):
                if image["t"] == "Image":
                    image["c"][1] = []
        number_caption("fig", attrs, caption, doc, ctx)
    return doc
