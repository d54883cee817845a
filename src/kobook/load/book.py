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

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import limits
from ..dialect import Layout, Unit, book_dialect
from ..errors import Diagnostic, KobookError, Location
from .config import Config, load_config, read_text, validate
from .discover import discover
from .expansion import Expansion
from .frontmatter import split_front_matter
from .origins import Lines, Origin
from .textfile import unify_newlines

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*(?:#+[ \t]*)?$")
ATTRS = re.compile(r"\s*\{([^{}]*)\}\s*$")


class TextIndex:
    """Line starts and needle places of one text, each found once (for :meth:`Chapter.locate`).

    Results are assigned whole, never extended in place, so chapters located
    from two threads (the HTML writer's) see complete lists.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._lines: list[int] | None = None
        self._places: dict[str, list[int]] = {}

    def places(self, needle: str) -> list[int]:
        found = self._places.get(needle)
        if found is None:
            found = []
            at = self.text.find(needle)
            while at >= 0:
                found.append(at)
                at = self.text.find(needle, at + len(needle))
            self._places[needle] = found
        return found

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        lines = self._lines
        if lines is None:
            lines = [0] + [m.end() for m in re.finditer("\n", self.text)]
            self._lines = lines
        line = bisect.bisect_right(lines, offset)
        return line, offset - lines[line - 1] + 1


@dataclass
class Chapter:
    """One chapter's source: the text kobook builds from and where it came from."""

    id: str
    path: Path
    text: str
    line_offset: int = 0  # lines of ``path`` before ``text`` starts
    title: str = ""
    number: int | None = None  # None: unnumbered (preface, references, ``{-}``)
    shift: int = 0  # heading levels to remove (chapter-level - 1)
    kind: str = "chapter"  # "chapter" | "preface" | "appendix" | "backmatter"
    meta: dict[str, Any] = field(default_factory=dict)  # the file's front matter
    lang: str = ""  # BCP 47: front matter ``lang``, else the book's
    # File and line of each line of ``text`` once a dialect has rewritten it or joined
    # several files (``kobook.load.origins``); empty: line ``n`` is ``path:line_offset+n``.
    origins: tuple[Origin, ...] = ()
    part: str = ""  # the title of the part this chapter opens (mdBook ``# Part`` lines)
    _text_index: TextIndex | None = field(default=None, init=False, repr=False, compare=False)

    def source_line(self, local_line: int) -> int:
        """Line in :attr:`path` of a 1-based line of :attr:`text` (see :meth:`where`)."""
        if self.origins and 0 < local_line <= len(self.origins):
            return self.origins[local_line - 1][1]
        return self.line_offset + local_line

    def where(self, local_line: int = 1, col: int = 0) -> Location:
        """The file, line and column a 1-based line of :attr:`text` came from.

        A chapter an mdBook ``SUMMARY.md`` builds from several files, or one
        with ``{{#include}}`` lines, names the file each line was written in.
        """
        if self.origins:
            index = min(max(local_line, 1), len(self.origins)) - 1
            path, line = self.origins[index]
            return Location(path, line, col)
        return Location(self.path, self.line_offset + local_line, col)

    def locate(self, needle: str, occurrence: int = 0) -> Location | None:
        """Where ``needle`` appears (its ``occurrence``-th time, from 0; past the
        last one, the last one), or None.

        Passes report every occurrence of a needle in turn, so the places of
        each needle and the start of each line are found once per text
        (:class:`TextIndex`): a chapter with 20,000 findings stays linear.
        """
        if not needle:
            return None
        index = self._index()
        if occurrence == 0:
            at = self.text.find(needle)
        else:
            places = index.places(needle)
            at = places[min(occurrence, len(places) - 1)] if places else -1
        if at < 0:
            return None
        line, col = index.line_col(at)
        return self.where(line, col)

    def _index(self) -> TextIndex:
        index = self._text_index
        if index is None or index.text is not self.text:
            index = self._text_index = TextIndex(self.text)
        return index


@dataclass
class Book:
    """A loaded book: validated metadata plus its chapters in reading order."""

    root: Path
    config: Config
    chapters: list[Chapter] = field(default_factory=list)
    discovery: str = ""  # which files are chapters, and why (printed by the build)
    notes: list[Diagnostic] = field(default_factory=list)  # info: what the layout skipped
    # What its includes and macros have added so far (one budget per build).
    expansion: Expansion = field(default_factory=Expansion, repr=False, compare=False)
    # Built with --trust: its raw LaTeX and its templates that are code are used as they are.
    trusted: bool = False

    @property
    def title(self) -> str:
        return self.config.title

    def locate(self, needle: str) -> Location:
        """The first chapter and line where ``needle`` appears (for messages)."""
        for chapter in self.chapters:
            found = chapter.locate(needle)
            if found is not None:
                return found
        return Location()


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


@dataclass(frozen=True)
class Source:
    """One chapter file: its front matter, and the body after it."""

    path: Path
    text: str
    meta: dict[str, Any]
    body: str
    body_line: int  # 0-based line of the file where the body starts


def read_source(path: Path) -> Source:
    # LF line ends for every stage: a CR-only file is not one long line (textfile.py).
    text = unify_newlines(read_text(path))
    front = split_front_matter(text, path)
    return Source(path, text, front.meta, front.body, front.body_line)


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


def heading_levels(text: str) -> list[tuple[int, int, str]]:
    """``(line_index, level, raw_title)`` of ATX headings outside fenced code and comments.

    A ``# note`` line inside an HTML comment that opens a line (the Rust book's
    ``<!-- manual-regeneration … -->`` blocks) is no heading to pandoc either.
    """
    found = []
    fence: str | None = None
    comment = False
    for index, line in enumerate(text.split("\n")):
        if comment:
            comment = "-->" not in line
            continue
        match = FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
            elif marker.startswith(fence) and not line.strip()[len(marker) :].strip():
                fence = None
            continue
        if fence is not None:
            continue
        if line.lstrip(" ").startswith("<!--") and "-->" not in line.split("<!--", 1)[1]:
            comment = True
            continue
        heading = ATX.match(line)
        if heading:
            found.append((index, len(heading.group(1)), heading.group(2)))
    return found


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
