"""Section numbers (``3.1``, ``3.1.2``) and section/chapter targets for ``@sec:id``.

Numbers are stored on the heading (``data-number``) for writers to print, and
registered so a reference prints ``3장`` or ``3.1절``.  Unnumbered headings
(``{-}``) can still be referenced: the reference prints their title.
"""

from __future__ import annotations

from ..model import Doc
from ..parse.ast import stringify
from .context import Context, Target


def number_sections(doc: Doc, ctx: Context) -> Doc:
    chapter = doc.chapter
    words = ctx.book.config.words
    numbered = ctx.book.config.numbersections
    counters = [0] * 7
    for block in doc.blocks:
        if block["t"] != "Header":
            continue
        level, attrs, inlines = block["c"]
        ident, classes, keyvals = attrs
        title = stringify(inlines)
        if level == 1:
            label = str(chapter.number) if chapter.number is not None else ""
            text = words.label("chapter", label) if label else title
        elif (
            numbered
            and chapter.number is not None
            and "unnumbered" not in classes
            and "-" not in classes
        ):
            counters[level] += 1
            for deeper in range(level + 1, 7):
                counters[deeper] = 0
            parts = [str(chapter.number)] + [str(counters[i]) for i in range(2, level + 1)]
            label = ".".join(p if p != "0" else "1" for p in parts)
            keyvals[:] = [kv for kv in keyvals if kv[0] != "number"] + [["number", label]]
            text = words.label("section", label)
        else:
            label, text = "", title
        if ident:
            ctx.targets[ident] = Target("sec", ident, chapter.id, label or title, text)
    return doc
