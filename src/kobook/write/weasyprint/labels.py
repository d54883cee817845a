"""Page labels for the WeasyPrint PDF: what a reader's viewer shows as the page's number.

The stylesheet numbers the front matter i, ii, iii … and the body from 1 on its
first page (``book.css.j2``: the ``body-start`` page group), as XeLaTeX and Typst
do; a viewer would still show the PDF's own count (5 for the body's page 1) unless
the PDF says otherwise.  WeasyPrint writes no ``/PageLabels``, so they are added
here, as an incremental update: the body starts on the page of the first body
section's named destination.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pypdf import PdfReader

BODY_START = ("chapter-", "part-")


def body_start(reader: PdfReader) -> int | None:
    """The index of the page the body starts on: the first page that holds a chapter's
    or part's named destination (``chapter-…``, ``part-…``), or None."""
    found = []
    for name, destination in reader.named_destinations.items():
        if str(name).startswith(BODY_START):
            index = reader.get_destination_page_number(destination)
            if index is not None and index >= 0:
                found.append(index)
    return min(found) if found else None


def label_pages(src: Path, dst: Path) -> bool:
    """Write ``src`` to ``dst`` with page labels: lower-case roman numerals before the
    body, decimal from 1 from its first page.  False (nothing written) without a body."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.constants import PageLabelStyle

    start = body_start(PdfReader(src))
    if start is None:
        return False
    writer = PdfWriter(src, incremental=True)
    last = len(writer.pages) - 1
    if start > 0:
        writer.set_page_label(0, start - 1, style=PageLabelStyle.LOWERCASE_ROMAN, start=1)
    writer.set_page_label(start, last, style=PageLabelStyle.DECIMAL, start=1)
    writer.write(dst)
    return True
