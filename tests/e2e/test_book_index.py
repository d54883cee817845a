"""The index (찾아보기) in every output: its page numbers are the pages its marks are on,
each page once, each number a link to its mark; the site and the EPUB link each entry to
the sections it is marked in."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

import kobook
from tests.checks import link_targets, outline_titles, page_labels, pdf_pages, squash
from tests.conftest import BookMaker

ENGINES = ["weasyprint", "xelatex", "typst"]

CHAPTER = """# 첫 장

[ZeRO]{.index}는 메모리를 나눈다. 다시 말해 [ZeRO]{.index}는 상태를 쪼갠다.
그래디언트 누적은 배치를 나눈다. [캐싱 할당기]{.index term="할당기!캐싱"}도 있다.

\\newpage

# 둘째 장

[ZeRO]{.index}를 한 번 더 본다. 버킷\\index{버킷}에 모은다.
"""


@pytest.fixture(scope="module")
def small_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("index-book")
    (root / "book").mkdir()
    (root / "book" / "01.md").write_text(CHAPTER, encoding="utf-8")
    (root / "glossary.yaml").write_text("gradient accumulation: 그래디언트 누적\n", "utf-8")
    (root / "metadata.yaml").write_text(
        "title: 색인 시험\nlang: ko-KR\npapersize: a5\nindex: {glossary: true}\n"
        "pdf: {jobs: 1}\nedition: 초판\n",
        encoding="utf-8",
    )
    return root


def index_text(pages: list[str]) -> str:
    """The index's pages (from its title to the copyright page), as one text."""
    start = next(i for i, page in enumerate(pages) if squash(page).startswith("찾아보기"))
    return "\n".join(pages[start:-1])


@pytest.mark.parametrize("engine", ENGINES)
def test_each_page_once_in_a_small_book(small_book: Path, engine: str, tmp_path: Path) -> None:
    """ZeRO is marked twice on page 1 and once on page 2 (its own chapter): ``1, 2``."""
    result = kobook.build(
        small_book, ["pdf"], engine=engine, out=tmp_path, cache_dir=tmp_path / "c"
    )
    pdf = result.outputs["pdf"]
    cells = index_cells(pdf)
    zero = next(cell for cell in cells if cell.startswith("ZeRO"))
    assert zero in ("ZeRO1,2", "ZeRO1,3")  # chapter 2 opens on a recto when two-sided
    labels = page_labels(pdf)
    pages = pdf_pages(pdf)
    assert all("ZeRO" in pages[labels[n]] for n in zero[4:].split(","))
    assert "할당기" in cells and "캐싱1" in cells  # a sub-entry under its entry
    assert any(cell.startswith("버킷") for cell in cells)
    assert "accumulation)1" in cells  # 그래디언트 누적(gradient accumulation), wrapped


def index_cells(pdf: Path) -> list[str]:
    """The index's lines, each column's apart (``-layout`` puts two columns on one line),
    without spaces."""
    pages = pdf_pages(pdf, layout=True)
    start = next(i for i, page in enumerate(pages) if squash(page).startswith("찾아보기"))
    return [
        squash(cell)
        for page in pages[start:-1]
        for line in page.splitlines()
        for cell in re.split(r"\s{3,}", line)
        if cell.strip()
    ]


def check_numbers(pdf: Path) -> list[tuple[int, str, int | None, str | None]]:
    """The index's links whose number is not the label of the page they lead to."""
    pages = pdf_pages(pdf)
    start = next(i for i, page in enumerate(pages) if squash(page).startswith("찾아보기"))
    labels = {index: label for label, index in page_labels(pdf).items()}
    links = [link for link in link_targets(pdf, start) if link[1].strip(", ")]
    assert len(links) >= 40, links
    return [link for link in links if labels.get(link[2] or -1) != link[1].strip(", ")]


@pytest.mark.parametrize("engine", ENGINES)
def test_sample_index_numbers_are_the_pages_of_their_marks(
    sample_build: object, sample_site: Path, engine: str
) -> None:
    result = sample_build(engine)  # type: ignore[operator]
    pdf = result.outputs["pdf"]
    assert check_numbers(pdf) == []
    pages = pdf_pages(pdf)
    text = index_text(pages)
    assert not re.search(r"(?<!\d)(\d+), \1(?!\d)", text)  # no page twice in an entry
    front = pages[: page_labels(pdf)["1"]]
    assert "찾아보기" in squash("".join(front))  # in the contents
    assert "찾아보기" in outline_titles(pdf, depth=1)
    # Where the link names its mark (WeasyPrint), the mark's term is on that page.
    terms = mark_terms(sample_site)
    named = [link for link in link_targets(pdf) if (link[3] or "").startswith("ix-")]
    for _page, _shown, target, name in named:
        word = terms[name or ""].split("!")[-1].split()[0]  # 링 of 링 알고리즘
        assert target is not None
        assert word in squash(pages[target] + pages[target + 1][:80]), (name, target)


def mark_terms(site: Path) -> dict[str, str]:
    """Each mark's id → its term, read from the site's chapter pages."""
    found = {}
    for page in site.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        for ident, rest in re.findall(r'<span id="(ix-[^"]+)" class="index"([^>]*)>', html):
            term = re.search(r'data-term="([^"]*)"', rest)
            found[ident] = term.group(1) if term else ""
    return found


def test_site_index_links_every_entry_to_its_sections(sample_site: Path) -> None:
    page = (sample_site / "genindex.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="([^"#]+\.html)#(ix-[^"]+)">([^<]+)</a>', page)
    assert len(links) >= 40
    for file, anchor, label in links:
        assert f'id="{anchor}"' in (sample_site / file).read_text(encoding="utf-8")
        assert label.strip()  # 2.1절, 3장, or an unnumbered section's title
    # The index is in the contents and after the last chapter in the pager.
    assert 'href="genindex.html"' in (sample_site / "index.html").read_text(encoding="utf-8")
    assert 'rel="next" href="genindex.html"' in (sample_site / "05-kernels.html").read_text(
        encoding="utf-8"
    )
    assert page.index(">A</h2>") < page.index(">ㄱ</h2>") < page.index(">ㅎ</h2>")


def test_epub_index_is_marked_for_reading_systems(small_book: Path, tmp_path: Path) -> None:
    result = kobook.build(small_book, ["epub"], out=tmp_path, cache_dir=tmp_path / "c")
    with zipfile.ZipFile(result.outputs["epub"]) as epub:
        texts = {n: epub.read(n).decode("utf-8") for n in epub.namelist() if n.endswith("html")}
    index = next(t for t in texts.values() if 'epub:type="index"' in t)
    targets = re.findall(r'href="([^"#]+)#(ix-[^"]+)"', index)
    assert len(targets) == 5  # ZeRO ×2 sections, 캐싱, 버킷, 그래디언트 누적
    for file, anchor in targets:
        assert any(name.endswith(file) and f'id="{anchor}"' in t for name, t in texts.items())


def test_index_false_leaves_it_out(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book(
        {"book/01.md": "# 장\n\n[용어]{.index}.\n"}, metadata={"title": "책", "index": False}
    )
    result = kobook.build(root, ["html"], out=tmp_path / "o", cache_dir=tmp_path / "c")
    assert not (result.outputs["html"].parent / "genindex.html").exists()
