"""Lay out a long book in several processes at once, and join their PDFs.

WeasyPrint lays out and paints a document on one core: on the corpus playbook
that was about 10 s of a 17 s cold build.  Its page boxes hold Pango objects
and cannot leave their process, so the book is cut into *runs* of whole
chapters; each run is laid out and painted by a forked process into a PDF of
its own, and pypdf joins the PDFs.  What crosses a cut is carried over:

* **page numbers** — a run lays out its pages, then waits before making its
  margin boxes (folio, running heads) until the parent sends the number of
  its first page, known once every run before it has counted its pages;
* **the contents' page numbers** — the front matter (title page, contents) is
  laid out by the parent, each entry's number written in (``data-page``, see
  ``pdf/book.css.j2``);
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
``@page :first``: :data:`RUN_BLIND`), when two-sided chapters may open on
either side, or in a process with other threads (forking one that has them can
deadlock the child: the preview server's).
"""

from __future__ import annotations

import contextlib
import contextvars
import html as html_text
import re
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import unquote, urlparse

from ..shared.common import scratch
from .subset import UNION, identity

CHAPTER_MARK = "<!--kobook:chapter-->"
END_MARK = "<!--kobook:end-->"
# Below this estimated layout time (seconds on the machine the weights were measured
# on) a second process costs more than it saves: the sample book is about 4.
MIN_WEIGHT = 2.0
SCALE = 0.75  # CSS px → PDF pt: WeasyPrint's scale at zoom 1 (pdf.generate_pdf)
TOC_LINK = re.compile(r'<a href="#([^"]+)">')
CLASSES = re.compile(r'\sclass="([^"]*)"')
IMAGE_SOURCE = re.compile(r'<img\b[^>]*?\ssrc="([^"]+)"')
TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Cut:
    """The print HTML in pieces: what precedes ``<body>``, the front matter, each
    chapter (with its part page) and what follows the last one."""

    start: str
    front: str
    chapters: list[str]
    tail: str

    def front_document(self, pages: dict[str, int], guess: str = "") -> str:
        """The title page and contents alone, each entry's page number written in
        (``guess`` for every entry when the numbers are not known yet)."""

        def number(match: re.Match[str]) -> str:
            name = unquote(html_text.unescape(match.group(1)))
            value = guess or (str(pages[name]) if name in pages else "")
            if not value:
                return match.group(0)
            return f'<a href="#{match.group(1)}" data-page="{value}">'

        return f"{self.start}<body>{TOC_LINK.sub(number, self.front)}{self.tail}"

    def run_document(self, chapters: range, title: str, footnotes: int) -> str:
        """Chapters ``chapters`` as a document of their own, carrying what the pages
        before them set: the book's title (for the running heads) and the footnote
        counter."""
        rule = (
            f"<style>html {{ string-set: book-title {css_string(title)}; "
            f"counter-reset: footnote {footnotes}; }}</style>"
        )
        start = self.start.replace("</head>", rule + "</head>", 1)
        return start + "<body>" + "".join(self.chapters[i] for i in chapters) + self.tail


def cut(html: str) -> Cut | None:
    """The print HTML cut at the template's marks; None when a mark is missing
    (a book's own ``book.html.j2`` need not have them)."""
    if html.count("<body>") != 1 or html.count(END_MARK) != 1 or "</head>" not in html:
        return None
    start, rest = html.split("<body>", 1)
    pieces = rest.split(CHAPTER_MARK)
    if len(pieces) < 3 or END_MARK not in pieces[-1]:
        return None
    last, tail = pieces[-1].split(END_MARK, 1)
    return Cut(start, pieces[0], [*pieces[1:-1], last], tail)


# What a run cannot honour in a book's own stylesheet: counters and strings carried from
# one chapter to the next, the page index in the document, the targets' page numbers.
RUN_BLIND = re.compile(
    r"counter-(?:increment|reset|set)|counter\(\s*pages|string-set|target-|:first\b|:nth\("
)


def styles_allow_runs(folder: Path) -> bool:
    """Whether the book's own PDF templates (``templates/pdf/``) let it be laid out in
    runs: not with its own ``book.css.j2`` (it replaces kobook's whole stylesheet),
    nor with an ``extra.css.j2`` that uses what :data:`RUN_BLIND` lists.  A book's
    ``book.html.j2`` is tried: without the chapter marks, :func:`cut` declines."""
    if (folder / "book.css.j2").is_file():
        return False
    extra = folder / "extra.css.j2"
    try:
        text = extra.read_text(encoding="utf-8") if extra.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return False
    return RUN_BLIND.search(text) is None


def css_string(text: str) -> str:
    """``text`` as a CSS string that nothing in it can end (quotes, ``</style>``)."""
    text = " ".join(text.split())
    return '"' + "".join(f"\\{ord(c):x} " if c in "\"'\\<>&" else c for c in text) + '"'


def footnote_count(html: str) -> int:
    """Footnotes in a run's HTML: the elements of class ``footnote`` (they float to the
    foot of the page, ``pdf/book.css.j2``).  Checked against WeasyPrint's own count."""
    return sum("footnote" in classes.split() for classes in CLASSES.findall(html))


def weight(chapter: str, folders: list[Path]) -> float:
    """Estimated seconds to lay out and paint one chapter: fitted (least squares, worst
    error 0.2 s) on the playbook's 17 chapters laid out one by one, from their text
    and the bytes of the images they show (an SVG is drawn path by path)."""
    text = len(TAG.sub("", chapter))
    svg = raster = 0
    for source in IMAGE_SOURCE.findall(chapter):
        path = image_path(source, folders)
        if path is not None:
            if path.suffix.lower() == ".svg":
                svg += path.stat().st_size
            else:
                raster += path.stat().st_size
    return 0.1 + 6e-5 * text + 1.6e-6 * svg + 2.5e-7 * raster


def image_path(source: str, folders: list[Path]) -> Path | None:
    """The file an ``img`` points at, when it is inside one of ``folders``."""
    url = urlparse(html_text.unescape(source))
    if url.scheme not in ("", "file"):
        return None
    path = Path(unquote(url.path))
    for folder in folders:
        candidate = path if path.is_absolute() else folder / path
        try:
            resolved = candidate.resolve()
        except OSError:
            continue
        if resolved.is_relative_to(folder.resolve()) and resolved.is_file():
            return resolved
    return None


def runs(weights: list[float], count: int) -> list[range]:
    """Consecutive chapters in ``count`` runs whose heaviest is as light as it can be."""
    count = max(1, min(count, len(weights)))
    before = [0.0]
    for value in weights:
        before.append(before[-1] + value)
    total = len(weights)
    # best[k][i]: the heaviest run when the first i chapters make k runs.
    best = [[float("inf")] * (total + 1) for _ in range(count + 1)]
    where = [[0] * (total + 1) for _ in range(count + 1)]
    best[0][0] = 0.0
    for k in range(1, count + 1):
        for i in range(k, total + 1):
            for j in range(k - 1, i):
                heaviest = max(best[k - 1][j], before[i] - before[j])
                if heaviest < best[k][i]:
                    best[k][i], where[k][i] = heaviest, j
    bounds = [total]
    for k in range(count, 0, -1):
        bounds.append(where[k][bounds[-1]])
    bounds.reverse()
    return [range(a, b) for a, b in pairwise(bounds)]


def plan(html: str, *, jobs: int, sides: dict[str, bool], folders: list[Path]) -> Plan | None:
    """How to lay the book out in ``jobs`` processes, or None for one process."""
    if jobs < 2 or (sides["twoside"] and not sides["openright"]):
        return None  # a run's first page could be a left-hand one
    if threading.active_count() > 1:
        return None
    pieces = cut(html)
    if pieces is None or len(pieces.chapters) < 2:
        return None
    weights = [weight(chapter, folders) for chapter in pieces.chapters]
    if sum(weights) < MIN_WEIGHT:
        return None
    return Plan(pieces, runs(weights, jobs), sides["openright"])


@dataclass(frozen=True)
class Plan:
    """The cut book, its runs, and whether every run opens on a right-hand page."""

    cut: Cut
    runs: list[range]
    openright: bool


class Fallback(Exception):
    """Something did not go as planned: lay the book out in one process."""


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


def outline(pages: list[list[tuple[Any, ...]]]) -> list[Any]:
    """The bookmark tree of the joined book, by WeasyPrint's own rules."""
    from weasyprint.anchors import make_page_bookmark_tree
    from weasyprint.matrix import Matrix

    root: list[Any] = []
    skipped: list[int] = []
    last_by_depth: list[list[Any]] = [root]
    previous = 0
    for number, marks in enumerate(pages):
        page = SimpleNamespace(bookmarks=marks)
        previous = make_page_bookmark_tree(page, skipped, last_by_depth, previous, number, Matrix())
    return root


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


def lay_out_run(conn: Any, html: str, pdf: Path, settings: dict[str, Any]) -> None:
    """A run's process: lay out, report, wait for the first page number, paint."""
    import weasyprint

    try:
        state = RunState()
        RUN.set(state)
        source = weasyprint.HTML(
            string=html, base_url=settings["base_url"], url_fetcher=settings["fetcher"]
        )
        document = source.render(**settings["options"])
        anchors = {name: i for i, page in enumerate(document.pages) for name in page.anchors}
        conn.send(("laid", len(document.pages), anchors, sum(state.footnotes)))
        message = conn.recv()
        if message[0] != "paint":
            return
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
        glyphs = settings["glyphs"].characters
        conn.send(("painted", page_bookmarks(document), dict(glyphs), settings["fetcher"].refused))
    except BaseException:  # reported to the parent, which lays the book out itself
        with contextlib.suppress(OSError):  # unless the parent has gone (it fell back)
            conn.send(("failed", traceback.format_exc()))
    finally:
        conn.close()


def run_documents(work: Plan, title: str) -> tuple[list[str], list[int], int]:
    """Each run's HTML, the footnote number it starts after, and the book's footnotes."""
    documents, starts = [], []
    footnotes = 0
    for chapters in work.runs:
        documents.append(work.cut.run_document(chapters, title, footnotes))
        starts.append(footnotes)
        footnotes += footnote_count("".join(work.cut.chapters[i] for i in chapters))
    return documents, starts, footnotes


def write(work: Plan, title: str, out: Path, settings: dict[str, Any]) -> bool:
    """Lay the book out as ``work`` plans and write ``out``; False (nothing written)
    when the one-process layout must be used instead.

    ``settings``: ``base_url``, ``fetcher``, ``glyphs`` (the MissingGlyphs handler) and
    WeasyPrint's ``options``.  What the runs' fetchers refused and the characters they
    found no glyph for are added to the parent's.

    The order keeps both cores busy: the parent lays out the front matter (with
    placeholder numbers: only its page count is needed) while the runs lay out; a
    run paints as soon as the runs before it have counted their pages; the front
    matter is laid out again with the real numbers once the first run has painted.
    """
    import multiprocessing
    from multiprocessing.connection import wait

    install()
    context = multiprocessing.get_context("fork")
    documents, starts, footnotes = run_documents(work, title)
    workers: list[Worker] = []
    with scratch("runs") as folder:
        try:
            for index, html in enumerate(documents):
                mine, theirs = context.Pipe()
                pdf = Path(folder) / f"run-{index}.pdf"
                process = context.Process(
                    target=lay_out_run, args=(theirs, html, pdf, settings), daemon=True
                )
                process.start()
                theirs.close()
                workers.append(Worker(process, mine, pdf))
            found = settings["glyphs"].characters
            before = dict(found)
            front_pages = len(front_matter(work.cut, {}, settings).pages)
            found.clear()  # the front matter is laid out again: its tofu counts once
            found.update(before)
            done = front_pages
            pages: dict[str, int] = {}
            blanks = []
            for worker, start, end in zip(workers, starts, [*starts[1:], footnotes], strict=True):
                count, anchors, counted = worker.receive("laid")
                if start + counted != end:
                    raise Fallback("footnotes were not counted as planned")
                blank = 1 if work.openright and done % 2 else 0
                first = done + blank + 1
                worker.conn.send(("paint", first))
                pages.update({name: first + index for name, index in anchors.items()})
                blanks.append(blank)
                done = first + count - 1
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
                worker.conn.close()
                worker.process.join(timeout=5)
                if worker.process.is_alive():
                    worker.process.kill()
                    worker.process.join()


def front_matter(pieces: Cut, pages: dict[str, int], settings: dict[str, Any]) -> Any:
    """The front matter laid out; with no ``pages`` yet, every contents entry shows
    ``000`` (only the page count is wanted, and it rarely depends on the digits:
    when it does, :func:`write` falls back)."""
    import weasyprint

    source = weasyprint.HTML(
        string=pieces.front_document(pages, "" if pages else "000"),
        base_url=settings["base_url"],
        url_fetcher=settings["fetcher"],
    )
    return source.render(**settings["options"])


def join(
    front: Path, parts: list[tuple[Path, int]], marks: list[list[tuple[Any, ...]]], out: Path
) -> None:
    """One PDF: the front matter, then each run after its blank page if any; every
    run's named destinations, links to anchors that are nowhere removed (as
    WeasyPrint removes them), and the outline made again over all pages."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, Destination, Fit, NameObject

    writer = PdfWriter(clone_from=str(front))
    root = writer.root_object
    if "/Outlines" in root:
        del root["/Outlines"]
    names = set(writer.named_destinations)
    digests: dict[tuple[int, int], bytes] = {}
    files = font_files(writer.pages, {}, digests)
    for path, blank in parts:
        if blank:
            writer.add_blank_page()
        # Page by page, not PdfWriter.append: it drops a link to a name the PDFs
        # appended so far lack, and a run links to chapters after it.
        reader = PdfReader(path)
        font_files(reader.pages, files, digests, learn=False)
        first = len(writer.pages)
        for page in reader.pages:
            writer.add_page(page)
        font_files(writer.pages[first:], files, digests)
        for name, target in reader.named_destinations.items():
            number = reader.get_destination_page_number(target)
            place = None if number is None or number < 0 else writer.pages[first + number]
            if place is None or place.indirect_reference is None:
                raise Fallback(f"the destination {name} has no page")
            fit = Fit.xyz(target.left, target.top, target.zoom)
            writer.add_named_destination_object(Destination(name, place.indirect_reference, fit))
            names.add(name)
    for page in writer.pages:
        annotations = page.get("/Annots")
        if annotations is None:
            continue
        kept = [a for a in annotations if not dangling(a.get_object().get("/Dest"), names)]
        if len(kept) != len(annotations):
            page[NameObject("/Annots")] = ArrayObject(kept)

    def add(items: list[Any], parent: Any) -> None:
        for label, (page, x, y), children, state in items:
            item = writer.add_outline_item(
                title=label,
                page_number=page,
                parent=parent,
                fit=Fit.xyz(x, y, 0),
                is_open=state != "closed",
            )
            add(children, item)

    add(outline(marks), None)
    with out.open("wb") as stream:
        writer.write(stream)


def dangling(target: Any, names: set[str]) -> bool:
    """Whether a link annotation's ``/Dest`` names a destination the book lacks."""
    return isinstance(target, str) and target not in names


FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


def font_files(
    pages: Any, files: dict[bytes, Any], digests: dict[tuple[int, int], bytes], learn: bool = True
) -> dict[bytes, Any]:
    """Point every font descriptor of ``pages`` whose embedded font has the bytes of one
    in ``files`` at that one; with ``learn`` (pages of the joined PDF, not of a run
    about to be added), add the others to ``files`` (digest → indirect object).

    Every run subsets a font to the glyphs the whole book uses (``subset.UNION``), so
    the font programs of the runs are the same bytes: the joined PDF keeps one.
    """
    import hashlib

    from pypdf.generic import NameObject

    for page in pages:
        resources = page.get("/Resources")
        fonts = resources.get_object().get("/Font") if resources is not None else None
        for font in (fonts.get_object() if fonts is not None else {}).values():
            for descriptor in font_descriptors(font.get_object()):
                for key in FONT_FILES:
                    reference = descriptor.raw_get(key) if key in descriptor else None
                    if reference is None or not hasattr(reference, "idnum"):
                        continue
                    where = (id(reference.pdf), reference.idnum)
                    if where not in digests:  # a font is on many pages: hash it once
                        data = reference.get_object().get_data()
                        digests[where] = hashlib.sha256(data).digest()
                    digest = digests[where]
                    if digest in files and files[digest] != reference:
                        descriptor[NameObject(key)] = files[digest]
                    elif learn:
                        files.setdefault(digest, reference)
    return files


def font_descriptors(font: Any) -> list[Any]:
    """The font descriptors of a font dictionary (a Type0 font's are its descendants')."""
    found = []
    for descendant in font.get("/DescendantFonts") or []:
        descriptor = descendant.get_object().get("/FontDescriptor")
        if descriptor is not None:
            found.append(descriptor.get_object())
    if font.get("/FontDescriptor") is not None:
        found.append(font["/FontDescriptor"].get_object())
    return found
