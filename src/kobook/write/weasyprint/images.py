"""Faster raster images in WeasyPrint: reuse PNG data instead of re-encoding it.

For every PNG, WeasyPrint decodes the file and encodes it again with Pillow
just to pull out the compressed pixel rows (IDAT) it puts in the PDF.  On a
book with ~90 screenshots that is a third of the PDF time.  An 8-bit,
non-interlaced RGB or grey PNG already holds exactly what the PDF needs (PNG
predictors are what ``/Predictor 15`` means), so its IDAT chunks are copied as
they are.  Other images (alpha, palettes) are still re-encoded, with fast
deflate (level 1): a slightly larger PDF for a much shorter build.
"""

from __future__ import annotations

import contextvars
import io
import struct
from typing import Any

_PATCHED = False
FAST_PNG: contextvars.ContextVar[bool] = contextvars.ContextVar("kobook_fast_png", default=False)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def idat_chunks(data: bytes) -> bytes | None:
    """The joined IDAT data of a PNG that PDF can take as is, else None."""
    if not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        return None
    bit_depth, color_type, _comp, _filter, interlace = data[24:29]
    if bit_depth != 8 or color_type not in (0, 2) or interlace != 0:
        return None
    return idat_chunks_any(data) or None


def install() -> None:
    """Patch WeasyPrint's PNG handling once."""
    global _PATCHED
    if _PATCHED:
        return
    from weasyprint import images

    original = images.RasterImage._get_png_data

    def get_png_data(pillow_image: Any) -> bytes:
        source = getattr(pillow_image, "fp", None)
        if isinstance(source, io.BytesIO) and pillow_image.format == "PNG":
            reused = idat_chunks(source.getvalue())
            if reused is not None:
                return reused
        if pillow_image.mode not in ("RGB", "L", "RGBA", "LA"):
            return bytes(original(pillow_image))
        buffer = io.BytesIO()
        pillow_image.save(buffer, format="PNG", compress_level=1)
        data = idat_chunks_any(buffer.getvalue())
        return data

    images.RasterImage._get_png_data = staticmethod(get_png_data)

    # WeasyPrint re-encodes converted images (palettes, transparency) at zlib's
    # default level; level 1 is several times faster for a few % more bytes.
    from PIL import Image

    original_save = Image.Image.save

    def save(self: Any, fp: Any, format: Any = None, **params: Any) -> None:
        if FAST_PNG.get() and (format or "").upper() == "PNG" and "compress_level" not in params:
            params["compress_level"] = 1
        original_save(self, fp, format, **params)

    Image.Image.save = save  # type: ignore[method-assign]
    _PATCHED = True


def idat_chunks_any(data: bytes) -> bytes:
    """Joined IDAT data of any PNG (what WeasyPrint's own helper returns)."""
    chunks = []
    position = 8
    while position + 8 <= len(data):
        (length,) = struct.unpack("!I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        if kind == b"IDAT":
            chunks.append(data[position + 8 : position + 8 + length])
        elif kind == b"IEND":
            break
        position += 12 + length
    return b"".join(chunks)
