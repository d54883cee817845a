"""The HTML book: one page per chapter, an index with the TOC, fully offline.

Math is MathML (browsers draw it natively), images are copied beside the pages
with the same relative paths (downloaded remote images under ``images/remote/``),
links between chapters point at the right page,
and footnotes keep pandoc's back-links.  No CDN, no remote font or script.
Raw HTML in chapters is cut down to what is safe to publish (``sanitize.py``,
HTML001), and every file is world-readable (0644, folders 0755): a site is
made to be served.
"""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .. import __version__, limits
from ..cache import atomic_write
from ..errors import Diagnostic
from ..load import Book
from ..parse import Doc
from ..parse.ast import copy_tree, iter_nodes, keyval
from ..transform.remote import REMOTE_ATTR
from . import passes
from .common import atomic_directory, blocks_to_html, highlight_css, public_modes, toc_entries
from .sanitize import sanitize_blocks
from .templates import environment


def page_name(doc: Doc) -> str:
    return f"{doc.chapter.id}.html"


def id_pages(docs: list[Doc]) -> dict[str, str]:
    """Which page each element id lives on."""
    pages: dict[str, str] = {}
    for doc in docs:
        page = page_name(doc)
        for node in iter_nodes(doc.blocks):
            c: Any = node.get("c")
            if node["t"] == "Header":
                ident = c[1][0]
            elif node["t"] in ("Div", "Span", "Figure", "Table", "CodeBlock"):
                ident = c[0][0]
            else:
                continue
            if ident:
                pages.setdefault(ident, page)
    return pages


def prepare(doc: Doc, book: Book, pages: dict[str, str]) -> tuple[list[Any], list[Diagnostic]]:
    """The site's passes over one chapter (on a copy), sanitized first; also its HTML001s."""
    blocks, problems = sanitize_blocks(copy_tree(doc.blocks), doc.chapter)
    blocks = passes.heading_numbers(blocks, book.config)
    blocks = passes.equation_numbers(blocks)
    blocks = passes.upright_hangul(blocks)
    blocks = passes.code_languages(blocks)
    blocks = site_remote_images(blocks)
    return passes.rewrite_links(blocks, pages, page_name(doc)), problems


def page_body(doc: Doc, book: Book, pages: dict[str, str]) -> tuple[str, list[Diagnostic]]:
    """A chapter page's HTML body and the warnings met while preparing it."""
    blocks, problems = prepare(doc, book, pages)
    return blocks_to_html(blocks), problems


def local_images(docs: list[Doc]) -> set[str]:
    found = set()
    for doc in docs:
        for node in iter_nodes(doc.blocks):
            if node["t"] == "Image" and keyval(node["c"][0], REMOTE_ATTR) is None:
                url = node["c"][2][0]
                if ":" not in url.split("/", 1)[0] and not url.startswith("/"):
                    found.add(url)
    return found


REMOTE_DIR = "images/remote"


def remote_copies(docs: list[Doc]) -> dict[str, str]:
    """Downloaded remote images: their path in the site → the cached copy."""
    found = {}
    for doc in docs:
        for node in iter_nodes(doc.blocks):
            if node["t"] == "Image" and keyval(node["c"][0], REMOTE_ATTR) is not None:
                url = node["c"][2][0]
                found[f"{REMOTE_DIR}/{Path(url).name}"] = url
    return found


def site_remote_images(blocks: list[Any]) -> list[Any]:
    """Downloaded remote images point at their copy in the site (never at the server)."""
    for node in iter_nodes(blocks):
        if node["t"] == "Image" and keyval(node["c"][0], REMOTE_ATTR) is not None:
            node["c"][2][0] = f"{REMOTE_DIR}/{Path(node['c'][2][0]).name}"
            node["c"][0][2] = [kv for kv in node["c"][0][2] if kv[0] != REMOTE_ATTR]
    return blocks


def write_html(
    book: Book,
    docs: list[Doc],
    out: Path,
    *,
    all_docs: list[Doc] | None = None,
    problems: list[Diagnostic] | None = None,
) -> Path:
    """Write the site into ``out`` (swapped in atomically); return the index path.

    ``all_docs`` is the whole book when ``docs`` is one chapter (``--chapter``),
    so links and the sidebar still cover every chapter.  Warnings (HTML001 for
    raw HTML removed from a chapter) are appended to ``problems``.
    """
    config = book.config
    every = all_docs or docs
    pages = id_pages(every)
    env = environment(book.root)
    depth = config.toc_depth
    toc = [
        {
            "level": e.level,
            "href": f"{e.chapter_id}.html" + ("" if e.level == 1 else f"#{e.id}"),
            "number": e.number,
            "title": e.title,
            "chapter_id": e.chapter_id,
        }
        for e in toc_entries(every, depth, config.words)
    ]
    chapters = [e for e in toc if e["level"] == 1]
    common = {
        "lang": config.lang,
        "words": config.words,
        "book_title": config.title,
        "version": __version__,
    }

    with ThreadPoolExecutor(max_workers=2) as pool:
        rendered = list(pool.map(lambda d: page_body(d, book, pages), docs))
    bodies = [body for body, _ in rendered]
    if problems is not None:
        problems += [p for _, found in rendered for p in found]

    if all_docs is not None and len(docs) < len(all_docs) and out.is_dir():
        # --chapter: refresh that chapter's page (and the index) in the existing site.
        write_site(out, book, docs, bodies, env, toc, chapters, common)
    else:
        with atomic_directory(out) as tmp:
            write_site(tmp, book, docs, bodies, env, toc, chapters, common)
    return out / "index.html"


def write_site(
    tmp: Path,
    book: Book,
    docs: list[Doc],
    bodies: list[str],
    env: Any,
    toc: list[dict[str, Any]],
    chapters: list[dict[str, Any]],
    common: dict[str, Any],
) -> None:
    """Write assets, images, the chapter pages and the index into ``tmp``."""
    config = book.config
    original = config.original
    assets = tmp / "assets"
    assets.mkdir(exist_ok=True)
    for name in ("style.css", "extra.css"):
        source = env.loader.get_source(env, f"html/{name}")[0]
        atomic_write(assets / name, source.encode("utf-8"))
    atomic_write(assets / "highlight.css", highlight_css().encode("utf-8"))
    for url in sorted(local_images(docs)):
        source = (book.root / url).resolve()
        target = tmp / url
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    for name, url in sorted(remote_copies(docs).items()):
        source = book.root / url  # relative to the project, or absolute (cache elsewhere)
        if source.is_file():
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, tmp / name)
    positions: dict[str, int] = {}
    for number, entry in enumerate(chapters):
        positions.setdefault(entry["chapter_id"], number)
    sections: dict[str, list[dict[str, Any]]] = {}
    for item in toc:
        if item["level"] != 1:
            sections.setdefault(item["chapter_id"], []).append(item)
    for doc, body in zip(docs, bodies, strict=True):
        position = positions.get(doc.chapter.id, -1)
        prev = chapters[position - 1] if position > 0 else None
        nxt = chapters[position + 1] if 0 <= position < len(chapters) - 1 else None
        html = env.get_template("html/chapter.html.j2").render(
            **common,
            nav=sidebar(chapters, sections.get(doc.chapter.id, []), position, doc.chapter.id),
            body=body,
            kind=doc.chapter.kind,
            chapter_title=doc.chapter.title,
            chapter_lang=doc.chapter.lang if doc.chapter.lang != book.config.lang else "",
            prev=prev,
            next=nxt,
        )
        atomic_write(tmp / page_name(doc), html.encode("utf-8"))
    index = env.get_template("html/index.html.j2").render(
        **common,
        nav=[dict(item, current=False) for item in toc if item["level"] == 1],
        toc=toc,
        chapters=chapters,
        subtitle=config.get("subtitle", ""),
        authors=config.authors,
        translators=config.translators,
        original=original,
    )
    atomic_write(tmp / "index.html", index.encode("utf-8"))
    public_modes(tmp)


def sidebar(
    chapters: list[dict[str, Any]],
    sections: list[dict[str, Any]],
    position: int,
    chapter_id: str,
) -> list[dict[str, Any]]:
    """A chapter page's sidebar: the chapters, and the sections of this one under it.

    A book of more than ``limits.SIDEBAR_CHAPTERS`` chapters lists the ones
    around this chapter and links to the index for the rest: with every
    chapter on every page, the site grew with the square of the chapter count.
    """
    most = limits.SIDEBAR_CHAPTERS
    start = 0
    if len(chapters) > most:
        start = min(max(position - most // 2, 0), len(chapters) - most)
    shown = chapters[start : start + most]
    nav: list[dict[str, Any]] = []
    if start > 0:
        nav.append(MORE)
    for entry in shown:
        here = entry["chapter_id"] == chapter_id
        nav.append(dict(entry, current=here))
        if here:
            nav += [dict(item, current=True) for item in sections]
    if start + most < len(chapters):
        nav.append(MORE)
    if not 0 <= position < len(chapters):  # a page without a chapter heading
        nav += [dict(item, current=True) for item in sections]
    return nav


# Stands for the chapters a long book's sidebar leaves out: the index lists them all.
MORE = {
    "level": 1,
    "href": "index.html",
    "number": "",
    "title": "…",
    "chapter_id": "",
    "current": False,
}
