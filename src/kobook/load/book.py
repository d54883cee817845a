"""The ``load`` stage: a project folder becomes a :class:`Book` of ordered chapters.

Chapters come from ``chapters:`` in ``metadata.yaml``, else from the first
of ``book/``, an mdBook ``src/SUMMARY.md``, ``docs/``, ``chapters/`` and the
Markdown files at the top of the project (see ``discover.py``).  Each file's
YAML front matter is read first (``frontmatter.py``): in a one-file book it is
the book's metadata, in a book of many files the chapter's (its ``title``
names a chapter whose text has no ``#`` title; its ``lang`` is the chapter's).
A file is split into chapters at headings of ``chapter-level`` (1 for one
file per chapter, 2 when the book is one file whose chapters are ``##``
under a single ``#`` title).  Nothing is lost: text
before the first chapter heading becomes an unnumbered preface, and a later
heading above chapter level (``# References``) starts unnumbered back matter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import limits
from ..dialect import Layout, Unit, book_dialect
from ..errors import Diagnostic, KobookError, Location
from ..files.reading import Source, read_source
from ..model import Book, Chapter, Config, Lines
from ..source.headings import heading_levels
from .config import load_config, validate
from .discover import discover
from .front import front_first
from .ids import assign_ids, number_chapters
from .splitting import (
    chapter_level,
    clean_title,
    front_matter_chapter,
    shift_heading_lines,
    split_asked,
    split_chapters,
    strip_markup,
    titled_by_front_matter,
    too_many,
)
from .titles import retitle, unnumbered_below_top


def with_dialect_metadata(root: Path, config: Config) -> Config:
    """``config`` with what the repository states in its dialect's own files (``book.toml``,
    ``_config.yml``): metadata.yaml wins, and their values are checked alike.  The one
    place build and check learn the book's language and title from."""
    dialect = book_dialect(config)
    stated = {k: v for k, v in dialect.metadata(root).items() if k not in config.raw}
    if stated:
        where = root / dialect.metadata_file if dialect.metadata_file else None
        text = where.read_text(encoding="utf-8", errors="replace") if where else ""
        validate(stated, where, text)
        config.raw.update(stated)
        source = dialect.stated_in(root)
        config.sources.update({key: source for key in stated if source})
    return config


def load_book(root: Path, config: Config | None = None) -> Book:
    """Load ``root`` (a project folder) into a :class:`Book` with all its chapters.

    ``config``: metadata held in memory instead of ``root/metadata.yaml``
    (``kobook import --to`` reads a repository it must not write into).
    """
    root = root.resolve()
    if not root.is_dir():
        raise KobookError(f"project folder not found: {root}", code="LOAD001", file=root)
    config = with_dialect_metadata(
        root, config if config is not None else load_config(root / "metadata.yaml")
    )
    dialect = book_dialect(config)
    layout = None if config.get("chapters") else dialect.layout(root, config)
    if layout is not None:
        return titled(arranged(book_from_layout(root, config, layout)))
    found_files = discover(root, config)
    if not found_files.files:
        raise KobookError(
            "no chapters found",
            code="LOAD002",
            file=root,
            hint="put Markdown files in book/ or list them under 'chapters:' in metadata.yaml",
        )
    sources = [read_source(path) for path in found_files.files]
    one_file_title = None
    if len(sources) == 1 and sources[0].meta:
        one_file_title = merge_document_metadata(config, sources[0])
    level = chapter_level(config, [(s.path, s.body) for s in sources])
    chapters: list[Chapter] = []
    title = ""
    for source in sources:
        meta = source.meta if len(sources) > 1 or one_file_title else {}
        if meta and titled_by_front_matter(source):
            found = [front_matter_chapter(source)]
        else:
            found, file_title = split_chapters(
                source.path, source.body, level, config.preface_title
            )
            title = title or file_title
            if not split_asked(config):
                too_many(found, limits.MAX_AUTO_CHAPTERS, source, auto=True)
        for chapter in found:
            chapter.line_offset += source.body_line if chapter.kind != "fm-title" else 0
            chapter.kind = "chapter" if chapter.kind == "fm-title" else chapter.kind
            chapter.meta = dict(meta)
            chapter.lang = str(meta.get("lang") or config.lang)
        chapters.extend(found)
    too_many(chapters, limits.MAX_CHAPTERS)
    if not config.title and title:
        config.raw["title"] = title
    chapters = front_first(chapters, config, root)
    number_chapters(chapters)
    assign_ids(chapters, level, len(sources) > 1)
    book = Book(root=root, config=config, chapters=chapters, discovery=found_files.reason)
    return titled(arranged(book))


def arranged(book: Book) -> Book:
    """``book`` as its dialect arranges it (parts marked in the text)."""
    book_dialect(book.config).arrange(book)
    return book


def titled(book: Book) -> Book:
    """``book`` with a title: a book that names none anywhere (metadata, front matter, a
    title heading, the dialect's own file) takes its folder's name, with CFG016 saying so.
    An empty title made an EPUB with an empty ``dc:title`` (EPUBCheck's error)."""
    if not book.config.title.strip():
        name = book.root.name
        book.config.raw["title"] = name
        book.notes.append(
            Diagnostic(
                "CFG016",
                f"the book has no title; its folder's name '{name}' is used",
                Location(book.config.path or book.root),
                "give it one: title: 책 제목 in metadata.yaml",
                "warning",
            )
        )
    return book


def book_from_layout(root: Path, config: Config, layout: Layout) -> Book:
    """The chapters a dialect's table of contents orders (mdBook ``SUMMARY.md``, distill posts)."""
    if not layout.units:
        raise KobookError(
            "no chapters found", code="LOAD002", file=root, hint=layout.reason or "add chapters"
        )
    notes = list(layout.notes)
    in_page = layout.numbers_in_page or "numbersections" in config.raw
    chapters = [layout_chapter(unit, config, layout.table, notes, in_page) for unit in layout.units]
    too_many(chapters, limits.MAX_CHAPTERS)
    chapters = front_first(chapters, config, root)
    number_chapters(chapters)
    assign_ids(chapters, 1, True)
    return Book(
        root=root,
        config=config,
        chapters=chapters,
        discovery=layout.reason,
        notes=notes,
    )


def layout_chapter(
    unit: Unit,
    config: Config,
    table: str = "",
    notes: list[Diagnostic] | None = None,
    in_page: bool = True,
) -> Chapter:
    """One chapter from its files: nested files' headings go down a level per depth.

    The chapter's title is the one the table of contents (``table``) gives it,
    else its first file's ``#`` heading, else its front matter ``title`` (added
    as a ``#`` line so every later stage sees a titled chapter); each section
    file's top heading, likewise (``titles.py``; LOAD005 notes go to ``notes``).
    ``in_page`` False: headings below each file's top one are not numbered.
    """
    parts: list[Lines] = []
    meta: dict[str, Any] = {}
    for index, (path, shift) in enumerate(unit.files):
        source = read_source(path)
        if index == 0:
            meta = dict(source.meta)
        lines = Lines.of(source.body, path, source.body_line + 1)
        title = unit.section_titles.get(path) or (unit.title if index == 0 else "")
        if table and title:
            lines, note = retitle(lines, title, table)
            if note is not None and notes is not None:
                notes.append(note)
        if not in_page:
            lines = unnumbered_below_top(lines)
        parts.append(shift_heading_lines(lines, shift) if shift else lines)
    lines = Lines.join(parts)
    first = next((h for h in heading_levels(lines.text)), None)
    before = lines.text.split("\n")[: first[0]] if first else []
    if first is not None and first[1] == 1 and not any(line.strip() for line in before):
        title = clean_title(first[2])[0]
    else:
        title = " ".join(str(meta.get("title") or unit.title or unit.files[0][0].stem).split())
        lines = Lines(f"# {title}\n" + lines.text, (lines.origins[0], *lines.origins))
    return Chapter(
        id="",
        path=unit.files[0][0],
        text=lines.text,
        line_offset=lines.origins[0][1] - 1,
        title=strip_markup(title),
        number=unit.number,
        kind=unit.kind,
        meta=meta,
        lang=str(meta.get("lang") or config.lang),
        origins=lines.origins,
        part=unit.part,
    )


def merge_document_metadata(config: Config, source: Source) -> str | None:
    """A one-file book's front matter is the book's metadata, as pandoc reads it.

    It is validated like ``metadata.yaml`` and fills in what that file leaves
    out.  Unlike pandoc (where the document wins over ``--metadata-file``),
    ``metadata.yaml`` keeps the last word: it is the book's file, and a
    ``book/`` holding one chapter so far is common.  When both name a title and
    they differ, the file's is a chapter title: it is returned.
    """
    validate(source.meta, source.path, source.text)
    chapter_title = None
    own = source.meta.get("title")
    if own and config.get("title") and str(own).strip() != str(config.get("title")).strip():
        chapter_title = str(own)
    for key, value in source.meta.items():
        config.raw.setdefault(key, value)
    return chapter_title


def chapter_files(root: Path, config: Config) -> list[Path]:
    """The chapter files in reading order (the dialect's layout, else ``discover.py``)."""
    if not config.get("chapters"):
        layout = book_dialect(config).layout(root, config)
        if layout is not None:
            return layout.files()
    return discover(root, config).files
