"""Headings: shift levels so every chapter starts at level 1, and mark the chapter heading.

A one-file book split at ``##`` has its headings one level too deep; a preface
made of the text under the book's ``#`` title has no heading at all.  After this
pass each chapter begins with exactly one level-1 heading carrying the classes
``chapter`` (and ``unnumbered`` when it has no number) and ``data-number``.
"""

from __future__ import annotations

from ..model import Doc
from ..parse.ast import attr, stringify, text_inlines
from .context import Context


def shift_headings(doc: Doc, ctx: Context) -> Doc:
    chapter = doc.chapter
    blocks = doc.blocks
    if chapter.shift:
        for block in blocks:
            if block["t"] == "Header":
                block["c"][0] = max(1, block["c"][0] - chapter.shift)
    first = blocks[0] if blocks else None
    if not (first and first["t"] == "Header" and first["c"][0] == 1):
        # Preface or untitled text: give it a heading so TOCs and bookmarks show it.
        first = {
            "t": "Header",
            "c": [1, attr(f"{chapter.id}-title", []), text_inlines(chapter.title)],
        }
        blocks.insert(0, first)
    _level, (ident, classes, keyvals), inlines = first["c"]
    classes = [c for c in classes if c != "chapter"] + ["chapter"]
    if chapter.number is None and "unnumbered" not in classes:
        classes.append("unnumbered")
    if chapter.number is not None:
        keyvals = [kv for kv in keyvals if kv[0] != "number"] + [["number", str(chapter.number)]]
    first["c"] = [1, [ident or f"{chapter.id}-title", classes, keyvals], inlines]
    chapter.title = stringify(inlines) or chapter.title
    # Later level-1 headings inside the chapter (rare) become level 2.
    for block in blocks[1:]:
        if block["t"] == "Header" and block["c"][0] == 1:
            block["c"][0] = 2
    return doc
