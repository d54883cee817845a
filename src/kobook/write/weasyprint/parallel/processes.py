"""A run's process: WeasyPrint patched (once, inert outside a run) so a run waits for the
page it starts on, shares the fonts' glyphs with the other runs and keeps links that
lead into another run."""

from __future__ import annotations

import contextlib
import contextvars
import socket
import subprocess
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from ..engine import listening
from ..fetch import BookFetcher
from ..subset import UNION, identity
from .planning import SCALE, Fallback, Plan, footnote_count

# ------------------------------------------------------------------ inside WeasyPrint


@dataclass
class RunState:
    """A run's process: its margin boxes wait for the first page number."""

    footnotes: list[int] = field(default_factory=list)
    margins: list[tuple[Any, Any, Any, int]] = field(default_factory=list)

    def finish(self, first: int) -> None:
        """Make the margin boxes, numbering this run's pages from ``first``."""
        from weasyprint.layout.background import layout_backgrounds

        for context, page, state, number in self.margins:
            counters = dict(state[1])
            counters["page"] = [value + first - 1 for value in counters.get("page", [number])]
            context.current_page = number
            margin_state = [state[0], counters, *state[2:]]
            boxes = list(_ORIGINAL["make_margin_boxes"](context, page, margin_state))
            page.children = (*page.children, *boxes)
            layout_backgrounds(page, context.get_image_from_uri)
        self.margins.clear()


RUN: contextvars.ContextVar[RunState | None] = contextvars.ContextVar("kobook_run", default=None)
# Set while a document of a cut book is painted: its links to anchors it lacks are
# kept (they are in another run; :func:`join` removes those that are nowhere).
FOREIGN: contextvars.ContextVar[bool] = contextvars.ContextVar("kobook_foreign", default=False)
# Font identity (``subset.identity``) → glyph ids.
Glyphs = dict[tuple[Any, ...], frozenset[int]]
# Set while a document of a cut book is written: given the glyphs this document uses
# of each font, returns the glyphs the whole book uses (see ``subset.UNION``).
Share = Callable[[Glyphs], Glyphs]
SHARE: contextvars.ContextVar[Share | None] = contextvars.ContextVar("kobook_share", default=None)
_ORIGINAL: dict[str, Any] = {}


def install() -> None:
    """Patch WeasyPrint once; inert unless :data:`RUN` or :data:`FOREIGN` is set."""
    if _ORIGINAL:
        return
    import weasyprint.document
    import weasyprint.layout
    import weasyprint.pdf

    _ORIGINAL["make_margin_boxes"] = weasyprint.layout.make_margin_boxes
    _ORIGINAL["build"] = weasyprint.document.build_formatting_structure
    _ORIGINAL["resolve_links"] = weasyprint.pdf.resolve_links
    _ORIGINAL["fonts"] = weasyprint.pdf.build_fonts_dictionary

    def make_margin_boxes(context: Any, page: Any, state: Any) -> Any:
        run = RUN.get()
        if run is None:
            return _ORIGINAL["make_margin_boxes"](context, page, state)
        run.margins.append((context, page, state, context.current_page))
        return iter(())

    def build_formatting_structure(*args: Any) -> Any:
        root = _ORIGINAL["build"](*args)
        run = RUN.get()
        if run is not None:
            run.footnotes.append(len(args[-1]))  # the footnotes list it filled
        return root

    def resolve_links(pages: list[Any]) -> Any:
        if not FOREIGN.get():
            return _ORIGINAL["resolve_links"](pages)
        return links_across(pages)

    def build_fonts_dictionary(
        pdf: Any, fonts: dict[Any, Any], compress: bool, subset: bool, options: Any
    ) -> Any:
        share = SHARE.get()
        if share is None or not subset:
            return _ORIGINAL["fonts"](pdf, fonts, compress, subset, options)
        token = UNION.set(share(glyphs_used(fonts, options["hinting"])))
        try:
            return _ORIGINAL["fonts"](pdf, fonts, compress, subset, options)
        finally:
            UNION.reset(token)

    weasyprint.pdf.build_fonts_dictionary = build_fonts_dictionary
    weasyprint.layout.make_margin_boxes = make_margin_boxes
    weasyprint.document.build_formatting_structure = build_formatting_structure
    weasyprint.pdf.resolve_links = resolve_links


def glyphs_used(fonts: dict[Any, Any], hinting: bool) -> Glyphs:
    """Each embedded font's glyphs in this document, by :func:`subset.identity`."""
    used: Glyphs = {}
    for font in fonts.values():
        if not font.bitmap and not font.used_in_forms:
            key = identity(font, hinting)
            used[key] = used.get(key, frozenset()) | frozenset(font.to_unicode)
    return used


def union_of(
    *parts: Glyphs,
) -> Glyphs:
    """Font by font, the glyphs any of ``parts`` uses."""
    union: Glyphs = {}
    for part in parts:
        for key, glyphs in part.items():
            union[key] = union.get(key, frozenset()) | glyphs
    return union


def links_across(pages: list[Any]) -> Any:
    """WeasyPrint 70's ``resolve_links``, keeping every internal link: one to an
    anchor this document lacks points into another run."""
    seen: set[str] = set()
    for page in pages:
        anchors = []
        for name, (x, y, _, _) in page.anchors.items():
            if name not in seen:
                anchors.append((name, x, y))
                seen.add(name)
        yield list(page.links), anchors


def page_bookmarks(document: Any) -> list[list[tuple[Any, ...]]]:
    """Each page's bookmarks with PDF coordinates (as ``make_bookmark_tree`` places them)."""
    from weasyprint.matrix import Matrix

    marks = []
    for page in document.pages:
        matrix = Matrix(a=SCALE, d=-SCALE, f=page.height * SCALE)
        marks.append(
            [
                (level, label, matrix.transform_point(x, y), state)
                for level, label, (x, y), state in page.bookmarks
            ]
        )
    return marks


# ------------------------------------------------------------------ the processes


@dataclass
class Worker:
    """A run's process and the parent's end of its pipe."""

    process: Any
    conn: Any
    pdf: Path

    def receive(self, kind: str) -> tuple[Any, ...]:
        try:
            message = self.conn.recv()
        except (EOFError, OSError) as exc:
            raise Fallback(f"a layout process ended: {exc}") from None
        if message[0] != kind:
            raise Fallback(str(message[-1]))
        return tuple(message[1:])


# A run's process: a fresh interpreter given this process's import path (the first
# message on its connection), then the run (the second).
BOOT = (
    "import sys\n"
    "from multiprocessing.connection import Connection\n"
    "conn = Connection(int(sys.argv[1]))\n"
    "sys.path[:0] = conn.recv()\n"
    "from kobook.write.weasyprint.parallel.processes import child\n"
    "child(conn)\n"
)


def launch(html: str, pdf: Path, settings: dict[str, Any]) -> Worker:
    """A run's process, laying out ``html`` into ``pdf``; ``settings``: what :func:`sent`
    gives.

    A fresh interpreter, started as a program (fork and exec), not forked from the
    build: a forked run started with the build's pages (its modules, the book's trees,
    the printed HTML: about 170 MB on the playbook) and was counted for them, and
    forking a process with other threads (a preview server's) can deadlock the child.
    Nor is it one of ``multiprocessing``'s spawned processes, which import the
    caller's main module again (a script that calls ``kobook.build()`` at its top level
    would build again in each run).  It is this process's child, waited for: what it
    costs is counted to the build.

    The run's HTML goes beside its PDF, and the messages are small: sending it would
    wait until the process had imported WeasyPrint, and start the next run that much
    later.
    """
    source = pdf.with_suffix(".html")
    source.write_text(html, encoding="utf-8")
    mine, theirs = socket.socketpair()
    try:
        process = subprocess.Popen(
            [sys.executable, "-c", BOOT, str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
        )
    except OSError as exc:
        mine.close()
        raise Fallback(f"no layout process: {exc}") from None
    finally:
        theirs.close()
    worker = Worker(process, Connection(mine.detach()), pdf)
    try:
        worker.conn.send([entry for entry in sys.path if entry])
        worker.conn.send((str(source), str(pdf), settings))
    except OSError as exc:
        stop(worker)
        raise Fallback(f"a layout process ended: {exc}") from None
    return worker


def child(conn: Any) -> None:
    """A run's process, once it can import kobook: the run it is sent (:func:`launch`)."""
    try:
        source, pdf, settings = conn.recv()
        html = Path(source).read_text(encoding="utf-8")
    except (EOFError, OSError) as exc:
        with contextlib.suppress(OSError):
            conn.send(("failed", f"no run to lay out: {exc}"))
        return
    lay_out_run(conn, html, Path(pdf), settings)


def stop(worker: Worker) -> None:
    """End a run's process: it ends by itself once its connection is closed (or it has
    painted); killed if it has not within seconds."""
    worker.conn.close()
    try:
        worker.process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        worker.process.kill()
        worker.process.wait()


def sent(settings: dict[str, Any]) -> dict[str, Any]:
    """What a run's process is given of the writer's ``settings``: plain data, and the
    ``prepare`` call that sets WeasyPrint up as the build did (``engine.enter``)."""
    return {
        "base_url": settings["base_url"],
        "roots": settings["fetcher"].roots,
        "options": settings["options"],
        "prepare": settings["prepare"],
    }


def lay_out_run(conn: Any, html: str, pdf: Path, settings: dict[str, Any]) -> None:
    """A run's process: lay out, report, wait for the first page number, paint.

    ``settings``: what :func:`sent` gives.  The process starts with nothing of the
    build's (see :func:`launch`): it patches WeasyPrint, makes its own fetcher and
    counts its own tofu boxes, and sends what they found with the painted pages.
    """
    try:
        settings["prepare"]()
        install()
        fetcher = BookFetcher(settings["roots"])
        with listening() as glyphs:
            bookmarks = paint_run(conn, html, pdf, settings, fetcher)
        if bookmarks is not None:
            conn.send(("painted", bookmarks, dict(glyphs.characters), fetcher.refused))
    except BaseException:  # reported to the parent, which lays the book out itself
        with contextlib.suppress(OSError):  # unless the parent has gone (it fell back)
            conn.send(("failed", traceback.format_exc()))
    finally:
        conn.close()


def paint_run(
    conn: Any, html: str, pdf: Path, settings: dict[str, Any], fetcher: Any
) -> list[list[tuple[Any, ...]]] | None:
    """Lay the run out, tell the parent its pages, paint them from the first page number
    the parent sends: each page's bookmarks (None: the parent wanted no painting)."""
    import weasyprint

    state = RunState()
    RUN.set(state)
    source = weasyprint.HTML(string=html, base_url=settings["base_url"], url_fetcher=fetcher)
    document = source.render(**settings["options"])
    anchors = {name: i for i, page in enumerate(document.pages) for name in page.anchors}
    conn.send(("laid", len(document.pages), anchors, sum(state.footnotes)))
    message = conn.recv()
    if message[0] != "paint":
        return None
    state.finish(first=message[1])
    RUN.set(None)
    FOREIGN.set(True)

    def share(used: Glyphs) -> Any:
        conn.send(("glyphs", used))
        message = conn.recv()
        if message[0] != "union":
            raise RuntimeError("no glyph union from the parent")
        return message[1]

    SHARE.set(share)
    document.write_pdf(pdf, **settings["options"])
    return page_bookmarks(document)


def run_documents(work: Plan, title: str) -> tuple[list[str], list[int], int]:
    """Each run's HTML, the footnote number it starts after, and the book's footnotes."""
    documents, starts = [], []
    footnotes = 0
    for chapters in work.runs:
        documents.append(work.cut.run_document(chapters, title, footnotes))
        starts.append(footnotes)
        footnotes += footnote_count("".join(work.cut.chapters[i] for i in chapters))
    return documents, starts, footnotes
