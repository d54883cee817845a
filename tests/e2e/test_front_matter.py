"""``front-matter:`` in every output: 옮긴이의 말 after the contents, in the front
matter's folios (i, ii, …) in every PDF engine, unnumbered; the body still starts at 1
with 1장; the site and the EPUB put it first."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

import kobook
from tests.checks import page_labels, pdf_pages, squash

ENGINES = ["weasyprint", "xelatex", "typst"]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("front-book")
    (root / "book").mkdir()
    files = {
        "00-note.md": "# 옮긴이의 말\n\n옮기며 적는다. [번역]{.index}은 두 글을 읽는다.\n",
        "01-a.md": "# 시작\n\n본문 첫 장이다. [번역]{.index}을 다시 말한다.\n",
        "02-b.md": "# 다음\n\n본문 둘째 장이다.\n",
    }
    for name, text in files.items():
        (root / "book" / name).write_text(text, encoding="utf-8")
    (root / "metadata.yaml").write_text(
        "title: 앞부분 시험\nlang: ko-KR\npapersize: a5\ntoc: true\n"
        "front-matter: [book/00-note.md]\n",
        encoding="utf-8",
    )
    return root


@pytest.mark.parametrize("engine", ENGINES)
def test_front_matter_in_roman_folios_before_the_body(
    book: Path, engine: str, tmp_path: Path
) -> None:
    result = kobook.build(book, ["pdf"], engine=engine, out=tmp_path, cache_dir=tmp_path / "c")
    pdf = result.outputs["pdf"]
    pages = pdf_pages(pdf)
    labels = page_labels(pdf)
    note = next(i for i, page in enumerate(pages) if squash(page).startswith("옮긴이의말옮기며"))
    first = next(i for i, page in enumerate(pages) if squash(page).startswith("1장시작"))
    assert note < first
    roman = next(label for label, index in labels.items() if index == note)
    assert re.fullmatch(r"[ivx]+", roman)
    assert labels["1"] == first  # the body starts at 1, with 1장
    assert "2장" in squash("".join(pages[first:]))  # numbering counts body chapters only
    contents = squash(next(page for page in pages if squash(page).startswith("차례")))
    assert f"옮긴이의말{roman}" in contents.replace(".", "")  # its roman page in the contents
    index = squash(pages[-1] if "찾아보기" in pages[-1] else pages[-2])
    assert f"번역{roman},1" in index  # the index names the roman page too


def test_site_and_epub_put_it_first(book: Path, tmp_path: Path) -> None:
    result = kobook.build(book, ["html", "epub"], out=tmp_path, cache_dir=tmp_path / "c")
    site = result.outputs["html"].parent
    home = (site / "index.html").read_text(encoding="utf-8")
    assert home.index("00-note.html") < home.index("01-a.html")
    with zipfile.ZipFile(result.outputs["epub"]) as epub:
        spine = epub.read("EPUB/content.opf").decode("utf-8")
        texts = [
            epub.read(f"EPUB/text/{n}").decode("utf-8") for n in ("ch001.xhtml", "ch002.xhtml")
        ]
    assert "itemref" in spine
    assert "옮긴이의 말" in texts[0] and "시작" in texts[1]
