"""A PDF a screen reader and a search can use (issue 32): tagged with its logical
structure where the engine can tag, its language, and page labels that are the folios."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import kobook
from tests.checks import page_labels, squash

ENGINES = ["weasyprint", "xelatex", "typst"]
# XeLaTeX cannot tag here: Debian's TeX Live 2022 has tagpdf 0.98, which does not tag
# under XeTeX (README: "태그 PDF").
TAGGING = ["weasyprint", "typst"]


def pdfinfo(pdf: Path, *options: str) -> str:
    # Typst writes a title's /T in UTF-16, which pdfinfo prints as bytes: replaced.
    command = ["pdfinfo", *options, str(pdf)]
    return subprocess.run(
        command, capture_output=True, text=True, errors="replace", check=True
    ).stdout


@pytest.mark.parametrize("engine", TAGGING)
def test_tagged_with_the_whole_book_in_its_structure(
    sample_build: Callable[[str], kobook.BuildResult], engine: str
) -> None:
    pdf = sample_build(engine).outputs["pdf"]
    assert "Tagged:          yes" in pdfinfo(pdf)
    tree = pdfinfo(pdf, "-struct-text")
    # The structure's text (Typst tags word by word: "옮긴이의", " ", "말").
    text = squash("".join(re.findall(r'^\s*"(.*)"$', tree, re.M)))
    # From the title page to the last chapter and the index: WeasyPrint lays the book out
    # in runs, each tagged alone, and the join keeps every run's tree.
    for words in ("초대규모 학습 플레이북 맛보기", "옮긴이의 말", "FP8 학습", "찾아보기"):
        assert squash(words) in text, words
    assert len(re.findall(r"^\s*H1\b", tree, re.M)) >= 7  # 옮긴이의 말, 5 chapters, index


@pytest.mark.parametrize("engine", ENGINES)
def test_language_and_page_labels(
    sample_build: Callable[[str], kobook.BuildResult], engine: str
) -> None:
    from pypdf import PdfReader

    pdf = sample_build(engine).outputs["pdf"]
    assert PdfReader(pdf).trailer["/Root"]["/Lang"] == "ko-KR"
    labels = page_labels(pdf)
    assert "1" in labels and "ii" in labels and labels["ii"] < labels["1"]


def formulas(pdf: Path) -> list[tuple[str, str]]:
    """``(role, /Alt)`` of every Formula element and every Figure that shows a formula
    (WeasyPrint tags its drawn SVG as a Figure), in the tag tree."""
    from pypdf import PdfReader

    found = []
    stack = [PdfReader(pdf).trailer["/Root"]["/StructTreeRoot"]]
    while stack:
        node = stack.pop().get_object()
        if not hasattr(node, "get"):
            continue
        role = node.get("/S")
        if role in ("/Formula", "/Figure"):
            found.append((str(role), str(node.get("/Alt") or "")))
        kids = node.get("/K")
        kids = kids.get_object() if kids is not None else []
        stack.extend(kids if isinstance(kids, list) else [kids])
    return found


@pytest.mark.parametrize("engine", TAGGING)
def test_every_formula_has_its_tex_for_a_screen_reader(
    sample_build: Callable[[str], kobook.BuildResult], engine: str
) -> None:
    """The sample's formulas reach a screen reader as their TeX (``/Alt``): Typst's
    Formula elements and WeasyPrint's drawn formulas alike; the wrapped-code mark ↪,
    which Typst sets as math, is an artifact and no formula."""
    found = formulas(sample_build(engine).outputs["pdf"])
    alts = {alt for _, alt in found}
    for tex in ("128 \\times 128", "\\frac{\\partial (s \\cdot \\ell)}{\\partial \\theta}"):
        assert any(alt.startswith(tex) for alt in alts), tex
    assert sum(1 for _, alt in found if alt) >= 270  # the sample's 272 formulas
    if engine == "typst":
        assert all(alt for role, alt in found if role == "/Formula")
