"""The Typst engine: pandoc's Typst writer, kobook's passes, and the ``typst`` compiler.

The route Quarto's ``typst`` format takes, from the same transformed chapters the
other engines get: kobook's passes rewrite what Typst would get wrong (Korean
words, callouts, equation numbers, captions that already carry their numbers,
resolved citations), pandoc writes Typst markup into kobook's template, and the
compiler from the ``typst`` wheel (no network, no ``@preview`` packages) writes the
PDF in a kept process with a time and a memory limit (:mod:`.compiler`).  Nothing
from the book is Typst code: values reach the source as literals (:mod:`.values`).
Pandoc's writer is used rather than one of our own: it knows Typst's escaping and
its math, which a second writer would have to relearn.

Typst breaks Korean between any two syllables (typst/typst#1164); every word
that holds Hangul goes into a ``box`` (:func:`word_boxes`), so lines break
between words and the text readers copy has no invisible characters.

By concern: ``words.py`` (Korean words kept whole in boxes), ``passes.py`` (the AST
before pandoc's Typst writer), ``formulas.py`` (what Typst cannot set, drawn), ``template.py``
(the document around the chapters), ``diagnostics.py`` (Typst's messages in the book's
terms), ``values.py`` (book data as Typst literals), ``compiler.py`` and ``worker.py``
(the bounded compiler), ``bodies.py`` (chapters kept between builds).
"""

from __future__ import annotations

from pathlib import Path

from ...cache import Cache
from ...errors import Diagnostic, KobookError
from ...model import Book, Doc
from ..shared.common import atomic_output
from ..shared.glyphs import missing_glyphs, refuse_missing
from ..shared.mathsvg import math_family
from ..shared.setup import PrintSetup, print_setup
from ..shared.workdir import Assets, compiler_workdir
from . import compiler
from .diagnostics import diagnostic_of, limit_error
from .template import render_typst


def write_pdf(
    book: Book,
    docs: list[Doc],
    out: Path,
    cache: Cache,
    *,
    keep_going: bool = False,
    setup: PrintSetup | None = None,
) -> list[Diagnostic]:
    """Write ``out`` with the Typst compiler from the ``typst`` wheel; return warnings.
    ``setup``: the build's print set-up (made here when the caller has none)."""
    setup = setup or print_setup(book, cache)
    workdir = compiler_workdir(cache.root, out, "typst", "Typst working folder")
    assets = Assets(cache.root, book.root)
    rendered = render_typst(book, docs, cache, assets, workdir, setup)
    missing = missing_glyphs(book, rendered.chars, setup.fonts, "Typst")
    if not keep_going:
        refuse_missing(missing)
    source, problems = rendered.source, rendered.problems
    assets.link(workdir)
    main = workdir / "book.typ"
    main.write_text(source, encoding="utf-8")
    try:
        _, math_folder = math_family(setup.math_name)
        pdf, warnings = compiler.compile_pdf(
            main, workdir, [math_folder] if math_folder else [], book.config.output_epoch
        )
    except KobookError as error:
        if not error.code.startswith("LIMIT"):
            raise
        raise limit_error(book, error) from None
    except compiler.TypstFailed as error:
        first = diagnostic_of(book, source, error.text, "TYP001", "error")
        raise KobookError(
            first.message,
            code="TYP001",
            file=first.location.file,
            line=first.location.line,
            hint=first.hint,
        ) from None
    for text in warnings:
        problems.append(diagnostic_of(book, source, text, "TYP002", "warning"))
    with atomic_output(out) as tmp:
        tmp.write_bytes(pdf)
    return problems + missing
