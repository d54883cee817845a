"""The index (찾아보기) every writer prints: the marks the transform left in the chapters
(``transform/index_terms.py``), gathered in reading order and arranged once
(``model/bookindex.py``).  Each writer draws the groups and prints the locators its own
way; this module also gives the two forms they share: the site's and the EPUB's blocks
(links named by section) and the PDF engines' page-number lists."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...lang.words import Words
from ...model import Book, Doc
from ...model.bookindex import Entry, Group, Mark, arrange
from ...parse.ast import attr, iter_nodes, keyval, stringify, text_inlines

BOOK_INDEX_ID = "book-index"  # the index's own anchor (its heading), in every output


def marks_of(doc: Doc, words: Words) -> list[Mark]:
    """The index marks of one chapter, in reading order, each with its section."""
    found: list[Mark] = []
    chapter = doc.chapter
    section = chapter.title
    for node in iter_nodes(doc.blocks):  # in reading order: a heading before what follows it
        kind, content = node["t"], node.get("c", [])
        if kind == "Header":
            level, attrs, inlines = content
            number = keyval(attrs, "number")
            if level == 1 and chapter.number is not None:
                section = words.label("chapter", chapter.number)
            elif number:
                section = words.label("section", number)
            else:
                section = stringify(inlines)
        elif kind == "Span" and "index" in content[0][1] and content[0][0]:
            ident, _classes, _ = content[0]
            found.append(
                Mark(
                    term=keyval(content[0], "term") or stringify(content[1]),
                    anchor=ident,
                    chapter_id=chapter.id,
                    section=section,
                    sort=keyval(content[0], "sort") or "",
                    original=keyval(content[0], "original") or "",
                )
            )
    return found


def book_index(book: Book, docs: list[Doc], kept: list[list[Mark]] | None = None) -> list[Group]:
    """The book's index, or no group when it has no mark or ``index: false``.  ``kept``:
    each doc's :func:`marks_of`, when the caller keeps them (``kobook preview``)."""
    config = book.config
    if not config.index:
        return []
    words = config.words
    each = kept if kept is not None else [marks_of(doc, words) for doc in docs]
    marks = [mark for found in each for mark in found]
    return arrange(marks, words.word("index-symbols")) if marks else []


Locators = Callable[[list[Mark]], list[list[Any]]]


def index_blocks(groups: list[Group], words: Words, locators: Locators) -> list[Any]:
    """The index as pandoc blocks: a level-1 heading, then a heading per group and a list
    of its entries, each followed by its locators (``locators`` makes them, as inline
    lists, from an entry's marks)."""
    body: list[Any] = []
    for group in groups:
        label = attr("", ["unnumbered", "unlisted", "index-group"])  # not in a contents
        body.append({"t": "Header", "c": [2, label, text_inlines(group.label)]})
        body.append({"t": "BulletList", "c": [entry_item(e, locators) for e in group.entries]})
    # The section's type, for a reading system and (its ARIA role) for a screen reader.
    heading = attr(BOOK_INDEX_ID, ["unnumbered"], [["epub:type", "index"], ["role", "doc-index"]])
    return [
        {"t": "Header", "c": [1, heading, text_inlines(words.word("index"))]},
        {"t": "Div", "c": [attr("", ["book-index"]), body]},
    ]


def entry_item(entry: Entry, locators: Locators) -> list[Any]:
    """One entry as a list item: term, source term, locators, sub-entries."""
    inlines: list[Any] = text_inlines(entry.term)
    if entry.original:  # 데이터 병렬화(data parallelism), as the text first writes it
        words = text_inlines(f"({entry.original})")
        inlines.append({"t": "Span", "c": [attr("", ["index-original"]), words]})
    for number, locator in enumerate(locators(entry.marks)):
        if number:
            inlines.append({"t": "Str", "c": ","})
        inlines += [{"t": "Space"}, *locator]
    item: list[Any] = [{"t": "Plain", "c": inlines}]
    if entry.subs:
        item.append({"t": "BulletList", "c": [entry_item(sub, locators) for sub in entry.subs]})
    return item


def by_section(marks: list[Mark]) -> list[Mark]:
    """The first mark in each section: a screen links an entry once per section, named as
    a reference prints it (``3.2절``), where a page would repeat the same name."""
    seen: set[tuple[str, str]] = set()
    found = []
    for mark in marks:
        if (mark.chapter_id, mark.section) not in seen:
            seen.add((mark.chapter_id, mark.section))
            found.append(mark)
    return found


def section_links(href: Callable[[Mark], str]) -> Locators:
    """Locators for a screen: a link per section the entry is marked in."""

    def locators(marks: list[Mark]) -> list[list[Any]]:
        return [
            [{"t": "Link", "c": [attr(), text_inlines(mark.section), [href(mark), ""]]}]
            for mark in by_section(marks)
        ]

    return locators
