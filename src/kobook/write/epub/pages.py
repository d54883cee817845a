"""The pages kobook writes into the EPUB itself: the title page and the copyright page
(판권), both from ``metadata.yaml``."""

from __future__ import annotations

from html import escape
from typing import Any

from ...model import Book, Doc
from ...model.colophon import colophon
from ...parse.ast import attr, text_inlines
from ..shared.bookindex import book_index, index_blocks, section_links


def title_page(book: Book) -> str:
    """The title page's XHTML: title, names, translators and the original work."""
    config = book.config
    words = config.words
    parts = [f'<h1 class="title">{escape(config.title)}</h1>']
    if config.get("subtitle"):
        parts.append(f'<p class="subtitle">{escape(str(config.get("subtitle")))}</p>')
    if config.authors:
        parts.append(f'<p class="author">{escape(words.names("by", list(config.authors)))}</p>')
    if config.translators:
        names = words.names("translated-by", list(config.translators))
        parts.append(f'<p class="translators">{escape(names)}</p>')
    if config.date_text:
        parts.append(f'<p class="date">{escape(config.date_text)}</p>')
    original = config.original or {}
    if original.get("title") or original.get("authors"):
        text = ", ".join(str(original[k]) for k in ("title", "authors") if original.get(k))
        parts.append(f'<p class="original">{escape(words.word("original"))}: {escape(text)}</p>')
    if original.get("url"):
        url = escape(str(original["url"]))
        parts.append(f'<p class="original-url"><a href="{url}">{url}</a></p>')
    if original.get("licence"):
        licence = escape(str(original["licence"]))
        parts.append(f'<p class="licence">{escape(words.word("licence"))}: {licence}</p>')
    return "\n".join(parts)


def colophon_blocks(book: Book) -> list[Any]:
    """The copyright page (판권, ``model/colophon.py``) as the book's last section: a store
    shows it, and ``epub:type="copyright-page"`` tells a reading system what it is."""
    page = colophon(book.config)
    if page is None:
        return []
    words = book.config.words
    heading = attr("colophon", ["unnumbered"], [["epub:type", "copyright-page"]])
    items = [
        [text_inlines(label), [[{"t": "Plain", "c": text_inlines(value)}]]]
        for label, value in page.lines
    ]
    body: list[Any] = [{"t": "Para", "c": [{"t": "Strong", "c": text_inlines(page.title)}]}]
    if items:
        body.append({"t": "DefinitionList", "c": items})
    body += [{"t": "Para", "c": text_inlines(note)} for note in page.notes]
    return [
        {"t": "Header", "c": [1, heading, text_inlines(words.word("colophon"))]},
        {"t": "Div", "c": [attr("", ["colophon"]), body]},
    ]


def book_index_blocks(book: Book, docs: list[Doc]) -> list[Any]:
    """The index (찾아보기) before the copyright page: each entry links to the sections it
    is marked in (a reading system's pages are its own, so there are no page numbers);
    ``epub:type="index"`` tells a reading system what it is."""
    groups = book_index(book, docs)
    if not groups:
        return []
    return index_blocks(groups, book.config.words, section_links(lambda m: f"#{m.anchor}"))
