"""``kobook import --to DIR``: the repository as a plain kobook project (leaving its format).

Each chapter is written as the build sees it after the dialect stage (the same
``convert_book`` text), one ``book/NN-<id>.md`` per chapter; the local files
its images and embeds name are copied under the same path relative to the
project, and each reference is rewritten to that path (kobook resolves it from
the project folder), so nothing depends on where the chapter file used to sit.
The whole project is made in a temporary folder and moved into place at the end.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from ..boundary import real_folders, within
from ..errors import Diagnostic, KobookError, Location
from ..model import Book, Chapter
from ..source.headings import FENCE, heading_levels

# A local file a chapter points at: an image target, an HTML src=, a ``::: {.embed}`` image=.
IMAGE_TARGET = re.compile(r"(!\[(?:[^\[\]]|\[[^\]]*\])*\]\()(<[^>\n]*>|[^)\s]+)")
SRC_ATTR = re.compile(r"""(\b(?:src|image|poster|data)\s*=\s*)(["'])([^"'\n]+)\2""")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:|^/|^#", re.I)
ATX_TITLE = re.compile(r"^(#{1,6})([ \t]+.*?)[ \t]*$")


@dataclass
class Written:
    """What ``--to`` produced: chapter files, copied assets, and notes on what changed."""

    chapters: list[str] = field(default_factory=list)  # book/NN-id.md, in order
    assets: list[str] = field(default_factory=list)  # project-relative paths copied
    notes: list[Diagnostic] = field(default_factory=list)


def check_target(source: Path, target: Path, force: bool) -> None:
    """IMP005: ``target`` holds files (without --force); IMP006: it overlaps the source.

    Writing into the repository being read (or around it) would read back what
    was just written at the next import and could overwrite the sources.
    """
    if target == source or within(target, source) or within(source, target):
        raise KobookError(
            f"--to {target} overlaps the repository being imported ({source})",
            code="IMP006",
            file=target,
            hint="choose a folder outside the repository, e.g. --to ../my-book-kobook",
        )
    if target.exists() and not target.is_dir():
        raise KobookError(
            f"--to {target} is a file, not a folder",
            code="IMP005",
            file=target,
            hint="name a new or empty folder",
        )
    if target.is_dir() and any(target.iterdir()) and not force:
        raise KobookError(
            f"--to {target} is not empty",
            code="IMP005",
            file=target,
            hint="name a new or empty folder, or add --force to write over the files "
            "kobook import makes there (others are left alone)",
        )


def chapter_file_name(index: int, chapter: Chapter) -> str:
    """``book/NN-<id>.md``; an id that is already numbered (``01-intro``) is not numbered twice."""
    name = re.sub(r"^\d+[-_. ]*", "", chapter.id) or chapter.id
    return f"book/{index:02d}-{name}.md"


def plain_text(chapter: Chapter) -> str:
    """The chapter as a pandoc-dialect file: one ``#`` title, unnumbered kinds marked ``{-}``.

    A chapter cut from one big file at ``##`` gets its headings one level up
    (``chapter.shift``); a preface without a title line gets one.
    """
    text = chapter.text
    if chapter.shift:
        text = unshift(text, chapter.shift)
    heads = heading_levels(text)
    first = heads[0] if heads else None
    lines = text.split("\n")
    titled = first is not None and first[1] == 1 and not any(x.strip() for x in lines[: first[0]])
    numbered = chapter.kind == "chapter"
    if not titled:
        lines.insert(0, f"# {chapter.title or chapter.id}" + ("" if numbered else " {-}") + "\n")
    elif (
        not numbered
        and first is not None
        and not re.search(r"\{[^{}]*-[^{}]*\}\s*$", lines[first[0]])
    ):
        lines[first[0]] = lines[first[0]].rstrip() + " {-}"
    return "\n".join(lines).rstrip("\n") + "\n"


def unshift(text: str, shift: int) -> str:
    """Headings ``shift`` levels up (``##`` → ``#``), code left alone."""
    lines = text.split("\n")
    for index, level, _raw in heading_levels(text):
        stripped = lines[index].lstrip(" ")
        lines[index] = "#" * max(level - shift, 1) + stripped[level:]
    return "\n".join(lines)


def outside_code(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` applied to everything but fenced code blocks (shown as written)."""
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        match = FENCE.match(line)
        if fence is None and match:
            if prose:
                out.append(change("\n".join(prose)))
            prose = []
            fence = match.group(1)[0] * len(match.group(1))
            out.append(line)
        elif fence is not None:
            out.append(line)
            if match and match.group(1).startswith(fence) and not line.strip().strip(fence[0]):
                fence = None
        else:
            prose.append(line)
    if prose:
        out.append(change("\n".join(prose)))
    return "\n".join(out)


class Assets:
    """The local files chapters name, copied once each under their project-relative path."""

    def __init__(self, book: Book, into: Path) -> None:
        self.root = book.root
        self.into = into
        self.copied: dict[str, None] = {}

    def rewrite(self, chapter: Chapter, text: str) -> str:
        """``text`` with each local reference pointing at its copy (project-relative)."""

        def image(match: re.Match[str]) -> str:
            target = match.group(2)
            bare = target[1:-1] if target.startswith("<") else target
            new = self.take(chapter, bare)
            if new is None:
                return match.group(0)
            return match.group(1) + (f"<{new}>" if target.startswith("<") else new)

        def attribute(match: re.Match[str]) -> str:
            new = self.take(chapter, match.group(3))
            if new is None:
                return match.group(0)
            return f"{match.group(1)}{match.group(2)}{new}{match.group(2)}"

        return outside_code(
            text, lambda part: SRC_ATTR.sub(attribute, IMAGE_TARGET.sub(image, part))
        )

    def take(self, chapter: Chapter, url: str) -> str | None:
        """Copy the file ``url`` names (as the build finds it); its new reference, or None."""
        if SCHEME.match(url):
            return None
        name = unquote(url.split("#", 1)[0].split("?", 1)[0])
        if not name:
            return None
        for base in (chapter.path.parent, self.root):
            found = (base / name).resolve()
            if found.is_file() and within(found, self.root):
                relative = found.relative_to(self.root).as_posix()
                if relative not in self.copied:
                    destination = self.into / relative
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(found, destination)
                    self.copied[relative] = None
                return relative
        return None  # missing: the build reports it (IMG001) where the reference is


def write_project(
    book: Book, target: Path, metadata_text: str, bibliography: list[str], force: bool
) -> Written:
    """Write the converted ``book`` into ``target`` (made whole in a temporary folder first)."""
    written = Written()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.import."))
    try:
        assets = Assets(book, tmp)
        for index, chapter in enumerate(book.chapters, 1):
            name = chapter_file_name(index, chapter)
            destination = tmp / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_text(assets.rewrite(chapter, plain_text(chapter)), "utf-8")
            written.chapters.append(name)
            if chapter.part and (index == 1 or book.chapters[index - 2].part != chapter.part):
                written.notes.append(part_note(chapter))
        for name in bibliography:
            source = (book.root / name).resolve()
            if source.is_file() and within(source, book.root):
                (tmp / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, tmp / name)
        (tmp / "metadata.yaml").write_text(metadata_text, "utf-8")
        written.assets = list(assets.copied)
        move_into_place(tmp, target, force)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return written


def part_note(chapter: Chapter) -> Diagnostic:
    return Diagnostic(
        "IMP008",
        f"part '{chapter.part}' is not kept by --to (the pandoc dialect has no parts): "
        "its chapters follow one another",
        Location(chapter.path, chapter.source_line(1)),
        "",
        "info",
    )


def move_into_place(tmp: Path, target: Path, force: bool) -> None:
    """A new or empty ``target`` is the finished folder; with --force, our files replace theirs."""
    if not target.exists() or (target.is_dir() and not any(target.iterdir())):
        if target.exists():
            target.rmdir()
        os.chmod(tmp, 0o755)
        os.replace(tmp, target)
        return
    if not force:  # the folder filled up meanwhile
        raise KobookError(f"--to {target} is not empty", code="IMP005", file=target)
    for folder, _subfolders, files in os.walk(tmp):
        for name in files:
            made = Path(folder) / name
            destination = target / made.relative_to(tmp)
            # No folder of the target may be a link (DIR/book -> elsewhere): SEC001.
            real_folders(target, destination.parent)
            os.replace(made, destination)
