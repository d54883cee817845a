"""A small Korean MkDocs (Material) site built in place (issue 29): ``kobook import`` finds
it, the nav orders and titles the book, every construct of the source reaches the HTML, the
EPUB and each PDF engine (counted from the source by this test), nothing of MkDocs' syntax
is left for the reader, the EPUB passes epubcheck, and ``check --fix`` keeps the syntax."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

import kobook
from kobook.api import BuildResult
from tests.checks import epubcheck, imported_copy, pdf_pages, squash, text_of

FIXTURE = Path(__file__).parent.parent / "data" / "dialects" / "mkdocs"
FOREIGN = re.compile(r"!!!|\?\?\?|===|8<|\{:|:material-|:smile:|markdown=")


def source(name: str) -> str:
    return (FIXTURE / name).read_text(encoding="utf-8")


def pages() -> str:
    """Every page the nav names (``draft.md`` is not one)."""
    names = ["index", "start/install", "start/usage", "ref/config", "ref/plugins"]
    return "\n".join(source(f"docs/{n}.md") for n in names)


def count(pattern: str) -> int:
    return len(re.findall(pattern, pages(), re.M))


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return imported_copy(tmp_path_factory.mktemp("mkdocs"), "mkdocs")


@pytest.fixture(scope="module")
def built(root: Path) -> BuildResult:
    return kobook.build(root, ["html", "epub", "pdf"])


def test_the_nav_orders_and_titles_the_book(built: BuildResult) -> None:
    site = built.outputs["html"].parent
    index = (site / "index.html").read_text(encoding="utf-8")
    toc = text_of(index.split('class="toc', 1)[1] if 'class="toc' in index else index)
    assert re.search("소개.*설치.*설치 준비.*사용법.*고급 주제.*설정.*플러그인", toc, re.S), toc
    assert "시작하기" in index and "참고 자료" in index  # the nav's sections: parts
    assert "초안" not in "".join(p.read_text("utf-8") for p in site.glob("*.html"))
    codes = {d.code: d for d in built.diagnostics}
    assert "DIA302" in codes and "docs/draft.md" in codes["DIA302"].message
    assert "DIA303" in codes  # the nav's web link
    assert codes["DIA306"].location.file.name == "usage.md"  # the icon, with its line
    assert not [d for d in built.diagnostics if d.code.startswith("LEAK")]


def test_every_construct_reaches_the_site(built: BuildResult) -> None:
    site = built.outputs["html"].parent
    html = "".join(
        re.findall(r"<article.*?</article>", p.read_text("utf-8"), re.S)[0]
        for p in sorted(site.glob("*.html"))
        if p.name != "index.html"
    )
    assert html.count('<div class="callout callout-') == count(r"^\s*!!! ")
    assert html.count('<details class="details"') == count(r"^\s*\?\?\?")
    assert html.count('<details class="details" open>') == count(r"^\s*\?\?\?\+")
    assert html.count('<div class="tab">') == count(r'^\s*=== "')
    assert html.count('<div class="tabset">') == 2
    assert html.count('type="checkbox"') == count(r"^- \[[ x]\] ")
    assert html.count('title="Hyper Text Markup Language"') == 1
    assert "😄" in html and "각주도 그대로" in html
    assert "여러 쪽이 함께 쓰는 문단이다." in html and "머리말 앞" not in html
    assert "나의 문서" in text_of(html) and "mkdocs.yml" in html
    assert 'width="40"' in html and 'class="grid"' in html
    assert not FOREIGN.search(text_of(html)), FOREIGN.search(text_of(html))


def test_the_epub_is_valid_and_clean(built: BuildResult) -> None:
    epub = built.outputs["epub"]
    assert epubcheck(epub) == []
    with zipfile.ZipFile(epub) as archive:
        names = archive.namelist()
        opf = archive.read(next(n for n in names if n.endswith(".opf"))).decode()
        text = " ".join(text_of(archive.read(n).decode()) for n in names if n.endswith(".xhtml"))
    assert "<dc:title" in opf and "작은 문서 번역</dc:title>" in opf
    assert "홍길동" in opf and ">ko<" in opf.replace("ko-KR", "ko")
    for word in ("리눅스", "윈도", "검색", "태그", "알아 두기", "겹친 상자"):
        assert word in text
    assert not FOREIGN.search(text)


@pytest.mark.parametrize("engine", ["weasyprint", "typst", "xelatex"])
def test_every_pdf_engine_prints_it(root: Path, built: BuildResult, engine: str) -> None:
    result = (
        built
        if engine == "weasyprint"
        else kobook.build(root, ["pdf"], engine=engine, out=root / f"dist-{engine}")
    )
    pdf = result.outputs["pdf"]
    # Hindi, Thai and Hebrew in prose and code: drawn, no space added, nothing lost.
    assert not [d for d in result.diagnostics if d.code.startswith("GLYPH")]
    assert squash('String::from("नमस्ते");') in squash("\n".join(pdf_pages(pdf)))
    text = "\n".join(pdf_pages(pdf))
    flat = squash(text)
    for words in ("리눅스", "윈도", "검색 플러그인", "알아 두기", "겹친 상자", "더 알아보기"):
        assert squash(words) in flat, (engine, words)
    assert squash("여러 쪽이 함께 쓰는 문단이다.") in flat and "mkdocs.yml" in text
    assert not FOREIGN.search(text), FOREIGN.search(text)
