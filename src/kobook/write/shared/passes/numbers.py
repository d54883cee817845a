"""Numbers the transforms assigned, put where a reader sees them: ``3장``, ``2.1``, ``(3.1)``."""

from __future__ import annotations

from typing import Any

from ....model import Config
from ....parse.ast import attr, keyval, rewrite
from .base import Blocks


def heading_numbers(blocks: Blocks, config: Config, *, keep_attribute: bool = True) -> Blocks:
    """Put the numbers the transforms assigned into the heading text (``3장``, ``3.1``).

    ``keep_attribute=False`` drops the ``number`` attribute once it is in the text: pandoc's
    EPUB writer would print it again in the table of contents (``1 1장 …``)."""
    words = config.words

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Header":
            return None
        level, attrs, inlines = node["c"]
        number = keyval(attrs, "number")
        if not number:
            return None
        if level == 1:
            label = {
                "t": "Span",
                "c": [
                    attr("", ["chapter-number"]),
                    [{"t": "Str", "c": words.label("chapter", number)}],
                ],
            }
        else:
            label = {"t": "Span", "c": [attr("", ["section-number"]), [{"t": "Str", "c": number}]]}
        if not keep_attribute:
            attrs = [attrs[0], attrs[1], [kv for kv in attrs[2] if kv[0] != "number"]]
        return {"t": "Header", "c": [level, attrs, [label, {"t": "Space"}, *inlines]]}

    return rewrite(blocks, action)


def equation_numbers(blocks: Blocks) -> Blocks:
    """``Div.equation`` gets its ``(3.1)`` beside the formula."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "equation" not in node["c"][0][1]:
            return None
        number = keyval(node["c"][0], "number") or ""
        tag = {"t": "Span", "c": [attr("", ["eqno"]), [{"t": "Str", "c": f"({number})"}]]}
        inner = node["c"][1]
        if inner and inner[0]["t"] == "Para":
            inner = [{"t": "Para", "c": [*inner[0]["c"], tag]}, *inner[1:]]
        return {"t": "Div", "c": [node["c"][0], inner]}

    return rewrite(blocks, action)
