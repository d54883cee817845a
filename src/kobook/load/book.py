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

import re
from pathlib import Path
from typing import Any

from .. import limits
from ..dialect import Layout, Unit, book_dialect
from ..errors import KobookError
from ..files.reading import Source, read_source
from ..model import Book, Chapter, Config, Lines
from ..source.headings import ATX, heading_levels
from .config import load_config, validate
from .discover import discover

ATTRS = re.compile(r"\s*\{([^{}]*)\}\s*$")


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
        return book_from_layout(root, config, layout)
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
    number_chapters(chapters)
    assign_ids(chapters, level, len(sources) > 1)
    return Book(root=root, config=config, chapters=chapters, discovery=found_files.reason)


def book_from_layout(root: Path, config: Config, layout: Layout) -> Book:
    """The chapters a dialect's table of contents orders (mdBook ``SUMMARY.md``, distill posts)."""
    if not layout.units:
        raise KobookError(
            "no chapters found", code="LOAD002", file=root, hint=layout.reason or "add chapters"
        )
    chapters = [layout_chapter(unit, config) for unit in layout.units]
    too_many(chapters, limits.MAX_CHAPTERS)
    number_chapters(chapters)
    assign_ids(chapters, 1, True)
    return Book(
        root=root,
        config=config,
        chapters=chapters,
        discovery=layout.reason,
        notes=list(layout.notes),
    )


def layout_chapter(unit: Unit, config: Config) -> Chapter:
    """One chapter from its files: nested files' headings go down a level per depth.

    The chapter's title is its first file's ``#`` heading, else its front matter
    ``title``, else the title the table of contents gives it (added as a ``#``
    line so every later stage sees a titled chapter).
    """
    parts: list[Lines] = []
    meta: dict[str, Any] = {}
    for index, (path, shift) in enumerate(unit.files):
        source = read_source(path)
        if index == 0:
            meta = dict(source.meta)
        lines = Lines.of(source.body, path, source.body_line + 1)
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


def shift_heading_lines(lines: Lines, shift: int) -> Lines:
    """Every ATX heading outside code ``shift`` levels down (at most ``######``)."""
    heads = {index for index, _level, _raw in heading_levels(lines.text)}
    texts = lines.text.split("\n")
    for index in heads:
        stripped = texts[index].lstrip(" ")
        hashes = len(stripped) - len(stripped.lstrip("#"))
        texts[index] = "#" * min(hashes + shift, 6) + stripped[hashes:]
    return Lines("\n".join(texts), lines.origins)


def split_asked(config: Config) -> bool:
    """True when the metadata says at which heading level chapters start."""
    return (config.get("chapter-level") or "auto") != "auto"


def too_many(
    chapters: list[Chapter], most: int, source: Source | None = None, *, auto: bool = False
) -> None:
    """LIMIT004 at the first chapter past ``most``.

    Each chapter is a pandoc run and an HTML page; a file of one-line ``#``
    headings must not become thousands of them unasked (``limits.py``).
    """
    if len(chapters) <= most:
        return
    first = chapters[most]
    line = first.line_offset + 1 + (source.body_line if source else 0)
    if auto:
        message = (
            f"this file would be cut into {len(chapters)} chapters at its headings "
            f"(at most {most} without 'chapter-level:' in metadata.yaml)"
        )
        hint = (
            "if every heading of that level really starts a chapter, say so: "
            "chapter-level: 1 (or 2) in metadata.yaml; otherwise split the file"
        )
    else:
        message = f"the book has {len(chapters)} chapters (at most {most})"
        hint = "a book this long is best built in parts: one project per volume"
    raise KobookError(message, code="LIMIT004", file=first.path, line=line, hint=hint)


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


def titled_by_front_matter(source: Source) -> bool:
    """True when the front matter names the chapter and the body has no ``#`` title."""
    if not isinstance(source.meta.get("title"), str) or not source.meta["title"].strip():
        return False
    for line in source.body.split("\n"):
        if line.strip():
            heading = ATX.match(line)
            return not (heading and len(heading.group(1)) == 1)
    return True


def front_matter_chapter(source: Source) -> Chapter:
    """The whole file as one chapter under its front matter ``title``.

    The title becomes a ``#`` line standing where the closing fence was, so
    every other line keeps its number; later ``#`` headings become sections.
    """
    title = " ".join(str(source.meta["title"]).split())
    return Chapter(
        id="",
        path=source.path,
        text=f"# {title}\n{source.body}",
        line_offset=source.body_line - 1,
        title=strip_markup(title),
        kind="fm-title",
    )


def select_chapter(book: Book, wanted: str) -> Chapter:
    """The chapter named by ``--chapter`` (id, number or file name)."""
    for chapter in book.chapters:
        if matches(chapter, wanted):
            return chapter
    raise KobookError(
        f"no chapter matches '{wanted}'",
        code="LOAD003",
        file=book.root,
        hint="chapters: " + ", ".join(c.id for c in book.chapters),
    )


def chapter_files(root: Path, config: Config) -> list[Path]:
    """The chapter files in reading order (the dialect's layout, else ``discover.py``)."""
    if not config.get("chapters"):
        layout = book_dialect(config).layout(root, config)
        if layout is not None:
            return layout.files()
    return discover(root, config).files


def chapter_level(config: Config, sources: list[tuple[Path, str]]) -> int:
    """The heading level that starts a chapter (``chapter-level``, or guessed).

    Guess 2 for a single file that opens with a ``#`` title and has at most one
    more ``#`` heading (back matter such as ``# References``) over several ``##``
    headings: the common layout of a translated book kept as one Markdown file.
    """
    value = config.get("chapter-level") or "auto"  # ``chapter-level:`` alone is auto
    if value != "auto":
        return int(value)
    if len(sources) != 1:
        return 1
    levels = [level for _, level, _ in heading_levels(sources[0][1])]
    ones, twos = levels.count(1), levels.count(2)
    if levels and levels[0] == 1 and ones <= 2 and twos >= 2:
        later_ones = [i for i, level in enumerate(levels) if level == 1][1:]
        # A second "#" must be back matter: no "##" chapter after it.
        if not later_ones or 2 not in levels[later_ones[0] :]:
            return 2
    return 1


def clean_title(raw: str) -> tuple[str, bool]:
    """Heading text without ``{#id .class}``; second value: is it unnumbered."""
    unnumbered = False
    match = ATTRS.search(raw)
    if match:
        attrs = match.group(1).split()
        unnumbered = "-" in attrs or ".unnumbered" in attrs
        raw = raw[: match.start()]
    return raw.strip(), unnumbered


def split_chapters(
    path: Path, text: str, level: int, preface_title: str
) -> tuple[list[Chapter], str]:
    """Cut one file into chapters at headings of ``level`` (and above).

    Returns the chapters and the book title found in the file (a leading heading
    above chapter level), if any.
    """
    lines = text.split("\n")
    headings = [h for h in heading_levels(text) if h[1] <= level]
    book_title = ""
    starts: list[tuple[int, str, str]] = []  # (line index, kind, title)
    for index, (line_index, hlevel, raw) in enumerate(headings):
        title, unnumbered = clean_title(raw)
        if hlevel < level:
            # A title line before any chapter is the book's title; later ones are back matter.
            if not starts and index == 0 and not book_title:
                book_title = strip_markup(title)
                starts.append((line_index, "title", title))
                continue
            starts.append((line_index, "backmatter", title))
        else:
            starts.append((line_index, "preface" if unnumbered else "chapter", title))
    if not starts or (starts[0][0] > 0 and any(line.strip() for line in lines[: starts[0][0]])):
        starts.insert(0, (0, "preface-untitled", ""))
    chapters: list[Chapter] = []
    for index, (start, kind, title) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(lines)
        if kind == "title":
            # The title line itself is dropped; what follows it is a preface.
            body = lines[start + 1 : end]
            if not any(line.strip() for line in body):
                continue
            chapters.append(
                Chapter(
                    id="",
                    path=path,
                    text="\n".join(body),
                    line_offset=start + 1,
                    title=preface_title,
                    kind="preface",
                    shift=level - 1,
                )
            )
            continue
        body = lines[start:end]
        if kind == "preface-untitled":
            if not any(line.strip() for line in body):
                continue
            # Text before any heading: a chapter only when it is a book of one chapter.
            kind = "chapter" if len(starts) == 1 and level == 1 else "preface"
            title = title or first_words(body) if kind == "chapter" else preface_title
        chapters.append(
            Chapter(
                id="",
                path=path,
                text="\n".join(body),
                line_offset=start,
                title=strip_markup(title),
                kind=kind,
                shift=level - 1,
            )
        )
    return chapters, book_title


def first_words(lines: list[str]) -> str:
    """A title for untitled text: its first heading's text (any level), else its first words."""
    for line in lines:
        if line.strip():
            heading = ATX.match(line)
            if heading:
                return strip_markup(clean_title(heading.group(2))[0])
            return line.strip()[:40]
    return ""


def strip_markup(title: str) -> str:
    """Heading text as plain text for TOCs built before parsing (``**x**`` → ``x``)."""
    return re.sub(r"[*_`]+", "", title).strip()


def number_chapters(chapters: list[Chapter]) -> None:
    """Number the ``chapter`` kind 1, 2, ...; preface and back matter stay unnumbered.

    A number the source gives (distill's ``section_number``) is kept, and the
    chapters after it count on from it.
    """
    number = 0
    for chapter in chapters:
        if chapter.kind == "chapter":
            number = chapter.number if chapter.number is not None else number + 1
            chapter.number = number


def assign_ids(chapters: list[Chapter], level: int, many_files: bool) -> None:
    """Stable ids used for HTML file names and ``--chapter``.

    One chapter per file: the file stem (``01-memory``).  Split files:
    ``ch03`` for chapter 3, ``preface``/``back1`` for the unnumbered ones.
    ``index`` is never one: ``index.html`` is the site's table of contents, so
    ``book/index.md`` becomes ``index-2`` (``--chapter index`` still finds it).
    """
    seen: set[str] = {"index"}
    per_file: dict[Path, int] = {}
    for chapter in chapters:
        per_file[chapter.path] = per_file.get(chapter.path, 0) + 1
    backs = 0
    for chapter in chapters:
        if per_file[chapter.path] == 1 and many_files:
            base = slug(chapter.path.stem)
        elif chapter.kind == "chapter":
            base = f"ch{chapter.number:02d}"
        elif chapter.kind == "preface":
            base = "preface"
        else:
            backs += 1
            base = f"back{backs}"
        name, n = base, 1
        while name in seen:
            n += 1
            name = f"{base}-{n}"
        seen.add(name)
        chapter.id = name


def slug(text: str) -> str:
    value = re.sub(r"[^\w.-]+", "-", text, flags=re.UNICODE).strip("-").lower()
    return value or "chapter"


def matches(chapter: Chapter, wanted: str) -> bool:
    return wanted in {chapter.id, chapter.path.stem, chapter.path.name, str(chapter.number)}
