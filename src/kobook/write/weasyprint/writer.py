"""PDF through WeasyPrint: one HTML document for the whole book, paged by CSS.

The transformed chapters are prepared for print (footnotes float to the foot
of the page, math becomes SVG, headings carry their numbers), rendered to HTML
by pandoc in one call, and laid out by WeasyPrint with the ``pdf/book.css.j2``
stylesheet: title page, TOC with ``target-counter`` page numbers, running
heads, bookmarks from headings and Korean word line breaking.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
import re
from pathlib import Path
from typing import Any

from ... import limits, tools
from ...cache import Cache, digest
from ...errors import Diagnostic, KobookError, Location
from ...model import Book, Doc
from ...model.colophon import colophon
from ...parse.ast import copy_tree, iter_nodes, rewrite_chain
from ...reproducible import w3c_datetime
from ...version import __version__
from ..shared import passes
from ..shared.blockhtml import BlockHtml
from ..shared.bookindex import book_index
from ..shared.common import (
    atomic_output,
    blocks_to_html,
    highlight_css,
    part_titles,
    toc_entries,
)
from ..shared.glyphs import missing_glyphs, refuse_missing, text_chars
from ..shared.latexmeta import sides
from ..shared.layout import PageLayout
from ..shared.mathsvg import MathError, math_font, math_key, render_math, undrawn
from ..shared.sanitize import sanitize_blocks
from ..shared.setup import HYPHEN_LIMITS, PrintSetup, print_setup
from ..shared.templates import environment
from . import engine, images, parallel, relayout, svgreplay
from .fetch import BookFetcher, refused_problems
from .labels import label_pages
from .linebreak import KEEP_ALL
from .pageindex import numbered_pages
from .printready import VERSION as IMAGE_VERSION
from .printready import needs_conversion, print_ready

# This writer's folder of templates: under kobook's own templates/, and the book's.
TEMPLATES = "pdf"
CHAPTER_SPLIT = "<!--kobook-chapter-->"


def prepare(
    doc: Doc, book: Book, cache: Cache | None, problems: list[Diagnostic], setup: PrintSetup
) -> list[Any]:
    """The print-specific passes over one chapter (on a copy: other writers see the original).

    Raw HTML is sanitized first, as for the site (HTML001): a chapter's ``<style>`` would
    be the whole book's page CSS, and its ``<link>``/``<object>`` would be fetched.
    """
    blocks, removed = sanitize_blocks(copy_tree(doc.blocks), doc.chapter)
    problems += removed
    blocks = rewrite_chain(  # one walk (see rewrite_chain)
        blocks,
        [
            passes.heading_number(book.config),
            passes.equation_number,
            passes.upright_emphasis,
            passes.code_language,
        ],
    )
    blocks = passes.wrap_code(blocks, setup.code_columns)
    blocks = passes.table_cell_words(blocks, nowrap)
    if book.config.print_master:
        blocks = passes.printed_urls(blocks)
    blocks = passes.footnotes_inline(blocks)
    blocks = passes.emoji(blocks)

    def math_error(tex: str, reason: str) -> None:
        problems.append(undrawn(doc.chapter, tex, reason, "in the PDF"))

    blocks = passes.math_as_svg(blocks, cache, math_error, setup.math_font)
    return print_images(blocks, book.root, cache)


def nowrap(inlines: list[Any]) -> list[Any]:
    """WeasyPrint's mark for :func:`passes.table_cell_words`: a ``span.nobreak`` (nowrap)."""
    return [{"t": "Span", "c": [["", ["nobreak"], []], inlines]}]


def print_images(blocks: list[Any], root: Path, cache: Cache | None) -> list[Any]:
    """Point images at print-ready copies (flattened PNGs, see ``printready``)."""
    for node in iter_nodes(blocks):
        if node["t"] == "Image":
            url = node["c"][2][0]
            path = root / url
            if ":" not in url.split("/", 1)[0] and path.is_file():
                ready = print_ready(path.resolve(), cache)
                # Absolute paths (a downloaded image in a cache outside the project) as URIs.
                if ready != path.resolve() or Path(url).is_absolute():
                    node["c"][2][0] = ready.as_uri()
    return blocks


def _draw_math(item: tuple[str, bool, Path | None, str | None]) -> None:
    tex, display, root, font = item
    with contextlib.suppress(MathError):  # cached as an error; reported where it is used
        render_math(tex, display, Cache(root), font)


def _ready_image(item: tuple[Path, Path | None]) -> None:
    path, root = item
    print_ready(path, Cache(root))


def prefetch(book: Book, docs: list[Doc], cache: Cache | None, font: str | None) -> None:
    """Draw math and flatten images on both cores before the (sequential) passes run.

    Results land in the cache, so the passes find them; with no cache, or little
    to do, nothing is started.  What the cache already holds is not counted:
    forking the workers only to find every formula drawn was a twentieth of a
    second of each ``kobook preview --pdf`` rebuild.
    """
    if cache is None or cache.root is None:
        return
    math = {
        (n["c"][1], n["c"][0]["t"] == "DisplayMath")
        for d in docs
        for n in iter_nodes(d.blocks)
        if n["t"] == "Math"
    }
    math = {(tex, display) for tex, display in math if not math_cached(tex, display, cache, font)}
    rasters = {
        (book.root / n["c"][2][0]).resolve()
        for d in docs
        for n in iter_nodes(d.blocks)
        if n["t"] == "Image" and (book.root / n["c"][2][0]).is_file()
    }
    rasters = {path for path in rasters if not image_ready(path, cache)}
    if len(math) + len(rasters) < 16:
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        drawings = [(t, d, cache.root, font) for t, d in sorted(math)]
        list(pool.map(_draw_math, drawings, chunksize=8))
        list(pool.map(_ready_image, [(p, cache.root) for p in sorted(rasters)], chunksize=2))


def math_cached(tex: str, display: bool, cache: Cache, font: str | None = None) -> bool:
    """Whether ``render_math`` has an entry for the formula (drawn, or failed)."""
    key = math_key(tex, display, font or math_font())
    path = cache.path("math", key, ".json")
    return path is not None and path.is_file()


def image_ready(path: Path, cache: Cache) -> bool:
    """Whether ``print_ready`` has nothing to do for the image (kept as is, or converted)."""
    if path.suffix.lower() in (".svg", ".pdf"):
        return True
    try:
        data = path.read_bytes()
    except OSError:
        return False
    if not needs_conversion(data):
        return True
    entry = cache.path("print-image", digest("print-image", IMAGE_VERSION, data), ".png")
    return entry is not None and entry.is_file()


# Set by a process that typesets again and again (``kobook preview --pdf``): the HTML of
# the blocks it wrote before, so that a save's PDF asks pandoc only for its new blocks.
KEPT_HTML: contextvars.ContextVar[BlockHtml | None] = contextvars.ContextVar(
    "kobook_kept_html", default=None
)


# An <a href> that is neither a fragment nor a web address: WeasyPrint would make it a
# file:// link into the folder the book was built in (raw HTML's own links; the book's
# Markdown links to files are decided before, transform/links.py: reader_links).
FILE_HREF = re.compile(r'(<a\b[^>]*?)\shref="(?!#|https?:|mailto:|tel:)[^"]*"([^>]*)', re.I)


def without_file_links(html: str) -> str:
    """``html`` with no link a PDF reader would open as a file of the build machine (an
    attachment stays: WeasyPrint embeds that file, checked inside the book)."""

    def drop(match: re.Match[str]) -> str:
        tag = match.group(0)
        if re.search(r'\brel="[^"]*attachment', tag):
            return tag
        return match.group(1) + match.group(2)

    return FILE_HREF.sub(drop, html)


def render_html(
    book: Book, docs: list[Doc], cache: Cache | None, setup: PrintSetup | None = None
) -> tuple[str, list[Diagnostic]]:
    """The whole book as one print HTML document (also useful for debugging the CSS)."""
    config = book.config
    setup = setup or print_setup(book, cache)
    problems: list[Diagnostic] = []
    prefetch(book, docs, cache, setup.math_font)
    marker = {"t": "RawBlock", "c": ["html", CHAPTER_SPLIT]}
    combined: list[Any] = []
    for doc in docs:
        combined += [*prepare(doc, book, cache, problems, setup), marker]
    kept = KEPT_HTML.get()
    body = kept.html(combined) if kept is not None else blocks_to_html(combined)
    parts = without_file_links(body).split(CHAPTER_SPLIT)
    part_of = part_titles(docs, config.words)
    chapters = [
        {
            "id": doc.chapter.id,
            "kind": doc.chapter.kind,
            "part": part_of.get(doc.chapter.id, ""),
            "html": html,
            "lang": doc.chapter.lang if doc.chapter.lang != config.lang else "",
        }
        for doc, html in zip(docs, parts, strict=False)
    ]
    fonts = setup.fonts
    problems += math_font_problems(book, setup)
    env = environment(book.root, trusted=book.trusted)
    layout = setup.layout
    colours = setup.link_colours  # one decision for every engine (print: true, colorlinks)
    css = env.get_template(f"{TEMPLATES}/book.css.j2").render(
        page=layout,
        figure_height=figure_height(layout),
        fonts=fonts,
        word_break=word_break(setup.keeps_words_whole()),
        hyphenate_latin=setup.hyphenates_latin(),
        hyphen_limits=HYPHEN_LIMITS,
        sides=sides(config),
        highlight_css=highlight_css(),
        link_color=f"#{colours[0]}" if colours else "inherit",
        url_color=f"#{colours[1]}" if colours else "inherit",
    )
    original = config.original
    toc = toc_entries(docs, config.toc_depth, config.words) if config.toc else []
    html = env.get_template(f"{TEMPLATES}/book.html.j2").render(
        lang=config.lang,
        words=config.words,
        title=config.title,
        subtitle=config.get("subtitle", ""),
        authors=config.authors,
        affiliations=config.affiliations,
        translators=config.translators,
        date=config.date_text,
        # The PDF's CreationDate/ModDate (none when the book gives no date: kobook.reproducible).
        created="" if (epoch := config.output_epoch) is None else w3c_datetime(epoch),
        description=config.get("description", ""),
        original=original,
        colophon=colophon(config),
        half_title=config.half_title,
        toc=toc,
        front={doc.chapter.id for doc in docs if doc.chapter.kind == "front"},
        index=book_index(book, docs),
        parts=part_of,
        chapters=chapters,
        css=css,
        version=__version__,
    )
    return passes.without_separators(html), problems


def math_font_problems(book: Book, setup: PrintSetup) -> list[Diagnostic]:
    """FONT002 when ``mathfont:`` names a font fontconfig does not know (the default is
    used instead, as for the other fonts)."""
    name = setup.math_name
    if not name or math_font(name) is not None:
        return []

    fallback = Path(math_font() or "STIX Two Math").name
    return [
        Diagnostic(
            "FONT002",
            f"math font '{name}' (mathfont) is not installed; using {fallback}",
            Location(book.config.path, book.config.line("mathfont")),
            "install it, or name an installed OpenType math font (fc-list :lang=und-zmth family)",
            "warning",
        )
    ]


MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, "pc": 25.4 / 6}


def millimetres(value: str) -> float:
    """A ``page_layout`` length (``25mm``, ``10pt``, ``1in``) in millimetres."""
    match = re.fullmatch(r"([\d.]+)\s*([a-z]+)", value.strip())
    if not match or match.group(2) not in MM:
        return 0.0
    return float(match.group(1)) * MM[match.group(2)]


def figure_height(layout: PageLayout) -> str:
    """The tallest a figure's image may be: the text block less three lines for its
    caption, so a tall figure (a cheat sheet) can still be as wide as the text."""
    text = millimetres(layout.height) - millimetres(layout.top) - millimetres(layout.bottom)
    caption = 3 * layout.line_height * millimetres(layout.font_size)
    return f"{max(text - caption, 40.0):.1f}mm"


def word_break(keep_whole: bool) -> str:
    """``keep-all`` (Korean 어절 breaking) where the set-up keeps words whole
    (:meth:`~kobook.model.Config.keeps_words_whole`: not with ``line-breaking: syllable``
    or for a book that is not Korean).

    Chinese and Japanese break between characters (``normal``); their
    line-start and line-end prohibitions come from Pango's UAX #14 classes.
    """
    return "keep-all" if keep_whole else "normal"


def missing_glyph_problems(book: Book, docs: list[Doc], found: dict[str, int]) -> list[Diagnostic]:
    """GLYPH001 for each character no font could draw, located in the source."""
    problems = []
    for char, count in sorted(found.items()):
        location = book.locate(char)
        problems.append(
            Diagnostic(
                "GLYPH001",
                f"no installed font has '{char}' (U+{ord(char):04X}); drawn {count}× as a box",
                location,
                "install a font that covers it (kobook doctor) or replace the character",
            )
        )
    return problems


def write_pdf(
    book: Book,
    docs: list[Doc],
    out: Path,
    cache: Cache | None,
    *,
    keep_going: bool = False,
    setup: PrintSetup | None = None,
) -> list[Diagnostic]:
    """Write ``out`` (atomically); return warnings met on the way.

    A character no font can draw fails the build (GLYPH001) unless ``keep_going``:
    a PDF with tofu boxes is not a result.  ``setup``: the build's print set-up (made
    here when the caller has none).
    """
    setup = setup or print_setup(book, cache)
    if not keep_going:  # minutes of layout would end in the same GLYPH001
        refuse_missing(missing_glyphs(book, text_chars(docs), setup.fonts, "WeasyPrint"))
    import weasyprint

    engine.install()
    svgreplay.new_document()
    html, problems = render_html(book, docs, cache, setup)
    token = KEEP_ALL.set(setup.keeps_words_whole())
    fast_png = images.FAST_PNG.set(True)
    fetcher = BookFetcher(list(setup.folders))
    laid = relayout.KEPT.get()
    base_url = str(book.root) + "/"
    # Tagged (a screen reader reads the structure): in runs too (parallel/tagging.py).
    options = {"uncompressed_pdf": False, "custom_metadata": True, "pdf_tags": True}
    work = None
    if laid is None and parallel.styles_allow_runs(book.root / "templates" / TEMPLATES):
        work = parallel.plan(
            html,
            jobs=(book.config.get("pdf") or {}).get("jobs", 2),
            sides=sides(book.config),
            folders=list(setup.folders),
        )
    limit = tools.deadline(
        limits.WEASYPRINT_TIMEOUT,
        "WeasyPrint (laying out the PDF)",
        book.root,
        "a very long table or chapter: split it; --engine typst lays a book out faster",
    )
    try:
        with limit, atomic_output(out) as tmp, engine.listening() as glyphs:
            settings = {"base_url": base_url, "fetcher": fetcher, "glyphs": glyphs}
            settings["options"] = options
            settings["prepare"] = functools.partial(engine.enter, engine.carried())
            if work is None or not parallel.write(work, book.config.title, tmp, settings):
                source = weasyprint.HTML(string=html, base_url=base_url, url_fetcher=fetcher)
                document = source.render(**options)
                if laid is not None:  # the preview: the index shows each mark's page
                    document.write_pdf(tmp, **options)
                    relayout.remember(laid, document.pages)
                else:
                    numbered = numbered_pages(document, html, book.config.title, settings)
                    numbered.write_pdf(tmp, **options)
            labelled = tmp.with_name(tmp.name + ".labels")
            try:
                if label_pages(tmp, labelled):  # roman front matter, the body from 1
                    os.replace(labelled, tmp)
            finally:
                labelled.unlink(missing_ok=True)
            problems += refused_problems(book, fetcher.refused)
            missing = missing_glyph_problems(book, docs, glyphs.characters)
            if missing and not keep_going:
                raise KobookError.summarising(
                    f"{len(missing)} character(s) have no font; the PDF was not written",
                    "GLYPH001",
                    missing,
                    "see the list below; --keep-going writes the PDF anyway",
                )
    except OSError as exc:
        raise KobookError(f"could not write the PDF: {exc}", code="PDF001", file=out) from None
    finally:
        if laid is not None:
            relayout.abandon(laid)
        KEEP_ALL.reset(token)
        images.FAST_PNG.reset(fast_png)
    return problems + missing
