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
import struct
from pathlib import Path

from ...cache import Cache, digest

VERSION = "2"  # 2: EXIF orientation applied, EXIF dropped
ORIENTATION = 0x0112  # the EXIF tag


def plain_rows(data: bytes) -> bool:
    """Whether a PNG's rows are what the PDF takes as they are: 8-bit, opaque,
    non-interlaced RGB or grey (see ``images``)."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n") or b"IDAT" not in data:
        return False
    bit_depth, color_type, _c, _f, interlace = data[24:29]
    if bit_depth != 8 or color_type not in (0, 2) or interlace != 0:
        return False
    return b"tRNS" not in data[: data.find(b"IDAT")]


def needs_conversion(data: bytes) -> bool:
    """True unless the file is a JPEG or a PNG with :func:`plain_rows` and no EXIF.

    WeasyPrint copies a PNG with EXIF (macOS screenshots carry it, with no orientation)
    to apply its orientation and so encodes it again: a second of the playbook's build.
    """
    if data[:3] == b"\xff\xd8\xff":
        return False
    if not plain_rows(data):
        return True
    return b"eXIf" in data[: data.find(b"IDAT")]


def flatten(data: bytes) -> bytes:
    """The first frame on white, turned as its EXIF says, as an 8-bit RGB (or grey) PNG
    with fast compression."""
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as image:
        image.seek(0)
        # As WeasyPrint shows it (``image-orientation: from-image``); the copy has no EXIF.
        frame = ImageOps.exif_transpose(image).convert("RGBA")
    background = Image.new("RGBA", frame.size, (255, 255, 255, 255))
    background.alpha_composite(frame)
    flat = background.convert("RGB")
    buffer = io.BytesIO()
    flat.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def without_exif(data: bytes) -> bytes | None:
    """An opaque 8-bit RGB/grey PNG whose only fault is EXIF that does not turn it, with its
    ``eXIf`` chunks left out (no decoding: the rows stay as they are); None otherwise."""
    from PIL import Image

    if not plain_rows(data):
        return None
    with Image.open(io.BytesIO(data)) as image:  # reads the chunks before the rows only
        if image.getexif().get(ORIENTATION, 1) != 1:
            return None
    chunks, position = [data[:8]], 8
    while position + 8 <= len(data):
        (length,) = struct.unpack("!I", data[position : position + 4])
        end = position + 12 + length
        if data[position + 4 : position + 8] != b"eXIf":
            chunks.append(data[position:end])
        position = end
    return b"".join(chunks)


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
        converted = without_exif(data) or flatten(data)
    except Exception:  # an image Pillow cannot read: let WeasyPrint report it
        return path
    stored = cache.put("print-image", key, converted, ".png")
    return stored or path
