"""EPUB 3 through pandoc's EPUB writer, from the same transformed chapters.

pandoc writes a valid EPUB 3 container (package document, navigation document
with landmarks, NCX for old readers, one XHTML file per chapter, footnotes as
EPUB 3 notes with back-links, MathML, highlighted code, ASCII file names such
as ``text/ch001.xhtml`` and ``media/file0.png``).  kobook gives it:

* the chapters after the passes every writer runs (sanitized raw HTML, heading
  and equation numbers, code languages) in one document, so pandoc splits it at
  the chapter headings and keeps cross-references between chapters working;
* every image as a copy kobook made in pandoc's empty working folder, named by
  its content (:class:`Media`), and no other ``src`` or ``poster`` in the raw
  HTML, so pandoc has nothing else to fetch: the book's files are read only
  where kobook allowed (the book, its cache), nothing comes from the network,
  and an image kobook cannot put in is EPUB001 with its file and line, its alt
  text left in its place.  (pandoc's ``--sandbox`` would say the same, but it
  also refuses the stylesheet, the cover and the fonts kobook gives it.)
* the metadata (title, authors, translators as ``trl`` creators, language, a
  stable identifier, the date the other outputs carry), a title page with the
  translators and the original work, and a cover: ``cover:`` in metadata.yaml,
  or one drawn from the title and names;
* a stylesheet (``epub/book.css.j2``, overridable from the book's
  ``templates/``) with Korean word breaking (``word-break: keep-all``).

``epub: {embed-fonts: true}`` embeds the body, heading and code fonts, subset
to the characters of the book.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
import zipfile
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from ...cache import Cache
from ...errors import Diagnostic
from ...lang.words import Words
from ...model import Book, Doc
from ...parse import api_version
from ...parse.ast import copy_tree, rewrite, rewrite_chain, walk
from ...parse.pandoc import run_pandoc
from ..shared import passes
from ..shared.common import atomic_output, scratch
from ..shared.highlight import highlight_option
from ..shared.kept import keep, kept, kept_key
from ..shared.sanitize import sanitize_blocks
from ..shared.setup import PrintSetup, print_setup
from ..shared.tables import empty_header_cells
from ..shared.templates import environment
from . import a11y, cover, fonts, math, pages
from .media import Media, inline_images, place, raw_media
from .xhtml import xhtml_raw

TEMPLATES = "epub"
# Files that are compressed already: deflating them again costs time and saves nothing.
PACKED = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".woff", ".woff2")
# zlib's fastest level for the rest (text: XHTML, SVG, CSS): a quarter of the default
# level's time for an EPUB about 1 % larger.
DEFLATE_LEVEL = 1
ZIP_EPOCH = 315532800  # 1980-01-01, the first date a zip file can hold


def write_epub(
    book: Book,
    docs: list[Doc],
    out: Path,
    cache: Cache | None,
    *,
    setup: PrintSetup | None = None,
) -> list[Diagnostic]:
    """Write ``out`` (atomically); return the warnings met on the way.  ``setup``: the
    build's set-up (the fonts, the folders it may read, word breaking)."""
    setup = setup or print_setup(book, cache)
    problems: list[Diagnostic] = []
    folders = [folder.resolve() for folder in setup.folders]
    media = Media()
    chapters = [kept_or_prepared(doc, book, folders, media, problems, cache) for doc in docs]
    claims = a11y.Claims(undescribed=sum(1 for p in problems if p.code == "A11Y001"))
    for made in chapters:
        claims.read(made)
    failing = math.mathml_failures(chapters, cache)
    blocks: list[Any] = []
    for doc, made in zip(docs, chapters, strict=True):
        blocks += math.drawn_formulas(made, doc, failing, problems) if failing else made
    blocks += pages.book_index_blocks(book, docs)
    blocks += pages.colophon_blocks(book)
    config = book.config
    env = environment(book.root, trusted=book.trusted)
    settings = config.get("epub") or {}
    with scratch("epub") as work:
        folder = Path(work)
        css = folder / "book.css"
        embed = settings.get("embed-fonts")
        embedded = fonts.embedded(book, docs, folder, setup.fonts) if embed else []
        css.write_text(
            env.get_template(f"{TEMPLATES}/book.css.j2").render(
                word_break="keep-all" if setup.keeps_words_whole() else "normal",
                hyphenate_latin=setup.hyphenates_latin(),
                fonts=embedded,
            ),
            encoding="utf-8",
        )
        media.write(folder)
        template = folder / "book.xhtml"
        template.write_text(env.get_template(f"{TEMPLATES}/book.xhtml").render(), "utf-8")
        cover_file = cover.cover_image(book, folder, problems, setup, cache)
        document = {
            "pandoc-api-version": api_version(),
            "meta": {key: meta_value(value) for key, value in metadata(book).items()},
            "blocks": blocks,
        }
        args = ["-f", "json", "-t", "epub3", "--mathml", "--split-level=1", highlight_option()]
        args += [f"--resource-path={folder}"]
        args += ["--toc", f"--toc-depth={max(1, min(config.toc_depth, 3))}"]
        args += [f"--css={css}", f"--template={template}", f"--epub-cover-image={cover_file}"]
        args += ["-V", f"kobook-titlepage={pages.title_page(book)}"]
        args += [f"--epub-embed-font={font.path}" for font in embedded]
        with atomic_output(out) as tmp:
            run_pandoc(
                [*args, "-o", str(tmp)],
                json.dumps(document),
                what="EPUB writer",
                env={"SOURCE_DATE_EPOCH": str(config.output_epoch or ZIP_EPOCH)},
                cwd=folder,
            )
            finish(tmp, config.words, claims, str(config.get("edition") or ""), media)
    return problems


def kept_or_prepared(
    doc: Doc,
    book: Book,
    folders: list[Path],
    media: Media,
    problems: list[Diagnostic],
    cache: Cache | None,
) -> list[Any]:
    """:func:`prepare`, or what it made of the same AST in an earlier build
    (:mod:`kobook.write.shared.kept`), its images put into ``media`` again."""
    key = kept_key(doc, "epub-chapter", [str(folder) for folder in folders])
    found = kept(cache, "epub-chapter", key, doc)
    if found is not None:
        (blocks, paths), warnings = found
        if media.add_files(paths):
            problems += warnings
            return list(blocks)
    start, before = len(problems), set(media.paths)
    blocks = prepare(doc, book, folders, media, problems)
    paths = {name: path for name, path in media.paths.items() if name not in before}
    keep(cache, "epub-chapter", key, doc, (blocks, paths), problems[start:])
    return blocks


def prepare(
    doc: Doc, book: Book, folders: list[Path], media: Media, problems: list[Diagnostic]
) -> list[Any]:
    """The EPUB's passes over one chapter, on a copy (the other writers see the original)."""
    blocks, removed = sanitize_blocks(copy_tree(doc.blocks), doc.chapter)
    problems += removed
    blocks = rewrite_chain(  # one walk (see rewrite_chain)
        blocks,
        [
            passes.heading_number(book.config, keep_attribute=False),
            passes.equation_number,
            passes.upright_emphasis,
            passes.mathml_math,
            passes.code_language,
        ],
    )
    problems += passes.undescribed_images(blocks, doc)  # before the placeholder is put in
    blocks = passes.image_alts(blocks, book.config.words.word("image"))
    blocks = passes.foreign_blocks(blocks, book.config.lang, book.config.original_lang)
    blocks = inline_images(blocks, doc, folders, media, problems)
    blocks = outside_links(blocks, doc, problems)
    blocks = raw_media(blocks, doc, folders, media, problems)
    return xhtml_raw(blocks, doc, problems)  # last: what the passes above left as raw HTML


def outside_links(blocks: list[Any], doc: Doc, problems: list[Diagnostic]) -> list[Any]:
    """A link to a file beside the book (mdBook's ``../std/index.html``) keeps its text
    and loses its target: the EPUB does not hold the file, a reader could not open it.
    One EPUB003 per chapter says how many."""
    dropped: list[str] = []

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Link":
            return None
        url = node["c"][2][0]
        if url.startswith("#") or urlparse(url).scheme:
            return None
        dropped.append(url)
        return {"t": "Span", "c": [node["c"][0], walk(node["c"][1], action)]}

    blocks = rewrite(blocks, action)
    if dropped:
        problems.append(
            Diagnostic(
                "EPUB003",
                f"{len(dropped)} link(s) to files outside the book kept as text in the EPUB "
                f"(the first: {dropped[0][:60]})",
                place(doc, [f"({dropped[0]}", dropped[0]]),
                "link to a full URL (https://…) to keep the link",
                "info",
            )
        )
    return blocks


def metadata(book: Book) -> dict[str, Any]:
    """What pandoc writes into the package document."""
    config = book.config
    meta: dict[str, Any] = {
        "title": config.title,
        "lang": config.lang,
        "author": list(config.authors),
        "toc-title": config.words.word("contents"),
        "identifier": config.get("identifier")
        or [{"scheme": "UUID", "text": f"urn:uuid:{book_uuid(book)}"}],
    }
    if config.get("subtitle"):
        meta["subtitle"] = str(config.get("subtitle"))
    if config.translators:
        meta["creator"] = [{"role": "trl", "text": name} for name in config.translators]
    for key in ("description", "publisher", "subject"):  # what a store lists the book by
        if config.get(key):
            meta[key] = config.get(key) if key == "subject" else str(config.get(key))
    rights = config.get("rights") or (config.original or {}).get("licence")
    if rights:
        meta["rights"] = str(rights)
    epoch = config.output_epoch
    if epoch is not None:
        import datetime

        meta["date"] = datetime.datetime.fromtimestamp(epoch, datetime.UTC).date().isoformat()
    return meta


def with_edition(opf: str, edition: str) -> str:
    """``edition:`` as ``schema:bookEdition`` (pandoc writes no edition; ``schema`` is a
    prefix EPUB 3 reserves, so a store reads it without a declaration)."""
    if not edition.strip():
        return opf
    line = f'<meta property="schema:bookEdition">{escape(" ".join(edition.split()))}</meta>'
    return opf.replace("</metadata>", f"  {line}\n  </metadata>", 1)


def book_uuid(book: Book) -> uuid.UUID:
    """The same identifier for every build of the book: from its title, names, language."""
    config = book.config
    key = "\n".join([config.title, *config.authors, *config.translators, config.lang])
    return uuid.UUID(bytes=hashlib.sha256(key.encode()).digest()[:16], version=5)


def meta_value(value: Any) -> Any:
    """A Python value as pandoc's metadata JSON (strings stay plain text)."""
    if isinstance(value, bool):
        return {"t": "MetaBool", "c": value}
    if isinstance(value, dict):
        return {"t": "MetaMap", "c": {key: meta_value(item) for key, item in value.items()}}
    if isinstance(value, list):
        return {"t": "MetaList", "c": [meta_value(item) for item in value]}
    return {"t": "MetaString", "c": str(value)}


ID = re.compile(r'\sid="([^"]+)"')
LOCAL_HREF = re.compile(r'href="#([^"]+)"')


def finish(
    epub: Path,
    words: Words,
    claims: a11y.Claims | None = None,
    edition: str = "",
    media: Media | None = None,
) -> None:
    """Mend what pandoc's container gets wrong, and write it again (its entries in the
    same order, with the same dates):

    - ``href="#id"`` points at the chapter file that holds ``id`` (and a link to an
      id no chapter has loses its target).  pandoc splits the book at chapter
      headings and rewrites the links to headings and sections it knows, but not
      those to figures, tables, equations or anchors in raw HTML: in a reader they
      would go nowhere (epubcheck RSC-012);
    - each footnote links back to where it is called (:func:`back_links`);
    - each chapter file's ``<title>`` is its first heading, not its file name
      (``ch001.xhtml``, which pandoc writes and a reader may show);
    - the landmarks are named in the book's language (pandoc writes "Cover",
      "Title Page" and "Table of Contents" whatever the language);
    - the accessibility metadata claims what is true of the book, and each formula
      has its TeX as ``alttext`` (``a11y.py``);
    - each image of ``media`` takes the place of its stand-in (:meth:`Media.write`).
    """
    with zipfile.ZipFile(epub) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    pages = {
        info.filename: data.decode("utf-8")
        for info, data in entries
        if info.filename.endswith(".xhtml") and "/text/" in info.filename
    }
    home = {name: file for file, text in pages.items() for name in ID.findall(text)}
    fixed: dict[str, str] = {}
    for file, text in pages.items():
        own = set(ID.findall(text))

        def target(match: re.Match[str], own: set[str] = own) -> str:
            name = match.group(1)
            if name in own:
                return match.group(0)
            if name not in home:  # a link to nowhere: its text stays, as in the PDF
                return ""
            return f'href="{home[name].rsplit("/", 1)[-1]}#{name}"'

        page = back_links(empty_header_cells(LOCAL_HREF.sub(target, text)))
        fixed[file] = a11y.math_alttext(page_title(page, file))
    for info, data in entries:
        if info.filename.endswith("/nav.xhtml"):
            fixed[info.filename] = landmark_words(data.decode("utf-8"), words)
        elif info.filename.endswith("content.opf") and claims is not None:
            opf = a11y.package_metadata(data.decode("utf-8"), claims, words)
            fixed[info.filename] = with_edition(opf, edition)
    with zipfile.ZipFile(epub, "w") as out:
        for info, data in entries:
            body = fixed[info.filename].encode("utf-8") if info.filename in fixed else data
            body = media.restore(body) if media is not None else body
            if info.filename.lower().endswith(PACKED):
                info.compress_type = zipfile.ZIP_STORED
            out.writestr(info, body, compresslevel=DEFLATE_LEVEL)


HEADING_TEXT = re.compile(r"<h[1-6]\b[^>]*>(.*?)</h[1-6]>", re.S)


def page_title(page: str, file: str) -> str:
    """``<title>`` of a chapter file: its first heading's text, else left as it is."""
    name = file.rsplit("/", 1)[-1]
    heading = HEADING_TEXT.search(page)
    if heading is None or f"<title>{name}</title>" not in page:
        return page
    text = " ".join(re.sub(r"<[^>]+>", "", heading.group(1)).split())
    return page.replace(f"<title>{name}</title>", f"<title>{text}</title>", 1) if text else page


# pandoc's landmark names → the words kobook prints for them.
LANDMARKS = {"Cover": "cover", "Title Page": "title-page", "Table of Contents": "contents"}
LANDMARK = re.compile(
    r'(<a href="[^"]*" epub:type="(?:cover|titlepage|toc)">)'
    r"(Cover|Title Page|Table of Contents)</a>"
)


def landmark_words(nav: str, words: Words) -> str:
    """The landmarks' names (``epub:type="cover"`` …) in the book's language."""

    def name(match: re.Match[str]) -> str:
        return f"{match.group(1)}{escape(words.word(LANDMARKS[match.group(2)]))}</a>"

    return LANDMARK.sub(name, nav)


NOTE = re.compile(r'(<aside epub:type="footnote"[^>]*\sid="([^"]+)"[^>]*>)(.*?)(</aside>)', re.S)


def back_links(page: str) -> str:
    """A footnote ends with a link back to its call (``↩︎``, ``role="doc-backlink"``), as
    on the site: pandoc's EPUB 3 notes have none, and a reader that shows notes at
    the end of the chapter leaves the reader there."""

    def add(match: re.Match[str]) -> str:
        start, ident, body, end = match.groups()
        call = re.search(rf'<a href="#{re.escape(ident)}"[^>]*\sid="([^"]+)"', page)
        if call is None or "doc-backlink" in body:
            return match.group(0)
        back = f'<p class="footnote-back"><a href="#{call.group(1)}" role="doc-backlink">↩︎</a></p>'
        return f"{start}{body}{back}\n{end}"

    return NOTE.sub(add, page)
