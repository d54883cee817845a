"""``rust-book-ko`` (an mdBook book) imported and built in place
(``tests/corpus_books.py``): parts and chapters from SUMMARY.md, includes, listings,
the PDF's pages and fonts, the site's and the EPUB's accessibility."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.checks import epubcheck, font_pages, squash
from tests.conftest import COUNTERS, RUST_BOOK, need_corpus
from tests.corpus_books import (
    Built,
    assert_pieced_as_pandoc,
    build_chapter,
    build_corpus,
    no_loss,
    same_through_another_engine,
    visible_text,
)

pytestmark = [pytest.mark.slow, pytest.mark.corpus]


@pytest.fixture(scope="module")
def rust(tmp_path_factory: pytest.TempPathFactory) -> Built:
    need_corpus(RUST_BOOK / "src" / "SUMMARY.md")
    return build_corpus(RUST_BOOK, tmp_path_factory.mktemp("rust"))


def test_pages_made_block_by_block_are_pandocs_own(rust: Built) -> None:
    assert_pieced_as_pandoc(rust, pieced=20, prepared=20)


def test_the_ledger_finds_nothing_lost(rust: Built) -> None:
    """Every construct reaches the PDF, the site and the EPUB: the table of Ferris
    pictures once lost its second column past the page's edge; characters no font has
    are GLYPH001 (drawn as boxes), not losses."""
    assert no_loss(rust) == []


@pytest.mark.parametrize(
    ("chapter", "engine"),
    [
        # the full build is Typst's: a chapter of tables, code and <sup> through WeasyPrint
        ("ch03-00-common-programming-concepts", "weasyprint"),
        # a short chapter: XeLaTeX is the slow engine (its superscripts: test_ledger.py)
        ("ch00-00-introduction", "xelatex"),
    ],
)
def test_the_ledger_finds_nothing_lost_through_the_other_engines(
    chapter: str, engine: str, rust: Built, tmp_path: Path
) -> None:
    """One chapter through each PDF engine the full build does not use (the whole book
    is minutes in XeLaTeX)."""
    same_through_another_engine(rust, chapter, engine, tmp_path / "out")


def summary_entries() -> list[tuple[str, str, int]]:
    """(kind, title or file, depth) per SUMMARY.md line: part headings and linked chapters."""
    entries = []
    lines = (RUST_BOOK / "src" / "SUMMARY.md").read_text(encoding="utf-8").split("\n")
    for index, line in enumerate(lines):
        heading = re.match(r"^#+\s+(.*)", line)
        if heading and index > 0:
            entries.append(("part", heading.group(1).strip(), 0))
            continue
        link = re.match(r"^(\s*)(?:[-*]\s+)?\[([^\]]+)\]\(([^)]*)\)", line)
        if link and link.group(3).strip():
            entries.append(("link", link.group(3).strip(), len(link.group(1)) // 2))
    return entries


def test_rust_chapters_and_parts_follow_summary(rust: Built) -> None:
    entries = summary_entries()
    chapters = [Path(f).stem for kind, f, depth in entries if kind == "link" and depth == 0]
    parts = [title for kind, title, _ in entries if kind == "part"]
    sections = [f for kind, f, depth in entries if kind == "link" and depth > 0]
    assert len(rust.imported) == len(chapters) and len(sections) > 50
    assert not [t for t in rust.imported if t.startswith("#")]
    # The site has one page per chapter, in SUMMARY.md's order; sections are inside them.
    index = (rust.html_dir / "index.html").read_text(encoding="utf-8")
    pages = list(dict.fromkeys(re.findall(r'href="([\w.-]+)\.html', index)))
    assert [p for p in pages if p != "index"] == chapters
    assert sorted(p.stem for p in rust.html_dir.glob("*.html")) == sorted(["index", *chapters])
    # Each part heading stands before its first chapter.
    toc = visible_text(index)
    where = [toc.find(part) for part in parts]
    assert -1 not in where and where == sorted(where)
    installation = (rust.html_dir / "ch01-00-getting-started.html").read_text(encoding="utf-8")
    assert re.search(r"<h2\b[^>]*>.*설치", installation, re.S)  # a section of chapter 1


def test_rust_every_include_is_resolved(rust: Built) -> None:
    for page, text in rust.html_pages():
        assert "{{#" not in visible_text(text), page.name
    assert "{{#" not in rust.pdf_text
    assert not rust.codes("LEAK001") and not rust.codes("LEAK002")
    assert not [d for d in rust.result.diagnostics if d.code.startswith("DIA2")]


def test_rust_hello_world_and_listing_1_2_are_under_their_captions(rust: Built) -> None:
    """The Korean corpus wraps chapter 1's hello world in a file-name span, not a
    ``<Listing number="1-1">`` (its first numbered listing is 1-2): both print their
    caption right above their code."""
    source = (RUST_BOOK / "src" / "ch01-02-hello-world.md").read_text(encoding="utf-8")
    assert '<span class="filename">파일명: main.rs</span>' in source
    flat = " ".join(rust.pdf_text.split())
    at = flat.find("파일명: main.rs")
    assert at >= 0
    assert re.match(r'파일명: main\.rs fn main\(\) \{ println!\("Hello, world!"\); \}', flat[at:])
    caption = flat.find("예제 1-2.")
    assert caption >= 0
    assert "[package]" in flat[caption : caption + 300]
    assert 'name = "hello_cargo"' in flat[caption : caption + 300]


def test_rust_pdf_has_no_blank_pages_and_passes_the_counters(rust: Built) -> None:
    """The only empty pages are versos before a chapter or part that opens on a recto."""
    parts = [title for kind, title, _ in summary_entries() if kind == "part"]
    openings = [re.sub(r"[`*]", "", t) for t in [*rust.imported, *parts]]
    for number, page in enumerate(rust.pages[:-1], 1):
        if page.strip():
            continue
        following = " ".join(rust.pages[number].split())[:400]
        assert number % 2 == 0, f"blank recto page {number}"
        assert any(" ".join(t.split()) in following for t in openings), f"blank page {number}"
    sources = sorted(str(p) for p in (rust.root / "src").glob("*.md"))
    out = subprocess.run(
        [sys.executable, str(COUNTERS), str(rust.pdf), *sources],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    summary = dict(re.findall(r"(\w+)=(\d+)", out.strip().splitlines()[-1]))
    assert summary and all(int(v) == 0 for k, v in summary.items() if k != "fname"), out


def test_rust_pdf_fonts_read_back_in_pypdf_and_pdfplumber(rust: Built) -> None:
    """Issue 32: the 614-page WeasyPrint Rust book wrote fonts with a CMap pypdf and
    pdfplumber could not read.  Reading one page per font reads every font the PDF has."""
    import warnings

    import pdfplumber
    from pypdf import PdfReader

    fonts = font_pages(rust.pdf)
    pages = sorted(set(fonts.values()))
    assert len(fonts) >= 10
    reader = PdfReader(rust.pdf)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a CMap pypdf cannot read is a warning there
        texts = [reader.pages[i].extract_text() for i in pages]
    with pdfplumber.open(rust.pdf) as document:
        plumbed = [document.pages[i].extract_text() or "" for i in pages]
    for index, text, other in zip(pages, texts, plumbed, strict=True):
        # Without emoji: poppler places a colour emoji's glyph by its box, not its order.
        expected = unemoji(squash(rust.pages[index]))[:40]
        assert expected in unemoji(squash(text)) and expected in unemoji(squash(other)), index


def unemoji(text: str) -> str:
    return "".join(char for char in text if ord(char) < 0x1F000)


def test_the_epub_passes_epubcheck(rust: Built) -> None:
    assert epubcheck(rust.result.outputs["epub"]) == []


def test_rust_site_passes_axe_in_every_theme_and_width(rust: Built, browser: Any) -> None:
    """The index, a chapter of prose and tables, and the chapter whose original skips a
    heading level (HEAD001 moves it up)."""
    from tests.a11y import VIEWS, axe
    from tests.browser import serve

    pages = ("index.html", "ch04-00-understanding-ownership.html", "ch17-00-async-await.html")
    with serve(rust.html_dir) as url:
        found = {
            f"{page} {scheme} {width}px": axe(browser, f"{url}/{page}", scheme, width)
            for page in pages
            for scheme, width in VIEWS
        }
    assert {view: v for view, v in found.items() if v} == {}
    assert rust.codes("HEAD001"), "the Rust book's skipped levels are reported"


def test_rust_untranslated_text_is_tagged_english_in_site_and_epub(rust: Built) -> None:
    """Half the Korean Rust book is still English: a screen reader must read it in an
    English voice (WCAG 3.1.2), the translated text stays Korean."""
    import zipfile

    page = (rust.html_dir / "ch17-00-async-await.html").read_text(encoding="utf-8")
    assert re.search(r'<span lang="en">Many operations we ask the computer', page)
    assert re.search(r'<span lang="en">Parallelism and Concurrency</span>', page)
    assert not re.search(r'lang="en">[^<]*[가-힣]', page)
    with zipfile.ZipFile(rust.result.outputs["epub"]) as epub:
        text = " ".join(
            epub.read(n).decode("utf-8") for n in epub.namelist() if n.endswith(".xhtml")
        )
    assert text.count('lang="en"') > 1000
    assert not re.search(r'lang="en">[^<]*[가-힣]', text)


# Ace runs axe on every page of an EPUB in Chromium: over the whole Rust book that was a
# hundred CPU-seconds, the suite's most.  The whole EPUB passes epubcheck (above) and the
# sample's and the playbook's pass Ace; here Ace reads the Rust chapters whose constructs
# those lack: Ferris's table of pictures, and mdBook listings under the heading level the
# original skips (HEAD001).
ACE_CHAPTERS = ("ch00-00-introduction", "ch17-00-async-await")


def test_rust_epub_passes_ace(rust: Built, tmp_path: Path) -> None:
    from tests.a11y import ace

    found = []
    for chapter in ACE_CHAPTERS:
        result = build_chapter(rust, chapter, ["epub"], tmp_path / chapter)
        found += ace(result.outputs["epub"], tmp_path / f"ace-{chapter}")
    assert found == []
