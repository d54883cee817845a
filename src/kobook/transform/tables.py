"""Tables: number captioned tables (``표 2.1.``) and register ``#tbl:`` ids."""

from __future__ import annotations

from ..model import Doc
from ..parse.ast import iter_nodes
from .context import Context
from .figures import number_caption


def number_tables(doc: Doc, ctx: Context) -> Doc:
    for node in iter_nodes(doc.blocks):
        if node["t"] != "Table":
            continue
        number_caption("tbl", node["c"][0], node["c"][1], doc, ctx)
    return doc
