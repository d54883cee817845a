"""Leaks in the transformed AST: what a reader would see of each block (code and math
never searched), scanned for the patterns."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...parse.ast import table_rows
from .patterns import (
    CHUNK_HEADER,
    CODE_MARK,
    MATH_MARK,
    MDBOOK_LINE,
    START_TAG,
    TAB_LINE,
    Found,
    Node,
    scan,
    strip_comments,
)


def flatten(inlines: list[Node], notes: list[list[Node]], alt: bool = True) -> str:
    """What a reader sees of ``inlines`` (see the module docstring); notes are set aside."""
    parts: list[str] = []

    def go(items: list[Node]) -> None:
        for node in items:
            t = node["t"]
            c: Any = node.get("c")
            if t == "Str":
                parts.append(c)
            elif t in ("Space", "SoftBreak", "LineBreak"):
                parts.append(" ")
            elif t == "Code":
                # ```{r} … ``` read as inline code by pandoc: the header, then the code.
                chunk = CHUNK_HEADER.match(c[1])
                cell = chunk and c[1][chunk.end() :].strip()
                parts.append(f"```{{{chunk.group(1)}" if chunk and cell else CODE_MARK)
            elif t == "Math":
                parts.append(MATH_MARK)
            elif t == "RawInline":
                if c[0] == "html":
                    parts.append(strip_comments(c[1]))
            elif t == "Quoted":
                mark = '"' if c[0]["t"] == "DoubleQuote" else "'"
                parts.append(mark)
                go(c[1])
                parts.append(mark)
            elif t in ("Link", "Image"):
                if t == "Link" or alt:
                    go(c[1])
                parts.append(f"({c[2][0]})")
            elif t == "Span":
                if any(k == "markdown" for k, _ in c[0][2]):
                    parts.append('<span markdown="1">')
                go(c[1])
            elif t == "Cite":
                go(c[1])
            elif t == "Note":
                notes.append(c)
                parts.append(" ")
            elif isinstance(c, list):  # Emph, Strong, Underline, Superscript…
                go(c)

    go(inlines)
    return "".join(parts)


def block_texts(blocks: list[Node], alt: bool = True) -> Iterator[tuple[str, str | Node]]:
    """``("text", flattened)`` per block, ``("code", text)`` per code block, ``("tag", node)``
    per raw HTML block, in document order (a footnote right after its paragraph)."""
    for node in blocks:
        t = node["t"]
        c: Any = node.get("c")
        notes: list[list[Node]] = []
        if t in ("Para", "Plain"):
            yield "text", flatten(c, notes, alt)
        elif t == "Header":
            yield "text", flatten(c[2], notes)
        elif t == "LineBlock":
            yield "text", " ".join(flatten(line, notes) for line in c)
        elif t == "RawBlock":
            if c[0] == "html":
                yield "text", strip_comments(c[1])
                yield "tag", node
        elif t == "CodeBlock":
            yield "code", c[1]
        elif t == "BlockQuote":
            yield from block_texts(c)
        elif t == "OrderedList":
            for item in c[1]:
                yield from block_texts(item)
        elif t == "BulletList":
            for item in c:
                yield from block_texts(item)
        elif t == "DefinitionList":
            for term, definitions in c:
                yield "text", flatten(term, notes)
                for definition in definitions:
                    yield from block_texts(definition)
        elif t == "Div":
            if any(k == "markdown" for k, _ in c[0][2]):
                yield "text", '<div markdown="1">'
            yield from block_texts(c[1])
        elif t == "Figure":
            yield from block_texts(c[1][1])
            # The image's alt text repeats the caption: read it once.
            yield from block_texts(c[2], alt=False)
        elif t == "Table":
            yield from block_texts(c[1][1])
            for row in table_rows(c):
                for cell in row[1]:
                    yield from block_texts(cell[4])
        for note in notes:
            yield from block_texts(note)


def find_leaks(blocks: list[Node]) -> list[Found]:
    """Every leaked construct in ``blocks``, in document order (no positions yet).

    Also returns ``raw-tag`` entries, one per raw HTML block start tag: pandoc
    strips ``markdown="1"`` from those, so only the source can tell whether
    the tag carried it (see :class:`Locator`).
    """
    out: list[Found] = []
    for kind, value in block_texts(blocks):
        if kind == "text":
            assert isinstance(value, str)
            out += list(scan(value))
        elif kind == "code":
            assert isinstance(value, str)
            tab = TAB_LINE.match(value)
            if tab:
                out.append(Found("d2l-tab", tab.group("name").strip(), tab.group(0)))
            for match in MDBOOK_LINE.finditer(value):
                out.append(Found("mdbook", match.group("n_mdbook"), match.group(0)))
        else:
            assert isinstance(value, dict)
            tag = START_TAG.fullmatch(value["c"][1].strip())
            if tag:
                out.append(Found("raw-tag", tag.group("name").lower(), tag.group(0)))
    return out
