"""The ``mkdocs`` dialect: an MkDocs (Material) site (``mkdocs.yml`` + ``docs/``) built in place.

One module per concern, in the order Python-Markdown's extensions apply:

- ``config.py``: ``mkdocs.yml`` (its Python and ``!ENV`` tags read, not run;
  ``INHERIT``), the site's name, author, copyright, language, pages folder;
- ``nav.py``: ``nav:`` (or the folder) → parts, chapters and sections, in the
  language folder of an i18n site;
- ``snippets.py``: ``--8<--`` includes, first (what they bring in is then
  converted like the page's own text);
- ``blocks.py``: admonitions (``!!!``), collapsible blocks (``???``), content
  tabs (``===``);
- ``inline.py``: attribute lists, ``markdown`` in HTML, abbreviations, emoji and
  icons, code block titles.

Footnotes, task lists, definition lists and tables are pandoc Markdown already.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import Dialect, Layout, Report
from .blocks import Blocks
from .config import config_file, docs_folder, read_config, site_metadata
from .inline import Inline
from .nav import nav_layout
from .snippets import Snippets

if TYPE_CHECKING:
    from ...model import Book, Chapter, Config
    from ...model.origins import Lines


def snippet_settings(root: Path, config: dict[str, Any]) -> tuple[list[Path], list[str]]:
    """pymdownx.snippets' ``base_path`` folders (default: the folder of ``mkdocs.yml``) and
    its ``auto_append`` files (appended to every page: abbreviations, link lists)."""
    for item in config.get("markdown_extensions") or []:
        if isinstance(item, dict) and isinstance(item.get("pymdownx.snippets"), dict):
            settings = item["pymdownx.snippets"]
            bases = settings.get("base_path")
            if isinstance(bases, str):
                bases = [bases]
            appended = settings.get("auto_append")
            appended = [str(a) for a in appended] if isinstance(appended, list) else []
            folders = [root / str(b) for b in bases] if isinstance(bases, list) and bases else []
            return folders or [root], appended
    return [root], []


class MkDocs(Dialect):
    """MkDocs: ``nav`` orders the book; Material's block and inline syntax becomes pandoc's."""

    name = "mkdocs"
    metadata_file = "mkdocs.yml"

    def detect(self, root: Path) -> str | None:
        found = config_file(root)
        if found is None:
            return None
        docs = docs_folder(root, read_config(root))
        if not docs.is_dir():
            return None
        return f"{found.name} and {docs.relative_to(root.resolve()).as_posix()}/: an MkDocs site"

    def metadata(self, root: Path) -> dict[str, Any]:
        return site_metadata(read_config(root))

    def layout(self, root: Path, config: Config) -> Layout | None:
        root = root.resolve()
        where = config_file(root)
        if where is None:
            return None
        settings = read_config(root)
        docs = docs_folder(root, settings)
        if not docs.is_dir():
            return None
        return nav_layout(root, docs, settings.get("nav"), config.lang, where)

    def convert(self, chapter: Chapter, lines: Lines, report: Report, book: Book) -> Lines:
        root = book.root.resolve()
        bases, appended = snippet_settings(root, read_config(root))
        snippets = Snippets(root, bases, report, book.expansion)
        lines = snippets.resolve(snippets.append(lines, appended))
        words = book.config.words
        lines = Blocks(report, lambda kind: words.word(f"callout-{kind}")).convert(lines)
        return Inline(report).convert(lines)


DIALECT = MkDocs()
