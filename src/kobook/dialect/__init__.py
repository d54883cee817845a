"""Stage 2, dialect: a repository's own Markdown flavour becomes pandoc Markdown.

Translators keep editing their repository in its own format (a Jekyll
"distill" site, an mdBook book) while it stays live, so kobook builds it in
place: a *dialect* knows the repository's layout (which files are chapters,
in which order, grouped how) and rewrites each chapter's text into the pandoc
Markdown every later stage already handles (``{% include figure.liquid %}``
→ ``![caption](path){#fig:…}``, ``{{#include f:anchor}}`` → the code).  Every
line keeps the file and line it came from (:class:`~kobook.model.origins.Lines`),
so a diagnostic after the rewrite still names what the translator wrote.

A dialect is one module here exposing ``DIALECT`` (a :class:`Dialect`), listed
in :data:`DIALECTS`; ``dialect:`` in ``metadata.yaml`` picks it (default
``pandoc``, which changes nothing).  A further dialect (Quarto, d2lbook,
MyST) is one new module and one line in :data:`DIALECTS`, like an mdBook
preprocessor.

What a dialect emits beyond plain pandoc Markdown (the transforms and writers
understand these):

- a figure: ``![caption](path){#fig:name}`` alone in its paragraph;
- a collapsible block: ``::: {.details summary="label"}`` … ``:::`` (HTML
  ``<details>``, a titled box in the PDF);
- a callout: ``::: {.callout-KIND title="…"}`` (``takeaway`` is a kind);
- an embedded page: ``::: {.embed src="path" image="static.png"}`` … ``:::``
  (an ``<iframe>`` in HTML, the image or a note with the link in the PDF);
- a numbered listing: a code block with ``listing="1-1"`` (a printed number),
  ``caption="…"`` and ``filename="src/main.rs"`` attributes; a code block with
  ``filename`` only shows the file name above it;
- an abstract: ``::: {.abstract}`` right after the chapter title.
"""

from __future__ import annotations

import importlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import Diagnostic, KobookError, Location

if TYPE_CHECKING:
    from ..model import Book, Chapter, Config
    from ..model.origins import Lines

# name -> module defining ``DIALECT`` (imported only when a book asks for it).
DIALECTS: dict[str, str] = {
    "pandoc": "kobook.dialect.pandoc",
    "distill": "kobook.dialect.distill",
    "mdbook": "kobook.dialect.mdbook",
    "mkdocs": "kobook.dialect.mkdocs",
    "quarto": "kobook.dialect.quarto",
    "bookdown": "kobook.dialect.bookdown",
}


@dataclass
class Unit:
    """One chapter of a layout: the files it is made of, in order.

    ``files`` pairs each file with how many levels its headings go down: an
    mdBook section nested under a chapter is part of that chapter, its ``#``
    title becoming ``##``.
    """

    files: list[tuple[Path, int]]
    kind: str = "chapter"  # "chapter" | "preface" | "appendix"
    title: str = ""  # the table of contents' title (over the file's own: ``load/titles.py``)
    # The table of contents' title of each further file (a section), by path.
    section_titles: dict[Path, str] = field(default_factory=dict)
    part: str = ""  # the part this chapter opens
    number: int | None = None  # a number the source gives (distill ``section_number``)


@dataclass
class Layout:
    """A repository's chapters as its own table of contents orders them."""

    units: list[Unit]
    reason: str  # printed by the build: which file decided
    table: str = ""  # the file whose titles name the chapters (``SUMMARY.md``), "" if none
    # False: only the files' top headings are numbered (mdBook), unless the metadata
    # says ``numbersections`` itself.
    numbers_in_page: bool = True
    notes: list[Diagnostic] = field(default_factory=list)  # drafts skipped, ...

    def files(self) -> list[Path]:
        """Every file of the book once, in reading order (what ``kobook check`` reads)."""
        seen: dict[Path, None] = {}
        for unit in self.units:
            for path, _shift in unit.files:
                seen.setdefault(path, None)
        return list(seen)


@dataclass
class Report:
    """What a dialect converted, and what it could not (``kobook import`` prints it)."""

    converted: Counter[str] = field(default_factory=Counter)
    problems: list[Diagnostic] = field(default_factory=list)  # warnings: could not convert
    notes: list[Diagnostic] = field(default_factory=list)  # info: dropped on purpose

    def count(self, construct: str, n: int = 1) -> None:
        self.converted[construct] += n

    def cannot(self, code: str, message: str, where: Location, hint: str = "") -> None:
        self.problems.append(Diagnostic(code, message, where, hint, "warning"))

    def info(self, code: str, message: str, where: Location) -> None:
        self.notes.append(Diagnostic(code, message, where, "", "info"))

    def lines(self) -> list[str]:
        """The report as printed: one line per construct, then each problem."""
        out = [f"  {name}: {n} converted" for name, n in sorted(self.converted.items())]
        out += [f"  {d.format()}" for d in self.problems]
        return out


class Dialect:
    """The base dialect is pandoc Markdown: kobook's own layout, nothing rewritten.

    Subclasses override what their format needs; every hook has a default so
    a dialect that only rewrites text overrides :meth:`convert` alone.
    """

    name = "pandoc"
    # The file :meth:`metadata` reads, relative to the book (where its mistakes are shown).
    metadata_file = ""

    def detect(self, root: Path) -> str | None:
        """Why ``root`` looks like this dialect's repository (``kobook import --from auto``)."""
        return None

    def metadata(self, root: Path) -> dict[str, Any]:
        """Book metadata the repository states in its own files (``book.toml``,
        ``_config.yml``): defaults that ``metadata.yaml`` overrides."""
        return {}

    def stated_in(self, root: Path) -> str:
        """Where :meth:`metadata`'s values come from, for messages ("book.toml")."""
        return self.metadata_file

    def layout(self, root: Path, config: Config) -> Layout | None:
        """The chapters and their order, or None for kobook's discovery (``discover.py``)."""
        return None

    def convert(self, chapter: Chapter, lines: Lines, report: Report, book: Book) -> Lines:
        """One chapter's text in pandoc Markdown, each line with its origin."""
        return lines

    def arrange(self, book: Book) -> None:
        """Change the loaded chapters where the format marks structure inside the text
        (bookdown's ``# (PART)`` headings): called once, at the end of loading."""


def top_heading_level(path: Path) -> int:
    """The level of the first ATX heading outside code in ``path`` (1 when it has none):
    how far a nested page's headings must go down to sit under its chapter's."""
    from ..files.reading import read_source
    from ..source.headings import heading_levels

    found = heading_levels(read_source(path).body)
    return found[0][1] if found else 1


def refuse_cycle(path: Path, chain: tuple[tuple[Path, int], ...], depth: int, what: str) -> None:
    """DIA206 when including ``path`` at the last place of ``chain`` would include a file
    into itself, or nest deeper than :data:`~kobook.limits.MAX_INCLUDE_DEPTH` (every
    dialect's includes: mdBook's, MkDocs' snippets, Quarto's)."""
    from .. import limits

    cycle = path in {file for file, _ in chain}
    if not cycle and depth < limits.MAX_INCLUDE_DEPTH:
        return
    why = "includes itself" if cycle else f"nests deeper than {limits.MAX_INCLUDE_DEPTH} levels"
    file, line = chain[-1] if chain else (None, 0)
    raise KobookError(
        f"{what} {why}", code="DIA206", file=file, line=line, hint="break the cycle of includes"
    )


def get_dialect(name: str, where: Location | None = None) -> Dialect:
    """The dialect called ``name`` (CFG015 for an unknown one)."""
    module = DIALECTS.get(name)
    if module is None:
        where = where or Location()
        raise KobookError(
            f"unknown dialect '{name}'",
            code="CFG015",
            file=where.file,
            line=where.line,
            hint="dialect: " + " | ".join(DIALECTS),
        )
    dialect: Dialect = importlib.import_module(module).DIALECT
    return dialect


def book_dialect(config: Config) -> Dialect:
    """The dialect ``metadata.yaml`` names (``pandoc`` when it names none)."""
    name = str(config.get("dialect") or "pandoc")
    line = 0
    if config.path is not None and name not in DIALECTS:
        line = config.line("dialect")
    return get_dialect(name, Location(config.path, line))


def convert_book(book: Book) -> Report:
    """Run the book's dialect over every chapter (the dialect stage); return its report."""
    from ..model.origins import Lines

    dialect = book_dialect(book.config)
    report = Report()
    for chapter in book.chapters:
        lines = Lines(chapter.text, chapter.origins or origins_of(chapter))
        converted = dialect.convert(chapter, lines, report, book)
        chapter.text, chapter.origins = converted.text, converted.origins
    return report


def origins_of(chapter: Chapter) -> tuple[tuple[Path, int], ...]:
    """A chapter's line origins as its plain line numbering gives them."""
    count = chapter.text.count("\n") + 1
    return tuple((chapter.path, chapter.line_offset + i + 1) for i in range(count))


__all__ = [
    "DIALECTS",
    "Dialect",
    "Layout",
    "Report",
    "Unit",
    "book_dialect",
    "convert_book",
    "get_dialect",
    "refuse_cycle",
    "top_heading_level",
]
