"""Tables: number captioned tables (``표 2.1.``) and register ``#tbl:`` ids."""

from __future__ import annotations

from ..parse import Doc
from ..parse.ast import iter_nodes, stringify
from .context import Context, Target
from .figures import caption_label


def number_tables(doc: Doc, ctx: Context) -> Doc:
    word = ctx.book.config.captions["table"]
    for node in iter_nodes(doc.blocks):
        if node["t"] != "Table":
            continue
        attrs, caption = node["c"][0], node["c"][1]
        blocks = caption[1]
        ident = attrs[0]
        if not stringify(blocks).strip() and not ident.startswith("tbl:"):
            continue
        number = ctx.next_number(doc.chapter, "tbl")
        if blocks and blocks[0]["t"] in ("Plain", "Para"):
            blocks[0]["c"] = [caption_label(word, number), {"t": "Space"}, *blocks[0]["c"]]
        else:
            caption[1] = [{"t": "Plain", "c": [caption_label(word, number)]}]
        attrs[2] = [kv for kv in attrs[2] if kv[0] != "number"] + [["number", number]]
        if ident:
            ctx.targets[ident] = Target("tbl", ident, doc.chapter.id, number, f"{word} {number}")
    return doc
