"""Identifiers unique across the whole book.

Each chapter is parsed alone, so pandoc's automatic ids repeat between chapters
(two chapters with a "요약" section).  The PDF is one document, so the second
one is renamed (``요약-2``) and that chapter's own ``#요약`` links follow it.
"""

from __future__ import annotations

from typing import Any

from ..model import Doc
from ..parse.ast import iter_nodes
from .context import Context

HAS_ATTR = {
    "Header": 1,
    "Div": 0,
    "Span": 0,
    "Figure": 0,
    "Table": 0,
    "CodeBlock": 0,
    "Code": 0,
    "Image": 0,
    "Link": 0,
}


def node_attr(node: dict[str, Any]) -> list[Any] | None:
    index = HAS_ATTR.get(node["t"])
    if index is None:
        return None
    attr = node["c"][index]
    return attr if isinstance(attr, list) and len(attr) == 3 else None


def unique_ids(doc: Doc, ctx: Context) -> Doc:
    seen = ctx.seen_ids
    renamed: dict[str, str] = {}
    for node in iter_nodes(doc.blocks):
        attrs = node_attr(node)
        if not attrs or not attrs[0]:
            continue
        ident = attrs[0]
        if ident in seen:
            n = 2
            while f"{ident}-{n}" in seen:
                n += 1
            renamed.setdefault(ident, f"{ident}-{n}")
            attrs[0] = f"{ident}-{n}"
        seen.add(attrs[0])
    if renamed:
        for node in iter_nodes(doc.blocks):
            if node["t"] == "Link":
                url = node["c"][2][0]
                if url.startswith("#") and url[1:] in renamed:
                    node["c"][2][0] = "#" + renamed[url[1:]]
    return doc
