"""How many characters a code box holds, from the page geometry and the code font.

Every PDF engine wraps long code lines with the same rule
(:func:`kobook.write.shared.passes.wrap_code`) at the same width: the code box (size,
insets) is the layout's, and this is its width in columns of the monospace font.
"""

from __future__ import annotations

import functools

from .fonts import font_face
from .layout import PageLayout

# Half-width Latin in the CJK monospace fonts kobook prefers (Noto Sans Mono CJK, D2Coding).
DEFAULT_ADVANCE = 0.5


@functools.cache
def mono_advance(family: str) -> float:
    """Advance of ``0`` in the installed ``family``, in em (0.5 for the CJK monospaces).

    Read from the font file fontconfig picks; the CJK default when it cannot be read.
    FreeType (through Pillow) finds the glyph, at a size of one pixel per font unit so
    the advance is exact: fontTools decoded the whole character map of a CJK font
    for it, a seventh of a second of every PDF build.
    """
    face = font_face(family)
    try:
        from fontTools.ttLib import TTFont
        from PIL import ImageFont

        if face is None:
            return DEFAULT_ADVANCE
        units = TTFont(face[0], fontNumber=face[1], lazy=True)["head"].unitsPerEm
        font = ImageFont.truetype(
            face[0], size=units, index=face[1], layout_engine=ImageFont.Layout.BASIC
        )
        advance = font.getlength("0") / units
    except Exception:  # no font, a collection it cannot read: the common case
        return DEFAULT_ADVANCE
    return advance if 0.3 < advance < 1.0 else DEFAULT_ADVANCE


def code_columns(layout: PageLayout, family: str) -> int:
    """Columns of ``family`` that fit a code box: the text width less the box's insets and
    rules, at the layout's code size (the same box in every engine).

    Two columns are kept in reserve for a box inside a list or callout.
    """
    width = layout.text_width - 2 * (layout.code_inset + 0.5)
    size = layout.code_points
    if size <= 0 or width <= 0:
        return 0
    return max(0, int(width / (size * mono_advance(family))) - 2)
