"""The ``load`` stage: a project folder becomes a :class:`Book` of ordered chapters.

Chapters come from ``chapters:`` in ``metadata.yaml``, else ``book/*.md`` in name
order, else the Markdown files at the top of the project (the "one big file"
layout of most translation repositories).  A file is split into chapters at
headings of ``chapter-level`` (1 for one file per chapter, 2 when the book is one
file whose chapters are ``##`` under a single ``#`` title).  Nothing is lost: text
before the first chapter heading becomes an unnumbered preface, and a later
heading above chapter level (``# References``) starts unnumbered back matter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import KobookError, Location
from .config import Config, load_config, read_text

SKIP_TOP_LEVEL = {"readme", "changelog", "license", "licence", "notice", "contributing"}
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*(?:#+[ \t]*)?$")
ATTRS = re.compile(r"\s*\{([^{}]*)\}\s*$")


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
    kind: str = "chapter"  # "chapter" | "preface" | "backmatter"

    def source_line(self, local_line: int) -> int:
        """Line in :attr:`path` of a 1-based line of :attr:`text`."""
        return self.line_offset + local_line

    def locate(self, needle: str, occurrence: int = 0) -> Location | None:
        """Where ``needle`` appears (its ``occurrence``-th time, from 0), or None."""
        index = self.text.find(needle) if needle else -1
        for _ in range(occurrence):
            later = self.text.find(needle, index + len(needle)) if index >= 0 else -1
            if later < 0:
                break
            index = later
        if index < 0:
            return None
        line = self.text.count("\n", 0, index) + 1
        col = index - (self.text.rfind("\n", 0, index) + 1) + 1
        return Location(self.path, self.source_line(line), col)


@dataclass
class Book:
    """A loaded book: validated metadata plus its chapters in reading order."""

    root: Path
    config: Config
    chapters: list[Chapter] = field(default_factory=list)

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


def load_book(root: Path) -> Book:
    """Load ``root`` (a project folder) into a :class:`Book` with all its chapters."""
    root = root.resolve()
    if not root.is_dir():
        raise KobookError(f"project folder not found: {root}", code="LOAD001", file=root)
    config = load_config(root / "metadata.yaml")
    files = chapter_files(root, config)
    if not files:
        raise KobookError(
            "no chapters found",
            code="LOAD002",
            file=root,
            hint="put Markdown files in book/ or list them under 'chapters:' in metadata.yaml",
        )
    sources = [(path, read_text(path)) for path in files]
    level = chapter_level(config, sources)
    chapters: list[Chapter] = []
    title = ""
    for path, text in sources:
        found, file_title = split_chapters(path, text, level, config.preface_title)
        title = title or file_title
        chapters.extend(found)
    if not config.title and title:
        config.raw["title"] = title
    number_chapters(chapters)
    assign_ids(chapters, level, len(sources) > 1)
    return Book(root=root, config=config, chapters=chapters)


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
    """The chapter files in reading order (see the module docstring)."""
    listed = config.get("chapters")
    if listed:
        files = []
        for name in listed:
            path = (root / name).resolve()
            if not path.is_file():
                raise KobookError(
                    f"chapter file not found: {name}",
                    code="LOAD004",
                    file=config.path,
                    hint="fix the name under 'chapters:' in metadata.yaml",
                )
            files.append(path)
        return files
    book_dir = root / "book"
    if book_dir.is_dir():
        found = sorted(book_dir.glob("*.md"))
        if found:
            return found
    return sorted(
        p
        for p in root.glob("*.md")
        if p.stem.lower() not in SKIP_TOP_LEVEL and not p.name.startswith(".")
    )


def heading_levels(text: str) -> list[tuple[int, int, str]]:
    """``(line_index, level, raw_title)`` of ATX headings outside fenced code."""
    found = []
    fence: str | None = None
    for index, line in enumerate(text.split("\n")):
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
    value = config.get("chapter-level", "auto")
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
    for line in lines:
        if line.strip():
            return line.strip()[:40]
    return ""


def strip_markup(title: str) -> str:
    """Heading text as plain text for TOCs built before parsing (``**x**`` → ``x``)."""
    return re.sub(r"[*_`]+", "", title).strip()


def number_chapters(chapters: list[Chapter]) -> None:
    """Number the ``chapter`` kind 1, 2, ...; preface and back matter stay unnumbered."""
    number = 0
    for chapter in chapters:
        if chapter.kind == "chapter":
            number += 1
            chapter.number = number


def assign_ids(chapters: list[Chapter], level: int, many_files: bool) -> None:
    """Stable ids used for HTML file names and ``--chapter``.

    One chapter per file: the file stem (``01-memory``).  Split files:
    ``ch03`` for chapter 3, ``preface``/``back1`` for the unnumbered ones.
    """
    seen: set[str] = set()
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
