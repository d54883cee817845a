"""A PDF a screen reader and a search can use (issue 32): tagged with its logical
structure where the engine can tag, its language, and page labels that are the folios."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import kobook
from tests.checks import page_labels, squash, tag_tree, tagged_text

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
    # The headings' text, read from the glyphs each heading's marked content tags.
    text = squash("".join(tagged_text(pdf, {"/H1", "/H2", "/H3"})))
    # From the front matter to the last chapter and the index: WeasyPrint lays the book
    # out in runs, each tagged alone, and the join keeps every run's tree.
    for words in ("옮긴이의 말", "FP8로 가는 길", "찾아보기"):
        assert squash(words) in text, words
    rows = tag_tree(pdf)
    assert len([role for _, role, _, _ in rows if role == "/H1"]) >= 7  # 5 chapters and more
    assert {0, 1} & {item[0] for *_, held in rows for item in held}  # the title page


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
    """``(role, /Alt)`` of every Formula element and every Figure (WeasyPrint tags its
    drawn formulas as Figures), in the tag tree."""
    return [(role, alt) for _, role, alt, _ in tag_tree(pdf) if role in ("/Formula", "/Figure")]


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
