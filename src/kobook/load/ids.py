"""Chapter numbers and stable ids (HTML file names, ``--chapter``), and the chapter
``--chapter`` names."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import KobookError
from ..model import Book, Chapter


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
