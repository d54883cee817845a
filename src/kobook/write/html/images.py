"""The site's images: each with its size, each loaded as the reader nears it."""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path
from urllib.parse import unquote

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
    path = (root / unquote(src.split("#", 1)[0])).resolve()
    if not path.is_relative_to(root.resolve()) or not path.is_file():
        return None
    return image_header_size(path, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=4096)
def image_header_size(path: Path, _mtime: int) -> tuple[int, int] | None:
    """The size the file's header gives: Pillow's for a raster image (it reads no pixels
    for it), the root element's ``width``/``height`` or ``viewBox`` for an SVG."""
    if path.suffix.lower() == ".svg":
        return svg_size(path)
    from PIL import Image

    try:
        with Image.open(path) as image:
            return image.size
    except Exception:  # a format Pillow does not know, or a broken file
        return None


SVG_ROOT = re.compile(rb"<svg\b[^>]*>", re.S)
NUMBER = r"\s*([0-9]+(?:\.[0-9]+)?)\s*(?:px)?\s*"


def svg_size(path: Path) -> tuple[int, int] | None:
    """An SVG's size in CSS pixels from its root element (the first 8 KB of the file)."""
    with path.open("rb") as file:
        head = SVG_ROOT.search(file.read(8192))
    if head is None:
        return None
    tag = head.group(0).decode("utf-8", "replace")
    width = re.search(rf'\swidth="{NUMBER}"', tag)
    height = re.search(rf'\sheight="{NUMBER}"', tag)
    if width and height:
        return round(float(width.group(1))), round(float(height.group(1)))
    box = re.search(r'\sviewBox="\s*[-0-9.]+[\s,]+[-0-9.]+[\s,]+([0-9.]+)[\s,]+([0-9.]+)\s*"', tag)
    if box:
        return round(float(box.group(1))), round(float(box.group(2)))
    return None
