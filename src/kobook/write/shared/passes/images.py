"""Raster images at the size every output gives them: one image pixel per CSS pixel.

WeasyPrint and the HTML book show a picture of 300 pixels 300 CSS pixels (225 pt)
wide; Typst takes the file's DPI (else 72) and XeLaTeX 72, so the same screenshot
printed a third larger there.  The engines that guess get the width as a share of
the text width instead, decided here once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ....boundary import within
from ....parse.ast import rewrite
from ..imagefiles import image_size
from .base import Blocks

RASTERS = (".png", ".jpg", ".jpeg", ".gif", ".webp")
PX = 0.75  # a CSS pixel in points: WeasyPrint and the HTML book show an image pixel as one


def natural_widths(blocks: Blocks, roots: list[Path], text_width: float) -> Blocks:
    """Raster images without a width get the width the other outputs give them: one CSS
    pixel per image pixel, as a share of the text width at most the whole of it.  Images
    in tables keep the engine's own size: a share of the text width would be one of the
    cell's there.  Only files inside ``roots`` (the book, the cache) are read."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] == "Table":
            return node
        if node["t"] != "Image":
            return None
        attrs = dict(node["c"][0][2])
        path = roots[0] / node["c"][2][0]
        if "width" in attrs or "height" in attrs or path.suffix.lower() not in RASTERS:
            return None
        if not any(within(path, top) for top in roots):  # never read outside the book
            return None
        size = image_size(path)
        if size is None:  # not an image Pillow reads: the compiler reports it
            return None
        pixels = size[0]
        share = min(100.0, pixels * PX / text_width * 100) if text_width > 0 else 100.0
        ident, classes, pairs = node["c"][0]
        attr = [ident, classes, [*pairs, ["width", f"{share:.2f}%"]]]
        return {"t": "Image", "c": [attr, *node["c"][1:]]}

    return rewrite(blocks, action)
