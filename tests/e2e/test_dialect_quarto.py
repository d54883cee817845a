"""A small Korean Quarto book built in place (issue 29): ``kobook import`` finds it,
``book.chapters`` orders it with its parts and appendices, Quarto's cross-references print
kobook's numbers with agreeing particles, shortcodes and cells are converted (counted from
the source by this test), no Quarto syntax is left in any output, and the EPUB is valid."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

import kobook
from kobook.api import BuildResult
from kobook.load.book import load_book
from tests.checks import epubcheck, imported_copy, pdf_pages, squash, text_of

FIXTURE = Path(__file__).parent.parent / "data" / "dialects" / "quarto"
FOREIGN = re.compile(
    r"\{\{<|@(?:fig|tbl|sec|eq)-|#\||\{#(?:fig|tbl|sec|eq)-|panel-tabset|```\{(?!python)"
)


def sources() -> str:
    return "\n".join(p.read_text("utf-8") for p in sorted(FIXTURE.rglob("*.qmd")))


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return imported_copy(tmp_path_factory.mktemp("quarto"), "quarto")


@pytest.fixture(scope="module")
def built(root: Path) -> BuildResult:
    return kobook.build(root, ["html", "epub", "pdf"])


def article(path: Path) -> str:
    return re.findall(r"<article.*?</article>", path.read_text("utf-8"), re.S)[0]


def test_chapters_parts_and_appendices_follow_quarto(root: Path, built: BuildResult) -> None:
    site = built.outputs["html"].parent
    toc = text_of((site / "index.html").read_text("utf-8"))
    assert re.search("머리말.*기초.*들어가며.*코드.*심화.*참고.*부록.*덧붙임", toc, re.S), toc
    book = load_book(root)
    got = [(c.kind, c.number, c.part) for c in book.chapters]
    assert got == [
        ("preface", None, ""),
        ("chapter", 1, "기초"),
        ("chapter", 2, ""),
        ("backmatter", None, "심화"),  # part: part2.qmd names the part by its heading
        ("appendix", None, ""),
    ]
    assert book.config.title == "작은 쿼토 책" and book.config.lang == "ko"
    assert [d.code for d in built.diagnostics] == ["CELL001"]


def test_cross_references_shortcodes_and_cells(built: BuildResult) -> None:
    site = built.outputs["html"].parent
    html = "".join(article(p) for p in sorted(site.glob("*.html")) if p.name != "index.html")
    text = text_of(html)
    # Every @fig-/@tbl-/@eq-/@sec- of the source is a link to its target.
    written = len(re.findall(r"-?@(?:fig|tbl|eq|sec)-[\w-]+", sources()))
    assert html.count('class="xref"') == written
    flat = squash(text)
    for words in ("그림 1.1을 보라", "1.1번 그림", "표 1.1은", "식 (2.1)은", "2장에서", "1장으로"):
        assert squash(words) in flat, words
    assert squash("판 1.2") in flat and squash("「작은 쿼토 책」") in flat
    assert '<code class="kbd">Ctrl-C</code>' in html
    assert "여러 장이 함께 쓰는 문단이다." in text and 'class="page-break"' in html
    assert html.count('class="callout callout-') == len(
        re.findall(r"^::: \{\.callout-", sources(), re.M)
    )
    assert html.count('<div class="tab">') == 2
    assert squash('print("안녕")') in flat and "library(ggplot2)" not in text
    assert "```{python}" in text and "셀 그대로" in text  # the escaped cell, as written
    assert not FOREIGN.search(text.replace("```{python}", "")), FOREIGN.search(text)


def test_the_epub_is_valid(built: BuildResult) -> None:
    epub = built.outputs["epub"]
    assert epubcheck(epub) == []
    with zipfile.ZipFile(epub) as archive:
        opf = archive.read(next(n for n in archive.namelist() if n.endswith(".opf"))).decode()
    assert "작은 쿼토 책</dc:title>" in opf and "김번역" in opf and "이도움" in opf


@pytest.mark.parametrize("engine", ["weasyprint", "typst", "xelatex"])
def test_every_pdf_engine_prints_it(root: Path, built: BuildResult, engine: str) -> None:
    pdf = (
        built.outputs["pdf"]
        if engine == "weasyprint"
        else kobook.build(root, ["pdf"], engine=engine, out=root / f"dist-{engine}").outputs["pdf"]
    )
    pages = pdf_pages(pdf)
    flat = squash("\n".join(pages))
    for words in (
        "그림 1.1을 보라",
        "표 1.1은",
        "식 (2.1)은",
        "알아 두기",
        "파이썬 설명",
        "판 1.2",
    ):
        assert squash(words) in flat, (engine, words)
    assert not FOREIGN.search("\n".join(pages).replace("```{python}", ""))
    # {{< pagebreak >}}: the table starts a page of its own.
    table_page = next(i for i, p in enumerate(pages) if "작은 표" in p)
    assert "여러 장이 함께" in pages[table_page - 1] and "여러 장이 함께" not in pages[table_page]
