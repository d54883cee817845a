"""The ``quarto`` dialect: a Quarto book project (``_quarto.yml`` with ``book:``) built in place.

- ``project.py``: ``_quarto.yml`` → title, authors, language, bibliography, and
  ``book.chapters`` / ``book.appendices`` → chapters, parts, appendices;
- ``text.py``: cross-reference labels and references (``@fig-x`` → ``@fig:x``),
  shortcodes (``include`` first, so included text is converted too), tab panels;
- ``..chunks``: code cells shown as code, not run (one note per book).

Callouts (``::: {.callout-note}``, a ``##`` title or ``title=``) are kobook's own
syntax already.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...files.reading import read_text
from ...files.yamlread import ToolLoader, parse_yaml
from .. import Dialect, Layout, Report
from ..chunks import Cells
from .project import is_book, project_file, project_layout, project_metadata, read_project
from .text import QuartoText

if TYPE_CHECKING:
    from ...model import Book, Chapter, Config
    from ...model.origins import Lines


def variables(root: Path) -> dict[str, Any]:
    """``_variables.yml`` (what ``{{< var >}}`` reads), ``{}`` when there is none."""
    path = root / "_variables.yml"
    if not path.is_file():
        return {}
    data = parse_yaml(read_text(path), path, path.name, "DIA401", loader=ToolLoader)
    return data if isinstance(data, dict) else {}


class Quarto(Dialect):
    """Quarto: ``book.chapters`` orders the book; Quarto's syntax becomes kobook's."""

    name = "quarto"
    metadata_file = "_quarto.yml"

    def detect(self, root: Path) -> str | None:
        found = project_file(root)
        if found is None or not is_book(read_project(root)):
            return None
        return f"{found.name} with book: chapters: a Quarto book"

    def metadata(self, root: Path) -> dict[str, Any]:
        return project_metadata(read_project(root))

    def layout(self, root: Path, config: Config) -> Layout | None:
        root = root.resolve()
        where = project_file(root)
        if where is None:
            return None
        return project_layout(root, read_project(root), where)

    def convert(self, chapter: Chapter, lines: Lines, report: Report, book: Book) -> Lines:
        root = book.root.resolve()
        meta = {**read_project(root), **chapter.meta}
        text = QuartoText(root, report, book.expansion, meta, variables(root))
        lines = text.includes(lines, 0, ())
        cells = Cells(report)
        lines = cells.convert(lines)
        return text.rewrite(lines, cells.renamed)


DIALECT = Quarto()
