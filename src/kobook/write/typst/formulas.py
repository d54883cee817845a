"""Formulas in Typst: pandoc's Typst for every formula in one run, the ones the compiler
refuses found, and those drawn by ziamath as images instead."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from ...cache import Cache
from ...errors import Diagnostic
from ...model import Book
from ...parse import api_version
from ...parse.ast import raw_inline, rewrite
from ...parse.pandoc import run_pandoc
from ..shared.mathsvg import MathError, render_math, undrawn
from ..shared.workdir import Assets
from . import compiler
from .passes import CHAPTER_MARK
from .values import string
from .words import Blocks

MATH_MARK = "KOBOOKMATH"


def typst_of_math(formulas: list[tuple[str, str]]) -> list[str]:
    """pandoc's Typst for each ``(kind, tex)`` formula, in one pandoc run."""
    blocks = [
        {
            "t": "Para",
            "c": [
                {"t": "Str", "c": f"{MATH_MARK}{index}"},
                {"t": "Space"},
                {"t": "Math", "c": [{"t": kind}, tex]},
            ],
        }
        for index, (kind, tex) in enumerate(formulas)
    ]
    document = {"pandoc-api-version": api_version(), "meta": {}, "blocks": blocks}
    out = run_pandoc(["-f", "json", "-t", "typst", "--wrap=none"], json.dumps(document))
    found = dict.fromkeys(range(len(formulas)), "")
    for match in re.finditer(
        rf"^{MATH_MARK}(\d+) (.*?)(?=\n+{MATH_MARK}\d+ |\Z)", out, re.M | re.S
    ):
        found[int(match.group(1))] = match.group(2).strip()
    return [found[i] for i in range(len(formulas))]


def failing_math(
    formulas: list[tuple[str, str]], codes: list[str], workdir: Path
) -> set[tuple[str, str]]:
    """The formulas whose Typst (``codes``, :func:`typst_of_math`) the compiler refuses
    (pandoc writes symbols Typst renamed, ``times.circle``, or ``frac(, )``) or that
    pandoc could not convert (it writes the TeX as text): each is checked alone, cheaply,
    with Typst's evaluator (in the compiler's process, under its limits)."""
    written = [i for i, code in enumerate(codes) if code.startswith("$")]
    refused = {written[i] for i in compiler.refused(workdir, [codes[i] for i in written])}
    return {f for i, f in enumerate(formulas) if i not in written or i in refused}


# A text or upright name, then a space pandoc puts before the parenthesis it is applied to:
# ``\text{LayerNorm}(x)`` is ``upright("LayerNorm") \( x \)`` (``\left(`` a bare ``(``),
# and Typst keeps a space written after text in math ("LayerNorm (x)"), where TeX
# ignores every space.
SPACED_CALL = re.compile(r'("(?:[^"\\]|\\.)*"\)?) +(?=\\?\()')


def tight_calls(code: str) -> str:
    """``code`` (pandoc's Typst of a formula) without the space between a name written as
    text and the parenthesis after it, as TeX sets ``\text{mean}(x)``."""
    return SPACED_CALL.sub(r"\1", code)


def typst_formulas(blocks: Blocks, codes: dict[tuple[str, str], str]) -> Blocks:
    """Each formula as its Typst (``codes``: made once for the book, :func:`tight_calls`
    applied), so pandoc's Typst writer copies it and does not convert it again."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Math":
            return None
        code = codes.get((node["c"][0]["t"], node["c"][1]))
        return raw_inline("typst", tight_calls(code)) if code else None

    return rewrite(blocks, action)


def math_images(
    blocks: Blocks,
    failing: set[tuple[str, str]],
    book: Book,
    cache: Cache,
    assets: Assets,
    font: str | None,
) -> tuple[Blocks, list[Diagnostic]]:
    """Formulas Typst cannot set, drawn by ziamath as the WeasyPrint engine draws all of
    them (an SVG on the baseline); one ziamath cannot draw either is its TeX in code
    type, with MATH001 at its chapter's line (never dropped, never a failed build)."""
    problems: list[Diagnostic] = []
    chapter = None

    def action(node: dict[str, Any]) -> Any:
        nonlocal chapter
        if node["t"] == "RawBlock" and node["c"][1].startswith(CHAPTER_MARK):
            ident = node["c"][1][len(CHAPTER_MARK) :].strip()
            chapter = next((c for c in book.chapters if c.id == ident), chapter)
        if node["t"] != "Math" or (node["c"][0]["t"], node["c"][1]) not in failing:
            return None
        display = node["c"][0]["t"] == "DisplayMath"
        tex = node["c"][1]
        try:
            image = render_math(tex, display, cache, font)
        except MathError as exc:
            problems.append(undrawn(chapter, tex, str(exc), "in the PDF"))
            return {"t": "Code", "c": [["", [], []], tex.strip()]}
        key = hashlib.sha256(image.svg.encode()).hexdigest()[:24]
        path = cache.put("typst-math", key, image.svg.encode(), ".svg")
        if path is None:
            return {"t": "Code", "c": [["", [], []], tex.strip()]}
        name = assets.name(path)
        size = f"width: {image.width_em:.3f}em, height: {image.height_em:.3f}em"
        drawn = f"image({string(name)}, {size}, alt: {string(tex.strip())})"
        if display:
            return raw_inline("typst", f"#align(center, {drawn})")
        return raw_inline("typst", f"#box(baseline: {image.depth_em:.3f}em, {drawn})")

    return rewrite(blocks, action), problems


def spoken_math(blocks: Blocks) -> Blocks:
    """Each formula with its TeX as the tagged PDF's text alternative (``/Alt`` on the
    ``Formula`` element a screen reader reads): a set rule scoped to the formula."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Math":
            return None
        alt = string(node["c"][1].strip())
        return [
            raw_inline("typst", f"#[#set math.equation(alt: {alt});"),
            node,
            raw_inline("typst", "]"),
        ]

    return rewrite(blocks, action)
