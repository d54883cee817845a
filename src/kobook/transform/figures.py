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
from ..parse import Doc
from ..parse.ast import attr, iter_nodes, stringify, text_inlines, walk
from . import remote
from .context import Context, Target
from .image_files import unreadable_image

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
    an image node first, so it is downloaded too.
    """
    seen: dict[str, int] = {}
    download_images(doc, ctx)

    def action(node: dict[str, Any]) -> Any:
        if node["t"] in ("RawInline", "RawBlock") and node["c"][0] in HTML_FORMATS:
            image = lone_remote_img(node["c"][1])
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
        try:
            node["c"][2][0] = found.relative_to(ctx.root).as_posix()
        except ValueError:
            node["c"][2][0] = found.as_posix()
        ctx.source_urls[(doc.chapter.id, node["c"][2][0])] = url
        return None

    doc.blocks = walk(doc.blocks, action)
    return doc


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


HTML_FORMATS = ("html", "html4", "html5")


def downloads_allowed(ctx: Context) -> bool:
    """False with ``--offline`` or ``remote-images: off`` in metadata.yaml."""
    return not ctx.offline and ctx.book.config.get("remote-images", True) not in (False, "off")


def remote_urls(doc: Doc) -> list[str]:
    """The http(s) image URLs of a chapter: images and lone raw ``<img>`` tags."""
    urls: list[str] = []
    for node in iter_nodes(doc.blocks):
        if node["t"] == "Image":
            url = node["c"][2][0]
        elif node["t"] == "RawInline" and node["c"][0] in HTML_FORMATS:
            image = lone_remote_img(node["c"][1])
            url = image["c"][2][0] if image else ""
        else:
            continue
        if remote.is_http(url) and url not in urls:
            urls.append(url)
    return urls


def download_images(doc: Doc, ctx: Context) -> None:
    """Fill ``ctx.remote`` for the chapter's remote images: cached copies, then downloads
    (four at a time).  Nothing is fetched when downloads are off."""
    if not downloads_allowed(ctx):
        return
    wanted = [u for u in remote_urls(doc) if u not in ctx.remote]
    for url in list(wanted):
        found = remote.cached(url, ctx.cache)
        if found is not None:
            ctx.remote[url] = found
            wanted.remove(url)
    if not wanted:
        return
    if ctx.remote_budget is None:
        ctx.remote_budget = remote.Budget(ctx.remote_limits.total)
    budget = ctx.remote_budget

    def one(url: str) -> Path | str:
        try:
            return remote.fetch(url, ctx.cache, ctx.remote_limits, budget)
        except remote.RemoteError as exc:
            return exc.reason

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(4, len(wanted))) as pool:
        for url, result in zip(wanted, pool.map(one, wanted), strict=True):
            ctx.remote[url] = result


def remote_image(
    node: dict[str, Any], url: str, occurrence: int, doc: Doc, ctx: Context
) -> dict[str, Any]:
    """The image pointing at its downloaded copy, or IMG002 and a placeholder.

    The copy's path is relative to the project when the cache is inside it,
    else absolute; the ``kobook-remote`` attribute keeps the URL so the HTML
    writer copies the file into the site.
    """
    local = ctx.remote.get(url) if downloads_allowed(ctx) else None
    if isinstance(local, Path):
        try:
            target = local.resolve().relative_to(ctx.root).as_posix()
        except ValueError:
            target = local.resolve().as_posix()
        attrs = node["c"][0]
        attrs[2] = [kv for kv in attrs[2] if kv[0] != remote.REMOTE_ATTR]
        attrs[2].append([remote.REMOTE_ATTR, url])
        node["c"][2][0] = target
        ctx.source_urls[(doc.chapter.id, target)] = url
        return node
    message, hint = remote_problem(url, ctx)
    ctx.problem(doc.chapter, "IMG002", message, needle=url, occurrence=occurrence, hint=hint)
    return remote_placeholder(url, ctx)


def remote_problem(url: str, ctx: Context) -> tuple[str, str]:
    """IMG002's message and hint for a remote image that has no local copy."""
    keep = "; --keep-going builds with a placeholder"
    instead = "download it into images/ and change the link"
    shown = remote.short(url)
    if not remote.is_http(url):
        return f"image is not a local file and not http(s), not downloaded: {shown}", instead + keep
    if ctx.offline:
        return (
            f"remote image not downloaded (--offline): {shown}",
            f"build without --offline to download it, or {instead}{keep}",
        )
    if not downloads_allowed(ctx):
        return (
            f"remote image not downloaded (remote-images: off): {shown}",
            f"remove 'remote-images: off' from metadata.yaml to download it, or {instead}{keep}",
        )
    reason = ctx.remote.get(url, "not downloaded")
    return (
        f"remote image could not be downloaded: {shown} ({reason})",
        f"check the URL, or {instead}{keep}",
    )


def remote_placeholder(url: str, ctx: Context) -> dict[str, Any]:
    """What the reader sees instead of a remote image: ``[그림 없음: URL]``."""
    text = f"[{ctx.book.config.words.word('missing-image')}: {remote.short(url)}]"
    classes = ["missing-image", "remote-image"]
    return {"t": "Span", "c": [attr("", classes), [{"t": "Str", "c": text}]]}


def lone_remote_img(html: str) -> dict[str, Any] | None:
    """An image node for raw HTML that is one ``<img>`` tag with a remote ``src``."""
    tags, lone = remote.img_tags(html)
    if not lone or not remote.is_http(tags[0].get("src", "")):
        return None
    tag = tags[0]
    keyvals = [[key, tag[key]] for key in ("width", "height") if tag.get(key)]
    return {
        "t": "Image",
        "c": [
            attr(tag.get("id", ""), tag.get("class", "").split(), keyvals),
            text_inlines(tag.get("alt", "")),
            [tag["src"], tag.get("title", "")],
        ],
    }


def raw_remote_images(
    node: dict[str, Any], doc: Doc, ctx: Context, seen: dict[str, int]
) -> dict[str, Any] | None:
    """Remote ``<img>`` tags inside larger raw HTML are not downloaded: IMG002.

    A warning when downloads are on (the HTML site would link to the server,
    the PDF may miss the image); an error when they are off, and with
    ``--keep-going`` each tag becomes the placeholder.
    """
    html = node["c"][1]
    tags, _ = remote.img_tags(html)
    urls = [t.get("src", "") for t in tags if remote.is_http(t.get("src", ""))]
    if not urls:
        return None
    for url in urls:
        occurrence = seen.get(url, 0)
        seen[url] = occurrence + 1
        if downloads_allowed(ctx):
            ctx.problem(
                doc.chapter,
                "IMG002",
                f"remote image inside raw HTML is not downloaded: {remote.short(url)}",
                needle=url,
                occurrence=occurrence,
                hint="write it as ![](URL) or as an <img> tag on its own so kobook downloads it",
                fatal=False,
            )
        else:
            message, hint = remote_problem(url, ctx)
            ctx.problem(
                doc.chapter, "IMG002", message, needle=url, occurrence=occurrence, hint=hint
            )
    if downloads_allowed(ctx):
        return None

    def placeholder(match: re.Match[str]) -> str:
        found, _ = remote.img_tags(match.group(0))
        src = found[0].get("src", "") if found else ""
        if not remote.is_http(src):
            return match.group(0)
        from html import escape

        text = stringify(remote_placeholder(src, ctx))
        return f'<span class="missing-image remote-image">{escape(text)}</span>'

    replaced = re.sub(r"<img\b[^>]*>", placeholder, html, flags=re.IGNORECASE)
    return {"t": node["t"], "c": [node["c"][0], replaced]}


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

    doc.blocks = walk(doc.blocks, action)
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
                hint="write a caption, or leave the brackets empty: ![](images/x.png)",
                fatal=False,
            )
            caption[1] = blocks = []
            text = ""
            for image in iter_nodes(body):
                if image["t"] == "Image":
                    image["c"][1] = []
        number_caption("fig", attrs, caption, doc, ctx)
    return doc
