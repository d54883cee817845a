"""Raster images made ready for the WeasyPrint PDF, once, in the cache.

WeasyPrint re-encodes every PNG that has transparency or a palette (two or
three times: the colour, the alpha mask, the converted copy), which on a book of
screenshots costs more than laying out its text.  A printed page is white, so
images are flattened onto white and stored as 8-bit RGB or grey PNGs, whose
compressed rows the PDF takes unchanged (see ``images``).  The result is
cached by content hash: a warm build does no image work at all.
"""

from __future__ import annotations

import io
from pathlib import Path

from ...cache import Cache, digest

VERSION = "1"


def needs_conversion(data: bytes) -> bool:
    """True unless the file is a JPEG or an 8-bit, opaque, non-interlaced RGB/grey PNG."""
    if data[:3] == b"\xff\xd8\xff":
        return False
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return True
    bit_depth, color_type, _c, _f, interlace = data[24:29]
    if bit_depth != 8 or color_type not in (0, 2) or interlace != 0:
        return True
    return b"tRNS" in data[: data.find(b"IDAT")] if b"IDAT" in data else True


def flatten(data: bytes) -> bytes:
    """The first frame on white, as an 8-bit RGB (or grey) PNG with fast compression."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        image.seek(0)
        frame = image.convert("RGBA")
    background = Image.new("RGBA", frame.size, (255, 255, 255, 255))
    background.alpha_composite(frame)
    flat = background.convert("RGB")
    buffer = io.BytesIO()
    flat.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def print_ready(path: Path, cache: Cache | None) -> Path:
    """``path`` itself, or a cached flattened copy when WeasyPrint would re-encode it."""
    if path.suffix.lower() in (".svg", ".pdf"):
        return path
    data = path.read_bytes()
    if not needs_conversion(data):
        return path
    if cache is None:
        return path
    key = digest("print-image", VERSION, data)
    cached = cache.lookup("print-image", key, ".png")  # only an entry that checks out
    if cached is not None:
        return cached
    try:
        converted = flatten(data)
    except Exception:  # an image Pillow cannot read: let WeasyPrint report it
        return path
    stored = cache.put("print-image", key, converted, ".png")
    return stored or path
