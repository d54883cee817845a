"""Build the repository's own sample book to PDF and HTML and read the results."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from pypdf import PdfReader

import kobook
from kobook.cache import Cache
from kobook.load import load_book
from kobook.normalize import normalize_book
from kobook.parse import parse_book
from kobook.parse.ast import iter_nodes, stringify
from kobook.transform import transform_book
from kobook.write import registry
from tests import checks as layout
from tests.checks import (
    html_problems,
    in_order,
    page_labels,
    pdf_pages,
    split_words,
    squash,
    toc_entries,
    words_off_page,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(sample_build: Callable[[str], kobook.BuildResult]) -> kobook.BuildResult:
    """The PDF and the site, through the default engine (built once for the run)."""
    result = sample_build(registry.engine_for(load_book(REPO).config, REPO))
    assert set(result.outputs) == {"pdf", "html"}
    return result


@pytest.fixture(scope="module")
def transformed() -> list:
    book = load_book(REPO)
    normalize_book(book)
    docs, _ = transform_book(book, parse_book(book, Cache(None)))
    return docs


@pytest.fixture(scope="module")
def pages(built: kobook.BuildResult) -> list[str]:
    return pdf_pages(built.outputs["pdf"])


def headings(docs: list, max_level: int = 3) -> list[str]:
    found = []
    for doc in docs:
        for node in iter_nodes(doc.blocks):
            if node["t"] == "Header" and node["c"][0] <= max_level:
                found.append(stringify(node["c"][2]))
    return found


def test_every_heading_appears_in_order(pages: list[str], transformed: list) -> None:
    body = "\n".join(pages[2:])  # after the title page and the start of the TOC
    expected = headings(transformed)
    assert len(expected) >= 25
    assert in_order(body, expected) == []


def test_figure_and_table_captions_are_numbered_per_chapter(pages: list[str]) -> None:
    text = "\n".join(pages)
    figures = set(re.findall(r"그림\s(\d+)\.(\d+)\.", text))
    tables = set(re.findall(r"표\s(\d+)\.(\d+)\.", text))
    assert {chapter for chapter, _ in figures} >= {"1", "2", "3", "4", "5"}
    assert ("1", "1") in figures and ("1", "2") in figures
    assert len(tables) >= 4


def test_sample_book_is_long_enough(built: kobook.BuildResult) -> None:
    assert len(PdfReader(built.outputs["pdf"]).pages) >= 25


def test_no_build_warnings_but_the_deliberate_file_name_caption(built: kobook.BuildResult) -> None:
    # The screenshot whose alt text is a file name: dropped (FIG002), so it has none (A11Y001).
    codes = [d.code for d in built.diagnostics]
    assert codes == ["FIG002", "A11Y001"], [d.format() for d in built.diagnostics]
    assert built.diagnostics[0].location.line == built.diagnostics[1].location.line


def test_hangul_fonts_are_embedded(built: kobook.BuildResult) -> None:
    reader = PdfReader(built.outputs["pdf"])
    fonts: dict[str, bool] = {}
    for page in reader.pages:
        resources = page.get("/Resources") or {}
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            descriptor = target.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor else {}
            embedded = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            fonts[str(font.get("/BaseFont"))] = embedded
    cjk = [name for name in fonts if "CJK" in name or "Nanum" in name]
    assert cjk, fonts
    assert all(fonts.values()), fonts


def test_toc_page_numbers_point_at_the_headings(
    pages: list[str], built: kobook.BuildResult
) -> None:
    """The contents' numbers are folios: the body's pages from 1, found through the PDF's
    page labels (the front matter is numbered i, ii, … as in XeLaTeX and Typst)."""
    labels = page_labels(built.outputs["pdf"])
    assert labels.get("1", 0) > 0 and "i" in labels  # the body does not start the PDF
    toc_pages = [i for i, p in enumerate(pages[:6]) if "차례" in p]
    assert toc_pages
    entries = []
    for index in range(toc_pages[0], len(pages)):
        found = toc_entries(pages[index])
        if not found and entries:
            break
        entries += found
    assert len(entries) >= 20
    for title, number in entries:
        page_text = squash(pages[labels[str(number)]])
        # The title may be cut by the TOC's leader; its first words must be on that page.
        head = squash(title)[:12]
        assert head in page_text, f"TOC says {title!r} is on page {number}"


def test_no_raw_markdown_in_pdf_text(pages: list[str]) -> None:
    text = "\n".join(pages)
    code = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "book").glob("*.md"))
    code_blocks = "".join(re.findall(r"^```.*?^```", code, flags=re.S | re.M))
    for token in ("**", "](", ":::", "{#", "$$"):
        assert text.count(token) <= code_blocks.count(token), token
    assert "\\frac" not in text and "\\text" not in text


def test_words_are_not_split_across_lines(pages: list[str]) -> None:
    text = "\n".join(pages)
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "book").glob("*.md")))
    assert split_words(text, source) == []
    assert "\u2060" not in text and "\u200b" not in text


def test_particles_after_references_agree_with_numbers(pages: list[str]) -> None:
    text = "\n".join(pages)
    pairs = re.findall(r"(?:그림|표)\s(\d+)\.(\d+)(을|를|은|는|이|가|과|와)(?=\s)", text)
    assert pairs
    vowel_final = {"2", "4", "5", "9"}
    for _chapter, number, particle in pairs:
        if particle in "을은이과":
            assert number[-1] not in vowel_final, (number, particle)
        else:
            assert number[-1] in vowel_final, (number, particle)


def test_html_site_is_offline_and_links_resolve(built: kobook.BuildResult) -> None:
    site = built.outputs["html"].parent
    assert html_problems(site) == []
    pages = sorted(site.glob("*.html"))
    assert len(pages) == 8  # index + 옮긴이의 말 + 5 chapters + the 찾아보기 (genindex.html)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'lang="ko' in index
    chapter = (site / "01-memory.html").read_text(encoding="utf-8")
    assert "<math" in chapter  # MathML
    assert "word-break: keep-all" in (site / "assets" / "style.css").read_text(encoding="utf-8")
    assert 'role="doc-backlink"' in chapter or "footnote-back" in chapter
    assert re.search(r'<img[^>]+src="images/[^"]+\.(svg|png)"', chapter)
    assert not re.search(r'(src|href)="https?://[^"]+\.(css|js|woff2?|ttf)"', chapter)


def test_pdf_has_bookmarks_for_chapters(built: kobook.BuildResult) -> None:
    outline = PdfReader(built.outputs["pdf"]).outline
    titles = [item.title for item in outline if not isinstance(item, list)]
    assert sum(1 for t in titles if re.match(r"^\d장", t)) == 5


def test_nothing_runs_off_the_page(built: kobook.BuildResult) -> None:
    # a5 with 15 mm outer and 18 mm inner margins: no word within 14 mm of an edge.
    assert words_off_page(built.outputs["pdf"], margin=14 * 72 / 25.4) == []


def test_page_size_and_fonts_follow_metadata(built: kobook.BuildResult) -> None:
    reader = PdfReader(built.outputs["pdf"])
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (420, 595)  # a5


def test_emoji_come_from_an_emoji_font(built: kobook.BuildResult, pages: list[str]) -> None:
    assert "🚀" in "\n".join(pages) or "📝" in "\n".join(pages)
    out = subprocess.run(
        ["pdffonts", str(built.outputs["pdf"])], capture_output=True, text=True, check=True
    ).stdout
    assert "Emoji" in out


def test_title_page_names_authors_translators_and_original(pages: list[str]) -> None:
    title = squash(pages[0])
    for expected in ("초대규모학습플레이북맛보기", "옮김", "지음", "원서", "Apache-2.0"):
        assert expected in title, expected


def test_running_heads_and_page_numbers(pages: list[str], built: kobook.BuildResult) -> None:
    """Every written page of the body prints its folio, which is its page label (the body
    counts from 1 on its first page, after the roman-numbered front matter)."""
    labels = PdfReader(built.outputs["pdf"]).page_labels
    numbered = 0
    heads = 0
    written = 0
    for index, text in enumerate(pages[4:], start=4):
        lines = [line.strip() for line in text.split("\n") if line.strip()]
        written += bool(lines)  # blank pages before a chapter carry no number
        if lines and labels[index] in lines:
            numbered += 1
        if lines and (lines[0].endswith("ZeRO") or lines[0] == "초대규모 학습 플레이북 맛보기"):
            heads += 1
    assert numbered >= written - 2
    assert heads >= 10


def test_internal_links_are_clickable(built: kobook.BuildResult) -> None:
    reader = PdfReader(built.outputs["pdf"])
    internal = 0
    for page in reader.pages:
        for annotation in page.get("/Annots") or []:
            annotation = annotation.get_object()
            action = annotation.get("/A")
            action = action.get_object() if action else {}
            if annotation.get("/Dest") is not None or action.get("/S") == "/GoTo":
                internal += 1
    assert internal >= 50  # TOC entries, cross-references, footnote calls, citations


def test_code_is_highlighted_in_html(built: kobook.BuildResult) -> None:
    site = built.outputs["html"].parent
    html = "".join(p.read_text(encoding="utf-8") for p in site.glob("*.html"))
    for language in ("python", "cpp", "bash"):
        assert f'class="sourceCode {language}"' in html or f"sourceCode {language}" in html
    assert '<span class="kw">' in html
    css = (site / "assets" / "style.css").read_text(encoding="utf-8")
    assert "@media print" in css and "max-width: 800px" in css


def test_book_templates_override_the_built_in_ones(built: kobook.BuildResult) -> None:
    from kobook.write.weasyprint.writer import render_html

    html, _ = render_html(load_book(REPO), [], None)
    assert "#8c2f1f" in html  # templates/pdf/extra.css.j2 of the sample book
    site = built.outputs["html"].parent
    assert "#8c2f1f" in (site / "assets" / "extra.css").read_text(encoding="utf-8")


def test_math_is_vector_in_the_pdf(transformed: list) -> None:
    from kobook.write.weasyprint.writer import render_html

    html, problems = render_html(load_book(REPO), transformed, None)
    assert html.count("data:image/svg+xml") >= 40
    assert not [p for p in problems if p.code == "MATH001"]


# Issue 11: what a Korean typesetter found on these pages, read from glyph positions.
def sample_source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "book").glob("*.md")))


def test_no_particle_cut_from_a_latin_word_or_bracket(pages: list[str]) -> None:
    assert layout.glued_breaks("\f".join(pages), sample_source()) == []


def test_chapter_openings_carry_no_running_head_and_open_on_the_right(
    built: kobook.BuildResult,
) -> None:
    titles = [c.title for c in load_book(REPO).chapters]
    openings = layout.chapter_openings(built.outputs["pdf"], titles)
    assert len(openings) == len(titles)
    assert [(page, head) for page, _, head in openings if head] == []
    assert [page for page, _, _ in openings if page % 2 == 0] == []  # two-sided: recto
    assert layout.foreign_running_heads(built.outputs["pdf"], [*titles, "차례"]) == []


def test_no_latin_word_broken_in_a_table_cell(built: kobook.BuildResult) -> None:
    assert layout.broken_cell_words(built.outputs["pdf"], sample_source()) == []


def test_no_text_outside_code_boxes(built: kobook.BuildResult) -> None:
    assert layout.text_outside_boxes(built.outputs["pdf"]) == []


def test_citations_read_korean(pages: list[str]) -> None:
    text = "\n".join(pages)
    assert layout.korean_citation_problems(text) == []
    assert any(" 외, " in cite for cite in layout.in_text_citations(text))
