"""The ``mdbook`` dialect: an mdBook book (``book.toml`` + ``src/SUMMARY.md``) built in place.

One module per concern, applied in mdBook's own order (its ``links``
preprocessor runs before the renderer sees the Markdown):

- ``booktoml.py``: title, authors, language, the source folder;
- ``summary.py``: ``SUMMARY.md`` → chapters, parts, sections, appendices;
- ``includes.py``: ``{{#include}}``, ``{{#rustdoc_include}}``,
  ``{{#playground}}``, ``{{#title}}``, resolved first (included code then
  goes through the code-block rules like code written in the chapter);
- ``listings.py``: Rust info strings and hidden lines, ``<span
  class="filename">``, the Rust book's ``<Listing>``;
- ``prose.py``: CommonMark's literal ``\\x`` and ``$``, which pandoc would read as TeX;
- ``html.py``: ``<img>``, ``<figure>``, caption spans.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import Dialect, Layout, Report
from .booktoml import book_metadata, mathjax, read_book_toml, source_folder
from .html import Images
from .includes import Includer
from .listings import convert_code
from .prose import keep_literal
from .summary import summary_layout

if TYPE_CHECKING:
    from ...model import Book, Chapter, Config
    from ...model.origins import Lines


class MdBook(Dialect):
    """mdBook: ``SUMMARY.md`` orders the book, preprocessor syntax becomes pandoc Markdown."""

    name = "mdbook"

    def detect(self, root: Path) -> str | None:
        if not (root / "book.toml").is_file():
            return None
        folder = source_folder(root, read_book_toml(root))
        summary = folder / "SUMMARY.md"
        if not summary.is_file():
            return None
        return f"book.toml and {summary.relative_to(root.resolve()).as_posix()}: an mdBook book"

    metadata_file = "book.toml"

    def metadata(self, root: Path) -> dict[str, Any]:
        return book_metadata(read_book_toml(root))

    def layout(self, root: Path, config: Config) -> Layout | None:
        root = root.resolve()
        summary = source_folder(root, read_book_toml(root)) / "SUMMARY.md"
        if not summary.is_file():
            return None  # kobook's own discovery then (book/, docs/, ...)
        return summary_layout(root, summary)

    def convert(self, chapter: Chapter, lines: Lines, report: Report, book: Book) -> Lines:
        lines = Includer(book.root.resolve(), report, book.expansion).resolve(lines)
        lines = convert_code(lines, report)
        lines = keep_literal(lines, report, math=mathjax(read_book_toml(book.root)))
        return Images(chapter.path.parent, report).convert(lines)


DIALECT = MdBook()
