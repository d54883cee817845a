"""What the transformed book holds, construct by construct, each with the source line it
came from: the left-hand side of the ledger.

Text is compared as *probes*: short runs of letters and digits (NFKC, case-folded,
nothing else), because every output spaces, hyphenates, quotes and breaks lines its
own way, and a PDF puts running heads, page numbers and footnotes between the two
halves of a paragraph.  A passage has up to three probes (start, middle, end) that do
not overlap; a page break can split one of them, never all, so a passage counts as
present when one probe is found and as lost when none is.
"""

from __future__ import annotations

import contextlib
import functools
import pickle
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from ..cache import Cache
from ..errors import Location
from ..model import Chapter, Doc
from ..transform.leaks.drawable import shown_text
from ..transform.memo import Lines
from ..write.shared.kept import kept_key

PROBE = 12  # letters and digits in one probe: about four Korean words
CONTEXT = 3  # letters before a superscript that find it again in a PDF's text

# Inlines whose text a reader does not see where they stand (a note's text is a passage
# of its own; math, images and raw markup are drawn, not written; a citation's text is
# the style's), so a passage's text is cut there.
CUT = {"Math", "Note", "Image", "RawInline", "Cite"}
# A raw ``<sup>``/``<sub>`` tag a transform left as it was (the text between is pandoc's).
RAW_SCRIPT = re.compile(r"^<(/?)(sup|sub)\b[^>]*>$", re.I)
INLINE_CONTAINERS = {"Emph", "Strong", "Strikeout", "Underline", "SmallCaps"}
# Blocks whose inlines are one passage.
TEXT_BLOCKS = {"Para": "paragraph", "Plain": "text", "Header": "heading"}


def letters(text: str) -> str:
    """``text`` as the ledger compares it: letters and digits only, NFKC, case-folded,
    and a number sign as its value."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(map(letter, folded))


@functools.cache
def letter(char: str) -> str:
    """``char`` if it is a letter or a digit, else "".  A number sign NFKC keeps is its
    value: a font that draws ② and ➁ with one glyph tells a PDF's reader either."""
    kind = unicodedata.category(char)
    if kind[0] == "L" or kind == "Nd":
        return char
    if kind[0] == "N":
        value = unicodedata.numeric(char, -1.0)
        return str(int(value)) if value >= 0 and value == int(value) else char
    return ""


def probes(text: str) -> tuple[str, ...]:
    """Up to three probes of ``text`` (already :func:`letters`) that do not overlap."""
    if len(text) <= PROBE:
        return (text,) if text else ()
    if len(text) < 3 * PROBE:
        return (text[:PROBE], text[-PROBE:])
    middle = (len(text) - PROBE) // 2
    return (text[:PROBE], text[middle : middle + PROBE], text[-PROBE:])


@dataclass(frozen=True)
class Passage:
    """Text a reader must find in every output."""

    what: str  # "paragraph", "heading", "code block", ...
    text: str  # as written (for the message)
    probes: tuple[str, ...]
    where: Location
    lines: int = 1  # source lines it spans (a raw HTML block's)


@dataclass(frozen=True)
class Script:
    """A superscript or subscript: its letters and the letters just before it."""

    kind: str  # "superscript" | "subscript"
    text: str
    before: str
    where: Location


@dataclass(frozen=True)
class Element:
    """A construct an output keeps as an element of its own (a heading's identifier, a
    link's address, an image's file, a table, a footnote)."""

    kind: str  # "heading", "link", "image", "table", "footnote", "display math"
    key: str  # what identifies it in the output: an id, an address; "" when only counted
    where: Location


@dataclass
class Expected:
    """Everything the ledger looks for in each output."""

    passages: list[Passage] = field(default_factory=list)
    scripts: list[Script] = field(default_factory=list)
    elements: list[Element] = field(default_factory=list)


def expected(docs: list[Doc], cache: Cache | None = None) -> Expected:
    """The ledger's left-hand side for ``docs`` (the chapters an output was asked for);
    ``cache``: the build's, where each chapter's is kept by its AST key."""
    found = Expected()
    for doc in docs:
        part = chapter_expected(doc, cache)
        found.passages += part.passages
        found.scripts += part.scripts
        found.elements += part.elements
    return found


def chapter_expected(doc: Doc, cache: Cache | None) -> Expected:
    """One chapter's side of the ledger, or what an earlier build found of the same AST
    (``Doc.key``): each item's place is kept as its line in the chapter's text and put
    back at that line of the chapter as it is now (an edit above it moves it)."""
    key = kept_key(doc, "ledger")
    data = cache.get("ledger", key) if cache is not None and key else None
    if data is not None:
        with contextlib.suppress(Exception):  # another kobook's entry: found again
            kinds = pickle.loads(data)
            return Expected(*(moved(items, doc.chapter) for items in kinds))
    found = Expected()
    collect(doc.blocks, doc.chapter, found)
    if cache is not None and key:
        lines = Lines(doc.chapter)
        kinds = [
            [(item, lines.local(item.where)) for item in items]
            for items in (found.passages, found.scripts, found.elements)
        ]
        cache.put("ledger", key, pickle.dumps(kinds, protocol=pickle.HIGHEST_PROTOCOL))
    return found


def moved(items: list[tuple[Any, int | None]], chapter: Chapter) -> list[Any]:
    """Kept items at their lines of ``chapter`` (an item elsewhere stays where it was)."""
    return [
        item if line is None else replace(item, where=chapter.where(line, item.where.col))
        for item, line in items
    ]


def collect(blocks: list[Any], chapter: Chapter, found: Expected) -> None:
    for block in blocks:
        if not isinstance(block, dict):
            continue
        kind = block.get("t")
        content: Any = block.get("c", [])
        if kind in TEXT_BLOCKS:
            inlines = content[2] if kind == "Header" else content
            passage(TEXT_BLOCKS[kind], inlines, chapter, found)
            where = locate(chapter, plain(inlines))
            if kind == "Header" and content[1][0]:
                found.elements.append(Element("heading", content[1][0], where))
            inline_elements(inlines, chapter, found, where)
        elif kind == "CodeBlock":
            first = next((line for line in content[1].split("\n") if letters(line)), "")
            if first:
                text = letters(first)[:PROBE]
                found.passages.append(
                    Passage("code block", first.strip(), (text,), locate(chapter, first.strip()))
                )
        elif kind == "LineBlock":
            for line in content:
                passage("line", line, chapter, found)
                inline_elements(line, chapter, found, locate(chapter, plain(line)))
        elif kind == "RawBlock" and content[0] == "html":
            raw_html(content[1], chapter, found)
        elif kind == "Table":
            found.elements.append(Element("table", "", table_location(block, chapter)))
            nested(content, chapter, found)
        else:
            nested(content, chapter, found)


def raw_html(markup: str, chapter: Chapter, found: Expected) -> None:
    """The text a raw HTML block shows (a ``<table>``'s cells): a writer that drops the
    block loses it, which LEAK002 says at the block's lines, or this ledger does."""
    shown = shown_text(markup)
    text = letters(shown)
    if text:
        first = markup.strip().split("\n", 1)[0][:40]
        where = chapter.locate(first) or locate(chapter, shown)
        lines = markup.strip().count("\n") + 1
        found.passages.append(Passage("raw HTML", shown, probes(text), where, lines))


def nested(value: Any, chapter: Chapter, found: Expected) -> None:
    """Blocks inside lists, quotes, divs, figures and tables, wherever they sit."""
    if isinstance(value, list):
        blocks = value and all(isinstance(v, dict) and "t" in v for v in value)
        if blocks and any(v["t"] in BLOCK_TYPES for v in value):
            collect(value, chapter, found)
            return
        for item in value:
            nested(item, chapter, found)
    elif isinstance(value, dict) and "t" in value and value["t"] in BLOCK_TYPES:
        collect([value], chapter, found)


BLOCK_TYPES = {
    "Para",
    "Plain",
    "Header",
    "CodeBlock",
    "LineBlock",
    "BlockQuote",
    "OrderedList",
    "BulletList",
    "DefinitionList",
    "Div",
    "Figure",
    "Table",
    "RawBlock",
    "HorizontalRule",
}


def passage(what: str, inlines: list[Any], chapter: Chapter, found: Expected) -> None:
    """One passage per uncut run of ``inlines`` (see :data:`CUT`)."""
    for run in runs(inlines):
        text = letters(run)
        if text:
            found.passages.append(Passage(what, run.strip(), probes(text), locate(chapter, run)))


def runs(inlines: list[Any]) -> list[str]:
    """The text of ``inlines`` cut at every inline in :data:`CUT`."""
    out = [""]

    def go(items: list[Any]) -> None:
        for item in items:
            kind, content = item.get("t"), item.get("c")
            if kind in CUT:
                out.append("")
            elif kind == "Str":
                out[-1] += content
            elif kind in ("Space", "SoftBreak", "LineBreak"):
                out[-1] += " "
            elif kind == "Code":
                out[-1] += content[1]
            elif kind in INLINE_CONTAINERS or kind in ("Superscript", "Subscript"):
                go(content)
            elif kind in ("Link", "Span", "Quoted"):
                go(content[1])
                if kind == "Link" and str(content[2][0]).startswith(("http://", "https://")):
                    out.append("")  # a print master's footnote call may follow

    go(inlines)
    return [run for run in out if run.strip()]


def plain(inlines: list[Any]) -> str:
    return " ".join(runs(inlines))


def inline_elements(inlines: list[Any], chapter: Chapter, found: Expected, block: Location) -> None:
    """Links, images, notes, display math and scripts among ``inlines`` (a script is
    reported at its block's line: its own letters are too short to find it by)."""
    before = ""
    raw: tuple[str, str, list[str]] | None = None  # a raw <sup> open: kind, before, text
    for item in iterate(inlines):
        kind, content = item["t"], item.get("c", [])
        if kind == "RawInline" and content[0] == "html" and RAW_SCRIPT.match(content[1]):
            tag = RAW_SCRIPT.match(content[1])
            assert tag is not None
            name = "superscript" if tag.group(2) == "sup" else "subscript"
            if not tag.group(1):
                raw = (name, before[-CONTEXT:], [])
            elif raw is not None and raw[0] == name:
                text = letters("".join(raw[2]))
                if text:
                    found.scripts.append(Script(name, text, raw[1], block))
                raw = None
            continue
        if raw is not None and kind in ("Str", "Space"):
            raw[2].append(content if kind == "Str" else " ")
        if kind in ("Superscript", "Subscript"):
            text = letters(plain(content))
            if text:
                found.scripts.append(Script(kind.lower(), text, before[-CONTEXT:], block))
        elif kind == "Link":
            target = content[2][0]
            if target.startswith(("http://", "https://")):
                where = chapter.locate(target) or locate(chapter, plain(content[1]))
                found.elements.append(Element("link", target, where))
        elif kind == "Image":
            found.elements.append(Element("image", content[2][0], locate(chapter, content[2][0])))
        elif kind == "Note":
            found.elements.append(Element("footnote", "", locate_note(chapter, content)))
            collect(content, chapter, found)
        elif kind == "Math" and content[0]["t"] == "DisplayMath":
            found.elements.append(Element("display math", "", locate(chapter, content[1][:30])))
        if kind == "Str":
            before += letters(content)
        elif kind in CUT:
            before = ""


def iterate(inlines: list[Any]) -> Iterator[dict[str, Any]]:
    """Every inline, depth first, a container before what it holds (a note's inlines are
    its own: :func:`inline_elements` reads them when it meets the note)."""
    for item in inlines:
        if not isinstance(item, dict):
            continue
        yield item
        kind, content = item.get("t"), item.get("c", [])
        if kind in INLINE_CONTAINERS:
            yield from iterate(content)
        elif kind in ("Link", "Span", "Quoted"):
            yield from iterate(content[1])


def locate(chapter: Chapter, text: str) -> Location:
    """The source line of ``text`` in ``chapter`` (its first words; else the chapter)."""
    words = text.split()
    for count in (4, 2, 1):
        if len(words) >= count:
            found = chapter.locate(" ".join(words[:count]))
            if found is not None:
                return found
    return chapter.where(1)


def locate_note(chapter: Chapter, blocks: list[Any]) -> Location:
    first = next((b for b in blocks if isinstance(b, dict) and b.get("t") in TEXT_BLOCKS), None)
    return locate(chapter, plain(first["c"])) if first else chapter.where(1)


def table_location(table: dict[str, Any], chapter: Chapter) -> Location:
    """A table's line: where the text of its first cell is."""
    for node in walk_plain(table.get("c")):
        return locate(chapter, plain(node))
    return chapter.where(1)


def walk_plain(value: Any) -> Iterator[list[Any]]:
    if isinstance(value, dict):
        if value.get("t") in ("Plain", "Para"):
            yield value["c"]
            return
        yield from walk_plain(value.get("c"))
    elif isinstance(value, list):
        for item in value:
            yield from walk_plain(item)
