"""A page break as the document's own element.

``\\newpage`` (or ``\\clearpage``, ``\\pagebreak``, ``\\cleardoublepage``) on a line of
its own is raw LaTeX to pandoc: XeLaTeX broke the page there, WeasyPrint and Typst
left it out (a TEX005 note), and so did the site and the EPUB.  The same for a raw
``<div style="page-break-after: always"></div>`` (an empty Div with that style to
pandoc), which only WeasyPrint read.  Either becomes an empty Div marked
``page-break``: every PDF engine breaks the page there (``write/…``), and the site
and the EPUB, which have no pages, show nothing.
"""

from __future__ import annotations

import re
from typing import Any

from ..model import Doc
from ..parse.ast import rewrite
from ..source.pagebreaks import PAGE_BREAK
from .context import Context

BREAK_STYLE = re.compile(r"\s*(?:page-)?break-(?:before|after)\s*:\s*(?:always|page)\s*;?\s*", re.I)


def page_break(command: str = "newpage") -> dict[str, Any]:
    """The element: an empty Div marked ``page-break`` that keeps the command it was."""
    return {"t": "Div", "c": [["", ["page-break"], [["command", command]]], []]}


def page_breaks(doc: Doc, ctx: Context) -> Doc:
    """Raw page breaks of a chapter as :func:`page_break` elements."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] == "RawBlock" and str(node["c"][0]).lower() in ("latex", "tex"):
            match = PAGE_BREAK.fullmatch(node["c"][1])
            return page_break(match.group("command")) if match else None
        if node["t"] == "Div" and not node["c"][1]:  # pandoc's reading of the <div>
            style = dict(node["c"][0][2]).get("style", "")
            return page_break() if BREAK_STYLE.fullmatch(style) else None
        return None

    doc.blocks = rewrite(doc.blocks, action)
    return doc


def is_page_break(node: dict[str, Any]) -> bool:
    return node.get("t") == "Div" and "page-break" in node["c"][0][1]
