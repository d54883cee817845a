"""The ``bookdown`` dialect: an R Markdown book (``_bookdown.yml``, ``index.Rmd``) built in place.

- ``project.py``: the chapter files (``rmd_files``), the book's metadata from
  ``index.Rmd``, and ``(PART)`` / ``(APPENDIX)`` headings as parts;
- ``text.py``: ``\\@ref(…)`` references, ``(\\#tab:…)`` / ``(\\#fig:…)`` /
  ``(\\#eq:…)`` labels;
- ``..chunks``: knitr chunks shown as code, not run; ``include_graphics`` as figures.

``{-}`` headings are pandoc's own unnumbered headings.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import Dialect, Report
from ..chunks import Cells
from .project import arrange_parts, book_metadata, is_bookdown
from .text import convert_text

if TYPE_CHECKING:
    from ...model import Book, Chapter
    from ...model.origins import Lines


class Bookdown(Dialect):
    """bookdown: its file list and parts; knitr and bookdown syntax as pandoc Markdown."""

    name = "bookdown"
    metadata_file = "index.Rmd"

    def detect(self, root: Path) -> str | None:
        if not is_bookdown(root):
            return None
        which = "_bookdown.yml" if (root / "_bookdown.yml").is_file() else "index.Rmd"
        return f"{which}: a bookdown book"

    def metadata(self, root: Path) -> dict[str, Any]:
        return book_metadata(root)

    def stated_in(self, root: Path) -> str:
        if (root / "_bookdown.yml").is_file():
            return "_bookdown.yml (rmd_files) and index.Rmd"
        return "the folder's .Rmd files (bookdown's rule) and index.Rmd"

    def convert(self, chapter: Chapter, lines: Lines, report: Report, book: Book) -> Lines:
        cells = Cells(report)
        lines = cells.convert(lines)
        return convert_text(lines, report, cells.renamed)

    def arrange(self, book: Book) -> None:
        arrange_parts(book)


DIALECT = Bookdown()
