"""Reading back the HTML book and the EPUB: the DOM of each chapter page, the way a
browser or a reading system sees it (the standard library's HTML parser; the pages
are kobook's own, so no repair is needed).

Only a chapter's content counts: the site's sidebar, page table of contents and
pager repeat headings and titles and would hide a loss.  A footnote's mark is a
``<sup>`` the book did not write, so marks are not counted as superscripts.
"""

from __future__ import annotations

import contextlib
import pickle
import re
import zipfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from ..cache import Cache, digest
from .expected import letters
from .found import Found

# A span without an identifier is only style (a highlighted token of code: tens of
# thousands in a book); leaving its tags out keeps the text and halves the parsing.
PLAIN_SPAN = re.compile(r"<span\b(?![^>]*\bid=)[^>]*>|</span\s*>", re.I)
SKIPPED = {"script", "style", "template", "annotation", "annotation-xml"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
VOID |= {"track", "wbr"}


class Page(HTMLParser):
    """One page's content: text, identifiers and the elements the ledger counts."""

    def __init__(self, scope: str) -> None:
        super().__init__(convert_charrefs=True)
        self.scope = scope  # "article" (a site page) or "body" (an EPUB document)
        self.depth = 0  # open elements inside the scope
        self.inside = False
        self.skipping = 0
        self.in_note_mark = 0
        self.script_stack: list[tuple[str, list[str]]] = []
        self.text: list[str] = []
        self.ids: set[str] = set()
        self.links: set[str] = set()
        self.superscripts: list[str] = []
        self.subscripts: list[str] = []
        self.images: list[str] = []
        self.tables = 0
        self.footnotes = 0
        self.display_math = 0
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if not self.inside:
            if tag == self.scope and (self.scope == "body" or "chapter" in values.get("class", "")):
                self.inside = True
                self.stack = [tag]
            return
        if tag in VOID:
            self.void(tag, values)
            return
        self.stack.append(tag)
        if tag in SKIPPED:
            self.skipping += 1
        if values.get("id"):
            self.ids.add(values["id"])
        if tag == "a":
            self.anchor(values)
        elif tag in ("sup", "sub") and not self.in_note_mark:
            self.script_stack.append((tag, []))
        elif tag == "table":
            self.tables += 1
        elif display_math(tag, values):
            self.display_math += 1

    def void(self, tag: str, values: dict[str, str]) -> None:
        if values.get("id"):
            self.ids.add(values["id"])
        if tag == "img":
            if "math" in values.get("class", ""):
                if "display" in values.get("class", ""):
                    self.display_math += 1
            else:
                self.images.append(letters(values.get("alt", "")))

    def anchor(self, values: dict[str, str]) -> None:
        note = "footnote-ref" in values.get("class", "") or values.get("role") == "doc-noteref"
        note = note or values.get("epub:type") == "noteref"
        if note:
            self.footnotes += 1
            self.in_note_mark += 1
            self.stack[-1] = "a-note"
        href = values.get("href", "")
        if href.startswith(("http://", "https://")):
            self.links.add(href)

    def handle_endtag(self, tag: str) -> None:
        if not self.inside or tag in VOID:
            return
        # Close up to the matching element (the pages are well formed; this is a guard).
        while self.stack:
            open_tag = self.stack.pop()
            self.closed(open_tag)
            if open_tag in (tag, "a-note" if tag == "a" else ""):
                break
        if not self.stack:
            self.inside = False

    def closed(self, tag: str) -> None:
        if tag in SKIPPED:
            self.skipping -= 1
        elif tag == "a-note":
            self.in_note_mark -= 1
        elif tag in ("sup", "sub") and self.script_stack and self.script_stack[-1][0] == tag:
            kind, parts = self.script_stack.pop()
            found = letters("".join(parts))
            (self.superscripts if kind == "sup" else self.subscripts).append(found)

    def handle_data(self, data: str) -> None:
        if self.inside and not self.skipping:
            self.text.append(data)
            for _kind, parts in self.script_stack:
                parts.append(data)


def display_math(tag: str, values: dict[str, str]) -> bool:
    """A formula set on its own line: MathML ``display="block"``, or a drawn one."""
    if tag == "math":
        return values.get("display") == "block"
    return tag == "svg" and "display" in values.get("class", "")


@dataclass
class Read:
    """What the ledger takes of one page (:class:`Page`'s counts, its text as letters)."""

    text: str
    ids: set[str]
    links: set[str]
    superscripts: list[str]
    subscripts: list[str]
    images: list[str]
    tables: int
    footnotes: int
    display_math: int


def read_page(scope: str, markup: str, cache: Cache | None = None) -> Read:
    """One page read, or what an earlier build read of the same bytes (a warm build's
    pages are mostly those of the chapters it did not change)."""
    key = digest(scope, markup) if cache is not None else ""
    data = cache.get("ledger-page", key) if cache is not None else None
    if data is not None:
        with contextlib.suppress(Exception):  # another kobook's entry: read again
            kept = pickle.loads(data)
            if isinstance(kept, Read):
                return kept
    page = Page(scope)
    page.feed(PLAIN_SPAN.sub("", markup))
    page.close()
    read = Read(
        letters("".join(page.text)),
        page.ids,
        page.links,
        page.superscripts,
        page.subscripts,
        page.images,
        page.tables,
        page.footnotes,
        page.display_math,
    )
    if cache is not None:
        cache.put("ledger-page", key, pickle.dumps(read, protocol=pickle.HIGHEST_PROTOCOL))
    return read


def read_pages(pages: list[tuple[str, str]], label: str, cache: Cache | None = None) -> Found:
    """``pages``: (scope, markup) in reading order; ``cache``: the build's, where what was
    read of each page is kept by the page's bytes."""
    found = Found(label, "", set(), set(), [], [], [], 0, 0, 0)
    text: list[str] = []
    for scope, markup in pages:
        page = read_page(scope, markup, cache)
        text.append(page.text)
        assert found.ids is not None and found.links is not None
        found.ids |= page.ids
        found.links |= page.links
        for mine, theirs in (
            (found.superscripts, page.superscripts),
            (found.subscripts, page.subscripts),
            (found.images, page.images),
        ):
            assert mine is not None
            mine.extend(theirs)
        found.tables = (found.tables or 0) + page.tables
        found.footnotes = (found.footnotes or 0) + page.footnotes
        found.display_math = (found.display_math or 0) + page.display_math
    found.text = "\n".join(text)
    return found


def read_site(index: Path, chapter_files: list[str], cache: Cache | None = None) -> Found:
    """The HTML book: the chapter pages named (in reading order) in the site's folder."""
    folder = index.parent
    pages = []
    for name in chapter_files:
        path = folder / name
        if path.is_file():
            pages.append(
                ("article", chapter_part(path.read_text(encoding="utf-8", errors="replace")))
            )
    return read_pages(pages, "the HTML book", cache)


def chapter_part(markup: str) -> str:
    """The page from its chapter's ``<article>`` on: the sidebar before it lists every
    chapter of the book on every page, and parsing it is most of the reading time."""
    start = markup.find("<article")
    return markup[start:] if start >= 0 else markup


def read_epub(path: Path, cache: Cache | None = None) -> Found:
    """The EPUB: every XHTML document of the spine but the navigation document."""
    pages = []
    with zipfile.ZipFile(path) as book:
        for name in sorted(book.namelist()):
            if name.endswith(".xhtml") and not name.endswith("nav.xhtml"):
                pages.append(("body", book.read(name).decode("utf-8", "replace")))
    found = read_pages(pages, "the EPUB", cache)
    # pandoc's EPUB writer gives an identifier that cannot start an XML name an ``id_``.
    assert found.ids is not None
    found.ids |= {name[3:] for name in found.ids if name.startswith("id_")}
    return found
