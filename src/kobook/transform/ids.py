"""Identifiers unique across the whole book.

Each chapter is parsed alone, so pandoc's automatic ids repeat between chapters
(two chapters with a "요약" section).  The PDF is one document, so the second
one is renamed (``요약-2``) and that chapter's own ``#요약`` links follow it.

Each chapter's ids are also recorded as its authors wrote them
(``Context.anchors``): a link from another file, ``ch05.md#요약``, means
*that* chapter's ``요약``, and a heading is also known by the id the
repository's own tool gives it (mdBook and GitHub keep punctuation-free words
with ``-`` for spaces, Python-Markdown keeps ASCII only), so a link written
for mdBook or MkDocs lands on its section.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ..model import Doc
from ..parse.ast import iter_nodes, stringify
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


def tool_slugs(text: str) -> list[str]:
    """The ids other tools give a heading titled ``text``: mdBook's and GitHub's (letters,
    digits, ``_`` and ``-`` kept, spaces as ``-``, lower case) and Python-Markdown's
    (MkDocs: the same in ASCII, runs of spaces and ``-`` as one ``-``)."""
    lowered = text.strip().lower()
    github = "".join(c if c.isalnum() or c in "_-" else "-" if c.isspace() else "" for c in lowered)
    ascii_only = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    python_markdown = re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", ascii_only).strip().lower())
    return [slug for slug in (github, python_markdown) if slug]


RAW_ID = re.compile(r"""\bid\s*=\s*(?:"([^"<>]+)"|'([^'<>]+)')""", re.I)


def raw_ids(node: dict[str, Any]) -> list[str]:
    """The ids raw HTML gives its elements (``<div id="x">``): places links may name."""
    if node["t"] not in ("RawBlock", "RawInline") or node["c"][0] not in ("html", "html5"):
        return []
    return [m.group(1) or m.group(2) for m in RAW_ID.finditer(node["c"][1])]


def unique_ids(doc: Doc, ctx: Context) -> Doc:
    seen = ctx.seen_ids
    renamed: dict[str, str] = {}
    written = ctx.anchors.setdefault(doc.chapter.id, {})
    aliases: dict[str, str] = {}
    for node in iter_nodes(doc.blocks):
        for ident in raw_ids(node):
            written.setdefault(ident, ident)
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
        written.setdefault(ident, attrs[0])
        if node["t"] == "Header":
            for slug in tool_slugs(stringify(node["c"][2])):
                aliases.setdefault(slug, attrs[0])
    for slug, ident in aliases.items():
        written.setdefault(slug, ident)
    if renamed:
        for node in iter_nodes(doc.blocks):
            if node["t"] == "Link":
                url = node["c"][2][0]
                if url.startswith("#") and url[1:] in renamed:
                    node["c"][2][0] = "#" + renamed[url[1:]]
    return doc
