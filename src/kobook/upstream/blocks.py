"""A chapter's AST flattened into the blocks a translation is compared by.

A block is what a translator translates as one unit: a heading, a paragraph, a
list item, a table row, a code block, a display equation, a figure, a footnote.
Containers (quotes, callouts, details, lists) are opened and their blocks listed
in reading order, so the original and the translation flatten the same way
whatever Markdown syntax each side wrote.  A block's :attr:`Block.key` hashes
its canonical text (markup kept, spacing folded), so rewrapping a paragraph or
writing ``_x_`` for ``*x*`` changes nothing, while a word or a link does.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from ..parse.ast import stringify, table_rows
from .features import Features, features_of

# Korean translator's notes (and their usual English names): free moves in alignment.
TRANSLATOR_NOTE = re.compile(
    r"^\s*[\[(【]?\s*(?:옮긴이|역자|역주|번역자|translator(?:'s)?)(?:\s*(?:주|노트|note))?\s*[\])】:：]",
    re.I,
)
# Prose kinds: compared by their words; the rest by what they hold.
PROSE = frozenset({"heading", "para", "item", "row", "footnote", "raw"})
SPACES = re.compile(r"\s+")


@dataclass
class Block:
    """One unit of translation, with what alignment and staleness look at."""

    kind: str  # heading | para | item | row | code | math | figure | footnote | raw
    canon: str  # canonical text: markup kept, spacing folded
    plain: str  # what a reader sees
    features: Features
    level: int = 0  # a heading's level
    note: bool = False  # a translator's note: has no partner in the original
    line: int = 0  # 1-based line in the chapter's text (set by :func:`place`)
    needle: str = ""  # the text :func:`place` looks for
    source: str = ""  # a code or raw block's text as written, lines and all
    ast: Any = field(default=None, repr=False, compare=False)  # a pandoc block to show it by
    key: str = field(init=False)

    def __post_init__(self) -> None:
        self.key = block_key(self.kind, self.level, self.canon)


def block_key(kind: str, level: int, canon: str) -> str:
    """The block's hash: 12 hex digits of its kind and canonical text."""
    data = f"{kind}\x00{level}\x00{canon}".encode()
    return hashlib.sha256(data).hexdigest()[:12]


def canon(inlines: Any) -> str:
    """Inlines as one line of light markup: the same AST always gives the same text."""
    parts: list[str] = []
    render(inlines, parts)
    return SPACES.sub(" ", "".join(parts)).strip()


WRAP = {
    "Emph": "*",
    "Underline": "*",
    "Strong": "**",
    "Strikeout": "~~",
    "Superscript": "^",
    "Subscript": "~",
}


def render(value: Any, out: list[str]) -> None:
    """Append the canonical text of ``value`` (an inline or a list of them)."""
    if isinstance(value, list):
        for item in value:
            render(item, out)
        return
    if not isinstance(value, dict):
        return
    kind: Any = value.get("t")
    content: Any = value.get("c")
    if kind == "Str":
        out.append(content)
    elif kind in ("Space", "SoftBreak", "LineBreak"):
        out.append(" ")
    elif kind in WRAP:
        mark = WRAP[kind]
        out.append(mark)
        render(content, out)
        out.append(mark)
    elif kind == "SmallCaps":
        render(content, out)
    elif kind == "Code":
        out.append(f"`{content[1]}`")
    elif kind == "Math":
        out.append(f"${SPACES.sub(' ', content[1]).strip()}$")
    elif kind in ("Link", "Image"):
        out.append("![" if kind == "Image" else "[")
        render(content[1], out)
        out.append(f"]({content[2][0]})")
    elif kind == "Note":
        out.append("^[]")
    elif kind == "Cite":
        out.append("[" + ";".join("@" + c["citationId"] for c in content[0]) + "]")
    elif kind == "Span":
        render(content[1], out)
    elif kind == "Quoted":
        out.append('"')
        render(content[1], out)
        out.append('"')
    elif kind == "RawInline":
        out.append(content[1])


def notes_in(inlines: Any) -> list[list[Any]]:
    """The footnotes' block lists inside ``inlines``, in order."""
    found: list[list[Any]] = []

    def go(value: Any) -> None:
        if isinstance(value, list):
            for item in value:
                go(item)
        elif isinstance(value, dict):
            if value.get("t") == "Note":
                found.append(value["c"])
            elif isinstance(value.get("c"), list):
                go(value["c"])

    go(inlines)
    return found


class Flattener:
    """Walks a chapter's blocks, depth first, into :class:`Block` s."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.in_note = False

    def add(self, kind: str, inlines: Any, *, level: int = 0, text: str | None = None) -> None:
        line = canon(inlines) if text is None else SPACES.sub(" ", text).strip()
        if not line and kind in PROSE:
            return
        plain = stringify(inlines) if text is None else text
        if not plain.strip():  # only raw HTML: what it says is its text
            plain = line
        block = Block(
            kind,
            line,
            SPACES.sub(" ", plain).strip(),
            features_of(inlines, kind, text),
            level=level,
            note=self.in_note,
            needle=needle_of(kind, plain),
            source=text or "",
            ast=shown(kind, level, inlines, text),
        )
        self.blocks.append(block)
        for note in notes_in(inlines):
            self.walk(note, kind="footnote")

    def walk(self, blocks: list[Any], kind: str = "para") -> None:
        for block in blocks:
            self.block(block, kind)

    def block(self, block: Any, kind: str = "para") -> None:
        if not isinstance(block, dict):
            return
        t: Any = block.get("t")
        c: Any = block.get("c")
        if t == "Header":
            self.add("heading", c[2], level=c[0])
        elif t in ("Para", "Plain"):
            self.para(c, kind)
        elif t == "LineBlock":
            self.add(kind, [x for line in c for x in [*line, {"t": "Space"}]])
        elif t == "CodeBlock":
            self.add("code", [], text=c[1])
        elif t == "RawBlock":
            if not re.fullmatch(r"\s*(<!--.*?-->\s*)*", c[1], re.S):
                self.add("raw", [], text=c[1])
        elif t == "BlockQuote":
            self.container(c)
        elif t == "Div":
            self.container(c[1])
        elif t in ("BulletList", "OrderedList"):
            for item in c if t == "BulletList" else c[1]:
                self.item(item)
        elif t == "DefinitionList":
            for term, definitions in c:
                self.add("item", term)
                for definition in definitions:
                    self.item(definition)
        elif t == "Table":
            self.table(c)
        elif t == "Figure":
            self.figure(c)

    def para(self, inlines: list[Any], kind: str) -> None:
        solid = [x for x in inlines if x.get("t") not in ("Space", "SoftBreak", "LineBreak")]
        if solid and all(x.get("t") == "Image" for x in solid):
            self.add("figure", inlines)
        elif solid and all(x.get("t") == "Math" and x["c"][0]["t"] == "DisplayMath" for x in solid):
            self.add("math", inlines)
        else:
            self.add(kind, inlines)

    def container(self, blocks: list[Any]) -> None:
        """A quote, callout or details: its blocks; a translator's note's are marked."""
        was = self.in_note
        first = next((b for b in blocks if isinstance(b, dict) and b.get("t") != "Header"), None)
        if first is not None and TRANSLATOR_NOTE.match(stringify(first)):
            self.in_note = True
        self.walk(blocks)
        self.in_note = was

    def item(self, blocks: list[Any]) -> None:
        """A list item: its own text is one block, what it nests is walked after it."""
        texts = [b["c"] for b in blocks if isinstance(b, dict) and b.get("t") in ("Para", "Plain")]
        joined: list[Any] = []
        for inlines in texts:
            joined += [*inlines, {"t": "Space"}]
        if joined:
            self.add("item", joined)
        self.walk(
            [b for b in blocks if not (isinstance(b, dict) and b.get("t") in ("Para", "Plain"))]
        )

    def table(self, c: list[Any]) -> None:
        caption = c[1][1]
        self.walk(caption)
        for row in table_rows(c):
            cells: list[Any] = []
            for cell in row[1]:
                cells += [{"t": "Str", "c": "|"}, {"t": "Space"}]
                for inner in cell[4]:
                    if isinstance(inner, dict) and inner.get("t") in ("Para", "Plain"):
                        cells += [*inner["c"], {"t": "Space"}]
            self.add("row", cells)

    def figure(self, c: list[Any]) -> None:
        images: list[Any] = []

        def collect(value: Any) -> None:
            if isinstance(value, list):
                for item in value:
                    collect(item)
            elif isinstance(value, dict):
                if value.get("t") == "Image":
                    images.append(value)
                elif isinstance(value.get("c"), list):
                    collect(value["c"])

        collect(c[2])
        caption = [x for b in c[1][1] if isinstance(b, dict) for x in (b.get("c") or [])]
        self.add("figure", [*images, {"t": "Space"}, *caption])


def shown(kind: str, level: int, inlines: Any, text: str | None) -> dict[str, Any]:
    """The pandoc block a review page shows for a flattened block (footnotes apart)."""
    if text is not None:
        return {"t": "CodeBlock", "c": [["", [], []], text]}
    kept = [x for x in inlines if not (isinstance(x, dict) and x.get("t") == "Note")]
    if kind == "heading":
        return {"t": "Header", "c": [level, ["", [], []], kept]}
    return {"t": "Para", "c": kept}


def needle_of(kind: str, plain: str) -> str:
    """What :func:`place` looks for: a code block's first line, else the first words."""
    if kind in ("code", "raw"):
        return next((line.strip() for line in plain.splitlines() if line.strip()), "")
    return plain.strip()


def flatten(blocks: list[Any]) -> list[Block]:
    """A chapter's blocks in reading order (headings, paragraphs, items, rows, code...)."""
    walker = Flattener()
    walker.walk(blocks)
    return walker.blocks


WORD = re.compile(r"\w+")


def place(blocks: list[Block], text: str) -> None:
    """Set each block's line in ``text`` (the chapter's source), in order.

    pandoc's Markdown reader keeps no positions, so each block's first words are
    looked for after the previous block's place, with any markup between them.  A
    block not found takes the previous block's line; a heading, the next one's (a
    file's top heading may carry the table of contents' title, not its own words).
    """
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    cursor, line = 0, 1
    waiting: list[Block] = []
    for block in blocks:
        at = find_words(block.needle, text, cursor) if block.needle else None
        if at is None:
            block.line = line
            if block.kind == "heading":
                waiting.append(block)
            continue
        line, cursor = bisect_line(starts, at[0]), at[1]
        block.line = line
        for heading in waiting:
            heading.line = line
        waiting = []


# Where a block's words are looked for, relative to the previous block's place: the
# nearest of four words close ahead (from any of the block's first words: markup or a
# link may split the first ones) and a little behind (pandoc may put a listing's caption
# before its code, and one block placed too far must not drag the rest), then two
# words, then one long word, close ahead.  Never far ahead: one wrong jump would
# misplace every block after it.
AHEAD = 20000
BEHIND = 4000
NEAR = 3000
STARTS = 8


def find_words(needle: str, text: str, cursor: int) -> tuple[int, int] | None:
    """Where ``needle``'s words appear in ``text`` near ``cursor``; the second number is
    where the next block's search starts."""
    literal = needle[:40].strip()
    at = text.find(literal, cursor, cursor + NEAR) if len(literal) >= 6 else -1
    if at >= 0:  # written as it reads (a code line, plain prose): no guessing
        return at, at + 1
    words = WORD.findall(needle)
    if not words:
        at = text.find(needle[:20], cursor, cursor + 4000) if needle.strip() else -1
        return (at, at + 1) if at >= 0 else None
    if len(words) >= 4:
        # The nearest place: ahead, any of the first four-word runs; behind, the first run.
        first = search(words[:4], text, cursor, cursor + AHEAD)
        if first and first.start() - cursor <= NEAR:  # its own first words, close by
            ahead = [first.start()]
        else:
            ahead = [
                found.start()
                for i in range(min(STARTS, len(words) - 3))
                if (found := search(words[i : i + 4], text, cursor, cursor + AHEAD))
            ]
        behind = [
            found.start()
            for found in pattern_of(words[:4]).finditer(text, max(0, cursor - BEHIND), cursor)
        ]
        if ahead and (not behind or min(ahead) - cursor <= cursor - behind[-1]):
            return min(ahead), min(ahead) + 1
        if behind:
            return behind[-1], cursor
    tries: list[tuple[list[str], int]] = [(words[:2], 6000)] if len(words) >= 2 else []
    tries += [(words[:1], 1500)] if len(words[0]) >= 3 or len(words) == 1 else []
    for group, reach in tries:
        found = search(group, text, cursor, cursor + reach)
        if found:
            return found.start(), found.start() + 1
    return None


def pattern_of(words: list[str]) -> re.Pattern[str]:
    return re.compile(r"[\W_]{0,40}?".join(re.escape(word) for word in words))


def search(words: list[str], text: str, start: int, end: int) -> re.Match[str] | None:
    """The first place ``words`` appear in order in ``text[start:end]``, markup between."""
    return pattern_of(words).search(text, start, end)


def bisect_line(starts: list[int], offset: int) -> int:
    import bisect

    return bisect.bisect_right(starts, offset)
