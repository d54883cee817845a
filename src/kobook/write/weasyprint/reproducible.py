"""Make WeasyPrint's PDF depend only on the book: two fixes made where the bytes are.

Measured on the sample book (two copies in two folders, two cache folders),
two WeasyPrint PDFs differed in exactly these places (policy and the rest of
the story: :mod:`kobook.reproducible`):

* **Image names.**  A raster image's PDF name is ``/i`` + the md5 of its URL,
  and the URL is absolute (``file:///tmp/…/images/a.png``, or the print-ready
  copy in the cache folder): another checkout, another name, and the page
  streams that draw it differ too.  The id is made from the image's bytes
  (and its orientation) instead; it is only a name and a cache key, so
  identical images now also share one PDF object.
* **Font timestamps.**  Fonts WeasyPrint rewrites with fontTools (the colour
  emoji font, whose bitmaps it drops; variable fonts) get ``head.modified`` =
  now, unless ``SOURCE_DATE_EPOCH`` is set.  They keep the date in the font
  file instead (fontTools' ``recalcTimestamp=False``).

Both are patches of WeasyPrint internals (checked with WeasyPrint 70), made
once and harmless to other users of the library.
"""

from __future__ import annotations

import functools
from hashlib import md5
from typing import Any

_PATCHED = False


def content_id(image_data: bytes, orientation: Any) -> str:
    """The image's name in the PDF: from what is drawn, never from where it was read."""
    return md5(image_data + repr(orientation).encode(), usedforsecurity=False).hexdigest()


def install() -> None:
    """Patch WeasyPrint's image ids and font saving once."""
    global _PATCHED
    if _PATCHED:
        return
    from fontTools.ttLib import TTFont
    from weasyprint import images
    from weasyprint.pdf import fonts

    original_init = images.RasterImage.__init__

    def init(
        self: Any, pillow_image: Any, image_id: str, image_data: bytes | None, *args: Any, **kw: Any
    ) -> None:
        if image_data is not None:
            orientation = args[2] if len(args) > 2 else kw.get("orientation", "none")
            image_id = content_id(image_data, orientation)
        original_init(self, pillow_image, image_id, image_data, *args, **kw)

    images.RasterImage.__init__ = init
    fonts.TTFont = functools.partial(TTFont, recalcTimestamp=False)
    _PATCHED = True
