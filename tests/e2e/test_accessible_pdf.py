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
# under XeTeX; WeasyPrint's tags are not joined across its runs yet (README: "태그 PDF").
TAGGING = ["typst"]


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
    # From the title page to the last chapter and the index.
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
