"""The writers kobook has, each behind the same call (as mdBook's renderers are).

A writer turns the transformed chapters into one output: a PDF (an *engine*,
chosen with ``--engine`` or ``engine:`` in metadata.yaml) or the HTML site.
Each is a :class:`Writer` here: its name, what it makes, a one-line summary,
and :attr:`Writer.run` (one call for all: a :class:`Job` in, :class:`Written`
out), which imports the writer's package only when it runs
(importing WeasyPrint alone takes about a second), so the CLI, ``kobook
doctor`` and the metadata check read this list without loading any writer.

A new writer is a package under ``write/`` and one entry in :data:`WRITERS`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..errors import Diagnostic, KobookError
from ..model.draws import MEANING_IN_TAGS, NOT_LAID_OUT, Draws, How

if TYPE_CHECKING:
    from ..cache import Cache
    from ..model import Book, Config, Doc
    from .shared.setup import PrintSetup


@dataclass(frozen=True)
class Job:
    """What a writer is asked to write: the same for every writer, which ignores what it
    has no use for."""

    book: Book
    docs: list[Doc]  # the chapters to write: one with --chapter
    out: Path  # the PDF file, or the site's folder
    cache: Cache
    all_docs: list[Doc]  # the whole book: the site's links and sidebar
    keep_going: bool = False  # recoverable errors become warnings
    trusted: bool = False  # --trust: the book's raw LaTeX passes unscreened
    # The build's print set-up (page, type, code box, fonts, math font, word breaking, the
    # folders a writer may read): decided once, the same object for every writer.
    # None: each writer makes its own (a test, a one-off call).
    setup: PrintSetup | None = field(default=None, repr=False)
    # The other outputs this build writes beside the site, as (format, file name): the
    # site links them (``downloads/``) and the build copies them there.
    downloads: tuple[tuple[str, str], ...] = ()


class Written(NamedTuple):
    """What a writer made: the file to show (the PDF, the site's index page), its warnings."""

    path: Path
    problems: list[Diagnostic]


@dataclass(frozen=True)
class Writer:
    name: str  # what --engine and ``engine:`` say (a PDF engine), or the format
    output: str  # "pdf", "html" or "epub"
    summary: str  # one line: what it does (the progress line while it runs, kobook doctor)
    label: str  # its output in messages ("the HTML and WeasyPrint PDF outputs ignore it")
    draws: Draws  # what it does with each construct of the book, as data
    run: Callable[[Job], Written] = field(repr=False, compare=False)  # imports the writer
    # Its folder under kobook's ``templates/`` and the book's (``pdf`` for WeasyPrint): a
    # book that styles an engine there is built by it when it names no engine.
    templates: str = ""
    # When the engine was not asked for (the default), the progress line adds this: where
    # a quicker draft comes from, so the cost of the default is visible where it is paid.
    draft: str = ""

    @property
    def raw(self) -> frozenset[str]:
        """The raw formats it uses."""
        return self.draws.formats

    @property
    def draws_html(self) -> bool:
        """Does it lay raw HTML out (else pandoc drops the tags, keeping the text between)?"""
        return self.draws.format("html") == "drawn"

    @property
    def raw_latex(self) -> bool:
        """Does it use the book's raw LaTeX (else TEX005 notes it once)?"""
        return self.draws.format("latex") == "drawn"


def _html(job: Job) -> Written:
    from .html.writer import write_html

    problems: list[Diagnostic] = []
    index = write_html(
        job.book,
        job.docs,
        job.out,
        all_docs=job.all_docs,
        problems=problems,
        cache=job.cache,
        downloads=job.downloads,
    )
    return Written(index, problems)


def _weasy(job: Job) -> Written:
    from .weasyprint.writer import write_pdf

    problems = write_pdf(
        job.book, job.docs, job.out, job.cache, keep_going=job.keep_going, setup=job.setup
    )
    return Written(job.out, problems)


def _xelatex(job: Job) -> Written:
    from .latex.writer import write_pdf

    problems = write_pdf(
        job.book,
        job.docs,
        job.out,
        job.cache,
        keep_going=job.keep_going,
        trusted=job.trusted,
        setup=job.setup,
    )
    return Written(job.out, problems)


def _typst(job: Job) -> Written:
    from .typst.writer import write_pdf

    problems = write_pdf(
        job.book, job.docs, job.out, job.cache, keep_going=job.keep_going, setup=job.setup
    )
    return Written(job.out, problems)


def _epub(job: Job) -> Written:
    from .epub.writer import write_epub

    problems = write_epub(job.book, job.docs, job.out, job.cache, setup=job.setup)
    return Written(job.out, problems)


# What each writer does with the book's constructs.  Formulas are converted everywhere but
# in XeLaTeX (SVG for WeasyPrint, Typst's math or SVG, MathJax's markup on the site, MathML
# in the EPUB); raw HTML is laid out by the HTML-based writers and reduced to the text
# between its tags by pandoc's LaTeX and Typst writers.  pandoc's LaTeX writer drops a raw
# HTML block; for Typst, kobook reads one with text into the AST first.
LAYS_OUT_HTML: dict[str, How] = {"html": "drawn"}
DROPS_HTML_TAGS: dict[str, How] = {"html": "converted"}
WEASYPRINT = Draws(
    raw=LAYS_OUT_HTML,
    html=dict.fromkeys(NOT_LAID_OUT, "dropped"),
    unknown_html="dropped",
    elements={"Math": "converted"},
)
XELATEX = Draws(
    raw={**DROPS_HTML_TAGS, "latex": "drawn"},
    html=dict.fromkeys(NOT_LAID_OUT | MEANING_IN_TAGS, "dropped"),
    html_blocks="dropped",
    unknown_html="dropped",
)
TYPST = Draws(
    raw={**DROPS_HTML_TAGS, "typst": "dropped"},  # the book's own Typst is never run (TYP003)
    html=dict.fromkeys(NOT_LAID_OUT | MEANING_IN_TAGS, "dropped"),
    html_blocks="converted",  # read by pandoc's HTML reader (shared/passes/rawhtml.py)
    unknown_html="dropped",
    elements={"Math": "converted"},
)
SITE = Draws(raw=LAYS_OUT_HTML, elements={"Math": "converted"})
# The EPUB keeps a frame's or a medium's fallback text (EPUB001 names what it leaves out).
EPUB = Draws(
    raw=LAYS_OUT_HTML, html=dict.fromkeys(NOT_LAID_OUT, "converted"), elements={"Math": "converted"}
)
# The default PDF engine first.  Name, output, summary, label, what it draws, run.
WRITERS = (
    Writer(
        "typst",
        "pdf",
        "typesetting the PDF (pandoc + Typst)",
        "Typst PDF",
        TYPST,
        _typst,
        templates="typst",
    ),
    Writer(
        "weasyprint",
        "pdf",
        "laying out the PDF (WeasyPrint)",
        "WeasyPrint PDF",
        WEASYPRINT,
        _weasy,
        draft="for a quicker draft: --engine typst",
        templates="pdf",
    ),
    Writer(
        "xelatex",
        "pdf",
        "typesetting the PDF (pandoc + XeLaTeX)",
        "XeLaTeX PDF",
        XELATEX,
        _xelatex,
        templates="latex",
    ),
    Writer("html", "html", "writing the HTML book", "HTML", SITE, _html, templates="html"),
    Writer("epub", "epub", "writing the EPUB (pandoc)", "EPUB", EPUB, _epub, templates="epub"),
)


def writers() -> tuple[Writer, ...]:
    """Every writer, the default PDF engine first."""
    return WRITERS


def formats() -> tuple[str, ...]:
    """What ``kobook build`` can make, one name per kind of output (``all``: every one)."""
    return tuple(dict.fromkeys(writer.output for writer in WRITERS))


def pdf_engines() -> list[str]:
    """The names of the writers that make a PDF, the default (typst) first."""
    return [writer.name for writer in WRITERS if writer.output == "pdf"]


def styled_engine(root: Path) -> str | None:
    """The PDF engine the book styles with its own templates (``templates/pdf/`` is
    WeasyPrint's CSS, ``templates/latex/`` XeLaTeX's), None when it styles none.

    Another engine would build the book without them, its house style gone in silence,
    so the book's own style chooses when the book names no engine.  The first engine in
    :data:`WRITERS` order wins when the book styles several."""
    for writer in WRITERS:
        if (
            writer.output == "pdf"
            and writer.templates
            and has_files(root / "templates" / writer.templates)
        ):
            return writer.name
    return None


def has_files(folder: Path) -> bool:
    """Does ``folder`` hold a file of its own (a dot file is not one)?  The top level only:
    a template overrides kobook's file of the same name there."""
    try:
        with os.scandir(folder) as entries:
            return any(not e.name.startswith(".") and e.is_file() for e in entries)
    except OSError:  # no such folder, or not a folder
        return False


def engine_for(config: Config, root: Path) -> str:
    """The PDF engine a book asks for (``engine:``), else the one its own templates style
    (:func:`styled_engine`), else the default: the one place the default is decided."""
    return str(config.get("engine") or styled_engine(root) or pdf_engines()[0])


def get(name: str, output: str | None = None) -> Writer:
    """The writer called ``name`` (of ``output``, when given); CFG005 naming the known ones."""
    known = [writer for writer in WRITERS if output is None or writer.output == output]
    for writer in known:
        if writer.name == name:
            return writer
    raise KobookError(
        f"unknown engine '{name}'",
        code="CFG005",
        hint="use " + " or ".join(f"--engine {writer.name}" for writer in known)
        if output == "pdf"
        else "known: " + ", ".join(f"{writer.name} ({writer.output})" for writer in known),
    )
