"""Lay out a long book in several processes at once, and join their PDFs.

WeasyPrint lays out and paints a document on one core: on the corpus playbook
that was about 10 s of a 17 s cold build.  Its page boxes hold Pango objects
and cannot leave their process, so the book is cut into *runs* of whole
chapters; each run is laid out and painted by a process of its own (a fresh
interpreter: ``processes.launch``) into a PDF of its own, and pypdf joins the PDFs.
What crosses a cut is carried over:

* **page numbers** — a run lays out its pages, then waits before making its
  margin boxes (folio, running heads) until the parent sends the number of
  its first page, known once every run before it has counted its pages;
* **the contents' page numbers** — the front matter (title page, contents) is
  laid out by the parent, each entry's number written in (``data-page``, see
  ``pdf/book.css.j2``);
* **the index's page numbers** — the index (and the copyright page after it) is the
  last run, started once every other run has counted its pages, each entry's numbers
  written in (``Cut.tail_document``);
* **footnote numbers**, which run through the book — a run's counter starts
  where the runs before it end;
* **the book's title in the running heads**, which the title page sets;
* **links and bookmarks** — a link to an anchor in another run is kept
  (WeasyPrint drops a link whose anchor it does not see), the joined PDF holds
  every run's named destinations, and the outline is built again from every
  run's bookmarks with WeasyPrint's own function;
* **chapters open on right-hand pages** — a blank page goes before a run that
  would start on a left-hand one, as WeasyPrint does inside one document;
* **fonts** — before subsetting, the runs and the front matter exchange the
  glyphs they use; each subsets every font to the whole book's glyphs, so the
  font programs are the same bytes and the joined PDF keeps one copy.

The pages are the ones a one-process build lays out (the tests compare them
page by page: text, pixels, bookmarks, links).  Anything unexpected — a run
that fails, a footnote count or a contents length not as planned — and the
caller lays the book out in one process instead: this module makes a build
faster, never different.  How many runs is the book's setting (``pdf.jobs``),
never the machine's core count, so every machine writes the same bytes.

It is not used when the book's stylesheet could see the cut (its own
``book.css.j2``, or an ``extra.css.j2`` that counts across chapters or styles
``@page :first``: :data:`RUN_BLIND`), or when two-sided chapters may open on
either side.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...shared.common import scratch
from .joining import dangling, front_matter, join
from .planning import (
    CHAPTER_MARK,
    END_MARK,
    Fallback,
    Plan,
    css_string,
    cut,
    footnote_count,
    plan,
    roman,
    runs,
    styles_allow_runs,
    weight,
)
from .processes import (
    FOREIGN,
    SHARE,
    Glyphs,
    Worker,
    install,
    launch,
    page_bookmarks,
    run_documents,
    sent,
    stop,
    union_of,
)

# By concern: planning (the cut and the runs), processes (a run's process), joining (one
# PDF); here, the order of the work.  The writer and the tests use what this names.
__all__ = [
    "CHAPTER_MARK",
    "END_MARK",
    "Plan",
    "css_string",
    "cut",
    "dangling",
    "footnote_count",
    "plan",
    "runs",
    "styles_allow_runs",
    "weight",
    "write",
]


def write(work: Plan, title: str, out: Path, settings: dict[str, Any]) -> bool:
    """Lay the book out as ``work`` plans and write ``out``; False (nothing written)
    when the one-process layout must be used instead.

    ``settings``: ``base_url``, ``fetcher``, ``glyphs`` (the MissingGlyphs handler),
    WeasyPrint's ``options`` and ``prepare`` (sets a run's process up as the build's).
    What the runs' fetchers refused and the characters they found no glyph for are
    added to the parent's.

    The order keeps both cores busy: the parent lays out the front matter (with
    placeholder numbers: only its page count is needed) while the runs lay out; a
    run paints as soon as the runs before it have counted their pages; the front
    matter is laid out again with the real numbers once the first run has painted.
    """
    from multiprocessing.connection import wait

    install()
    given = sent(settings)
    documents, starts, footnotes = run_documents(work, title)
    workers: list[Worker] = []
    with scratch("runs") as folder:

        def start_run(html: str) -> Worker:
            workers.append(launch(html, Path(folder) / f"run-{len(workers)}.pdf", given))
            return workers[-1]

        done = 0
        pages: dict[str, int] = {}
        blanks: list[int] = []
        body = 0  # the first body page's place in the PDF: its folio is 1 (book.css.j2)

        def settle(worker: Worker, start: int, end: int) -> None:
            """A run has laid out: place its pages after the ones before it and let it paint."""
            nonlocal done, body
            count, anchors, counted = worker.receive("laid")
            if start + counted != end:
                raise Fallback("footnotes were not counted as planned")
            blank = 1 if work.openright and done % 2 else 0
            first = done + blank + 1
            body = body or first
            folio = first - body + 1
            worker.conn.send(("paint", folio))
            pages.update({name: folio + index for name, index in anchors.items()})
            blanks.append(blank)
            done = first + count - 1

        try:
            for html in documents:
                start_run(html)
            found = settings["glyphs"].characters
            before = dict(found)
            laid = front_matter(work.cut, {}, settings).pages
            front_pages = len(laid)
            # The front matter's folios (its pages keep their places: counted below).
            front_folios = {n: roman(i + 1) for i, page in enumerate(laid) for n in page.anchors}
            found.clear()  # the front matter is laid out again: its tofu counts once
            found.update(before)
            done = front_pages
            for worker, start, end in zip(
                list(workers), starts, [*starts[1:], footnotes], strict=True
            ):
                settle(worker, start, end)
            if work.tail:  # the index, now that every page it names is known
                numbers = {**front_folios, **{n: str(folio) for n, folio in pages.items()}}
                tail = work.cut.tail_document(work.tail, title, footnotes, numbers)
                settle(start_run(tail), footnotes, footnotes)
            wait([worker.conn for worker in workers])
            opening = front_matter(work.cut, pages, settings)
            if len(opening.pages) != front_pages:
                raise Fallback("the contents took another number of pages")
            front_pdf = Path(folder) / "front.pdf"

            def share(used: Glyphs) -> Any:
                union = union_of(used, *(worker.receive("glyphs")[0] for worker in workers))
                for worker in workers:
                    worker.conn.send(("union", union))
                return union

            tokens = FOREIGN.set(True), SHARE.set(share)
            try:
                opening.write_pdf(front_pdf, **settings["options"])
            finally:
                FOREIGN.reset(tokens[0])
                SHARE.reset(tokens[1])
            marks = page_bookmarks(opening)
            for worker, blank in zip(workers, blanks, strict=True):
                bookmarks, glyphs, refused = worker.receive("painted")
                marks += [[]] * blank + bookmarks
                for char, count in glyphs.items():
                    found[char] = found.get(char, 0) + count
                fetcher = settings["fetcher"]
                fetcher.refused += [url for url in refused if url not in fetcher.refused]
            parts = [(worker.pdf, blank) for worker, blank in zip(workers, blanks, strict=True)]
            join(front_pdf, parts, marks, out)
            return True
        except Fallback:
            return False
        finally:
            for worker in workers:
                stop(worker)
