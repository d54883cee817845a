"""``kobook build epub``: an EPUB 3 that EPUBCheck passes with no error and no warning.

The sample book is built once for the module (with the site, the reference for
what the chapters hold); small books test what a stranger's pull request could
put in.  The corpus books are checked in test_corpus_*.py, where they are built.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import kobook
from kobook.cli import main
from tests.checks import epub_pages, epubcheck, html_problems, in_order, site_headings, xhtml_text
from tests.conftest import BookMaker, sample_copy


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> kobook.BuildResult:
    root = tmp_path_factory.mktemp("epub-sample")
    project = sample_copy(root)
    return kobook.build(project, ["html", "epub"], out=root / "out", cache_dir=root / "cache")


def entries(epub: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(epub) as container:
        return {name: container.read(name) for name in container.namelist()}


def test_the_sample_epub_passes_epubcheck(sample: kobook.BuildResult) -> None:
    assert epubcheck(sample.outputs["epub"]) == []


def test_every_heading_and_caption_of_the_site_is_in_the_epub_in_order(
    sample: kobook.BuildResult,
) -> None:
    expected = site_headings(sample.outputs["html"].parent)
    assert len(expected) > 30
    book = " ".join(xhtml_text(x) for _, x in epub_pages(sample.outputs["epub"]))
    assert in_order(book, expected) == []


def test_title_page_cover_and_package_metadata(sample: kobook.BuildResult) -> None:
    files = entries(sample.outputs["epub"])
    package = files["EPUB/content.opf"].decode()
    assert "<dc:language>ko-KR</dc:language>" in package
    assert package.count(">trl</meta>") == 3  # each translator a creator in the trl role
    assert re.search(r'properties="cover-image"[^>]*href="media/[^"]+\.png"', package)
    assert re.search(r"<dc:identifier[^>]*>urn:uuid:[0-9a-f-]{36}<", package)
    title = xhtml_text(files["EPUB/text/title_page.xhtml"].decode())
    assert "한빛나, 이서준 옮김" in title and "원서: The Ultra-Scale Playbook" in title
    assert "라이선스: Apache-2.0" in title
    nav = files["EPUB/nav.xhtml"].decode()
    assert 'epub:type="landmarks"' in nav and 'epub:type="toc"' in nav
    landmarks = re.findall(r'epub:type="(cover|titlepage|toc)">([^<]*)</a>', nav)
    assert sorted(landmarks) == [("cover", "표지"), ("titlepage", "속표지"), ("toc", "차례")]
    chapters = sorted(n for n in files if re.fullmatch(r"EPUB/text/ch\d+\.xhtml", n))
    titles = [re.findall(r"<title>([^<]*)</title>", files[n].decode())[0] for n in chapters]
    # The front matter (옮긴이의 말) first, then the numbered chapters.
    assert titles[:3] == ["옮긴이의 말", "1장 학습 한 스텝의 메모리", "2장 데이터 병렬화와 ZeRO"]


def test_the_table_of_contents_prints_each_number_once(sample: kobook.BuildResult) -> None:
    files = entries(sample.outputs["epub"])
    nav = [xhtml_text(a) for a in re.findall(r"<a [^>]*>.*?</a>", files["EPUB/nav.xhtml"].decode())]
    ncx = re.findall(r"<text>([^<]*)</text>", files["EPUB/toc.ncx"].decode())
    for entries_ in (nav, ncx):
        titles = [" ".join(t.split()) for t in entries_]
        assert "1장 학습 한 스텝의 메모리" in titles and "1.2 메모리를 차지하는 것들" in titles
        doubled = [t for t in titles if re.match(r"^(\d+(?:\.\d+)*)\s+\1(?:장|\b)", t)]
        assert doubled == []


def test_math_notes_code_and_korean_breaking(sample: kobook.BuildResult) -> None:
    files = entries(sample.outputs["epub"])
    pages = "".join(x for _, x in epub_pages(sample.outputs["epub"]))
    assert "<math" in pages
    assert 'epub:type="footnote"' in pages and 'epub:type="noteref"' in pages
    notes = re.findall(
        r'<aside epub:type="footnote"[^>]*id="([^"]+)"[^>]*>(.*?)</aside>', pages, re.S
    )
    assert len(notes) >= 3
    for ident, body in notes:  # each note links back to its call
        back = re.search(r'<a href="#([^"]+)" role="doc-backlink">', body)
        assert back is not None, ident
        assert re.search(rf'<a href="#{re.escape(ident)}"[^>]*id="{back.group(1)}"', pages)
    assert 'class="sourceCode' in pages and "code span.kw" in pages  # highlighted code
    assert re.search(r'<span class="eqno">\(\d+\.\d+\)</span>', pages)  # numbered equations
    css = files["EPUB/styles/stylesheet1.css"].decode()
    assert "word-break: keep-all" in css
    assert all(name.isascii() for name in files)  # ASCII names inside the container
    assert any(name.startswith("EPUB/media/") and name.endswith(".svg") for name in files)


def test_cross_references_lead_to_the_chapter_that_holds_them(
    sample: kobook.BuildResult,
) -> None:
    pages = dict(epub_pages(sample.outputs["epub"]))
    ids = {name: set(re.findall(r'\sid="([^"]+)"', xhtml)) for name, xhtml in pages.items()}
    crossing = 0
    for name, xhtml in pages.items():
        for target, anchor in re.findall(r'href="([^"#]*)#([^"]+)"', xhtml):
            holder = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
            holder = holder if target else name
            assert anchor in ids.get(holder, set()), (name, target, anchor)
            crossing += bool(target)
    assert crossing >= 3  # e.g. 그림 1.1 cited in chapter 2


def test_two_builds_in_two_folders_give_the_same_epub(tmp_path: Path) -> None:
    built = []
    for name in ("one", "two"):
        project = sample_copy(tmp_path / name)
        result = kobook.build(project, ["epub"], out=tmp_path / name / "out")
        built.append(result.outputs["epub"].read_bytes())
    assert built[0] == built[1]
    assert epubcheck(result.outputs["epub"]) == []


def test_images_from_outside_the_book_are_left_out_and_said_so(
    make_book: BookMaker, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.png"
    secret.write_bytes((Path(__file__).parent.parent / "data" / "pixel.png").read_bytes())
    chapter = (
        "# 장\n\n그림이 있다.\n\n![고양이](images/cat.png)\n\n"
        f'<img src="../secret.png" alt="밖"> <img src="{secret}"> '
        '<video src="images/cat.png"></video>\n\n'
        "[옆 파일](../other/page.html)과 [없는 곳](#nowhere).\n"
    )
    project = make_book(
        {"book/01.md": chapter}, metadata={"title": "책"}, images=["images/cat.png"]
    )
    result = kobook.build(project, ["epub"], offline=True)
    epub = result.outputs["epub"]
    assert epubcheck(epub) == []
    left = [d for d in result.diagnostics if d.code == "EPUB001"]
    assert len(left) == 3
    assert all(d.location.file is not None and d.location.file.name == "01.md" for d in left)
    assert {d.location.line for d in left} == {7}
    media = [data for name, data in entries(epub).items() if name.startswith("EPUB/media/")]
    assert len(media) == 2  # the cat, and the drawn cover
    # ../other/page.html: no chapter, no web address; decided for every writer (LINK001)
    assert any(d.code == "LINK001" and d.location.line == 9 for d in result.diagnostics)
    pages = "".join(x for _, x in epub_pages(epub))
    assert "옆 파일" in pages and "없는 곳" in pages  # the texts stay, the links go
    assert "other/page.html" not in pages and 'href="#nowhere"' not in pages


def test_raw_html_as_people_write_it_is_valid_epub(make_book: BookMaker) -> None:
    """``첫 줄<br>둘째 줄`` was EPUBCheck's fatal RSC-016 and ``<img width="50%"
    align="right">`` two errors: each tag is now XHTML, the old attributes CSS."""
    chapter = (
        "# 장\n\n첫 줄<br>둘째 줄.\n\n"
        '<img src="images/cat.png" width="50%" align="right" alt="고양이">\n\n'
        "<p align=center>가운데</p>\n\n"
        "<table border=2 cellpadding=3><tr><td valign=top nowrap>칸</td></tr></table>\n\n<hr>\n"
    )
    project = make_book(
        {"book/01.md": chapter}, metadata={"title": "책"}, images=["images/cat.png"]
    )
    result = kobook.build(project, ["epub"], offline=True)
    assert epubcheck(result.outputs["epub"]) == []
    page = "".join(x for _, x in epub_pages(result.outputs["epub"]))
    assert "첫 줄<br />" in page
    assert 'style="width: 50%; float: right"' in page
    notes = [d for d in result.diagnostics if d.code == "EPUB004"]
    assert [d.severity for d in notes] == ["info"] and "cellpadding" in notes[0].message


def test_an_svg_with_a_doctype_is_made_fit_for_epub(make_book: BookMaker) -> None:
    svg = (
        '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
        '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [ <!ENTITY % x "y"> ]>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="20" height="10"><rect width="20" height="10" fill="red"/>'
        '<image fill="none" width="1" height="1" xlink:href="data:image/png;base64,AA=="/></svg>'
    )
    project = make_book(
        {"book/01.md": "# 장\n\n![빨간 상자](images/box.svg)\n", "images/box.svg": svg},
        metadata={"title": "책"},
    )
    epub = kobook.build(project, ["epub"]).outputs["epub"]
    assert epubcheck(epub) == []
    drawn = [data for name, data in entries(epub).items() if name.endswith(".svg")]
    assert len(drawn) == 1 and b"DOCTYPE" not in drawn[0] and b'fill="none"' not in drawn[0]


def test_a_named_cover_and_embedded_fonts(make_book: BookMaker) -> None:
    project = make_book(
        {"book/01.md": "# 첫 장\n\n한글 본문과 `code`가 있다.\n"},
        metadata={
            "title": "표지 있는 책",
            "cover": "images/cover.png",
            "epub": {"embed-fonts": True},
        },
        images=["images/cover.png"],
    )
    epub = kobook.build(project, ["epub"]).outputs["epub"]
    assert epubcheck(epub) == []
    files = entries(epub)
    cover = (project / "images" / "cover.png").read_bytes()
    assert cover in files.values()
    fonts = {name: data for name, data in files.items() if name.startswith("EPUB/fonts/")}
    assert len(fonts) == 3
    assert all(len(data) < 2_000_000 for data in fonts.values())  # subset, not whole CJK fonts
    css = files["EPUB/styles/stylesheet1.css"].decode()
    assert 'font-family: "kobook-serif"' in css and "../fonts/" in css


def test_build_all_writes_the_epub_too(make_book: BookMaker, tmp_path: Path) -> None:
    project = make_book({"book/01.md": "# 장\n\n본문.\n"}, metadata={"title": "책"})
    run = CliRunner().invoke(
        main, ["build", "all", "--project", str(project), "--cache-dir", str(tmp_path / "c")]
    )
    assert run.exit_code == 0, run.output
    assert epubcheck(project / "dist" / "book.epub") == []
    assert (project / "dist" / "book.pdf").is_file()
    assert (project / "dist" / "html" / "index.html").is_file()
    # The site offers the build's PDF and EPUB from its own folder (a site published alone).
    site = project / "dist" / "html"
    for kind in ("pdf", "epub"):
        copy = site / "downloads" / f"book.{kind}"
        assert copy.read_bytes() == (project / "dist" / f"book.{kind}").read_bytes()
    for page in ("index.html", "ch01.html"):
        text = (site / page).read_text(encoding="utf-8")
        assert re.search(
            r'<p class="downloads">내려받기: <a href="downloads/book.pdf" download>PDF'
            r'</a> · <a href="downloads/book.epub" download>EPUB</a></p>',
            text,
        )
    assert html_problems(site) == []
    # A site built alone has nothing to offer.
    alone = kobook.build(project, ["html"], out=tmp_path / "alone", cache_dir=tmp_path / "c")
    page = alone.outputs["html"].read_text(encoding="utf-8")
    assert "downloads" not in page and not (tmp_path / "alone" / "html" / "downloads").exists()


WIDE = (
    "# 넓은 것들\n\n"
    "```python\n"
    "result = some_function_with_a_long_name(first_argument_value, second_argument_value, "
    "third_argument_value)  # 설명\n"
    "```\n\n"
    "| 이름 | 설명 | 예 |\n|---|---|---|\n"
    "| `torch.distributed.all_reduce_coalesced` | 여러 텐서를 한 번에 모아 줄이는 함수 | "
    "`all_reduce_coalesced(tensors, op=ReduceOp.SUM, group=None, async_op=False)` |\n\n"
    + "줄을 고르게 맞추면 좁은 화면에서 낱말 사이가 벌어진다. " * 6
    + "\n"
)


def test_a_phone_shows_code_and_tables_whole(
    make_book: BookMaker, tmp_path: Path, browser: object
) -> None:
    root = make_book({"book/01.md": WIDE}, metadata={"title": "좁은 화면", "lang": "ko-KR"})
    epub = kobook.build(root, ["epub"], out=tmp_path / "out").outputs["epub"]
    folder = tmp_path / "unpacked"
    with zipfile.ZipFile(epub) as container:
        container.extractall(folder)
    chapter = next((folder / "EPUB" / "text").glob("ch*.xhtml"))
    driver: Any = browser
    driver.set_window_size(390, 900)
    try:
        driver.get(chapter.as_uri())
        width = driver.execute_script("return document.documentElement.clientWidth")
        overflowing = driver.execute_script(
            """return Array.from(document.querySelectorAll('pre, table')).filter(
                 el => el.scrollWidth > el.clientWidth + 1
                    || el.getBoundingClientRect().right > document.documentElement.clientWidth + 1
               ).map(el => el.tagName)"""
        )
        assert overflowing == [] and width <= 390
        assert driver.execute_script("return getComputedStyle(document.body).textAlign") == "left"
    finally:
        driver.set_window_size(1400, 1000)


@pytest.mark.parametrize("described", [True, False])
def test_accessibility_claims_follow_the_images(
    make_book: BookMaker, tmp_path: Path, described: bool
) -> None:
    alt = "노드 두 개를 잇는 선" if described else ""
    text = f"# 그림 책\n\n첫 문단.\n\n![{alt}](images/a.png)\n\n수식 $x^2$이 있다.\n"
    root = make_book({"book/01.md": text}, metadata={"title": "그림 책"}, images=["images/a.png"])
    result = kobook.build(root, ["epub"], out=tmp_path / "out")
    package = entries(result.outputs["epub"])["EPUB/content.opf"].decode()
    features = re.findall(r'"schema:accessibilityFeature">([^<]+)<', package)
    found = [d for d in result.diagnostics if d.code == "A11Y001"]
    assert "MathML" in features and "schema:accessibilitySummary" in package
    assert re.findall(r'"schema:accessMode">([^<]+)<', package) == ["textual", "visual"]
    if described:
        assert found == [] and "alternativeText" in features
        assert "EPUB Accessibility 1.1 - WCAG 2.1 Level AA" in package
    else:
        assert [(d.location.file.name, d.location.line) for d in found] == [("01.md", 5)]
        assert "alternativeText" not in features and "conformsTo" not in package
    assert epubcheck(result.outputs["epub"]) == []


def test_store_metadata_and_formula_alt_text(make_book: BookMaker, tmp_path: Path) -> None:
    meta = {
        "title": "가게에 내는 책",
        "publisher": "한빛 출판",
        "subject": ["컴퓨터", "기계 학습"],
        "rights": "© 2026 옮긴이",
        "identifier": [{"scheme": "ISBN-13", "text": "979-11-0000-000-0"}],
        "description": "가게 목록에 보일 소개.",
        "edition": "초판 2쇄",
        "date": "2026-12-01",
        "translators": ["옮긴이 하나"],
        "colophon": {"price": "32,000원", "registration": "제2026-000001호"},
    }
    root = make_book({"book/01.md": "# 장\n\n수식 $x^2 < y$이 있다.\n"}, metadata=meta)
    epub = kobook.build(root, ["epub"], out=tmp_path / "out").outputs["epub"]
    files = entries(epub)
    package = files["EPUB/content.opf"].decode()
    for text in ("한빛 출판", "컴퓨터", "기계 학습", "© 2026 옮긴이", "979-11-0000-000-0"):
        assert text in package, text
    assert re.search(r"<dc:publisher>한빛 출판</dc:publisher>", package)
    assert '<meta property="schema:bookEdition">초판 2쇄</meta>' in package
    page = files["EPUB/text/ch001.xhtml"].decode()
    assert re.search(r'<math alttext="x\^2 &lt; y"', page)
    # The copyright page (판권), from the same keys, in the book's language, last.
    last = files["EPUB/text/ch002.xhtml"].decode()
    assert 'epub:type="copyright-page"' in last
    printed = xhtml_text(last)
    for line in (
        "판권",
        "초판 2쇄 발행 2026년 12월 1일",
        "옮긴이 옮긴이 하나",
        "펴낸곳 한빛 출판",
        "출판 등록 제2026-000001호",
        "정가 32,000원",
        "ISBN 979-11-0000-000-0",
        "© 2026 옮긴이",
    ):
        assert line in printed, line
    assert "판권" in files["EPUB/nav.xhtml"].decode()
    assert epubcheck(epub) == []


def test_ace_by_daisy_finds_nothing(sample: kobook.BuildResult, tmp_path: Path) -> None:
    from tests.a11y import ace

    assert ace(sample.outputs["epub"], tmp_path / "ace") == []


def test_alt_text_is_carried_from_markdown_and_html(make_book: BookMaker, tmp_path: Path) -> None:
    """The source's own description reaches the site and the EPUB as the image's ``alt``:
    Quarto's ``fig-alt`` beside a caption, a Markdown alt, and an HTML ``<img alt>``."""
    text = (
        "# 장\n\n"
        '![막대 두 개](images/a.png){fig-alt="왼쪽 막대가 오른쪽보다 두 배 길다" width=50%}\n\n'
        "글.\n\n"
        "![파이프라인 네 단계를 잇는 화살표](images/b.png)\n\n"
        '글 <img src="images/c.png" alt="HTML로 쓴 설명"> 끝.\n'
    )
    root = make_book(
        {"book/01.md": text},
        metadata={"title": "책"},
        images=["images/a.png", "images/b.png", "images/c.png"],
    )
    result = kobook.build(root, ["html", "epub"], out=tmp_path / "out", cache_dir=tmp_path / "c")
    page = (tmp_path / "out" / "html" / "ch01.html").read_text(encoding="utf-8")
    xhtml = "".join(
        data.decode("utf-8")
        for name, data in entries(result.outputs["epub"]).items()
        if name.endswith(".xhtml")
    )
    for markup in (page, xhtml):
        assert re.search(
            r'<img [^>]*style="width:50.0%" alt="왼쪽 막대가 오른쪽보다 두 배 길다"', markup
        )
        assert re.search(r"<figcaption>.*막대 두 개</figcaption>", markup)
        assert 'alt="파이프라인 네 단계를 잇는 화살표"' in markup
        assert 'alt="HTML로 쓴 설명"' in markup
        assert "fig-alt" not in markup
    assert not [d for d in result.diagnostics if d.code == "A11Y001"]
