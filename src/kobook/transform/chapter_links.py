"""Links to another chapter's file become links inside the book.

Translations link their chapters by file: ``[3장](03-memory.md)``, mdBook's
``[소유권](ch04-01-what-is-ownership.md#스택과-힙)``, a distill site's
``[Section 2](tpus)`` or ``(../tpus#fragment)`` (Jekyll drops the ``.md``).
In the PDF such a link pointed nowhere and in the HTML at a Markdown file the
site does not have.  This pass points it at the chapter's heading (or at the
fragment, when the book has that id), so every writer sees an internal
``#id`` link (the HTML writer adds the page, ``write/passes.rewrite_links``).
Nothing is read from disk: a link is matched against the book's own chapter
files, so a path leading outside the book simply matches nothing.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from ..boundary import has_scheme
from ..model import Chapter, Doc
from ..parse.ast import walk
from .context import Context

SUFFIXES = ("", ".md", ".markdown")


def chapter_of_file(ctx: Context) -> dict[Path, Chapter]:
    """Every file a chapter is made of (an mdBook chapter joins several) → that chapter."""
    found: dict[Path, Chapter] = {}
    for chapter in ctx.book.chapters:
        found.setdefault(chapter.path.resolve(), chapter)
        for path in dict.fromkeys(path for path, _line in chapter.origins):  # each file once
            found.setdefault(path.resolve(), chapter)
    return found


def heading_id(ctx: Context, chapter: Chapter) -> str:
    """The id of the chapter's title heading (the first section target it registered)."""
    for target in ctx.targets.values():
        if target.kind == "sec" and target.chapter_id == chapter.id:
            return target.id
    return ""


def candidates(base: Path, path: str) -> list[Path]:
    """Files a site-style link may mean: as written, with ``.md``, ``.html`` read as ``.md``,
    and (Jekyll permalinks are one folder deeper than their file) without a leading ``../``."""
    paths = [path]
    if path.endswith(".html"):
        paths.append(path[: -len(".html")])
    trimmed = path
    while trimmed.startswith("../"):
        trimmed = trimmed[3:]
        paths.append(trimmed)
    found = []
    for item in paths:
        item = posixpath.normpath(item.rstrip("/")) if item.rstrip("/") else ""
        if not item or item == ".":
            continue
        for suffix in SUFFIXES:
            found.append((base / (item + suffix)).resolve())
    return found


def link_chapters(doc: Doc, ctx: Context) -> Doc:
    """``[x](other.md#frag)`` → ``[x](#frag)`` (or the chapter's heading) for chapter files."""
    if ctx.chapter_files is None:
        ctx.chapter_files = chapter_of_file(ctx)
    files = ctx.chapter_files
    base = doc.chapter.path.parent

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Link":
            return None
        url = node["c"][2][0]
        if not url or url.startswith("#") or has_scheme(url):
            return None
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or parts.query:
            return None
        path = unquote(parts.path)
        if path.startswith("/") or not path:
            return None
        chapter = next((files[c] for c in candidates(base, path) if c in files), None)
        if chapter is None:
            return None
        fragment = unquote(parts.fragment)
        if fragment and (fragment in ctx.targets or fragment in ctx.seen_ids):
            node["c"][2][0] = f"#{fragment}"
        else:
            ident = heading_id(ctx, chapter)
            if ident:
                node["c"][2][0] = f"#{ident}"
        return None

    doc.blocks = walk(doc.blocks, action)
    return doc
