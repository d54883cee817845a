"""Page labels for the WeasyPrint PDF: what a reader's viewer shows as the page's number.

The stylesheet numbers the front matter i, ii, iii … and the body from 1 on its
first page (``book.css.j2``: the ``body-start`` page group), as XeLaTeX and Typst
do; a viewer would still show the PDF's own count (5 for the body's page 1) unless
the PDF says otherwise.  WeasyPrint writes no ``/PageLabels``, so they are added
here, as an incremental update: the body starts on the page of the first body
section's named destination.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

from ..shared.increment import append_update

BODY_START = ("chapter-", "part-")


def body_start(pdf: Path) -> int | None:
    """The index of the page the body starts on: the first page that holds a chapter's
    or part's named destination (``chapter-…``, ``part-…``), or None.  Read with
    pdfium: pypdf resolves each of a long book's ten thousand destinations' pages by
    walking the page tree."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(str(pdf))
    try:
        found = []
        for index in range(raw.FPDF_CountNamedDests(document.raw)):
            size = ctypes.c_long(0)
            raw.FPDF_GetNamedDest(document.raw, index, None, ctypes.byref(size))
            buffer = ctypes.create_string_buffer(max(size.value, 2))
            destination = raw.FPDF_GetNamedDest(document.raw, index, buffer, ctypes.byref(size))
            name = buffer.raw[: size.value].decode("utf-16-le", "replace").rstrip("\x00")
            if destination and name.startswith(BODY_START):
                page = raw.FPDFDest_GetDestPageIndex(document.raw, destination)
                if page >= 0:
                    found.append(page)
        return min(found) if found else None
    finally:
        document.close()


def label_pages(src: Path, dst: Path) -> bool:
    """Write ``src`` to ``dst`` with page labels: lower-case roman numerals before the
    body, decimal from 1 from its first page.  False (nothing written) without a body."""
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject

    start = body_start(src)
    if start is None:
        return False
    reader = PdfReader(src)
    catalog: Any = reader.trailer["/Root"]

    def label(style: str) -> DictionaryObject:
        return DictionaryObject(
            {NameObject("/S"): NameObject(style), NameObject("/St"): NumberObject(1)}
        )

    numbers = ArrayObject([NumberObject(0), label("/r")] if start > 0 else [])
    numbers += [NumberObject(start), label("/D")]
    catalog[NameObject("/PageLabels")] = DictionaryObject({NameObject("/Nums"): numbers})
    append_update(src, dst, reader, {reader.trailer.raw_get("/Root"): catalog})
    return True
