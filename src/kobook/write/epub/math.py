"""Formulas pandoc cannot write as MathML, drawn as SVG in the EPUB (as on the site).

pandoc's MathML comes from texmath; what texmath cannot read, pandoc leaves as
``$TeX$`` text in the page.  The site finds those in pandoc's HTML and draws
them (``write/html/writer.py``); the EPUB is written in one pandoc run, so its
formulas are first tried in a run of their own (one paragraph each, one pandoc
call for the book), and each one that fails becomes an image of its SVG
drawing, its TeX the alt text.  pandoc puts the drawing in the container like
any other image.  A formula ziamath cannot draw either is MATH001 and its TeX
in code style: said, not shown as if it were text.
"""

from __future__ import annotations

import re
from typing import Any

from ...cache import Cache
from ...errors import Diagnostic
from ...model import Doc
from ...parse.ast import iter_nodes, rewrite
from ..shared.common import blocks_to_html
from ..shared.mathsvg import Formula, MathError, formula, render_math, undrawn

PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.S)


def mathml_failures(chapters: list[list[Any]], cache: Cache | None = None) -> set[Formula]:
    """The formulas of ``chapters`` (their blocks) that pandoc cannot write as MathML;
    ``cache``: the build's, where pandoc's HTML of the same formulas is kept (a warm build
    whose edit added none does not run pandoc for them)."""
    formulas = sorted(
        {formula(n) for blocks in chapters for n in iter_nodes(blocks) if n["t"] == "Math"}
    )
    if not formulas:
        return set()
    probe = [
        {
            "t": "Para",
            "c": [{"t": "Math", "c": [{"t": "DisplayMath" if d else "InlineMath"}, tex]}],
        }
        for tex, d in formulas
    ]
    written = PARAGRAPH.findall(blocks_to_html(probe, cache=cache))
    if len(written) != len(formulas):  # cannot tell which is which: draw none
        return set()
    return {f for f, html in zip(formulas, written, strict=True) if "<math" not in html}


def drawn_formulas(
    blocks: list[Any], doc: Doc, failing: set[Formula], problems: list[Diagnostic]
) -> list[Any]:
    """Each formula in ``failing`` → an image of its drawing (or MATH001 and code)."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Math" or formula(node) not in failing:
            return None
        tex, display = formula(node)
        try:
            image = render_math(tex, display, None)
        except MathError as exc:
            problems.append(undrawn(doc.chapter, tex, str(exc), "in the EPUB"))
            return {"t": "Code", "c": [["", ["math-error"], []], tex.strip()]}
        attr = ["", ["math", "display" if display else "inline"], [["style", image.css()]]]
        return {"t": "Image", "c": [attr, [{"t": "Str", "c": tex.strip()}], [image.data_uri(), ""]]}

    return rewrite(blocks, action)
