"""Both texts through the same stages: load → dialect → parse, then flattened into blocks.

The translation is read as the build reads it; the original through its own
dialect (mdBook, distill, pandoc...) from its tree at a commit.  Blocks are grouped
by the file they were written in, the unit a lock follows: a one-file book split
into chapters is still one file, and an mdBook chapter is its own file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from .. import limits
from ..cache import Cache, digest
from ..dialect import convert_book
from ..load import load_book
from ..model import Book, Chapter, Config
from ..parse import parse_book
from ..parse.guard import check_footnotes, check_source
from ..parse.pandoc import load_json, markdown_to_ast, pandoc_version
from .blocks import Block, flatten, place

CJK = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]")
HTML = "html"  # the dialect of an original published as HTML pages
MARKDOWN = (".md", ".markdown", ".qmd", ".rmd", ".Rmd")


@dataclass
class Text:
    """One source file's blocks, each with the file line it starts on."""

    file: str  # relative to the book or the original's repository
    blocks: list[Block] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)  # the file line of each block
    chapters: list[str] = field(default_factory=list)  # the ids of the chapters it holds

    @property
    def prose_length(self) -> int:
        return sum(b.features.length for b in self.blocks if b.kind not in ("code", "math"))

    @property
    def translated(self) -> bool:
        """Are most of its paragraphs in a CJK script (a translation, not the original
        left as it was)?"""
        paragraphs = [b for b in self.blocks if b.kind == "para"]
        cjk = sum(1 for b in paragraphs if CJK.search(b.plain))
        return bool(paragraphs) and cjk * 2 >= len(paragraphs)


def read_texts(root: Path, cache: Cache, config: Config | None = None) -> dict[str, Text]:
    """Every chapter file of the book at ``root``, as blocks, in reading order."""
    if config is not None and config.get("dialect") == HTML:
        return read_html(root, cache)
    book = load_book(root, config)
    convert_book(book)
    for chapter in book.chapters:  # as the build's guard: nothing that hangs pandoc
        check_source(chapter)
    check_footnotes(book.chapters)
    parts = [part for chapter in book.chapters for part in by_file(chapter)]
    texts: dict[str, Text] = {}
    for doc in parse_book(Book(book.root, book.config, parts), cache):
        part = doc.chapter
        file = relative(book, part.path)
        text = texts.get(file)
        if text is None:
            text = texts[file] = Text(file)
        blocks = flatten(doc.blocks)
        place(blocks, part.text)
        text.blocks += blocks
        text.lines += [written_in(part, block.line)[1] for block in blocks]
        if part.id not in text.chapters:
            text.chapters.append(part.id)
    return texts


def by_file(chapter: Chapter) -> list[Chapter]:
    """The chapter cut where its lines change file: an mdBook chapter joins its sections'
    files, and each file is compared with its own original.  A line an include brought
    in stays with the file that included it."""
    lines = chapter.text.split("\n")
    origins: list[tuple[Path, int]] = []
    owners: list[Path] = []
    for number in range(1, len(lines) + 1):
        where = chapter.where(number)
        path = where.file or chapter.path
        origins.append((path, where.line))
        written = path.suffix in MARKDOWN or path == chapter.path
        owners.append(path if written else (owners[-1] if owners else chapter.path))
    parts: list[Chapter] = []
    start = 0
    for index in range(1, len(lines) + 1):
        if index == len(lines) or owners[index] != owners[start]:
            parts.append(
                Chapter(
                    id=chapter.id,
                    path=owners[start],
                    text="\n".join(lines[start:index]),
                    origins=tuple(origins[start:index]),
                    lang=chapter.lang,
                )
            )
            start = index
    return parts


def read_html(root: Path, cache: Cache) -> dict[str, Text]:
    """An original published as HTML (a built ``index.html``), read by pandoc's HTML
    reader: each page one file, in name order."""
    texts: dict[str, Text] = {}
    pages = [
        path
        for path in sorted(root.rglob("*.htm*"))
        if path.suffix in (".html", ".htm")
        and path.is_file()
        and not any(part.startswith(".") for part in path.relative_to(root).parts)
    ]
    for path in pages[: limits.MAX_CHAPTERS]:
        if path.stat().st_size > limits.MAX_FILE_BYTES * 4:
            continue  # not a page a person wrote
        source = path.read_text(encoding="utf-8", errors="replace")
        key = digest("html-ast", pandoc_version(), source)
        cached = cache.get("ast", key, ".json")
        if cached is not None:
            ast = load_json(cached, path)
        else:
            ast = markdown_to_ast(source, reader="html", what=f"reading {path.name}", file=path)
            cache.put("ast", key, json.dumps(ast).encode("utf-8"), ".json")
        file = path.relative_to(root).as_posix()
        blocks = flatten(ast["blocks"])
        place(blocks, source)
        texts[file] = Text(file, blocks, [block.line for block in blocks], [file])
    return texts


def relative(book: Book, path: Path) -> str:
    try:
        return path.resolve().relative_to(book.root).as_posix()
    except ValueError:
        return path.as_posix()


def written_in(chapter: Chapter, line: int) -> tuple[Path, int]:
    """The Markdown file and line a chapter line came from.  A chapter may join several
    files (an mdBook chapter and its sections); a line an include brought in (a
    listing's code) is reported at the nearest line above it written in Markdown."""
    for local in range(line, 0, -1):
        where = chapter.where(local)
        if where.file is not None and (where.file.suffix in MARKDOWN or where.file == chapter.path):
            return where.file, where.line
    return chapter.path, chapter.source_line(max(line, 1))
