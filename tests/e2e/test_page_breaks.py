"""The book's ``\\newpage`` breaks the page in every PDF engine and shows nothing in the site
or the EPUB (it was XeLaTeX's alone: WeasyPrint and Typst left it out with a TEX005 note)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

import kobook
from kobook.write import registry
from tests.conftest import BookMaker

CHAPTER = "# 장\n\n첫 쪽의 글.\n\n\\newpage\n\n둘째 쪽의 글.\n"


@pytest.mark.slow
@pytest.mark.parametrize("engine", registry.pdf_engines())
def test_newpage_breaks_the_page_in_every_engine(
    make_book: BookMaker, tmp_path: Path, engine: str
) -> None:
    root = make_book({"book/01.md": CHAPTER}, metadata={"title": "쪽", "toc": False})
    result = kobook.build(root, ["pdf"], engine=engine, out=tmp_path / "out")
    assert not [d for d in result.diagnostics if d.code in ("TEX005", "LOST001", "LOST002")]
    with pdfplumber.open(result.outputs["pdf"]) as pdf:
        pages = ["".join((page.extract_text() or "").split()) for page in pdf.pages]
    first = next(i for i, text in enumerate(pages) if "첫쪽의글" in text)
    second = next(i for i, text in enumerate(pages) if "둘째쪽의글" in text)
    assert second == first + 1, (engine, pages)


def test_newpage_shows_nothing_on_screens(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book({"book/01.md": CHAPTER}, metadata={"title": "쪽"})
    result = kobook.build(root, ["html", "epub"], out=tmp_path / "out")
    page = (result.outputs["html"].parent / "ch01.html").read_text(encoding="utf-8")
    assert "newpage" not in page.replace('data-command="newpage"', "")
    assert "첫 쪽의 글" in page and "둘째 쪽의 글" in page
    assert not [d for d in result.diagnostics if d.code == "TEX005"]
