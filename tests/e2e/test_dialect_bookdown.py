"""A small Korean bookdown book built in place (issue 29): ``kobook import`` finds it,
``rmd_files`` orders it, ``(PART)`` and ``(APPENDIX)`` headings make parts and appendices,
``\\@ref`` references print numbers with agreeing particles, knitr chunks are shown (not
run) and ``include_graphics`` chunks are numbered figures, all counted from the source by
this test; nothing of R Markdown's syntax is left in any output."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

import kobook
from kobook.api import BuildResult
from kobook.load.book import load_book
from tests.checks import DIALECT_BOOKS, epubcheck, imported_copy, pdf_pages, squash, text_of

FOREIGN = re.compile(r"@ref|\(PART|\(APPENDIX|```\{|\(\\#|include_graphics|\\begin\{equation")


def sources() -> str:
    return "\n".join(
        p.read_text("utf-8") for p in sorted((DIALECT_BOOKS / "bookdown").glob("*.Rmd"))
    )


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return imported_copy(tmp_path_factory.mktemp("bookdown"), "bookdown")


@pytest.fixture(scope="module")
def built(root: Path) -> BuildResult:
    return kobook.build(root, ["html", "epub", "pdf"])


def test_files_parts_and_appendices(root: Path, built: BuildResult) -> None:
    book = load_book(root)
    got = [(c.kind, c.number, c.title, c.part) for c in book.chapters]
    assert got == [
        ("preface", None, "머리말", ""),
        ("chapter", 1, "들어가며", "기초"),
        ("chapter", 2, "두 번째 장", ""),
        ("chapter", 3, "방법", "심화"),
        ("appendix", None, "더 읽을거리", "부록"),
    ]
    assert book.config.title == "작은 북다운 책" and book.config.lang == "ko"
    assert [d.code for d in built.diagnostics] == ["CELL001"]


def test_references_figures_and_chunks(built: BuildResult) -> None:
    site = built.outputs["html"].parent
    pages = [p.read_text("utf-8") for p in sorted(site.glob("*.html")) if p.name != "index.html"]
    html = "".join(re.findall(r"<article.*?</article>", "".join(pages), re.S))
    flat = squash(text_of(html))
    assert html.count('class="xref"') == sources().count("\\@ref(")
    for words in ("그림 1.1과 표 1.1을 보라", "식 1.1도", "1장으로 돌아간다"):
        assert squash(words) in flat, words
    graphics = sources().count("include_graphics(")
    assert html.count("<figure") == graphics and squash("그림 1.1. 작은 점") in flat
    shown = len(re.findall(r"^```\{r (?!setup)[^}]*\}$|^```\{python\}$", sources(), re.M))
    assert html.count('<div class="sourceCode"') == shown - graphics
    assert "opts_chunk" not in html and 'id="eq:line"' in html
    assert not FOREIGN.search(text_of(html)), FOREIGN.search(text_of(html))


def test_the_epub_is_valid(built: BuildResult) -> None:
    epub = built.outputs["epub"]
    assert epubcheck(epub) == []
    with zipfile.ZipFile(epub) as archive:
        opf = archive.read(next(n for n in archive.namelist() if n.endswith(".opf"))).decode()
    assert "작은 북다운 책</dc:title>" in opf and "박번역" in opf


@pytest.mark.parametrize("engine", ["weasyprint", "typst", "xelatex"])
def test_every_pdf_engine_prints_it(root: Path, built: BuildResult, engine: str) -> None:
    pdf = (
        built.outputs["pdf"]
        if engine == "weasyprint"
        else kobook.build(root, ["pdf"], engine=engine, out=root / f"dist-{engine}").outputs["pdf"]
    )
    text = "\n".join(pdf_pages(pdf))
    flat = squash(text)
    for words in ("그림 1.1과 표 1.1을 보라", "그림 1.1. 작은 점", "mean(x)", "참고 글 목록"):
        assert squash(words) in flat, (engine, words)
    assert not FOREIGN.search(text), FOREIGN.search(text)
