"""Font subsets kept between the chapter PDFs of ``kobook preview --pdf``.

WeasyPrint subsets every font it embeds to the glyphs the document uses:
for Noto Serif CJK that is a third of a second per chapter PDF, spent again
on every save although a save rarely brings a glyph the chapter did not
already use.  While :data:`GROWING` is set (the preview sets it around its
chapter PDF), a font's subset is kept with its glyph set; a document whose
glyphs are all in it takes the kept subset, and one with new glyphs is
subset to the union, so the kept set only grows and later saves hit it.

A superset font draws the same page: glyphs keep their ids (WeasyPrint
subsets with ``RETAIN_GIDS``) and unused glyphs are never referenced.  It is
only used for the preview: ``kobook build`` subsets each document to its own
glyphs, so its bytes do not depend on what the process built before
(:mod:`kobook.reproducible`).
"""

from __future__ import annotations

import contextvars
from typing import Any

_PATCHED = False
GROWING: contextvars.ContextVar[bool] = contextvars.ContextVar("kobook_growing", default=False)
# Set by a book laid out in runs (``parallel``): font identity → the glyphs every run
# uses, so each run embeds the same subset and the joined PDF keeps one copy of it.
UNION: contextvars.ContextVar[dict[tuple[Any, ...], frozenset[int]] | None] = (
    contextvars.ContextVar("kobook_union", default=None)
)
# font identity → (glyph ids in the subset, the subset font's bytes)
_KEPT: dict[tuple[Any, ...], tuple[frozenset[int], bytes]] = {}
LIMIT = 16  # fonts kept (a book uses a handful: body, bold, code, emoji)


def identity(font: Any, hinting: bool) -> tuple[Any, ...]:
    """What makes two fonts' subsets interchangeable: the same file, face and flags.

    The whole font's bytes are tens of MB for a CJK font; its length and ends
    tell files apart without hashing them on every save.
    """
    data = font.file_content
    return (
        font.family,
        font.index,
        len(data),
        data[:4096],
        data[-4096:],
        bool(hinting),
        bool(font.missing),
    )


def install() -> None:
    """Patch WeasyPrint's font subsetting once (it only changes while GROWING is set)."""
    global _PATCHED
    if _PATCHED:
        return
    from weasyprint.pdf.fonts import Font

    original = Font.subset

    def subset(self: Any, to_unicode: dict[int, Any], hinting: bool) -> None:
        union = UNION.get()
        shared = union.get(identity(self, hinting)) if union and to_unicode else None
        if shared is not None and shared.issuperset(to_unicode):
            original(self, dict.fromkeys(sorted(shared)), hinting)
            return
        if not GROWING.get() or not to_unicode:
            original(self, to_unicode, hinting)
            return
        key = identity(self, hinting)
        kept = _KEPT.get(key)
        if kept is not None and kept[0].issuperset(to_unicode):
            self.file_content = kept[1]
            return
        glyphs = frozenset(to_unicode) | (kept[0] if kept is not None else frozenset())
        original(self, dict.fromkeys(glyphs), hinting)
        if len(_KEPT) >= LIMIT and key not in _KEPT:
            _KEPT.clear()
        _KEPT[key] = (glyphs, self.file_content)

    Font.subset = subset
    _PATCHED = True
