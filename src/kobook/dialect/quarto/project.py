"""``_quarto.yml`` of a book project: its title, authors, language and chapter list.

``book.chapters`` lists the chapter files in order; an item ``{part: 제목,
chapters: […]}`` opens a part (``part: part.qmd`` takes its title from that
file's heading); ``book.appendices`` are the appendices.  ``index.qmd`` and any
file whose title heading is ``{.unnumbered}`` are unnumbered (a preface before
the first numbered chapter, back matter after).  An item ``{href: a.qmd, text:
제목}`` titles its chapter (over the file's heading, as every table of contents).
Notebooks (``.ipynb``) are listed with a warning: kobook reads Markdown only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...boundary import inside
from ...errors import Diagnostic, KobookError, Location
from ...files.reading import read_source, read_text
from ...files.yamlread import ToolLoader, parse_yaml
from ...source.headings import heading_levels
from .. import Layout, Unit

NAMES = ("_quarto.yml", "_quarto.yaml")
PAGES = (".qmd", ".md", ".markdown", ".rmd")


def project_file(root: Path) -> Path | None:
    return next((root / n for n in NAMES if (root / n).is_file()), None)


def read_project(root: Path) -> dict[str, Any]:
    """``_quarto.yml`` parsed (``{}`` without one); DIA401 for bad YAML."""
    path = project_file(root)
    if path is None:
        return {}
    data = parse_yaml(read_text(path), path, path.name, "DIA401", loader=ToolLoader)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise KobookError(
            f"{path.name} should be a mapping of settings",
            code="DIA401",
            file=path,
            line=1,
            hint="Quarto reads project:, book:, lang: … at the top level",
        )
    return data


def book_section(project: dict[str, Any]) -> dict[str, Any]:
    book = project.get("book")
    return book if isinstance(book, dict) else {}


def is_book(project: dict[str, Any]) -> bool:
    kind = project.get("project")
    return (isinstance(kind, dict) and kind.get("type") == "book") or bool(book_section(project))


def names(value: Any) -> list[str]:
    """Quarto's ``author``: a name, a list of names, or of ``{name: …}`` (``name`` may be
    ``{given, family}``)."""
    items = value if isinstance(value, list) else [value]
    found = []
    for item in items:
        name = item.get("name") if isinstance(item, dict) else item
        if isinstance(name, dict):
            name = " ".join(str(name.get(k, "")) for k in ("given", "family")).strip()
        if isinstance(name, str) and name.strip():
            found.append(" ".join(name.split()))
    return found


def project_metadata(project: dict[str, Any]) -> dict[str, Any]:
    """``title``, ``subtitle``, ``author``, ``date``, ``lang``, ``description`` and
    ``bibliography`` in kobook's keys (``book:`` first, then the top level)."""
    book = book_section(project)
    found: dict[str, Any] = {}
    for key in ("title", "subtitle", "date", "description"):
        value = book.get(key, project.get(key))
        if isinstance(value, str | int | float) and str(value).strip():
            found[key] = " ".join(str(value).split())
    authors = names(book.get("author", project.get("author")))
    if authors:
        found["author"] = authors
    lang = project.get("lang") or book.get("lang")
    if isinstance(lang, str) and lang.strip():
        found["lang"] = lang.strip()
    bibliography = project.get("bibliography") or book.get("bibliography")
    if isinstance(bibliography, str | list) and bibliography:
        found["bibliography"] = bibliography
    return found


def file_title(path: Path) -> tuple[str, bool]:
    """A page's title (front matter ``title``, else its first ``#``) and whether it is
    unnumbered (``{.unnumbered}`` / ``{-}``)."""
    source = read_source(path)
    heading = next((h for h in heading_levels(source.body) if h[1] == 1), None)
    raw = heading[2] if heading else ""
    unnumbered = ".unnumbered" in raw or "{-}" in raw.replace(" ", "")
    title = str(source.meta.get("title") or "").strip()
    if not title and heading:
        title = raw.split("{")[0].strip()
    return title, unnumbered


class Chapters:
    """Walks ``book.chapters`` and ``book.appendices`` into units."""

    def __init__(self, root: Path, where: Path) -> None:
        self.root = root
        self.where = where
        self.units: list[Unit] = []
        self.notes: list[Diagnostic] = []
        self.numbered_seen = False

    def page(self, written: Any) -> Path | None:
        if not isinstance(written, str) or not written.strip():
            return None
        path = inside(
            self.root / written.strip(), self.root, what="chapter", file=self.where, written=written
        )
        if path.suffix.lower() == ".ipynb" or path.suffix.lower() not in PAGES:
            self.warn(f"{written}: kobook reads Markdown pages (.qmd, .md), not this file")
            return None
        if not path.is_file():
            self.warn(f"{self.where.name} lists a file that does not exist: {written}")
            return None
        return path

    def warn(self, message: str) -> None:
        self.notes.append(Diagnostic("DIA402", message, Location(self.where), "", "warning"))

    def add(self, written: Any, part: str = "", appendix: bool = False, title: str = "") -> None:
        path = self.page(written)
        if path is None:
            return
        _title, unnumbered = file_title(path)
        if appendix:
            kind = "appendix"
        elif unnumbered or (path.stem == "index" and not self.units):
            kind = "backmatter" if self.numbered_seen else "preface"
        else:
            kind = "chapter"
            self.numbered_seen = True
        self.units.append(Unit(files=[(path, 0)], kind=kind, part=part, title=title))

    def items(self, items: Any, appendix: bool = False) -> None:
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and "part" in item:
                self.part(item, appendix)
            elif isinstance(item, dict) and "href" in item:  # {href: a.qmd, text: 제목}
                self.add(item.get("href"), appendix=appendix, title=str(item.get("text") or ""))
            else:
                self.add(item, appendix=appendix)

    def part(self, item: dict[str, Any], appendix: bool) -> None:
        title = str(item.get("part") or "")
        if title.lower().endswith(PAGES):
            path = self.page(title)
            title = file_title(path)[0] if path is not None else ""
        first = len(self.units)
        for child in item.get("chapters") or []:
            self.add(child, appendix=appendix)
        if len(self.units) > first and title:
            self.units[first].part = title


def project_layout(root: Path, project: dict[str, Any], where: Path) -> Layout | None:
    """The layout ``book.chapters`` and ``book.appendices`` give (None for no book)."""
    book = book_section(project)
    if not isinstance(book.get("chapters"), list):
        return None
    walker = Chapters(root, where)
    walker.items(book["chapters"])
    walker.items(book.get("appendices"), appendix=True)
    units = walker.units
    parts = len({u.part for u in units if u.part})
    reason = f"{where.name} book.chapters: {len(units)} chapters, {parts} parts"
    return Layout(units=units, reason=reason, notes=walker.notes, table=where.name)
