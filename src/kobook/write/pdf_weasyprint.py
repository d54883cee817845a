"""PDF through WeasyPrint: one HTML document for the whole book, paged by CSS.

The transformed chapters are prepared for print (footnotes float to the foot
of the page, math becomes SVG, headings carry their numbers), rendered to HTML
by pandoc in one call, and laid out by WeasyPrint with the ``pdf/book.css.j2``
stylesheet: title page, TOC with ``target-counter`` page numbers, running
heads, bookmarks from headings and Korean word line breaking.
"""

from __future__ import annotations

import copy
import logging
from pathlib import Path
from typing import Any

from .. import __version__
from ..cache import Cache
from ..errors import Diagnostic, KobookError, Location
from ..load import Book
from ..parse import Doc
from ..parse.ast import attr
from . import passes
from .common import atomic_output, blocks_to_html, highlight_css, toc_entries
from .fonts import resolve_fonts
from .layout import page_layout
from .templates import environment
from .weasy_linebreak import KEEP_ALL, install

CHAPTER_SPLIT = "<!--kobook-chapter-->"


def prepare(doc: Doc, book: Book, cache: Cache | None, problems: list[Diagnostic]) -> list[Any]:
    """The print-specific passes over one chapter (on a copy: other writers see the original)."""
    blocks = copy.deepcopy(doc.blocks)
    blocks = passes.heading_numbers(blocks, book.config)
    blocks = passes.equation_numbers(blocks)
    blocks = passes.upright_hangul(blocks)
    blocks = passes.code_languages(blocks)
    blocks = passes.footnotes_inline(blocks)
    blocks = passes.emoji(blocks)

    def math_error(tex: str, reason: str) -> None:
        problems.append(
            Diagnostic(
                "MATH001",
                f"math could not be drawn ({reason}): {tex[:60]}",
                Location(doc.chapter.path, doc.chapter.source_line(1)),
                "simplify the TeX or report it; it is shown as source in the PDF",
                "warning",
            )
        )

    return passes.math_as_svg(blocks, cache, math_error)


def render_html(book: Book, docs: list[Doc], cache: Cache | None) -> tuple[str, list[Diagnostic]]:
    """The whole book as one print HTML document (also useful for debugging the CSS)."""
    config = book.config
    problems: list[Diagnostic] = []
    marker = {"t": "RawBlock", "c": ["html", CHAPTER_SPLIT]}
    combined: list[Any] = []
    for doc in docs:
        combined += [*prepare(doc, book, cache, problems), marker]
    body = blocks_to_html(combined)
    parts = body.split(CHAPTER_SPLIT)
    chapters = [
        {"id": doc.chapter.id, "kind": doc.chapter.kind, "html": html}
        for doc, html in zip(docs, parts, strict=False)
    ]
    fonts = resolve_fonts(config)
    env = environment(book.root)
    layout = page_layout(config)
    colorlinks = config.get("colorlinks", True)
    css = env.get_template("pdf/book.css.j2").render(
        page=layout,
        fonts=fonts,
        word_break="keep-all" if config.line_breaking == "word" else "normal",
        highlight_css=highlight_css(),
        link_color=config.get("linkcolor", "#1f4e8c") if colorlinks else "inherit",
        url_color=config.get("urlcolor", "#1f4e8c") if colorlinks else "inherit",
    )
    original = config.original
    if original and "licence" not in original and "license" in original:
        original["licence"] = original["license"]
    if original and isinstance(original.get("authors"), list):
        original["authors"] = ", ".join(map(str, original["authors"]))
    toc = toc_entries(docs, config.toc_depth, config.captions["chapter"]) if config.toc else []
    html = env.get_template("pdf/book.html.j2").render(
        lang=config.lang,
        title=config.title,
        subtitle=config.get("subtitle", ""),
        authors=config.authors,
        translators=config.translators,
        date=str(config.get("date", "") or ""),
        description=config.get("description", ""),
        original=original,
        toc=toc,
        chapters=chapters,
        css=css,
        version=__version__,
    )
    return html, problems


def write_pdf(book: Book, docs: list[Doc], out: Path, cache: Cache | None) -> list[Diagnostic]:
    """Write ``out`` (atomically); return warnings met on the way."""
    import weasyprint

    install()
    html, problems = render_html(book, docs, cache)
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    token = KEEP_ALL.set(book.config.line_breaking == "word")
    try:
        document = weasyprint.HTML(string=html, base_url=str(book.root) + "/")
        with atomic_output(out) as tmp:
            document.write_pdf(
                tmp,
                pdf_variant=None,
                uncompressed_pdf=False,
                custom_metadata=True,
            )
    except OSError as exc:
        raise KobookError(f"could not write the PDF: {exc}", code="PDF001", file=out) from None
    finally:
        KEEP_ALL.reset(token)
    return problems


def chapter_attr(doc: Doc) -> list[Any]:
    return attr(f"chapter-{doc.chapter.id}", ["chapter"])
