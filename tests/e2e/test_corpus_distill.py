"""``scaling-book-en`` (a Jekyll al-folio distill site) imported and built in place
(``tests/corpus_books.py``): chapters, figures, answer boxes, footnotes and citations
counted from the sources."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.checks import epubcheck
from tests.conftest import SCALING, need_corpus
from tests.corpus_books import (
    FENCE,
    FRONT_MATTER,
    LEFTOVERS,
    Built,
    assert_pieced_as_pandoc,
    build_corpus,
    no_loss,
    same_through_another_engine,
    visible_text,
)

pytestmark = [pytest.mark.slow, pytest.mark.corpus]


@pytest.fixture(scope="module")
def scaling(tmp_path_factory: pytest.TempPathFactory) -> Built:
    need_corpus(SCALING / "index.md")
    return build_corpus(SCALING, tmp_path_factory.mktemp("scaling"))


def test_pages_made_block_by_block_are_pandocs_own(scaling: Built) -> None:
    assert_pieced_as_pandoc(scaling, pieced=2, prepared=10)


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


def test_the_ledger_finds_nothing_lost(scaling: Built) -> None:
    """Every construct of the book reaches the PDF, the site and the EPUB."""
    assert no_loss(scaling) == []


def test_the_ledger_finds_nothing_lost_through_xelatex(scaling: Built, tmp_path: Path) -> None:
    """One chapter through XeLaTeX (the whole book through Typst: tests/e2e/test_typst.py)."""
    same_through_another_engine(scaling, "conclusion", "xelatex", tmp_path / "out")


def test_the_epub_passes_epubcheck(scaling: Built) -> None:
    assert epubcheck(scaling.result.outputs["epub"]) == []
