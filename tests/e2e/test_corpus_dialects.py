"""The two corpus repositories of other dialects, imported and built in place.

``scaling-book-en`` (a Jekyll al-folio distill site) and ``rust-book-ko`` (an
mdBook book) are copied (the corpus is read-only), ``kobook import``ed, and
built once per module as HTML and a WeasyPrint PDF; every test reads those
outputs.  The expected counts are counted here from the sources on their own
terms, never copied from kobook's report.
"""

from __future__ import annotations

import html as htmllib
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kobook import build, import_repository
from kobook.api import BuildResult
from kobook.errors import Diagnostic
from tests.checks import epubcheck, font_pages, squash
from tests.conftest import COUNTERS, RUST_BOOK, SCALING, need_corpus

pytestmark = [pytest.mark.slow, pytest.mark.corpus]

FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*\n", re.S)
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?^ {0,3}\1[ \t]*$", re.M | re.S)
TAG = re.compile(r"<[^>]+>")
LEFTOVERS = ("{%", "<d-", "markdown=1", "$$", "{{#")


@dataclass
class Built:
    """One corpus book built as HTML and PDF."""

    root: Path
    result: BuildResult
    imported: list[str]
    html_dir: Path
    pdf: Path
    pdf_text: str
    pages: list[str]
    # pages whose block-by-block HTML (kobook preview's) differed from pandoc's whole one
    pieced_differing: list[str]
    pieced: int
    # chapters whose block-by-block preparation (write/html/blockprep.py) differed from prepare()
    prepared_differing: list[str]
    prepared: int

    def codes(self, code: str) -> list[Diagnostic]:
        return [d for d in self.result.diagnostics if d.code == code]

    def html_pages(self) -> Iterator[tuple[Path, str]]:
        for page in sorted(self.html_dir.glob("*.html")):
            yield page, page.read_text(encoding="utf-8")

    def chapter_html(self) -> str:
        return "\n".join(text for page, text in self.html_pages() if page.name != "index.html")


def visible_text(page: str) -> str:
    """The text a reader sees: no tags, no scripts, entities decoded."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return htmllib.unescape(TAG.sub(" ", page))


def build_corpus(source: Path, tmp: Path) -> Built:
    root = tmp / "repo"
    shutil.copytree(source, root)
    imported = import_repository(root)
    out, cache = tmp / "out", tmp / "cache"
    with pytest.MonkeyPatch.context() as patch:
        witness = BlockHtmlWitness(patch)
        result = build(
            root, ["html", "pdf", "epub"], out=out, cache_dir=cache, keep_going=True, offline=True
        )
    pdf = result.outputs["pdf"]
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return Built(
        root,
        result,
        imported.chapters,
        result.outputs["html"].parent,
        pdf,
        text,
        text.split("\f"),
        witness.differing,
        witness.pieced,
        witness.prepared_differing,
        witness.prepared,
    )


class BlockHtmlWitness:
    """While a build runs, every pandoc HTML of a site page is also made
    block by block (``write/shared/blockhtml.py``, as ``kobook preview`` makes it), from
    pieces kept from earlier pages and from a differently ordered copy of the same
    page; the build keeps pandoc's own, the witness notes where the two differ.
    Each page's preparation (sanitizer, site passes) is also made block by block
    (``write/html/blockprep.py``), the same way."""

    def __init__(self, patch: pytest.MonkeyPatch) -> None:
        from kobook.model import Doc
        from kobook.write.html import blockprep
        from kobook.write.html import writer as html
        from kobook.write.shared import blockhtml, common

        self.kept = blockhtml.BlockHtml(common.blocks_to_html)
        self.differing: list[str] = []
        self.pieced = 0  # pages made from pieces (not written whole for their footnotes)
        whole = html.chapters_to_html  # every page's pandoc HTML, as the build writes it
        kept_prepare = blockprep.KeptPrepare()
        self.prepared_differing: list[str] = []
        self.prepared = 0
        whole_prepare = html.prepare

        def shown(result: tuple[list[Any], list[Diagnostic]]) -> Any:
            return result[0], [(d.code, d.message, d.location) for d in result[1]]

        def both_prepare(doc: Doc, book: Any, pages: dict[str, str]) -> Any:
            result = whole_prepare(doc, book, pages)
            kept_prepare.prepare(Doc(doc.chapter, doc.blocks[::-1], doc.meta), book, pages)
            if shown(kept_prepare.prepare(doc, book, pages)) != shown(result):
                self.prepared_differing.append(doc.chapter.id)
            self.prepared += 1
            return result

        patch.setattr(html, "prepare", both_prepare)

        def both(chapters: list[list[Any]], cache: Any) -> list[str]:
            texts = whole(chapters, cache)
            for blocks, text in zip(chapters, texts, strict=True):
                self.kept.html(blocks[::-1])  # the same blocks, other code-block counts
                if self.kept.html(blocks) != text:
                    self.differing.append(text[:200])
                self.pieced += not blockhtml.has_notes(blocks)
            return texts

        # The site's pages only: the print HTML goes through the same BlockHtml, and a
        # second witness of every page doubled the corpora's build time.
        patch.setattr(html, "chapters_to_html", both)


@pytest.fixture(scope="module")
def scaling(tmp_path_factory: pytest.TempPathFactory) -> Built:
    need_corpus(SCALING / "index.md")
    return build_corpus(SCALING, tmp_path_factory.mktemp("scaling"))


@pytest.fixture(scope="module")
def rust(tmp_path_factory: pytest.TempPathFactory) -> Built:
    need_corpus(RUST_BOOK / "src" / "SUMMARY.md")
    return build_corpus(RUST_BOOK, tmp_path_factory.mktemp("rust"))


def test_pages_made_block_by_block_are_pandocs_own(scaling: Built, rust: Built) -> None:
    """What ``kobook preview`` writes from kept pieces is byte for byte pandoc's HTML
    (code blocks numbered or not, the ones pandoc cannot highlight counted too)."""
    assert scaling.pieced_differing == [] and rust.pieced_differing == []
    assert scaling.pieced >= 2 and rust.pieced >= 20  # pages without footnotes
    # ... and so is its preparation (sanitized raw HTML, the site's passes, the warnings)
    assert scaling.prepared_differing == [] and rust.prepared_differing == []
    assert scaling.prepared >= 10 and rust.prepared >= 20


# -- scaling-book-en (distill) -------------------------------------------------


def distill_posts() -> list[tuple[int, str, str]]:
    """(section_number, title, file body) of every ``layout: distill`` post."""
    posts = []
    for path in sorted(SCALING.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        match = FRONT_MATTER.match(text)
        if not match or not re.search(r"^layout:\s*distill\s*$", match.group(1), re.M):
            continue
        number = int(re.search(r"^section_number:\s*(\d+)", match.group(1), re.M).group(1))  # type: ignore[union-attr]
        title = re.search(r'^title:\s*"?(.*?)"?\s*$', match.group(1), re.M).group(1)  # type: ignore[union-attr]
        posts.append((number, title, FENCE.sub("", text[match.end() :])))
    return sorted(posts)


def test_scaling_chapters_follow_section_number(scaling: Built) -> None:
    posts = distill_posts()
    assert len(posts) == 12
    assert scaling.imported == [title for _, title, _ in posts]
    toc = visible_text((scaling.html_dir / "index.html").read_text(encoding="utf-8"))
    places = [toc.find(title) for _, title, _ in posts]
    assert -1 not in places and places == sorted(places)


def test_scaling_every_figure_include_is_a_figure_or_a_placeholder(scaling: Built) -> None:
    includes = sum(
        len(re.findall(r"\{%-?\s*include\s+figure\.(?:liquid|html)", body))
        for _, _, body in distill_posts()
    )
    assert includes == 76
    missing = scaling.codes("IMG001")
    html = scaling.chapter_html()
    figures = re.findall(r"<figure\b.*?</figure>", html, re.S)
    drawn = [f for f in figures if "<img" in f and re.search(r"Figure\u00a0\d+\.\d+\.", f)]
    placeholders = html.count('class="missing-image"')
    # Each include is one numbered figure ("Figure 3.2.") or one IMG001 placeholder.
    assert placeholders == len(missing)
    assert len(drawn) + placeholders == includes
    labels = set(re.findall(r"Figure\u00a0(\d+\.\d+)\.", html))
    for diagnostic in missing:
        assert diagnostic.location.file is not None and diagnostic.location.line > 0
        line = diagnostic.location.file.read_text(encoding="utf-8").split("\n")[
            diagnostic.location.line - 1
        ]
        assert "include figure" in line
    pdf_labels = set(re.findall(r"Figure[\s\u00a0](\d+\.\d+)\.", scaling.pdf_text))
    assert pdf_labels == labels


def test_scaling_details_footnotes_and_citations(scaling: Built) -> None:
    bodies = [body for _, _, body in distill_posts()]
    details = sum(len(re.findall(r"\{%\s*details\b", b)) for b in bodies)
    footnotes = sum(b.count("<d-footnote>") for b in bodies)
    cites = sum(len(re.findall(r"<d-cite\b", b)) for b in bodies)
    assert (details, footnotes, cites) == (62, 44, 14)
    html = scaling.chapter_html()
    assert html.count("<details") == details
    assert len(re.findall(r'<li id="fn\d+"', html)) == footnotes
    assert html.count('class="footnote-ref"') == footnotes
    assert not [d for d in scaling.result.diagnostics if d.code.startswith("CITE")]
    assert html.count('class="citation"') == cites
    assert "(?" not in visible_text(html)  # an unresolved citation prints as (?)
    # Print: every answer box opens with its label.
    labels = [
        re.search(r"\{%\s*details\s+(.*?)\s*%\}", b).group(1)  # type: ignore[union-attr]
        for b in bodies
        for b in re.findall(r"\{%\s*details\b.*?%\}", b)
    ]
    flat = " ".join(scaling.pdf_text.split())
    assert sum(flat.count(" ".join(label.split())) for label in set(labels)) >= details


def test_scaling_leaves_no_foreign_syntax(scaling: Built) -> None:
    for page, text in scaling.html_pages():
        seen = visible_text(text)
        assert not [s for s in LEFTOVERS if s in seen], page.name
    assert not [s for s in LEFTOVERS if s in scaling.pdf_text]
    assert not scaling.codes("LEAK001") and not scaling.codes("LEAK002")
    assert not [d for d in scaling.result.diagnostics if d.code.startswith("MATH")]


@pytest.mark.parametrize("book", ["scaling", "rust"])
def test_the_ledger_finds_nothing_lost(book: str, request: pytest.FixtureRequest) -> None:
    """Every construct of both dialect books reaches the PDF, the site and the EPUB: the
    Rust book's table of Ferris pictures once lost its second column past the page's
    edge; characters no font has are GLYPH001 (drawn as boxes), not losses."""
    built: Built = request.getfixturevalue(book)
    assert [d.format() for d in built.result.diagnostics if d.code.startswith("LOST")] == []


@pytest.mark.parametrize(
    ("book", "chapter", "engine"),
    [
        # 2<sup>7</sup> − 1: printed "27 − 1" by Typst and XeLaTeX once (LOST003 now)
        ("rust", "ch03-00-common-programming-concepts", "typst"),
        # short chapters: XeLaTeX is the slow engine (its superscripts: test_ledger.py)
        ("rust", "ch00-00-introduction", "xelatex"),
        ("scaling", "conclusion", "xelatex"),  # through Typst whole: tests/e2e/test_typst.py
    ],
)
def test_the_ledger_finds_nothing_lost_through_the_other_engines(
    book: str, chapter: str, engine: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Both dialect books through the PDF engines their full builds above do not use, one
    chapter each (numbered as in the whole book; the whole Rust book is minutes in XeLaTeX):
    nothing the ledger counts is missing from the PDF."""
    built: Built = request.getfixturevalue(book)
    result = build(
        built.root,
        ["pdf"],
        engine=engine,
        chapter=chapter,
        keep_going=True,
        offline=True,
        out=tmp_path / "out",
        cache_dir=built.root.parent / "cache",
    )
    assert [d.format() for d in result.diagnostics if d.code.startswith("LOST")] == []
    assert result.outputs["pdf"].stat().st_size > 20_000


# -- rust-book-ko (mdBook) -----------------------------------------------------


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
        expected = squash(rust.pages[index])[:40]
        assert expected in squash(text) and expected in squash(other), index


def test_both_dialect_books_make_an_epub_epubcheck_passes(scaling: Built, rust: Built) -> None:
    for built in (scaling, rust):
        assert epubcheck(built.result.outputs["epub"]) == []


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


def test_rust_epub_passes_ace(rust: Built, tmp_path: Path) -> None:
    from tests.a11y import ace

    assert ace(rust.result.outputs["epub"], tmp_path / "ace") == []
