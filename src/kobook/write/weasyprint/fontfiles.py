"""One copy of each font file while WeasyPrint writes a PDF.

WeasyPrint keeps, for every font it embeds, the whole file the face comes from, as
bytes of its own, until it subsets them.  A Korean book's faces come from a few
CJK collections of 20–27 MB each (Noto Sans CJK holds regular text, code and the
sans headings; each weight and each face of the collection is a font of its own),
so a chapter run of the playbook held nine copies at once, about 200 MB: most of the
largest process's memory.  While a PDF is written, equal files are kept once.  The
bytes are the same, so the PDF is too; the table goes with the PDF, and each full
file with its font once that is subset.
"""

from __future__ import annotations

import contextvars
from typing import Any

_PATCHED = False
# Set while a PDF is written: the font files met so far, each its own key.
FILES: contextvars.ContextVar[dict[bytes, bytes] | None] = contextvars.ContextVar(
    "kobook_font_files", default=None
)
SMALLEST = 1 << 20  # smaller blobs (a subset's, an emoji's picture) are not worth hashing


def shared(data: bytes | None) -> bytes | None:
    """``data``, or the equal bytes met before while this PDF is written."""
    files = FILES.get()
    if files is None or data is None or len(data) < SMALLEST:
        return data
    return files.setdefault(data, data)


def install() -> None:
    """Patch WeasyPrint's font blob reading and PDF writing once."""
    global _PATCHED
    if _PATCHED:
        return
    import weasyprint.document
    import weasyprint.pdf.fonts

    read = weasyprint.pdf.fonts.get_hb_object_data
    generate = weasyprint.document.generate_pdf

    def get_hb_object_data(hb_object: Any, *args: Any, **kwargs: Any) -> Any:
        data = read(hb_object, *args, **kwargs)
        return shared(data) if not args and not kwargs else data

    def generate_pdf(*args: Any, **kwargs: Any) -> Any:
        token = FILES.set({})
        try:
            return generate(*args, **kwargs)
        finally:
            FILES.reset(token)

    weasyprint.pdf.fonts.get_hb_object_data = get_hb_object_data
    weasyprint.document.generate_pdf = generate_pdf
    _PATCHED = True
