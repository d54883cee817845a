"""Inline HTML markup as the document's own elements: ``2<sup>7</sup>`` is a superscript.

pandoc reads ``2<sup>7</sup> − 1`` as the text ``2``, a raw ``<sup>``, ``7`` and a raw
``</sup>``.  The HTML book and WeasyPrint draw the raw tags, but pandoc's LaTeX and
Typst writers drop raw HTML and keep the text: the Rust book's ``2⁷ − 1`` printed as
"27 − 1".  Every writer draws pandoc's own ``Superscript``, so a pair of these tags
around inlines of one paragraph becomes the element they mean, for every output:

``sup``, ``sub``, ``b``/``strong``, ``i``/``em``, ``s``/``del``/``strike``,
``u``/``ins``, ``kbd`` (code marked ``kbd``), ``mark`` (a span marked ``mark``),
``<br>`` (a line break) and an empty anchor ``<a id="x"></a>`` (or ``name="x"``): an
empty span with that id, a place every writer can link to (mdBook books keep the
old English ids of translated headings this way).  A tag with attributes, or
without its partner in the same run of inlines, is left as it is (the site's
sanitizer and LEAK002 see it).
"""

from __future__ import annotations

import re
from typing import Any

from ..model import Doc
from ..parse.ast import attr, stringify
from .context import Context

Node = dict[str, Any]
OPEN = re.compile(r"<\s*([a-zA-Z]+)\s*>")
CLOSE = re.compile(r"<\s*/\s*([a-zA-Z]+)\s*>")
BREAK = re.compile(r"<\s*br\s*/?\s*>", re.I)
ANCHOR = re.compile(r"""<\s*a\s+(?:id|name)\s*=\s*(?:"([^"<>]+)"|'([^'<>]+)')\s*/?\s*>""", re.I)
ANCHOR_END = re.compile(r"<\s*/\s*a\s*>", re.I)
ELEMENTS = {
    "sup": "Superscript",
    "sub": "Subscript",
    "b": "Strong",
    "strong": "Strong",
    "i": "Emph",
    "em": "Emph",
    "s": "Strikeout",
    "del": "Strikeout",
    "strike": "Strikeout",
    "u": "Underline",
    "ins": "Underline",
    "kbd": "kbd",
    "mark": "mark",
}


def tag_of(node: Node, pattern: re.Pattern[str]) -> str | None:
    """The element name of a raw inline HTML tag matching ``pattern`` (None otherwise)."""
    if node.get("t") != "RawInline" or node["c"][0] not in ("html", "html5"):
        return None
    found = pattern.fullmatch(node["c"][1].strip())
    if found is None:
        return None
    name = found.group(1).lower()
    return name if name in ELEMENTS else None


def element(name: str, content: list[Node]) -> Node:
    """The pandoc element ``name``'s tag pair stands for, around ``content``."""
    kind = ELEMENTS[name]
    if kind == "kbd":
        return {"t": "Code", "c": [attr("", ["kbd"]), stringify(content)]}
    if kind == "mark":
        return {"t": "Span", "c": [attr("", ["mark"]), content]}
    return {"t": kind, "c": content}


def raw_html(node: Node) -> str | None:
    """The text of a raw inline HTML node (None for any other node)."""
    if node.get("t") != "RawInline" or node["c"][0] not in ("html", "html5"):
        return None
    return str(node["c"][1]).strip()


def anchor_id(inlines: list[Node], index: int) -> str:
    """The id of an empty anchor ``<a id="x"></a>`` starting at ``inlines[index]`` ("" if none)."""
    opening = raw_html(inlines[index]) or ""
    found = ANCHOR.fullmatch(opening)
    if found is None:
        return ""
    if not opening.rstrip(">").rstrip().endswith("/"):
        closing = raw_html(inlines[index + 1]) if index + 1 < len(inlines) else None
        if closing is None or not ANCHOR_END.fullmatch(closing):
            return ""
    return (found.group(1) or found.group(2)).strip()


def paired(inlines: list[Node]) -> list[Node]:
    """``inlines`` with each innermost pair of tags made the element it means."""
    out: list[Node] = []
    opened: list[tuple[str, int]] = []  # (name, index in out)
    skip = False
    for index, node in enumerate(inlines):
        if skip:  # the ``</a>`` of an anchor already made a span
            skip = False
            continue
        ident = anchor_id(inlines, index)
        if ident:
            out.append({"t": "Span", "c": [attr(ident), []]})
            skip = not str(node["c"][1]).rstrip(">").rstrip().endswith("/")
            continue
        if node.get("t") == "RawInline" and BREAK.fullmatch(str(node["c"][1]).strip()):
            out.append({"t": "LineBreak"})
            continue
        name = tag_of(node, OPEN)
        if name is not None:
            opened.append((name, len(out)))
            out.append(node)
            continue
        name = tag_of(node, CLOSE)
        if name is not None and opened and opened[-1][0] == name:
            _, start = opened.pop()
            content = out[start + 1 :]
            del out[start:]
            out.append(element(name, content))
            continue
        if name is not None:
            opened.clear()  # a close tag out of order: what is open stays raw
        out.append(node)
    return out


def markup_in(value: Any) -> Any:
    """``value`` (any part of the AST) with :func:`paired` applied to every list of inlines
    that holds raw HTML, innermost first (the AST's depth is bounded: parse/guard.py)."""
    if isinstance(value, dict):
        if "c" in value and not isinstance(value["c"], str):
            value["c"] = markup_in(value["c"])
        return value
    if isinstance(value, list):
        items = [markup_in(item) for item in value]
        if any(isinstance(i, dict) and i.get("t") == "RawInline" for i in items):
            return paired(items)
        return items
    return value


def html_markup(doc: Doc, ctx: Context) -> Doc:
    """Pairs of inline HTML tags as pandoc's elements, in every list of inlines."""
    doc.blocks = markup_in(doc.blocks)
    return doc
