"""The HTML book: one page per chapter, an index with the TOC, fully offline.

Math is MathML (browsers draw it natively), images are copied beside the pages
with the same relative paths (downloaded remote images under ``images/remote/``),
links between chapters point at the right page,
and footnotes keep pandoc's back-links.  No CDN, no remote font or script.
"""

from __future__ import annotations

import copy
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .. import __version__
from ..cache import atomic_write
from ..load import Book
from ..parse import Doc
from ..parse.ast import iter_nodes, keyval
from ..transform.remote import REMOTE_ATTR
from . import passes
from .common import atomic_directory, blocks_to_html, highlight_css, toc_entries
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


def prepare(doc: Doc, book: Book, pages: dict[str, str]) -> list[Any]:
    blocks = copy.deepcopy(doc.blocks)
    blocks = passes.heading_numbers(blocks, book.config)
    blocks = passes.equation_numbers(blocks)
    blocks = passes.upright_hangul(blocks)
    blocks = passes.code_languages(blocks)
    blocks = site_remote_images(blocks)
    return passes.rewrite_links(blocks, pages, page_name(doc))


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
    book: Book, docs: list[Doc], out: Path, *, all_docs: list[Doc] | None = None
) -> Path:
    """Write the site into ``out`` (swapped in atomically); return the index path.

    ``all_docs`` is the whole book when ``docs`` is one chapter (``--chapter``),
    so links and the sidebar still cover every chapter.
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
        bodies = list(pool.map(lambda d: blocks_to_html(prepare(d, book, pages)), docs))

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
    ids = [e["chapter_id"] for e in chapters]
    for doc, body in zip(docs, bodies, strict=True):
        position = ids.index(doc.chapter.id) if doc.chapter.id in ids else -1
        prev = chapters[position - 1] if position > 0 else None
        nxt = chapters[position + 1] if 0 <= position < len(chapters) - 1 else None
        nav = [
            dict(item, current=item["chapter_id"] == doc.chapter.id)
            for item in toc
            if item["level"] == 1 or item["chapter_id"] == doc.chapter.id
        ]
        html = env.get_template("html/chapter.html.j2").render(
            **common,
            nav=nav,
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
