"""Numbers the transforms assigned, put where a reader sees them: ``3장``, ``2.1``, ``(3.1)``."""

from __future__ import annotations

from typing import Any

from ....model import Config
from ....parse.ast import Action, acts_on, attr, keyval, rewrite
from .base import Blocks


def heading_numbers(blocks: Blocks, config: Config, *, keep_attribute: bool = True) -> Blocks:
    """Put the numbers the transforms assigned into the heading text (``3장``, ``3.1``).

    ``keep_attribute=False`` drops the ``number`` attribute once it is in the text: pandoc's
    EPUB writer would print it again in the table of contents (``1 1장 …``)."""
    return rewrite(blocks, heading_number(config, keep_attribute=keep_attribute))


def heading_number(config: Config, *, keep_attribute: bool = True) -> Action:
    """:func:`heading_numbers` as one action (for :func:`~kobook.parse.ast.rewrite_chain`)."""
    words = config.words

    @acts_on("Header")
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

    return action


def equation_numbers(blocks: Blocks) -> Blocks:
    """``Div.equation`` gets its ``(3.1)`` beside the formula."""
    return rewrite(blocks, equation_number)


@acts_on("Div")
def equation_number(node: dict[str, Any]) -> Any:
    """:func:`equation_numbers` as one action: a numbered equation's new ``Div``, or None."""
    if node["t"] != "Div" or "equation" not in node["c"][0][1]:
        return None
    number = keyval(node["c"][0], "number") or ""
    tag = {"t": "Span", "c": [attr("", ["eqno"]), [{"t": "Str", "c": f"({number})"}]]}
    inner = node["c"][1]
    if inner and inner[0]["t"] == "Para":
        inner = [{"t": "Para", "c": [*inner[0]["c"], tag]}, *inner[1:]]
    return {"t": "Div", "c": [node["c"][0], inner]}
