"""Markdown written inside an attribute (``caption="*Cargo.toml*의 내용"``, ``summary="…"``).

pandoc leaves attribute values as plain strings, but the dialects put captions
and labels there that carry Markdown (the Rust book's listing captions have
``*file*`` and `` `code` ``).  Plain text becomes ``Str``/``Space`` without
running pandoc; text with Markdown marks is parsed by pandoc (the chapter's
reader, so Chinese and Japanese keep their line rules), all of a chapter's
values in one call, cached by content.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..cache import digest
from ..model import Doc
from ..parse import reader_for
from ..parse.ast import text_inlines
from ..parse.pandoc import load_json, markdown_to_ast, pandoc_version
from .context import Context

# Characters that may start Markdown in a short text; without them a value is plain text.
MARKS = re.compile(r"[*_`$\[\]<>\\&~^@]")
SEPARATOR = "\n\n<!--kobook-attr-->\n\n"


def attribute_inlines(texts: list[str], doc: Doc, ctx: Context) -> list[list[dict[str, Any]]]:
    """Each text as inlines, in order; one pandoc run for those that have Markdown."""
    out: list[list[dict[str, Any]]] = [text_inlines(t) for t in texts]
    marked = [i for i, t in enumerate(texts) if MARKS.search(t)]
    if not marked:
        return out
    reader = reader_for(doc.chapter)
    source = SEPARATOR.join(texts[i].replace("\n", " ") for i in marked)
    key = digest("attr-md", pandoc_version(), reader, source)
    cached = ctx.cache.get("ast", key, ".json") if ctx.cache is not None else None
    if cached is not None:
        blocks = load_json(cached, doc.chapter.path)
    else:
        blocks = markdown_to_ast(source, reader=reader, what="parsing a caption")["blocks"]
        if ctx.cache is not None:
            ctx.cache.put("ast", key, json.dumps(blocks).encode("utf-8"), ".json")
    parsed = split_parts(blocks)
    if len(parsed) != len(marked):  # a value pandoc read as several blocks: keep the text
        return out
    for index, inlines in zip(marked, parsed, strict=True):
        out[index] = inlines
    return out


def split_parts(blocks: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The inlines between the separator comments (one paragraph each)."""
    parts: list[list[dict[str, Any]]] = [[]]
    for block in blocks:
        if block["t"] == "RawBlock" and "kobook-attr" in block["c"][1]:
            parts.append([])
        elif block["t"] in ("Para", "Plain"):
            if parts[-1]:
                parts[-1].append({"t": "Space"})
            parts[-1].extend(block["c"])
    return parts
