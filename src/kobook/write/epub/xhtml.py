"""The book's raw HTML as the XHTML an EPUB holds.

A browser reads ``첫 줄<br>둘째 줄`` and ``<img src="a.png" width="50%" align="right">``;
an EPUB reading system parses XML, and EPUBCheck stops at the first unclosed ``<br>``
(RSC-016, fatal).  pandoc copies raw HTML as written, so each tag of it is rewritten
here, one tag at a time (a raw piece may hold half an element): void elements closed,
attribute values quoted, a bare attribute given its name as value, entities XML does
not know written as characters, and the presentational attributes HTML5 dropped turned
into CSS (``align``, ``valign``, ``bgcolor``, a width or height that is not a number of
pixels, ``nowrap``) or, where there is none (``cellpadding``, ``cellspacing``), left out
with an EPUB004 note.
"""

from __future__ import annotations

import html
import re
from typing import Any

from ...errors import Diagnostic, Location
from ...model import Doc
from ...parse.ast import iter_nodes

VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
TAG = re.compile(
    r"<(/?)([A-Za-z][\w:-]*)((?:\s+[^\s=>/\"']+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*(/?)>"
)
ATTRIBUTE = re.compile(r"([^\s=>/\"']+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
XML_ENTITIES = frozenset({"lt", "gt", "amp", "quot", "apos"})
# HTML attributes with no place in EPUB 3's XHTML and no CSS to say them with.
DROPPED = frozenset({"cellpadding", "cellspacing", "hspace", "vspace", "clear", "frame", "rules"})
PIXELS = re.compile(r"\d+")


def xhtml_raw(blocks: list[Any], doc: Doc, problems: list[Diagnostic]) -> list[Any]:
    """Every raw HTML piece of a chapter as XHTML (see the module); EPUB004 once per
    attribute left out."""
    dropped: set[str] = set()
    for node in iter_nodes(blocks):
        if node["t"] in ("RawBlock", "RawInline") and node["c"][0] == "html":
            node["c"][1] = xhtml(node["c"][1], dropped)
    for name in sorted(dropped):
        problems.append(
            Diagnostic(
                "EPUB004",
                f"raw HTML attribute '{name}' has no EPUB equivalent: left out of the EPUB",
                doc.chapter.locate(name) or Location(doc.chapter.path),
                "style the element with CSS (class or style), or leave the attribute out",
                "info",
            )
        )
    return blocks


def xhtml(markup: str, dropped: set[str]) -> str:
    """``markup`` with each tag rewritten as XHTML; the attributes left out go to
    ``dropped``.  Comments are kept as they are."""
    pieces = re.split(r"(<!--.*?-->)", markup, flags=re.S)
    return "".join(
        piece if piece.startswith("<!--") else characters(TAG.sub(lambda m: tag(m, dropped), piece))
        for piece in pieces
    )


def characters(text: str) -> str:
    """Named entities XML does not know (``&nbsp;``, ``&mdash;``) as the characters."""

    def one(match: re.Match[str]) -> str:
        if match.group(1) in XML_ENTITIES:
            return match.group(0)
        value = html.unescape(match.group(0))
        return match.group(0) if value == match.group(0) else html.escape(value, quote=False)

    return ENTITY.sub(one, text)


def tag(match: re.Match[str], dropped: set[str]) -> str:
    closing, name, attributes, _slash = match.groups()
    lower = name.lower()
    if closing:
        return "" if lower in VOID else f"</{name}>"
    pairs: list[tuple[str, str]] = []
    styles: list[str] = []
    for attribute in ATTRIBUTE.finditer(attributes):
        key = attribute.group(1)
        raw = attribute.group(2)
        value = html.unescape(raw[1:-1] if raw and raw[0] in "\"'" else raw or key)
        css = style_of(lower, key.lower(), value)
        if css is not None:
            styles.append(css)
        elif key.lower() in DROPPED:
            dropped.add(key.lower())
        else:
            pairs.append((key, value))
    if styles:
        given = next((i for i, (key, _) in enumerate(pairs) if key.lower() == "style"), None)
        if given is None:
            pairs.append(("style", "; ".join(styles)))
        else:
            key, value = pairs[given]
            pairs[given] = (key, "; ".join([value.rstrip("; "), *styles]))
    text = "".join(f' {key}="{html.escape(value)}"' for key, value in pairs)
    return f"<{name}{text} />" if lower in VOID else f"<{name}{text}>"


def style_of(element: str, key: str, value: str) -> str | None:
    """The CSS for a presentational attribute HTML5 dropped; None: not one of them."""
    value = value.strip()
    if key == "align":
        if element in ("img", "table", "iframe", "object", "embed"):
            if value.lower() in ("left", "right"):
                return f"float: {value.lower()}"
            if value.lower() == "center":
                return "display: block; margin-left: auto; margin-right: auto"
            return f"vertical-align: {value.lower()}"
        return f"text-align: {value.lower()}"
    if key == "valign":
        return f"vertical-align: {value.lower()}"
    if key == "bgcolor":
        return f"background-color: {value}"
    if key == "nowrap":
        return "white-space: nowrap"
    if key in ("width", "height") and not PIXELS.fullmatch(value):
        return f"{key}: {value}"
    if key == "border" and value not in ("", "0", "1") and PIXELS.fullmatch(value):
        return f"border: {value}px solid"  # HTML5 takes border="1" on a table, no more
    return None
