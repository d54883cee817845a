"""The HTML book: one page per chapter, an index with the TOC, fully offline.

Math is MathML (browsers draw it natively); a formula pandoc cannot convert is
an SVG drawing with its TeX as alt text (``mathsvg.py``), or MATH001 with its
TeX in code style.  Images are copied beside the pages
with the same relative paths (downloaded remote images under ``images/remote/``),
links between chapters point at the right page,
and footnotes keep pandoc's back-links.  No CDN, no remote font or script.
Raw HTML in chapters is cut down to what is safe to publish (``sanitize.py``,
HTML001), and every file is world-readable (0644, folders 0755): a site is
made to be served.
"""

from __future__ import annotations

import html
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ... import limits
from ...cache import Cache, atomic_write, digest
from ...errors import Diagnostic
from ...model import Book, Doc
from ...model.bookindex import Group, Mark
from ...parse.ast import acts_on, copy_tree, iter_nodes, keyval, rewrite_chain
from ...transform.remote import REMOTE_ATTR
from ...version import __version__
from ..shared import passes, svgclean
from ..shared.blockhtml import BlockHtml
from ..shared.bookindex import book_index
from ..shared.common import (
    atomic_directory,
    blocks_to_html,
    chapters_to_html,
    highlight_css,
    part_titles,
    public_modes,
    toc_entries,
)
from ..shared.kept import keep, kept, kept_key
from ..shared.mathsvg import MathError, formula, img_tag, render_math, undrawn
from ..shared.sanitize import sanitize_blocks
from ..shared.tables import empty_header_cells
from ..shared.templates import environment
from . import genindex, search
from .genindex import INDEX_PAGE, free_name
from .images import lazy_images, raw_images, sized_images

# This writer's folder of templates: under kobook's own templates/, and the book's.
TEMPLATES = "html"


def page_name(doc: Doc) -> str:
    return f"{doc.chapter.id}.html"


def id_pages(docs: list[Doc]) -> dict[str, str]:
    """Which page each element id lives on."""
    pages: dict[str, str] = {}
    for doc in docs:
        page = page_name(doc)
        for ident in doc_ids(doc):
            pages.setdefault(ident, page)
    return pages


def doc_ids(doc: Doc) -> list[str]:
    """The element ids of one chapter, in order (``kobook preview`` keeps them per chapter)."""
    found = []
    for node in iter_nodes(doc.blocks):
        c: Any = node.get("c")
        if node["t"] == "Header":
            ident = c[1][0]
        elif node["t"] in ("Div", "Span", "Figure", "Table", "CodeBlock"):
            ident = c[0][0]
        else:
            continue
        if ident:
            found.append(ident)
    return found


def prepare(doc: Doc, book: Book, pages: dict[str, str]) -> tuple[list[Any], list[Diagnostic]]:
    """The site's passes over one chapter (on a copy), sanitized first; also its HTML001s."""
    blocks, problems = sanitize_blocks(copy_tree(doc.blocks), doc.chapter)
    problems += passes.undescribed_images(blocks, doc)  # before image_alts fills them in
    return site_passes(blocks, book, pages, page_name(doc), korean=is_korean(doc, book)), problems


def is_korean(doc: Doc, book: Book) -> bool:
    """Does the chapter keep Korean words whole (the book's one decision), so the pages
    keep them whole beside brackets too?"""
    return book.config.keeps_words_whole(doc.chapter.lang)


def site_passes(
    blocks: list[Any], book: Book, pages: dict[str, str], page: str, *, korean: bool
) -> list[Any]:
    """The site's own passes over sanitized blocks (in place where they can).

    Each looks at one node at a time, or one list of inlines (no counters, no
    state from the blocks before): ``blockprep`` runs them on one block at a time.
    """
    blocks = rewrite_chain(  # one walk (see rewrite_chain): the rest are passes of their own
        blocks,
        [
            passes.heading_number(book.config),
            passes.equation_number,
            passes.upright_emphasis,
            passes.mathml_math,
            passes.code_language,
            site_remote_image,
            passes.page_link(pages, page),  # a target: none of the passes below reads one
        ],
    )
    blocks = passes.image_alts(blocks, book.config.words.word("image"))
    blocks = passes.details_html(blocks)
    blocks = passes.embeds_html(blocks)
    blocks = passes.foreign_blocks(blocks, book.config.lang, book.config.original_lang)
    if korean:
        blocks = passes.keep_words_in_browsers(blocks)
    return blocks


Preparer = Callable[[Doc, Book, dict[str, str]], tuple[list[Any], list[Diagnostic]]]


def page_body(
    doc: Doc,
    book: Book,
    pages: dict[str, str],
    kept: BlockHtml | None = None,
    preparer: Preparer | None = None,
    cache: Cache | None = None,
) -> tuple[str, list[Diagnostic]]:
    """A chapter page's HTML body and the warnings met while preparing it.

    ``kept``: the HTML of blocks written before (``kobook preview``), else
    pandoc writes the whole chapter; ``preparer``: what gives :func:`prepare`'s
    result (``blockprep.KeptPrepare.prepare`` there).  The bytes are the same.
    ``cache``: the build's, where pandoc's HTML of the chapter is kept.
    """
    blocks, problems = (preparer or prepare)(doc, book, pages)
    html = kept.html(blocks) if kept is not None else blocks_to_html(blocks, cache=cache)
    body = math_fallbacks(html, blocks, doc, problems)
    return finished(body, book), problems


def page_bodies(
    docs: list[Doc], book: Book, pages: dict[str, str], cache: Cache | None
) -> tuple[list[str], list[Diagnostic]]:
    """:func:`page_body` of every chapter (the same bytes), pandoc writing them all in two
    processes (:func:`~kobook.write.shared.common.chapters_to_html`); the warnings.

    A chapter whose AST and link targets are those of a page the cache holds is not made
    again (:mod:`kobook.write.shared.kept`): the whole map of pages is in the key, as a
    link of any chapter may point at an id anywhere.
    """
    where = digest(repr(sorted(pages.items())))
    keys = [kept_key(doc, "page", page_name(doc), where) for doc in docs]
    found = [kept(cache, "page", key, doc) for doc, key in zip(docs, keys, strict=True)]
    todo = [i for i, body in enumerate(found) if body is None]
    prepared = [prepare(docs[i], book, pages) for i in todo]
    htmls = chapters_to_html([blocks for blocks, _ in prepared], cache)
    for i, (blocks, problems), written in zip(todo, prepared, htmls, strict=True):
        body = finished(math_fallbacks(written, blocks, docs[i], problems), book)  # to problems
        keep(cache, "page", keys[i], docs[i], body, problems)
        found[i] = (body, problems)
    made = [body for body in found if body is not None]
    return [body for body, _ in made], [p for _, problems in made for p in problems]


def finished(body: str, book: Book) -> str:
    """A page body as the site shows it: empty header cells marked, each image with its
    pixel size and loaded as the reader nears it, each heading with its anchor.  Made
    with the body, so that ``kobook preview`` keeps it with the body: reading the size
    of every image of the book on every save was a tenth of a rebuild."""
    body = lazy_images(sized_images(empty_header_cells(body), book.root))
    return heading_anchors(body, book.config.words.word("anchor"))


# pandoc's output for a formula texmath could not convert: its TeX between dollars.
UNCONVERTED = re.compile(r'<span class="math (inline|display)">([^<]*)</span>')


def math_fallbacks(body: str, blocks: list[Any], doc: Doc, problems: list[Diagnostic]) -> str:
    """Formulas pandoc left as ``$$TeX$$`` text → an SVG drawing (alt text: the TeX), or
    MATH001 and the TeX in code style, without dollars: a reported failure, not leaked
    syntax.  Only the page's own formulas are replaced (raw HTML cannot fake one).
    """
    if '<span class="math ' not in body:
        return body
    formulas = {formula(n) for n in iter_nodes(blocks) if n["t"] == "Math"}

    def replace(match: re.Match[str]) -> str:
        display = match.group(1) == "display"
        dollars = "$$" if display else "$"
        text = html.unescape(match.group(2))
        tex = text[len(dollars) : -len(dollars)]
        if not (text.startswith(dollars) and text.endswith(dollars)) or (
            (tex, display) not in formulas
        ):
            return match.group(0)
        try:
            return img_tag(render_math(tex, display, None), tex, display)
        except MathError as exc:
            problems.append(undrawn(doc.chapter, tex, str(exc), "on the page"))
            return f'<code class="math-error">{html.escape(tex.strip())}</code>'

    return UNCONVERTED.sub(replace, body)


def local_images(docs: list[Doc]) -> set[str]:
    found = set()
    for doc in docs:
        for node in iter_nodes(doc.blocks):
            if node["t"] == "Image" and keyval(node["c"][0], REMOTE_ATTR) is None:
                url = node["c"][2][0]
                if ":" not in url.split("/", 1)[0] and not url.startswith("/"):
                    found.add(url)
    return found


def local_embeds(docs: list[Doc]) -> set[str]:
    """Pages the site frames (``Div.embed[src]``): paths inside the book, checked by
    ``transform/embeds.py``; copied like images."""
    return {
        src
        for doc in docs
        for node in iter_nodes(doc.blocks)
        if node["t"] == "Div"
        and "embed" in node["c"][0][1]
        and (src := keyval(node["c"][0], "src"))
    }


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


@acts_on("Image")
def site_remote_image(node: dict[str, Any]) -> None:
    """A downloaded remote image points at its copy in the site (never at the server): an
    action, in place."""
    if node["t"] == "Image" and keyval(node["c"][0], REMOTE_ATTR) is not None:
        node["c"][2][0] = f"{REMOTE_DIR}/{Path(node['c'][2][0]).name}"
        node["c"][0][2] = [kv for kv in node["c"][0][2] if kv[0] != REMOTE_ATTR]


def write_html(
    book: Book,
    docs: list[Doc],
    out: Path,
    *,
    all_docs: list[Doc] | None = None,
    problems: list[Diagnostic] | None = None,
    downloads: tuple[tuple[str, str], ...] = (),
    cache: Cache | None = None,
) -> Path:
    """Write the site into ``out`` (swapped in atomically); return the index path.

    ``all_docs`` is the whole book when ``docs`` is one chapter (``--chapter``),
    so links and the sidebar still cover every chapter.  Warnings (HTML001 for
    raw HTML removed from a chapter) are appended to ``problems``.  ``downloads``: the
    other outputs of the build, (format, file name), linked from every page.  ``cache``:
    where pandoc's HTML of each chapter is kept (an unchanged chapter is not written again).
    """
    every = all_docs or docs
    pages = id_pages(every)
    plan = plan_site(book, every, downloads=downloads)

    bodies, found = page_bodies(docs, book, pages, cache)
    if problems is not None:
        problems += found

    if all_docs is not None and len(docs) < len(all_docs) and out.is_dir():
        # --chapter: refresh that chapter's page (and the index) in a copy of the existing
        # site, swapped in like a full build's (never written through a link in it).
        with atomic_directory(out) as tmp:
            copy_real_files(out, tmp)
            found = write_site(tmp, book, docs, bodies, plan)
    else:
        with atomic_directory(out) as tmp:
            found = write_site(tmp, book, docs, bodies, plan)
    if problems is not None:
        problems += found
    return out / "index.html"


def copy_real_files(source: Path, target: Path) -> None:
    """Copy the folders and regular files under ``source`` into ``target``; symbolic links
    (which kobook never writes) are left behind, not followed."""
    for folder, subfolders, files in os.walk(source):
        here = Path(folder)
        into = target / here.relative_to(source)
        for name in subfolders:
            if not (here / name).is_symlink():
                (into / name).mkdir(exist_ok=True)
        subfolders[:] = [n for n in subfolders if not (here / n).is_symlink()]
        for name in files:
            if not (here / name).is_symlink() and (here / name).is_file():
                shutil.copy2(here / name, into / name)


@dataclass
class SitePlan:
    """What the pages share: the TOC, the chapter list, each chapter's sections.

    Made from the whole book before any page is written; ``kobook preview``
    renders single pages with it (:func:`chapter_page`, :func:`index_page`).
    """

    env: Any
    toc: list[dict[str, Any]]
    chapters: list[dict[str, Any]]  # the level-1 entries, in reading order
    sections: dict[str, list[dict[str, Any]]]  # chapter id → its TOC entries below level 1
    positions: dict[str, int]  # chapter id → index in ``chapters``
    common: dict[str, Any]  # what every template gets
    pages: list[str]  # every chapter page, in reading order
    index: list[Group] = field(default_factory=list)  # the index (찾아보기), if any
    index_page: str = ""  # its page: after the last chapter in the TOC and the pager


DOWNLOADS_DIR = "downloads"


def plan_site(
    book: Book,
    every: list[Doc],
    env: Any = None,
    downloads: tuple[tuple[str, str], ...] = (),
    marks: list[list[Mark]] | None = None,
) -> SitePlan:
    """The site's TOC and navigation for the chapters ``every`` (the whole book).

    ``env``: the templates' environment, when the caller keeps one (``kobook
    preview`` makes it once per set-up: compiling the templates again on each
    save was a tenth of a rebuild); else a new one.  ``marks``: each chapter's
    index marks, when the caller keeps them (else found).
    """
    config = book.config
    env = env if env is not None else environment(book.root, trusted=book.trusted)
    depth = config.toc_depth
    parts = part_titles(every, config.words)
    toc: list[dict[str, Any]] = [
        {
            "level": e.level,
            "href": f"{e.chapter_id}.html" + ("" if e.level == 1 else f"#{e.id}"),
            "number": e.number,
            "title": e.title,
            "chapter_id": e.chapter_id,
            "part": parts.get(e.chapter_id, "") if e.level == 1 else "",
        }
        for e in toc_entries(every, depth, config.words)
    ]
    for chapter_id in parts:  # a part is printed once, above its first chapter's entry
        first = next((i for i in toc if i["chapter_id"] == chapter_id and i["part"]), None)
        for item in toc:
            if item["chapter_id"] == chapter_id and item is not first:
                item["part"] = ""
    chapters = [e for e in toc if e["level"] == 1]
    common = {
        "lang": config.lang,
        "words": config.words,
        "book_title": config.title,
        "version": __version__,
        "search": search.search_wanted(config) and search.pagefind() is not None,
        "keep_words": config.keeps_words_whole(),
        "description": description(config),
        # The book's PDF and EPUB when the same build writes them (the build copies them
        # into the site's downloads/), as Quarto's download links.
        "downloads": [
            {"href": f"{DOWNLOADS_DIR}/{quote(name)}", "label": kind.upper()}
            for kind, name in downloads
        ],
    }
    positions: dict[str, int] = {}
    for number, entry in enumerate(chapters):
        positions.setdefault(entry["chapter_id"], number)
    sections: dict[str, list[dict[str, Any]]] = {}
    for item in toc:
        if item["level"] != 1:
            sections.setdefault(item["chapter_id"], []).append(item)
    pages = [page_name(doc) for doc in every]
    index = book_index(book, every, marks)
    index_page = free_name(INDEX_PAGE, pages) if index else ""
    if index:
        entry = genindex.contents_entry(index_page, config.words.word("index"))
        toc.append({**entry, "chapter_id": INDEX_PAGE, "part": ""})
        positions[INDEX_PAGE] = len(chapters)
        chapters.append(toc[-1])
    return SitePlan(env, toc, chapters, sections, positions, common, pages, index, index_page)


def genindex_page(plan: SitePlan, book: Book) -> str:
    """The index's page (``genindex.py``), in the site's frame."""
    position = plan.positions[INDEX_PAGE]
    return str(
        plan.env.get_template(f"{TEMPLATES}/genindex.html.j2").render(
            **plan.common,
            nav=sidebar(plan.chapters, [], position, INDEX_PAGE),
            groups=plan.index,
            locate=genindex.locate,
            prev=plan.chapters[position - 1] if position > 0 else None,
        )
    )


# The style sheets, script and icon every site has, as they are (no Jinja): a book's own
# ``templates/html/NAME`` replaces one.
ASSETS = ("style.css", "extra.css", "book.js", "favicon.svg")


def site_assets(env: Any) -> dict[str, bytes]:
    """The style sheets, script and icon every site has: path in the site → bytes."""
    files = {}
    for name in ASSETS:
        source = env.loader.get_source(env, f"{TEMPLATES}/{name}")[0]
        files[f"assets/{name}"] = source.encode("utf-8")
    files["assets/highlight.css"] = highlight_css().encode("utf-8")
    return files


def site_copies(book: Book, docs: list[Doc]) -> dict[str, Path | bytes]:
    """The files the pages show: path in the site → the source file, copied as it is, or
    an SVG's cleaned bytes (no script, no handler, no outside reference: an SVG opened
    from a link is a page of the site's origin).  An SVG that is not well-formed is not
    published (the pages' image is then missing, as the PDF reports it)."""
    sources = {}
    for url in sorted(local_images(docs) | local_embeds(docs)):
        source = (book.root / url).resolve()
        if source.is_file():
            sources[url] = source
    for name, source in sorted(raw_images(docs, book.root).items()):
        sources.setdefault(name, source)
    for name, url in sorted(remote_copies(docs).items()):
        source = book.root / url  # relative to the project, or absolute (cache elsewhere)
        if source.is_file():
            sources[name] = source
    files: dict[str, Path | bytes] = {}
    for name, source in sources.items():
        if source.suffix.lower() != ".svg":
            files[name] = source
        elif (cleaned := svgclean.clean(source.read_bytes())) is not None:
            files[name] = cleaned
    return files


def chapter_page(plan: SitePlan, book: Book, doc: Doc, body: str) -> str:
    """One chapter's page: its body inside the template, with the sidebar and prev/next."""
    chapters = plan.chapters
    position = plan.positions.get(doc.chapter.id, -1)
    prev = chapters[position - 1] if position > 0 else None
    nxt = chapters[position + 1] if 0 <= position < len(chapters) - 1 else None
    return str(
        plan.env.get_template(f"{TEMPLATES}/chapter.html.j2").render(
            **plan.common,
            nav=sidebar(chapters, plan.sections.get(doc.chapter.id, []), position, doc.chapter.id),
            body=body,  # finished (:func:`finished`)
            kind=doc.chapter.kind,
            chapter_title=doc.chapter.title,
            chapter_lang=doc.chapter.lang if doc.chapter.lang != book.config.lang else "",
            prev=prev,
            next=nxt,
        )
    )


def description(config: Any) -> str:
    """The page's meta description: ``description:`` (or ``abstract:``, ``subtitle:``) in
    metadata.yaml, as plain text of one line."""
    for key in ("description", "abstract", "subtitle"):
        value = config.get(key)
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())[:300]
    return ""


HEADING = re.compile(r'(<h([2-4])\b[^>]*\sid="([^"]+)"[^>]*>)(.*?)(</h\2>)', re.S)


def heading_anchors(body: str, label: str) -> str:
    """Each section heading (h2–h4 with an id) ends with a ``#`` link to itself, shown
    on hover: the address to share a section by."""

    def add(match: re.Match[str]) -> str:
        start, _level, ident, inner, end = match.groups()
        link = f'<a class="anchor" href="#{ident}" aria-label="{html.escape(label)}">#</a>'
        return f"{start}{inner}{link}{end}"

    return HEADING.sub(add, body)


def index_page(plan: SitePlan, book: Book) -> str:
    """The site's front page: the book's title page and its full TOC."""
    config = book.config
    return str(
        plan.env.get_template(f"{TEMPLATES}/index.html.j2").render(
            **plan.common,
            nav=[dict(item, current=False) for item in plan.toc if item["level"] == 1],
            toc=plan.toc,
            chapters=plan.chapters,
            subtitle=config.get("subtitle", ""),
            authors=config.authors,
            affiliations=config.affiliations,
            translators=config.translators,
            original=config.original,
        )
    )


def site_files(
    plan: SitePlan,
    book: Book,
    docs: list[Doc],
    bodies: list[str],
    copies: dict[str, bytes | Path] | None = None,
) -> dict[str, bytes | Path]:
    """Every file of the site but its search index, by its path in the site: style sheets
    and scripts, the images and pages it shows (``copies``, when the caller keeps them;
    else found), each chapter's page around its body, the index.  ``kobook build``
    writes them into a new folder; ``kobook preview`` writes the ones that changed."""
    files: dict[str, bytes | Path] = dict(site_assets(plan.env))
    files.update(site_copies(book, docs) if copies is None else copies)
    for doc, body in zip(docs, bodies, strict=True):
        files[page_name(doc)] = chapter_page(plan, book, doc, body).encode("utf-8")
    files["index.html"] = index_page(plan, book).encode("utf-8")
    if plan.index:
        files[plan.index_page] = genindex_page(plan, book).encode("utf-8")
    return files


def write_site(
    tmp: Path, book: Book, docs: list[Doc], bodies: list[str], plan: SitePlan
) -> list[Diagnostic]:
    """Write assets, images, the chapter pages, the index and the search index into
    ``tmp``; return what went wrong with the search (SEARCH001)."""
    for name, source in site_files(plan, book, docs, bodies).items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, bytes):
            atomic_write(tmp / name, source)
        else:
            shutil.copyfile(source, tmp / name)
    # index_pages says SEARCH001 when Pagefind is missing (the pages have no box then).
    wanted = search.search_wanted(book.config)
    problems = search.index_pages(tmp, plan.pages, book.config.lang) if wanted else []
    public_modes(tmp)
    return problems


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
    "part": "",
    "current": False,
}
