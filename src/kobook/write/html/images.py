"""The site's images: each with its size, each loaded as the reader nears it, and the
files the chapters' raw HTML shows copied with them."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote

from ...boundary import within
from ...model import Doc
from ...parse.ast import HTML_FORMATS, iter_nodes
from ...transform.image_files import unreadable_image
from ...transform.remote import img_tags
from ..shared.imagefiles import image_size

IMG = re.compile(r"<img\b(?![^>]*\sloading=)([^>]*?)(\s*/?>)")


def lazy_images(body: str) -> str:
    """Images load as the reader nears them (a chapter of 30 figures opens at once)."""
    return IMG.sub(r'<img\1 loading="lazy" decoding="async"\2', body)


UNSIZED = re.compile(r"<img\b(?![^>]*\swidth=)(?![^>]*\sclass=\"[^\"]*\bmath\b)([^>]*?)(\s*/?>)")
SRC = re.compile(r'\ssrc="([^"]+)"')


def sized_images(body: str, root: Path) -> str:
    """Each raster image of the book with its pixel size (``width``, ``height``): the
    browser keeps its place while it loads, so the text does not jump (the stylesheet's
    ``height: auto`` keeps the shape when the image is drawn smaller)."""

    def add(match: re.Match[str]) -> str:
        src = SRC.search(match.group(1))
        size = pixel_size(root, html.unescape(src.group(1))) if src else None
        if size is None:
            return match.group(0)
        return f'<img{match.group(1)} width="{size[0]}" height="{size[1]}"{match.group(2)}'

    return UNSIZED.sub(add, body)


def pixel_size(root: Path, src: str) -> tuple[int, int] | None:
    """The pixel size of the book's image at ``src`` (relative to the book), if raster."""
    if not src or "://" in src or src.startswith(("data:", "/", "#")):
        return None
    path = book_file(root, unquote(src.split("#", 1)[0]))
    return image_size(path) if path is not None else None


def book_file(root: Path, name: str) -> Path | None:
    """The file at ``name`` (a path relative to the book) when it lies inside the book,
    symlinks followed."""
    path = (root / name).resolve()
    return path if within(path, root) and path.is_file() else None


def raw_images(docs: list[Doc], root: Path) -> dict[str, Path]:
    """The images the chapters' raw HTML shows by a path relative to the site's pages
    (``<img src="images/a.png" align="right">``; a plain lone ``<img>`` is an image node
    already, ``transform/figures.py``'s ``book_image``): site path → the book's file, for
    each that is an image inside the book.  Copied like the images of image nodes, or the
    page showed a file the site never had.  A path with ``..`` would leave the site, and a
    file that is no image (``.git/config``) is never published."""
    found: dict[str, Path] = {}
    for doc in docs:
        for node in iter_nodes(doc.blocks):
            if node["t"] not in ("RawInline", "RawBlock") or node["c"][0] not in HTML_FORMATS:
                continue
            for tag in img_tags(node["c"][1])[0]:
                name = unquote(tag.get("src", "").strip().split("#")[0].split("?")[0])
                parts = name.split("/")
                if not name or ":" in parts[0] or name.startswith("/") or ".." in parts:
                    continue
                source = book_file(root, name)
                if source is not None and not unreadable_image(source):
                    found[name] = source
    return found
