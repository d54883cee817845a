"""Remote images in a chapter: download them (``remote.py``), point images at the copies.

The figures pass (``check_images``) calls these for ``http(s)`` images and
lone raw ``<img src="https://...">`` tags; with ``--offline`` or
``remote-images: off`` each one is IMG002 (a placeholder with ``--keep-going``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..model import Doc
from ..parse.ast import HTML_FORMATS, attr, iter_nodes, stringify, text_inlines
from . import remote
from .context import Context
from .image_files import unreadable_image


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
    unusable = unreadable_image(local) if isinstance(local, Path) else ""
    if unusable:  # a downloaded file is held to what the book's own images are
        ctx.problem(
            doc.chapter,
            "IMG003",
            f"downloaded image cannot be used: {remote.short(url)}: {unusable}",
            needle=url,
            occurrence=occurrence,
            hint="download it, make it smaller and save it into images/; "
            "--keep-going builds with a placeholder",
        )
        return remote_placeholder(url, ctx)
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
    return image_of(tags[0])


# What an image node keeps of an ``<img>`` tag: a tag with anything else (``align``,
# ``style``, a handler) stays raw HTML, for the sanitizer to map or report.
IMAGE_ATTRIBUTES = frozenset({"src", "alt", "title", "width", "height", "id", "class"})


def lone_local_img(html: str) -> dict[str, Any] | None:
    """An image node for raw HTML that is one plain ``<img>`` tag (:data:`IMAGE_ATTRIBUTES`)
    naming a file by a relative path (``images/a.png``, ``../images/a.png``).  A
    ``data:`` image, an absolute path and any other scheme stay raw HTML."""
    tags, lone = remote.img_tags(html)
    if not lone or not set(tags[0]) <= IMAGE_ATTRIBUTES:
        return None
    src = tags[0].get("src", "").strip()
    if not src or src.startswith(("/", "\\")) or re.match(r"[a-z][a-z0-9+.-]*:", src, re.I):
        return None
    return image_of(tags[0])


def image_of(tag: dict[str, str]) -> dict[str, Any]:
    """The image node an ``<img>`` tag's attributes describe (its size kept, the rest of
    its attributes dropped as the sanitizer would)."""
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
