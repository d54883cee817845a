"""Listings: code blocks with ``listing="1-1"``, ``caption="…"`` or ``filename="…"``.

The mdBook dialect turns the Rust book's ``<Listing number="1-1"
file-name="src/main.rs" caption="…">`` into these attributes.  A listing becomes
one shape every writer draws::

    Div.listing#lst:id [number=1-1]
      Div.listing-caption   예제 1-1. caption      (only with a number)
      Div.listing-file      파일명: src/main.rs    (only with a file name)
      CodeBlock

The number is the one the source prints (``listing="1-1"``), else the next one
of the chapter (``3.2``, like figures); the label comes from the language table
(``예제``, ``Listing``, ``代码``).  The id moves from the code block to the
``Div`` and is a target for ``@lst:id``.  A code block with only ``filename``
shows the file name above it and takes no number.
"""

from __future__ import annotations

from typing import Any

from ..model import Doc
from ..parse.ast import attr, iter_nodes, keyval, rewrite
from .attr_text import attribute_inlines
from .context import Context, Target
from .figures import caption_label

LISTING_KEYS = ("listing", "caption", "filename")


def is_listing(node: dict[str, Any]) -> bool:
    """A code block with a listing attribute or an ``lst:`` id."""
    if node["t"] != "CodeBlock":
        return False
    attrs = node["c"][0]
    return attrs[0].startswith("lst:") or any(keyval(attrs, k) is not None for k in LISTING_KEYS)


def number_listings(doc: Doc, ctx: Context) -> Doc:
    """Wrap each listing code block in ``Div.listing`` with its caption and file name."""
    blocks = [n for n in iter_nodes(doc.blocks) if is_listing(n)]
    if not blocks:
        return doc
    captions = attribute_inlines([keyval(n["c"][0], "caption") or "" for n in blocks], doc, ctx)
    made = {id(node): (node, inlines) for node, inlines in zip(blocks, captions, strict=True)}

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "CodeBlock" or id(node) not in made:
            return None
        return listing(node, made[id(node)][1], doc, ctx)

    doc.blocks = rewrite(doc.blocks, action)
    return doc


def listing(
    code: dict[str, Any], caption: list[dict[str, Any]], doc: Doc, ctx: Context
) -> dict[str, Any]:
    """One listing ``Div`` (see the module docstring)."""
    words = ctx.book.config.words
    ident, classes, keyvals = code["c"][0]
    given = (keyval(code["c"][0], "listing") or "").strip()
    filename = (keyval(code["c"][0], "filename") or "").strip()
    code["c"][0] = attr("", classes, [kv for kv in keyvals if kv[0] not in LISTING_KEYS])
    numbered = bool(given or caption or ident.startswith("lst:"))
    children: list[dict[str, Any]] = []
    div_keyvals: list[list[str]] = []
    if numbered:
        number = given or ctx.next_number(doc.chapter, "lst")
        div_keyvals.append(["number", number])
        text = words.caption("listing", number) if caption else words.label("listing", number)
        inlines = [caption_label(text), *([{"t": "Space"}, *caption] if caption else [])]
        children.append(
            {"t": "Div", "c": [attr("", ["listing-caption"]), [{"t": "Plain", "c": inlines}]]}
        )
        if ident:
            ctx.targets[ident] = Target(
                "lst", ident, doc.chapter.id, number, words.label("listing", number)
            )
    if filename:
        label = {
            "t": "Span",
            "c": [attr("", ["listing-file-label"]), [{"t": "Str", "c": words.word("filename")}]],
        }
        wide = ctx.book.config.language in ("zh-Hans", "zh-Hant", "ja")
        colon = [{"t": "Str", "c": "："}] if wide else [{"t": "Str", "c": ":"}, {"t": "Space"}]
        line = [label, *colon, {"t": "Code", "c": [attr(), filename]}]
        children.append(
            {"t": "Div", "c": [attr("", ["listing-file"]), [{"t": "Plain", "c": line}]]}
        )
    div_classes = ["listing"] if numbered else ["listing", "listing-unnumbered"]
    return {
        "t": "Div",
        "c": [attr(ident, div_classes, div_keyvals), [*children, code]],
    }
