"""An SVG's links to other files, for an engine that reads the SVG itself (Typst).

WeasyPrint reads an SVG's ``<image href="photo.png">`` through kobook's fetcher: files
inside the book only, SEC002 for the rest.  Typst's SVG renderer reads such a file from
disk on its own, and one it cannot load fails the whole book.  So before Typst sees an
SVG, each raster image it links that lies inside the folders a writer may read is
written into it as a ``data:`` URL, and every other link it would read is reported here
(SEC002, the same as the fetcher's) and removed by :func:`svgclean.clean`.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ...boundary import within

# The href of an element that reads another file (a link, <a href>, reads nothing).
HREF = re.compile(
    r"""(<(?:image|feImage|use)\b[^>]*?\s(?:xlink:)?href\s*=\s*)(["'])(.*?)\2""", re.S | re.I
)
RASTER = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}
# A linked image larger than this stays out: the SVG would grow by a third more.
MAX_INLINE = 32 * 1024 * 1024


def local_path(url: str, base: Path) -> Path | None:
    """The file ``url`` names, relative to ``base`` (the SVG's folder); None for a URL
    of another scheme (``http:``), which no PDF engine reads."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "file":
        return Path(unquote(parts.path))
    if scheme or parts.netloc or not parts.path:
        return None
    return base / unquote(parts.path)


def inline_image(url: str, base: Path, roots: Sequence[Path]) -> str | None:
    """``url`` as a ``data:`` URL when it names a raster image inside ``roots``."""
    path = local_path(url, base)
    if path is None or path.suffix.lower() not in RASTER:
        return None
    if not any(within(path, root) for root in roots) or not path.is_file():
        return None
    if path.stat().st_size > MAX_INLINE:
        return None
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f"data:{RASTER[path.suffix.lower()]};base64,{data}"


def linked_files(svg: str, base: Path, roots: Sequence[Path]) -> tuple[str, list[str]]:
    """``svg`` with its linked images inside ``roots`` written in, and the links it keeps
    that read another file (the URLs to report; :func:`svgclean.clean` removes them)."""
    refused: list[str] = []

    def one(match: re.Match[str]) -> str:
        url = html.unescape(match.group(3)).strip()
        if url.startswith("#") or url.lower().startswith("data:"):
            return match.group(0)
        inline = inline_image(url, base, roots)
        if inline is None:
            if url not in refused:
                refused.append(url)
            return match.group(0)
        quote = match.group(2)
        return f"{match.group(1)}{quote}{inline}{quote}"

    return HREF.sub(one, svg), refused
