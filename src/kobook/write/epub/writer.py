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
from html import escape, unescape
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from ...cache import Cache
from ...errors import Diagnostic, Location
from ...lang.words import Words
from ...model import Book, Doc
from ...parse import api_version
from ...parse.ast import copy_tree, iter_nodes, walk
from ...parse.pandoc import run_pandoc
from ..shared import passes, svgclean
from ..shared.common import atomic_output, scratch
from ..shared.highlight import highlight_option
from ..shared.sanitize import sanitize_blocks
from ..shared.setup import PrintSetup, print_setup
from ..shared.tables import empty_header_cells
from ..shared.templates import environment
from . import a11y, cover, fonts, math, pages
from .xhtml import xhtml_raw

TEMPLATES = "epub"
# What EPUB 3 readers must show (core media types): anything else is converted or left out.
CORE_IMAGES = {".png", ".jpg", ".jpeg", ".gif", ".svg"}
RAW_TAG = re.compile(r"<(/?)([a-zA-Z][\w-]*)\b[^>]*>")
MEDIA = {"video", "audio", "source", "track", "picture", "iframe", "object", "embed"}
RAW_SRC = re.compile(r'\s(?:src|poster)="([^"]*)"', re.IGNORECASE)
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
    chapters = [prepare(doc, book, folders, media, problems) for doc in docs]
    claims = a11y.Claims(undescribed=sum(1 for p in problems if p.code == "A11Y001"))
    for prepared in chapters:
        claims.read(prepared)
    failing = math.mathml_failures(chapters)
    blocks: list[Any] = []
    for doc, prepared in zip(docs, chapters, strict=True):
        blocks += math.drawn_formulas(prepared, doc, failing, problems) if failing else prepared
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
        cover_file = cover.cover_image(book, folder, problems, setup)
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
            finish(tmp, config.words, claims, str(config.get("edition") or ""))
    return problems


def prepare(
    doc: Doc, book: Book, folders: list[Path], media: Media, problems: list[Diagnostic]
) -> list[Any]:
    """The EPUB's passes over one chapter, on a copy (the other writers see the original)."""
    blocks, removed = sanitize_blocks(copy_tree(doc.blocks), doc.chapter)
    problems += removed
    blocks = passes.heading_numbers(blocks, book.config, keep_attribute=False)
    blocks = passes.equation_numbers(blocks)
    blocks = passes.upright_hangul(blocks)
    blocks = passes.mathml_tex(blocks)
    blocks = passes.code_languages(blocks)
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

    blocks = list(walk(blocks, action))
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


class Media:
    """The images of the EPUB, each under a name made from its bytes: pandoc reads them
    from its working folder, where nothing else kobook did not put there can be found.

    Copies, not ``data:`` URLs: a book's images in base64 inside the JSON handed to
    pandoc made its heap several times the size of the images.
    """

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def add(self, data: bytes, suffix: str) -> str:
        """The name of ``data`` in the working folder (the same bytes, the same name)."""
        name = f"media-{hashlib.sha256(data).hexdigest()[:20]}{suffix}"
        self.files[name] = data
        return name

    def write(self, folder: Path) -> None:
        for name, data in self.files.items():
            (folder / name).write_bytes(data)


def inline_images(
    blocks: list[Any], doc: Doc, folders: list[Path], media: Media, problems: list[Diagnostic]
) -> list[Any]:
    """Each image as the name of its copy in :class:`Media`, or its alt text and EPUB001."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Image":
            return None
        data = image_file(node["c"][2][0], folders, media)
        if data is None:
            problems.append(left_out(doc, node["c"][2][0]))
            return {"t": "Span", "c": [["", ["image-left-out"], []], node["c"][1]]}
        node["c"][2][0] = data
        return node

    return list(walk(blocks, action))


def raw_media(
    blocks: list[Any], doc: Doc, folders: list[Path], media: Media, problems: list[Diagnostic]
) -> list[Any]:
    """Raw HTML ``img`` with the copy of its file (:class:`Media`).  Media and frames (``video``,
    ``audio``, ``iframe``, …: not what every reader plays) lose their tags, start and
    end, and keep their fallback text; any other ``src`` or ``poster`` goes, and so does
    an image kobook cannot read.  Each is EPUB001: pandoc would fetch it, from
    anywhere, or leave a reference the EPUB does not hold."""

    def replace(match: re.Match[str]) -> str:
        tag, name = match.group(0), match.group(2).lower()
        if match.group(1):  # an end tag
            return "" if name in MEDIA else tag
        source = RAW_SRC.search(tag)
        if name in MEDIA:
            if name not in ("source", "track"):
                problems.append(left_out(doc, unescape(source.group(1)) if source else name))
            return ""
        if source is None:
            return tag
        if name == "img" and len(RAW_SRC.findall(tag)) == 1:
            data = image_file(unescape(source.group(1)), folders, media)
            if data is not None:
                tag = re.sub(r'\ssrcset="[^"]*"', "", tag)
                return tag.replace(source.group(0), f' src="{escape(data)}"')
        problems.append(left_out(doc, unescape(source.group(1))))
        return "" if name == "img" else RAW_SRC.sub("", tag)

    for node in iter_nodes(blocks):
        if node["t"] in ("RawBlock", "RawInline") and node["c"][0] == "html":
            node["c"][1] = RAW_TAG.sub(replace, node["c"][1])
    return blocks


def image_file(url: str, folders: list[Path], media: Media) -> str | None:
    """The image at ``url`` (relative to the book, or a file in the cache) copied into
    ``media``: its name there; None when it is elsewhere, missing, remote or not a type
    every reader shows."""
    if url.startswith("data:image/"):
        return url
    parsed = urlparse(url)
    if parsed.scheme not in ("", "file"):
        return None
    path = Path(unquote(parsed.path))
    for folder in folders:
        candidate = (path if path.is_absolute() else folder / path).resolve()
        if candidate.is_relative_to(folder) and candidate.is_file():
            found = encode(candidate)
            return None if found is None else media.add(*found)
    return None


def encode(path: Path) -> tuple[bytes, str] | None:
    """A file's bytes and suffix as the EPUB holds it: a WebP or BMP as PNG (not a core
    media type), an SVG without its document type declaration (EPUB 3 allows none:
    OPF-073, HTM-003)."""
    suffix = path.suffix.lower()
    data = path.read_bytes()
    if suffix == ".svg":
        cleaned = epub_svg(data)
        if cleaned is None:
            return None
        data = cleaned
    if suffix not in CORE_IMAGES:
        try:
            from io import BytesIO

            from PIL import Image

            with Image.open(BytesIO(data)) as image:
                converted = BytesIO()
                image.save(converted, "PNG")
        except Exception:  # a PDF figure, a broken file: left out, and said so
            return None
        data, suffix = converted.getvalue(), ".png"
    return data, suffix


SVG_IMAGE = re.compile(rb"<image\b[^>]*>")
IMAGE_PAINT = re.compile(rb'\s(?:fill|fill-rule|fill-opacity|stroke[\w-]*)="[^"]*"')


def epub_svg(data: bytes) -> bytes | None:
    """An SVG as EPUB 3 wants it: cleaned like every SVG kobook publishes (no script, no
    handler, no outside reference, no ``<!DOCTYPE>``: :mod:`..shared.svgclean`), with no
    paint on ``<image>``; None when it is not a well-formed SVG: the image is then left
    out, and said so."""
    cleaned = svgclean.clean(data)
    if cleaned is None:
        return None
    # Paint on an <image> means nothing (browsers ignore it) and EPUB's SVG schema
    # refuses it (RSC-005); drawing tools write it anyway.
    return SVG_IMAGE.sub(lambda m: IMAGE_PAINT.sub(b"", m.group(0)), cleaned)


def left_out(doc: Doc, url: str) -> Diagnostic:
    """EPUB001: an image that is not in the EPUB, where the chapter has it."""
    return Diagnostic(
        "EPUB001",
        f"image left out of the EPUB (not a file of the book, or not an image every "
        f"reader shows): {url[:80]}",
        place(doc, [f'src="{url}"', f"src='{url}'", f"({url}", url]),
        "put the image (PNG, JPEG, GIF or SVG) in the book's images/ folder",
        "warning",
    )


def place(doc: Doc, needles: list[str]) -> Location:
    """Where the first of ``needles`` the chapter holds is (the chapter's first line
    when none is)."""
    for needle in needles:
        found = doc.chapter.locate(needle) if needle else None
        if found is not None:
            return found
    return doc.chapter.where(1)


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


def finish(epub: Path, words: Words, claims: a11y.Claims | None = None, edition: str = "") -> None:
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
      has its TeX as ``alttext`` (``a11y.py``).
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
            out.writestr(info, body)


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
