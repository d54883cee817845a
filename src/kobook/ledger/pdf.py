"""Reading back a PDF, whichever engine wrote it: its text (pdfium, as a reader's
copy and search see it), the addresses of its link annotations, and for each
superscript or subscript whether its letters stand raised or lowered, or smaller,
beside the letters before them.

A page's running head and number are not the book's text: a first or last line that
repeats on two pages or more (its page number aside), and one line of digits at
either edge, are left out, so a paragraph that runs on to the next page reads as
one.  They are kept at the end of the text: a chapter's title is also its running
head, and a book without a table of contents shows it nowhere else.

Sizes and baselines are read only where a script is looked for: reading them for
every glyph of a long book would cost more than the rest of the ledger.

pdfium's reading of the pages is most of the ledger's time on a long book, and
pdfium cannot be shared between threads: a long PDF's later half is read by a
forked process while this one reads the first (:func:`every_page`).
"""

from __future__ import annotations

import bisect
import ctypes
import functools
import itertools
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .expected import letters
from .found import Found

APART = 64  # pages from which a second process reads the later half
SMALLER = 0.92  # a script's letters are at most this size of the letters before them...
RAISED = 0.12  # ...or their baseline moves by this much of the letters' size


@dataclass
class Line:
    """One line of a page: its letters, and the character each came from."""

    text: str
    page: int
    chars: list[int]


class Drawn:
    """Every page's letters, running heads included, in one string (what a script is
    looked for in); which page and pdfium character a letter came from is worked out
    only for the pages a script is found on (a loop over every character of a 600-page
    book cost the ledger two seconds)."""

    def __init__(self, drawn_pages: list[str], letters_of: Letters) -> None:
        self.drawn_pages = drawn_pages
        self.letters_of = letters_of
        texts = [letters_of(drawn).replace("\n", "") for drawn in drawn_pages]
        self.letters = "".join(texts)
        # Where each page's letters start (an empty page starts where the next one does).
        self.starts = list(itertools.accumulate(map(len, texts), initial=0))
        self._chars: dict[int, list[int]] = {}

    def at(self, letter: int) -> tuple[int, int]:
        """The page and pdfium character index of ``letters[letter]``."""
        page = bisect.bisect_right(self.starts, letter) - 1
        if page not in self._chars:
            lines = indexed_lines_of(self.drawn_pages[page], page, self.letters_of)
            self._chars[page] = [char for line in lines for char in line.chars]
        return page, self._chars[page][letter - self.starts[page]]


def read_pdf(path: Path, label: str) -> Found:
    """The PDF's side of the ledger (``label``: "the Typst PDF", ...)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    pages, drawn_pages, links = [], [], set()
    letters_of = Letters()
    for index, (shown, drawn, addresses) in enumerate(every_page(document, path)):
        pages.append(lines_of(letters_of(shown), index))
        drawn_pages.append(drawn)
        links |= addresses
    body, margins = without_running_heads(pages)
    visible = "".join(line.text for page in [*body, margins] for line in page)
    glyphs = Glyphs(document)
    drawn_text = functools.cache(lambda: Drawn(drawn_pages, letters_of))
    return Found(
        label,
        visible,
        # A PDF/X has no link annotations (write/shared/pdfx.py): its addresses are
        # printed as text, which the text's own check covers.
        links=None if for_the_press(path) else links,
        script_check=lambda before, script, kind: drawn_as_script(
            drawn_text(), glyphs, before, script, kind
        ),
    )


PageRead = tuple[str, str, set[str]]  # what page_text shows and draws, its link addresses


def read_page(document: Any, index: int) -> PageRead:
    page = document[index]
    shown, drawn = page_text(page)
    return shown, drawn, link_addresses(document, page)


def read_pages(path: str, start: int, end: int) -> list[PageRead]:
    """Pages ``start`` to ``end`` of the PDF at ``path``, in a process of their own."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(path)
    try:
        return [read_page(document, index) for index in range(start, end)]
    finally:
        document.close()


def every_page(document: Any, path: Path) -> list[PageRead]:
    """Every page of ``document`` (opened from ``path``), in order.  From :data:`APART`
    pages on, a forked process reads the later half meanwhile (:mod:`kobook.forked`: not
    in a process with other threads, and a child that fails leaves its pages to this one;
    the answer is the same either way)."""
    from ..forked import ahead

    count = len(document)
    if count < APART:
        return [read_page(document, index) for index in range(count)]
    half = count // 2
    with ahead(read_pages, str(path), half, count, worth=True) as later:
        return [read_page(document, index) for index in range(half)] + later.result()


def page_text(page: Any) -> tuple[str, str]:
    """The text inside the page's box (what a reader sees: text pushed past the edge is
    lost), and every character of the page in pdfium's order (for glyph look-ups)."""
    textpage = page.get_textpage()
    try:
        count = textpage.count_chars()
        drawn = textpage.get_text_range(0, count) if count else ""
        left, bottom, right, top = page.get_bbox()
        shown = textpage.get_text_bounded(left, bottom, right, top) if count else ""
    finally:
        textpage.close()
    return shown, drawn


class Letters:
    """A page's text as the ledger compares it, line breaks kept: each character's
    :func:`letters`, worked out once per character of the book and applied by
    ``str.translate`` (a loop over every character of a 600-page book was most of
    reading it)."""

    def __init__(self) -> None:
        self.table: dict[int, str] = {ord("\n"): "\n"}

    def __call__(self, chars: str) -> str:
        for char in set(chars):
            self.of(char)
        return chars.translate(self.table)

    def of(self, char: str) -> str:
        """One character's letters."""
        found = self.table.get(ord(char))
        if found is None:
            found = self.table[ord(char)] = letters(char)
        return found


def lines_of(text: str, number: int) -> list[Line]:
    """A page's lines (pdfium ends a line with CR LF) of letters (``Letters``)."""
    return [Line(line, number, []) for line in text.split("\n") if line]


def indexed_lines_of(chars: str, number: int, letters_of: Letters) -> list[Line]:
    """A page's lines of letters, each letter with the index of the character it came
    from (for glyph look-ups)."""
    lines = [Line("", number, [])]
    index = 0  # pdfium's character index: a UTF-16 unit, two for a character past U+FFFF
    for char in chars:
        here, index = index, index + (2 if ord(char) > 0xFFFF else 1)
        if char == "\n":
            lines.append(Line("", number, []))
            continue
        found = letters_of.of(char)
        if found:
            lines[-1].text += found
            lines[-1].chars.extend([here] * len(found))
    return [line for line in lines if line.text]


def without_running_heads(pages: list[list[Line]]) -> tuple[list[list[Line]], list[Line]]:
    """``pages`` without page numbers and running heads, and those lines apart."""

    def head(line: Line) -> str:
        return "".join(ch for ch in line.text if not ch.isdigit())

    edges = Counter(head(page[i]) for page in pages if page for i in {0, len(page) - 1})

    def repeated(line: Line) -> bool:
        return bool(head(line)) and not roman(line.text) and edges[head(line)] >= 2

    def number(line: Line) -> bool:
        return line.text.isdigit() or roman(line.text)

    kept, margins = [], []
    for page in pages:
        lines = list(page)
        for edge in (0, -1):
            while lines and repeated(lines[edge]):
                margins.append(lines.pop(edge))
            if lines and number(lines[edge]):
                margins.append(lines.pop(edge))
            while lines and repeated(lines[edge]):
                margins.append(lines.pop(edge))
        kept.append(lines)
    return kept, margins


def roman(text: str) -> bool:
    return bool(text) and len(text) <= 6 and set(text) <= set("ivxlc")


@dataclass(frozen=True)
class Glyph:
    size: float
    baseline: float


class Glyphs:
    """Size and baseline of a page's character, read from pdfium when first asked for."""

    def __init__(self, document: Any) -> None:
        self.document = document
        self.textpages: dict[int, Any] = {}

    def at(self, page: int, char: int) -> Glyph:
        import pypdfium2.raw as raw

        if page not in self.textpages:
            self.textpages[page] = self.document[page].get_textpage()
        handle = self.textpages[page].raw
        x, y = ctypes.c_double(), ctypes.c_double()
        raw.FPDFText_GetCharOrigin(handle, char, x, y)
        return Glyph(float(raw.FPDFText_GetFontSize(handle, char)), y.value)


def drawn_as_script(
    text: Drawn, glyphs: Glyphs, before: str, script: str, kind: str
) -> bool | None:
    """Is ``script`` drawn as a script anywhere in the PDF after the letters ``before`` it?

    The last one, two and three letters before it are tried in turn (a PDF may order a
    line's scripts apart from the letters around them): any place where the script's
    letters stand smaller or off the baseline says yes.  False when they are found only
    on the line; None when not found at all (the text check reports that) or there is
    nothing before them to compare with.
    """
    seen = False
    for count in range(1, min(len(before), 3) + 1):
        context = before[-count:]
        needle = context + script
        at = text.letters.find(needle)
        while at >= 0:
            seen = True
            reference = glyphs.at(*text.at(at + count - 1))
            for k in range(at + count, at + len(needle)):
                if looks_like_script(reference, glyphs.at(*text.at(k)), kind):
                    return True
            at = text.letters.find(needle, at + 1)
    return False if seen else None


def looks_like_script(reference: Glyph, mark: Glyph, kind: str) -> bool:
    if reference.size <= 0:
        return False
    smaller = mark.size <= reference.size * SMALLER
    shift = (mark.baseline - reference.baseline) / reference.size
    moved = shift > RAISED if kind == "superscript" else shift < -RAISED
    return smaller or moved


def for_the_press(path: Path) -> bool:
    """Does the PDF declare PDF/X (an output intent for a press)?

    Every PDF/X kobook makes names ``GTS_PDFX`` in its XMP packet, a stream it never
    compresses (``write/shared/pdfx.py``): a PDF without those bytes is not parsed
    (pypdf reads every cross-reference first: a second of a 600-page book).
    """
    from pypdf import PdfReader

    if b"GTS_PDFX" not in path.read_bytes():
        return False

    catalog: Any = PdfReader(path).trailer["/Root"]
    intents = catalog.get("/OutputIntents")
    intents = intents.get_object() if intents is not None else []
    return any(intent.get_object().get("/S") == "/GTS_PDFX" for intent in intents)


def link_addresses(document: Any, page: Any) -> set[str]:
    """The addresses of a page's URI link annotations."""
    import pypdfium2.raw as raw

    found: set[str] = set()
    position = ctypes.c_int(0)
    link = raw.FPDF_LINK()
    while raw.FPDFLink_Enumerate(page.raw, ctypes.byref(position), ctypes.byref(link)):
        action = raw.FPDFLink_GetAction(link)
        if not action or raw.FPDFAction_GetType(action) != raw.PDFACTION_URI:
            continue
        size = raw.FPDFAction_GetURIPath(document.raw, action, None, 0)
        buffer = ctypes.create_string_buffer(size)
        raw.FPDFAction_GetURIPath(document.raw, action, buffer, size)
        found.add(buffer.value.decode("utf-8", "replace"))
    return found
