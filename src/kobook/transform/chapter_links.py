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
from ..parse.ast import rewrite
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


def link_base(doc: Doc, ctx: Context, url: str, occurrence: int) -> Path:
    """The folder a relative link is read from: that of the file it is written in.

    A chapter may join files of several folders (an mdBook section in a
    sub-folder, an include): its first file's folder is only the fallback.
    """
    found = ctx.locate(doc.chapter, url, occurrence)
    return (found.file or doc.chapter.path).parent


def section_id(ctx: Context, chapter: Chapter, fragment: str) -> str:
    """The id ``#fragment`` means in ``chapter`` ("" when it has none such).

    As written (renamed when another chapter had it first), or the id mdBook,
    GitHub or MkDocs would give one of its headings.
    """
    written = ctx.anchors.get(chapter.id, {})
    return written.get(fragment) or written.get(fragment.lower(), "")


def missing_section(doc: Doc, ctx: Context, url: str, occurrence: int, target: Chapter) -> None:
    fragment = unquote(urlsplit(url).fragment)
    if target is doc.chapter and url.startswith("#"):
        what = f"no section '#{fragment}' in this chapter: the link is kept as written"
    else:
        what = f"no section '#{fragment}' in {target.path.name}: the link goes to its chapter"
    ctx.problem(
        doc.chapter,
        "LINK002",
        what,
        needle=url,
        occurrence=occurrence,
        hint="link an id that chapter has (its headings' ids, {#id} or <a id=…>)",
        fatal=False,
    )


def link_chapters(doc: Doc, ctx: Context) -> Doc:
    """``[x](other.md#frag)`` → ``[x](#frag)`` (or the chapter's heading) for chapter files.

    A fragment names an id of the linked chapter; ``#frag`` alone, one of this
    chapter's.  One neither has is LINK002 (the link then goes to the chapter's
    start, or is left as written).
    """
    if ctx.chapter_files is None:
        ctx.chapter_files = chapter_of_file(ctx)
    files = ctx.chapter_files
    seen: dict[str, int] = {}

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Link":
            return None
        url = node["c"][2][0]
        occurrence = seen.get(url, 0)
        seen[url] = occurrence + 1
        if url.startswith("#") and len(url) > 1:
            fragment = unquote(url[1:])
            if fragment not in ctx.seen_ids:
                ident = section_id(ctx, doc.chapter, fragment)
                if ident:
                    node["c"][2][0] = f"#{ident}"
                elif not any(fragment in ids for ids in ctx.anchors.values()):
                    missing_section(doc, ctx, url, occurrence, doc.chapter)
            return None
        if not url or has_scheme(url):
            return None
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or parts.query:
            return None
        path = unquote(parts.path)
        if path.startswith("/") or not path:
            return None
        base = link_base(doc, ctx, url, occurrence)
        chapter = next((files[c] for c in candidates(base, path) if c in files), None)
        if chapter is None:
            return None
        fragment = unquote(parts.fragment)
        ident = section_id(ctx, chapter, fragment) if fragment else ""
        if fragment and not ident:
            missing_section(doc, ctx, url, occurrence, chapter)
        ident = ident or heading_id(ctx, chapter)
        if ident:
            node["c"][2][0] = f"#{ident}"
        return None

    doc.blocks = rewrite(doc.blocks, action)
    return doc
