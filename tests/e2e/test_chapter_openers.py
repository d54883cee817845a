"""Issue 32, item 4: chapter openers sink to one depth, with a larger label, in every engine.

The layout decides the sink (``PageLayout.chapter_sink``: 16 % of the text block down to
the label's baseline) and the label's size (0.9 × the chapter title's); each engine draws
it.  Before, the three engines had three sinks (2.5 em of the body in XeLaTeX, 3 em in
Typst, a margin WeasyPrint cut at the page's top) and a label 0.6 × the title.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

import kobook
from kobook.load import load_book
from kobook.write.shared.layout import points
from kobook.write.shared.setup import print_setup
from tests import checks
from tests.conftest import REPO

ENGINES = ["weasyprint", "xelatex", "typst"]
ASCENT = 0.88  # the CJK fonts' ascent, in em: from a glyph box's top to its baseline


def label_tops(pdf: Path, size: float) -> list[float]:
    """The top of each chapter label (``N장`` set at ``size``), one per opening page."""
    import pdfplumber

    tops = []
    with pdfplumber.open(pdf) as document:
        for page in document.pages:
            chars = [c for c in page.chars if abs(c["size"] - size) < 0.3]
            text = "".join(c["text"] for c in chars)
            if re.fullmatch(r"\d+장", text):
                tops.append(round(float(chars[0]["top"]), 1))
    return tops


@pytest.fixture(scope="module")
def layout() -> object:
    return print_setup(load_book(REPO)).layout


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_every_chapter_opens_at_the_layouts_sink(
    engine: str, sample_build: Callable[[str], kobook.BuildResult], layout: object
) -> None:
    top = points(layout.top) + layout.chapter_sink - ASCENT * layout.chapter_label_points
    tops = label_tops(Path(sample_build(engine).outputs["pdf"]), layout.chapter_label_points)
    assert len(tops) == 5  # the sample's five chapters, each label at its size
    assert all(abs(found - top) <= 2.5 for found in tops), (tops, top)
    # 16 % of the text block: far below where a section title would start a page.
    assert layout.chapter_sink > 4 * layout.heading_points(1)
    assert layout.chapter_label_points == pytest.approx(0.9 * layout.heading_points(1), 0.01)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_the_body_is_numbered_from_one_in_every_engine(
    engine: str, sample_build: Callable[[str], kobook.BuildResult]
) -> None:
    """Issue 32, item 8: the front matter is numbered in roman numerals and the body from
    1 on its first page, in print (the folio) and in the PDF's page labels.  WeasyPrint
    numbered every page from the title page (the first chapter opened on page 5) and
    wrote no page labels."""
    pdf = Path(sample_build(engine).outputs["pdf"])
    labels = checks.page_labels(pdf)
    first = labels["1"]
    assert first > 0 and labels.get("ii") == 1 and labels.get("iii") == 2
    pages = checks.pdf_pages(pdf)
    assert "1장" in pages[first]  # the first chapter opens on page 1
    assert pages[first + 1].split()[-1] == "2"  # the next page's folio
