"""PDF through pandoc's LaTeX writer and XeLaTeX (``--engine xelatex``).

It starts from the same transformed AST as the WeasyPrint engine, so numbers,
captions, cross-references and callouts are the same; only the last step
differs.  LaTeX-specific passes turn equations, callouts, emoji and
characters the text fonts lack into raw LaTeX; images become files XeTeX
reads (SVG → PDF, GIF → PNG).  pandoc renders ``latex/book.latex`` (a pandoc
template, package data, overridable from the book's ``templates/``);
latexmk runs XeLaTeX as often as needed in ``.kobook-cache/latex/``.
Errors come back with the chapter they are in, not as a 2,000-line log;
characters no font could draw are reported and fail the build.

By concern: ``passes.py`` (the AST before pandoc), ``template.py`` (the document
around it), ``run.py`` (XeLaTeX, paranoid), ``diagnostics.py`` (its log in the
book's terms), ``values.py`` and ``places.py`` (what those share), ``screen.py``
(the book's raw TeX, unless ``--trust``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ...cache import Cache
from ...errors import Diagnostic, KobookError
from ...model import Book, Doc
from ..shared.common import atomic_output
from ..shared.glyphs import missing_glyphs, refuse_missing, text_chars
from ..shared.setup import PrintSetup, print_setup
from ..shared.workdir import Assets, compiler_workdir
from .diagnostics import latex_error, missing_characters
from .run import paranoid_refusal, run_xelatex
from .template import render_latex
from .textlayer import fix_hyphens


def write_pdf(
    book: Book,
    docs: list[Doc],
    out: Path,
    cache: Cache,
    *,
    keep_going: bool = False,
    trusted: bool = False,
    setup: PrintSetup | None = None,
) -> list[Diagnostic]:
    """Write ``out`` with XeLaTeX; return warnings.  Needs xelatex (TeX Live) installed.

    ``trusted`` (``--trust``) passes the book's raw TeX unscreened; XeLaTeX is
    paranoid either way (:func:`run_xelatex`).  ``setup``: the build's print set-up
    (made here when the caller has none).
    """
    if shutil.which("xelatex") is None:
        raise KobookError(
            "xelatex is not installed",
            code="TEX003",
            hint="bash scripts/install-system-deps.sh --tex (TeX Live XeLaTeX and ko.TeX), "
            "or use --engine weasyprint",
        )
    assets = Assets(cache.root, book.root)
    setup = setup or print_setup(book, cache)
    if not keep_going:  # a TeX run would end in the same GLYPH001
        refuse_missing(missing_glyphs(book, text_chars(docs), setup.fonts, "XeLaTeX"))
    latex, problems = render_latex(book, docs, cache, trusted=trusted, assets=assets, setup=setup)
    workdir = compiler_workdir(cache.root, out, "latex", "LaTeX working folder")
    assets.link(workdir)
    tex = workdir / "book.tex"
    previous = tex.read_text(encoding="utf-8") if tex.exists() else None
    if previous != latex:
        tex.write_text(latex, encoding="utf-8")
    proc = run_xelatex(tex, book.config.output_epoch)
    log_path = workdir / "book.log"
    log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else ""
    pdf = workdir / "book.pdf"
    if proc.returncode != 0 or not pdf.exists():
        refused = paranoid_refusal(proc.stdout + proc.stderr, log or proc.stdout, book)
        raise refused or latex_error(log or proc.stdout, latex, book, log_path)
    missing = missing_characters(log, book, latex)
    if missing and not keep_going:
        raise KobookError.summarising(
            f"{len(missing)} character(s) have no glyph in the fonts XeLaTeX used; "
            "the PDF was not written",
            "GLYPH001",
            missing,
            "see the list below; --keep-going writes the PDF anyway",
        )
    with atomic_output(out) as tmp:
        fix_hyphens(pdf, tmp)  # hyphens copy as U+002D, not the font's U+2011
    return problems + missing
