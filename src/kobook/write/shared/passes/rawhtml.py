"""Raw HTML blocks with text, read into the AST for a writer that drops raw HTML.

pandoc's Typst writer leaves a raw HTML block out, text and all: mdBook books write
``<pre><code>match <em>VALUE</em> {…}</code></pre>`` where Markdown cannot italicize
code, and the block vanished from the PDF.  Here each such block is read by pandoc's
HTML reader (one run for the chapter), so a ``<pre>`` is a code block, a ``<p>`` a
paragraph and a ``<table>`` a table.  What the reader makes of it is held to what the
book's Markdown may do: an image becomes its description (a raw ``<img>`` is LEAK002
for these writers; its file was never checked), and a link that is not to the web or
mail keeps only its text (it would open a file of the reader's machine).
"""

from __future__ import annotations

import json
from typing import Any

from ....parse.ast import iter_nodes, rewrite
from ....parse.pandoc import run_pandoc
from ....transform.leaks.drawable import shown_text
from .base import Blocks

PREFIX = "kobook-raw-html-"
WEB = ("http://", "https://", "mailto:")


def has_text(node: dict[str, Any]) -> bool:
    return (
        node["t"] == "RawBlock"
        and node["c"][0].lower() in ("html", "html5")
        and bool(shown_text(node["c"][1]))
    )


def read_html_blocks(blocks: Blocks) -> Blocks:
    """``blocks`` with each raw HTML block that shows text replaced by what pandoc's HTML
    reader reads of it (in place)."""
    found = [node for node in iter_nodes(blocks) if has_text(node)]
    if not found:
        return blocks
    html = "".join(
        f'<div id="{PREFIX}{index}">\n{node["c"][1]}\n</div>\n' for index, node in enumerate(found)
    )
    read = json.loads(run_pandoc(["-f", "html-raw_html", "-t", "json"], html, what="raw HTML"))
    parts: dict[str, list[Any]] = {}
    for block in read["blocks"]:
        if block["t"] == "Div" and block["c"][0][0].startswith(PREFIX):
            parts[block["c"][0][0]] = reader_safe(block["c"][1])
    replacements = {id(node): parts.get(f"{PREFIX}{i}", []) for i, node in enumerate(found)}

    def action(node: dict[str, Any]) -> Any:
        if id(node) in replacements:
            return replacements[id(node)]
        return None

    return rewrite(blocks, action)


def reader_safe(blocks: Blocks) -> Blocks:
    """Images as their descriptions, links off the web as their text."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] == "Image":
            return reader_safe(node["c"][1]) if node["c"][1] else []
        if node["t"] == "Link" and not node["c"][2][0].lower().startswith(WEB):
            return reader_safe(node["c"][1])
        return None

    return rewrite(blocks, action)
