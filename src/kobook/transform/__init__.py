"""Stage 4, transform: ordered passes of small functions ``(doc, ctx) -> doc``.

Each pass runs over every chapter before the next pass starts, so a later pass
sees the whole book's numbering (a reference in chapter 2 to a figure in
chapter 5 works).  The order is the list below, nothing else; writers add their
own passes (footnotes for the PDF, links between HTML pages) in ``write/``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..cache import Cache
from ..model import Book, Doc
from .callouts import make_callouts
from .chapter_links import link_chapters
from .citations import cite
from .context import Context, Target
from .crossrefs import resolve_crossrefs
from .embeds import make_embeds
from .equations import number_equations
from .figures import check_images, implicit_figures, number_figures
from .headings import close_level_gaps, shift_headings
from .html_inline import html_markup
from .ids import unique_ids
from .index_terms import mark_index
from .leaks import report_leaks
from .links import check_links, reader_links
from .listings import number_listings
from .math_macros import expand_math_macros
from .page_breaks import page_breaks
from .sections import number_sections
from .tables import number_tables

Pass = Callable[[Doc, Context], Doc]

PASSES: list[tuple[str, Pass]] = [
    ("headings", shift_headings),
    ("heading-levels", close_level_gaps),  # no skipped level: the outline is a tree
    ("callouts", make_callouts),  # also ::: details (a callout of kind details)
    ("html-markup", html_markup),  # 2<sup>7</sup>: a Superscript every writer draws
    ("page-breaks", page_breaks),  # \newpage: a break in every PDF, nothing on a screen
    ("embeds", make_embeds),  # before images: the static image is a figure
    ("images", check_images),
    ("links", check_links),  # file: URLs and PDF attachments from outside the book (SEC001)
    ("implicit-figures", implicit_figures),
    ("figures", number_figures),
    ("tables", number_tables),
    ("listings", number_listings),
    ("math-macros", expand_math_macros),  # \def in one formula holds for the later ones
    ("equations", number_equations),
    ("index", mark_index),  # 찾아보기: each indexed place gets an id (before ids: unique)
    ("ids", unique_ids),
    ("sections", number_sections),
    ("crossrefs", resolve_crossrefs),
    ("chapter-links", link_chapters),  # [x](other-chapter.md#id) → #id, once every id is known
    ("reader-links", reader_links),  # a link to a file that is not a chapter: URL or text
    ("citations", cite),
    ("leaks", report_leaks),  # last: what is still foreign syntax (LEAK001)
]


def transform_book(
    book: Book,
    docs: list[Doc],
    *,
    keep_going: bool = False,
    cache: Cache | None = None,
    offline: bool = False,
) -> tuple[list[Doc], Context]:
    """Run :data:`PASSES` in order over all chapters; return the docs and the context.

    ``offline``: download no remote image (each one is IMG002).
    """
    ctx = Context(book=book, keep_going=keep_going, cache=cache, offline=offline)
    return run_passes(PASSES, docs, ctx), ctx


def run_passes(passes: list[tuple[str, Pass]], docs: list[Doc], ctx: Context) -> list[Doc]:
    """``passes`` in order, each over every chapter before the next starts."""
    for _name, run in passes:
        docs = [run(doc, ctx) for doc in docs]
    return docs


__all__ = ["PASSES", "Context", "Pass", "Target", "run_passes", "transform_book"]
