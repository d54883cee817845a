"""The index's page numbers in the WeasyPrint PDF: written in once the pages are known.

CSS can print the page of each mark (``target-counter``), but not each page once: two
marks of a term on page 12 would print ``12, 12``.  So the index (the last pieces of the
print HTML with the copyright page: ``book.html.j2``) is laid out after the rest of the
book, with each entry's numbers written in, each once, in the order of the text:

* laid out in runs (``parallel/``), the index is the last run, started once every
  other run has counted its pages;
* in one process, the book is laid out, then the index again with its numbers, and
  its pages take the place of the first ones (the pages before it do not change: it
  comes after them).
"""

from __future__ import annotations

from typing import Any

from .labels import BODY_START
from .parallel.planning import footnote_count, roman, tail_start


def folios(pages: list[Any]) -> tuple[dict[str, str], int]:
    """Each anchor's folio in a laid-out book (the body's first page is 1, the pages before
    it i, ii, …: ``labels.py``), and the body's first page's index."""
    body = next(
        (i for i, page in enumerate(pages) if any(n.startswith(BODY_START) for n in page.anchors)),
        0,
    )
    found: dict[str, str] = {}
    for index, page in enumerate(pages):
        folio = str(index - body + 1) if index >= body else roman(index + 1)
        for name in page.anchors:
            found.setdefault(name, folio)
    return found, body


def numbered_pages(document: Any, html: str, title: str, settings: dict[str, Any]) -> Any:
    """``document`` (the book laid out in one process) with its index laid out again with
    its page numbers; ``document`` itself when the HTML has no index to number."""
    import weasyprint

    from .parallel.planning import cut
    from .parallel.processes import RUN, RunState, install

    pieces = cut(html)
    start = tail_start(pieces) if pieces is not None else None
    opening = next((i for i, p in enumerate(document.pages) if "book-index" in p.anchors), None)
    if pieces is None or start is None or opening is None:
        return document
    install()
    found, body = folios(document.pages)
    chapters = range(start, len(pieces.chapters))
    footnotes = footnote_count("".join(pieces.chapters[:start]))
    tail_html = pieces.tail_document(chapters, title, footnotes, found)
    state = RunState()
    token = RUN.set(state)
    try:
        source = weasyprint.HTML(
            string=tail_html, base_url=settings["base_url"], url_fetcher=settings["fetcher"]
        )
        tail = source.render(font_config=document.font_config, **settings["options"])
    finally:
        RUN.reset(token)
    state.finish(first=opening - body + 1)
    return document.copy(document.pages[:opening] + tail.pages)
