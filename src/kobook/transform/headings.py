"""Headings: shift levels so every chapter starts at level 1, and mark the chapter heading.

A one-file book split at ``##`` has its headings one level too deep; a preface
made of the text under the book's ``#`` title has no heading at all.  After this
pass each chapter begins with exactly one level-1 heading carrying the classes
``chapter`` (and ``unnumbered`` when it has no number) and ``data-number``.
"""

from __future__ import annotations

from ..model import Doc
from ..parse.ast import attr, iter_nodes, stringify, text_inlines
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


def close_level_gaps(doc: Doc, ctx: Context) -> Doc:
    """A heading more than one level below the one before it (``####`` under the chapter's
    ``#``) moves up to the next level: screen readers and the EPUB's outline walk headings
    as a tree, and a skipped level reads as a missing section (WCAG 1.3.1, axe and Ace's
    ``heading-order``).  The moved heading is unnumbered, since its number would have
    held a 0, and it keeps the chapter's later numbers where the original has them;
    HEAD001 says where, so the author can write the level the text means."""
    last = 1
    for node in iter_nodes(doc.blocks):
        if node["t"] != "Header":
            continue
        level, (_ident, classes, _kv), inlines = node["c"]
        if level > last + 1:
            node["c"][0] = last + 1
            if "unnumbered" not in classes:
                classes.append("unnumbered")
            title = stringify(inlines)
            written = "#" * (level + doc.chapter.shift) + " " + title
            ctx.problem(
                doc.chapter,
                "HEAD001",
                f"heading level {level} follows level {last}: '{title}' is set at level {last + 1}",
                needle=written if doc.chapter.locate(written) else title,
                hint=f"write it with {'#' * (last + 1 + doc.chapter.shift)} (a heading may go "
                "one level deeper at a time)",
                fatal=False,
            )
        last = node["c"][0]
    return doc
