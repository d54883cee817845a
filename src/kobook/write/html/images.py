"""The site's images: each with its size, each loaded as the reader nears it."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote

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
    path = (root / unquote(src.split("#", 1)[0])).resolve()
    if not path.is_relative_to(root.resolve()) or not path.is_file():
        return None
    return image_size(path)
