"""Numbered display equations: ``$$ ... $$ {#eq:adam}`` (the pandoc-crossref syntax).

pandoc reads the ``{#eq:id}`` after display math as plain text; this pass turns
the pair into ``Div#eq:id.equation`` holding the math, with the number in
``data-number`` for writers to print as ``(3.1)`` beside the formula.
"""

from __future__ import annotations

import re
from typing import Any

from ..model import Doc
from ..parse.ast import attr, rewrite
from .context import Context, Target

LABEL = re.compile(r"^\{#(eq:[^\s}]+)\}$")


def split_equations(inlines: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """Cut a paragraph's inlines into ("text", inlines) and ("eq", (id, math)) pieces."""
    pieces: list[tuple[str, Any]] = []
    current: list[dict[str, Any]] = []
    index = 0
    while index < len(inlines):
        node = inlines[index]
        if node["t"] == "Math" and node["c"][0]["t"] == "DisplayMath":
            after = index + 1
            if after < len(inlines) and inlines[after]["t"] in ("Space", "SoftBreak"):
                after += 1
            label = None
            if after < len(inlines) and inlines[after]["t"] == "Str":
                label = LABEL.match(inlines[after]["c"])
            if label:
                while current and current[-1]["t"] in ("Space", "SoftBreak"):
                    current.pop()
                if current:
                    pieces.append(("text", current))
                pieces.append(("eq", (label.group(1), node)))
                current = []
                index = after + 1
                while index < len(inlines) and inlines[index]["t"] in ("Space", "SoftBreak"):
                    index += 1
                continue
        current.append(node)
        index += 1
    if current:
        pieces.append(("text", current))
    return pieces


def number_equations(doc: Doc, ctx: Context) -> Doc:
    words = ctx.book.config.words

    def action(node: dict[str, Any]) -> Any:
        if node["t"] not in ("Para", "Plain"):
            return None
        if not any(n["t"] == "Math" for n in node["c"]):
            return None
        pieces = split_equations(node["c"])
        if not any(kind == "eq" for kind, _ in pieces):
            return None
        out = []
        for kind, value in pieces:
            if kind == "text":
                out.append({"t": node["t"], "c": value})
                continue
            ident, math = value
            number = ctx.next_number(doc.chapter, "eq")
            ctx.targets[ident] = Target(
                "eq", ident, doc.chapter.id, number, words.label("equation", number)
            )
            out.append(
                {
                    "t": "Div",
                    "c": [
                        attr(ident, ["equation"], [["number", number]]),
                        [{"t": "Para", "c": [math]}],
                    ],
                }
            )
        return out

    doc.blocks = rewrite(doc.blocks, action)
    return doc
