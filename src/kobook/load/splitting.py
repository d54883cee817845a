"""One file into chapters: at headings of ``chapter-level`` (given, or guessed for a book
kept as one file), under its front matter's title, with text before the first heading
as a preface and a limit on how many chapters a file may make."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import KobookError
from ..files.reading import Source
from ..model import Chapter, Config, Lines
from ..source.headings import ATX, heading_levels
from ..source.pagebreaks import PAGE_BREAK

ATTRS = re.compile(r"\s*\{([^{}]*)\}\s*$")
# Lines that show nothing on a page: a page break (every chapter starts on a page of its
# own anyway), a comment.
COMMENT_LINE = re.compile(r"\s*<!--.*?-->\s*")


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
            if shows_nothing(body):
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
            if shows_nothing(body):
                continue  # a \newpage before the first heading is no chapter
            # Text before any heading: a chapter only when it is a book of one chapter.
            kind = "chapter" if len(starts) == 1 and level == 1 else "preface"
            title = title or untitled(path, body) if kind == "chapter" else preface_title
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


def shows_nothing(lines: list[str]) -> bool:
    """Is the text of ``lines`` nothing a reader would see (blank lines, page breaks,
    one-line comments)?  It makes no chapter: five empty "들어가며" chapters of one book
    were a ``\\newpage`` above each file's first heading."""
    return all(
        not line.strip() or PAGE_BREAK.fullmatch(line) or COMMENT_LINE.fullmatch(line)
        for line in lines
    )


def untitled(path: Path, lines: list[str]) -> str:
    """A title for a file with no ``#`` title: its first heading of any level, else its
    name as MkDocs makes one (``03-memory_use.md`` → "Memory use"), else its first line's
    words, cut at a word, never inside one."""
    heading = next((ATX.match(line) for line in lines if ATX.match(line)), None)
    if heading is not None:
        return strip_markup(clean_title(heading.group(2))[0])
    name = re.sub(r"^[\d\s._-]+", "", path.stem).replace("-", " ").replace("_", " ").strip()
    if name:
        return name[0].upper() + name[1:]
    words = " ".join(next((line for line in lines if line.strip()), "").split())
    if len(words) <= 40:
        return words
    return words[:40].rsplit(" ", 1)[0] + "…"


def strip_markup(title: str) -> str:
    """Heading text as plain text for TOCs built before parsing (``**x**`` → ``x``)."""
    return re.sub(r"[*_`]+", "", title).strip()
