"""Stage 2, normalize: typography fixes on the text the build reads (sources untouched).

For now this stage applies Unicode NFC, because text pasted from macOS stores
Hangul decomposed into jamo (``스크린샷`` as ``스크…``), which fonts draw as loose
jamo and which breaks searching.  The full rule catalogue of ``kobook check``
(DESIGN.md, KO001–KO012) plugs in here through :func:`normalize_text`.
"""

from __future__ import annotations

import unicodedata

from ..load import Book


def normalize_text(text: str) -> str:
    """Return ``text`` in NFC (idempotent, cheap when already NFC)."""
    if unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)


def normalize_book(book: Book) -> Book:
    """Normalize every chapter's text in place and return the book."""
    for chapter in book.chapters:
        chapter.text = normalize_text(chapter.text)
    return book
