"""Stage 3, parse: each chapter's Markdown → one pandoc JSON AST, cached by content hash."""

from __future__ import annotations

import functools
import json
from typing import Any

from ..cache import Cache, digest
from ..lang import language_of
from ..model import Book, Chapter, Doc
from . import guard
from .pandoc import READER, load_json, markdown_to_ast, pandoc_version


def reader_for(chapter: Chapter) -> str:
    """pandoc's reader for a chapter: Chinese and Japanese join lines without a space.

    Korean separates words with spaces, so a line break between two Hangul
    words stays a space (the default).  Chinese and Japanese do not: a line
    break between two of their characters is not a space, which is what
    pandoc's ``east_asian_line_breaks`` extension does.
    """
    if language_of(chapter.lang) in ("zh-Hans", "zh-Hant", "ja"):
        return READER.replace("-east_asian_line_breaks", "+east_asian_line_breaks")
    return READER


def parse_chapter(chapter: Chapter, cache: Cache, *, checked: bool = False) -> Doc:
    """One chapter's AST: from the cache, else from pandoc (the source checked first).

    :mod:`~kobook.parse.guard` refuses, with file and line, what would hang
    pandoc or nest too deeply for the later stages (LIMIT001, LIMIT002);
    ``checked``: :func:`parse_book` did that already.
    """
    if not checked:
        guard.check_source(chapter)
    reader = reader_for(chapter)
    key = ast_key(reader, chapter.text)
    cached = cache.get("ast", key, ".json")
    if cached is not None:
        ast = load_json(cached, chapter.path)
    else:
        ast = markdown_to_ast(
            chapter.text, reader=reader, what=f"parsing {chapter.path.name}", file=chapter.path
        )
    guard.check_depth(ast["blocks"], chapter)
    if cached is None:
        cache.put("ast", key, json.dumps(ast).encode("utf-8"), ".json")
    return Doc(chapter=chapter, blocks=ast["blocks"], meta=ast.get("meta", {}))


def ast_key(reader: str, text: str) -> str:
    """The cache's name for pandoc's AST of ``text`` read with ``reader``."""
    return digest("ast", pandoc_version(), reader, text)


def keep_parse(chapter: Chapter, reader: str, ast: dict[str, Any], cache: Cache) -> bool:
    """Hand the parse stage an AST pandoc already made of ``chapter.text`` with ``reader``
    (the proof of the build-time fixes parses the fixed text): when that is the reader the
    chapter is parsed with, :func:`parse_chapter` finds it instead of running pandoc on the
    same text again.  True when it was kept."""
    if reader != reader_for(chapter):
        return False
    data = json.dumps({"blocks": ast["blocks"], "meta": ast.get("meta", {})})
    cache.put("ast", ast_key(reader, chapter.text), data.encode("utf-8"), ".json")
    return True


def parse_book(book: Book, cache: Cache) -> list[Doc]:
    """Parse every chapter (cached runs skip pandoc entirely).

    pandoc runs as a subprocess, so two chapters are parsed at a time on
    threads; the order of the result is the order of the book.  Every
    chapter's source is checked (``guard.check_book``) before the first
    pandoc run: the build checked it once before its fixes, this is the text
    after them (a tenth of a second per MB).
    """
    guard.check_book(book.chapters)
    if len(book.chapters) < 3:
        return [parse_chapter(chapter, cache, checked=True) for chapter in book.chapters]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(
            pool.map(lambda chapter: parse_chapter(chapter, cache, checked=True), book.chapters)
        )


@functools.cache
def api_version() -> list[int]:
    """The pandoc-api-version to put on documents we hand back to pandoc."""
    return list(markdown_to_ast("x")["pandoc-api-version"])
