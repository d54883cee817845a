"""Page structure as a Korean book has it, in both PDF engines (issue 11, findings 4, 7, 9).

One small book (a preface, three chapters, back matter) is built per engine and
layout, two-sided by default and with ``classoption: [oneside]``: no running head on
an opening page, each part's own title over its pages, openings on right-hand
(odd) pages only when two-sided, blank versos with no head or folio, the title
centred, the date written the Korean way, contents numbered like the headings.
WeasyPrint's math: inline fractions do not open up their line, a list number
sits on the baseline of the formula that follows it, a tall figure is as wide
as the text.
"""

from __future__ import annotations

import itertools
import re
import statistics
from pathlib import Path

import pdfplumber
import pytest
import yaml

import kobook
from tests.checks import (
    chapter_openings,
    foreign_running_heads,
    pdf_pages,
    running_heads,
    squash,
)

pytestmark = pytest.mark.slow

SENTENCE = (
    "분산 학습에서는 모델의 파라미터와 그래디언트와 옵티마이저 상태를 여러 GPU에 나누어 "
    "저장하고 필요할 때마다 통신으로 모은다. "
)
TITLES = ["들어가며", "메모리의 구성", "데이터 병렬화", "텐서 병렬화", "참고 자료"]
FRACTION_LINE = "메모리 사용량은 $\\frac{2\\Psi+2\\Psi+k\\Psi}{N_d}$로 줄어든다."


def paragraphs(count: int) -> str:
    return "\n\n".join(SENTENCE * 4 for _ in range(count))


def tall_svg() -> str:
    """An A4-shaped drawing (the playbook's cheat sheet is one): taller than wide."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 700 990" width="700" height="990">'
        '<rect x="5" y="5" width="690" height="980" fill="#eef" stroke="#335" stroke-width="6"/>'
        '<text x="40" y="80" font-size="40">Cheat sheet</text></svg>'
    )


SOURCE = f"""# 작은 플레이북

{paragraphs(9)}

## 메모리의 구성

{paragraphs(3)}

{SENTENCE}{FRACTION_LINE} {SENTENCE}{SENTENCE}

{paragraphs(5)}

## 데이터 병렬화

{paragraphs(2)}

1. $A \\cdot B = C$
2. $$A \\cdot B = \\begin{{bmatrix}} A_1 \\\\ A_2 \\\\ \\vdots \\end{{bmatrix}}
   \\begin{{bmatrix}} B_1 & B_2 & \\cdots \\end{{bmatrix}}$$

이 수식은 행렬 곱을 나누는 방법을 보여 준다.

{paragraphs(4)}

## 텐서 병렬화

{paragraphs(3)}

![치트시트](images/sheet.svg)

{paragraphs(9)}

# 참고 자료

{paragraphs(9)}
"""

METADATA: dict[str, object] = {
    "title": "작은 플레이북",
    "subtitle": "페이지 구조 시험용",
    "author": "kobook",
    "date": "2026-11-21",
    "lang": "ko-KR",
    "papersize": "a5",
    "chapters": ["book.md"],
}


def build(root: Path, engine: str, extra: dict[str, object] | None = None) -> Path:
    root.mkdir(parents=True)
    (root / "book.md").write_text(SOURCE, encoding="utf-8")
    (root / "images").mkdir()
    (root / "images" / "sheet.svg").write_text(tall_svg(), encoding="utf-8")
    metadata = {**METADATA, **(extra or {})}
    (root / "metadata.yaml").write_text(yaml.safe_dump(metadata, allow_unicode=True), "utf-8")
    result = kobook.build(
        root, ["pdf"], engine=engine, out=root / "dist", cache_dir=root.parent / "cache"
    )
    assert [d.code for d in result.diagnostics if d.severity == "error"] == []
    return result.outputs["pdf"]


@pytest.fixture(scope="module", params=["weasyprint", "xelatex"])
def twoside(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("twoside") / "book", request.param)


@pytest.fixture(scope="module", params=["weasyprint", "xelatex"])
def oneside(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(
        tmp_path_factory.mktemp("oneside") / "book", request.param, {"classoption": ["oneside"]}
    )


@pytest.fixture(scope="module")
def weasy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("weasy") / "book", "weasyprint")


def openings(pdf: Path) -> dict[str, tuple[int, str | None]]:
    found = {title: (page, head) for page, title, head in chapter_openings(pdf, TITLES)}
    assert set(found) == set(TITLES), found
    return found


def test_no_running_head_on_an_opening_page(twoside: Path) -> None:
    heads = {title: head for title, (_, head) in openings(twoside).items() if head}
    assert heads == {}


def test_each_part_carries_its_own_title_in_the_head(twoside: Path) -> None:
    """The preface and the back matter too (not 차례, not the last chapter's title)."""
    assert foreign_running_heads(twoside, TITLES) == []
    starts = sorted((page, title) for title, (page, _) in openings(twoside).items())
    ends = [page for page, _ in starts[1:]] + [len(pdf_pages(twoside)) + 1]
    heads = running_heads(twoside)
    for (start, title), end in zip(starts, ends, strict=True):
        if title not in ("들어가며", "참고 자료"):
            continue
        rectos = [heads.get(page, "") for page in range(start + 1, end) if page % 2 == 1]
        assert rectos, title  # the book is long enough for a right-hand page after the opening
        assert all(squash(title) in squash(head) for head in rectos), (title, rectos)


def test_two_sided_openings_are_on_right_hand_pages(twoside: Path) -> None:
    pages = pdf_pages(twoside)
    starts = sorted(page for page, _ in openings(twoside).values())
    assert all(page % 2 == 1 for page in starts), starts
    contents = next(i for i, text in enumerate(pages, 1) if text.strip().startswith("차례"))
    assert contents % 2 == 1
    blank = [i for i, text in enumerate(pages, 1) if not text.strip()]
    assert blank, "the two-sided book should need a blank verso somewhere"
    # A blank verso carries nothing: no running head, no folio.
    assert all(i % 2 == 0 for i in blank)


def test_one_sided_books_have_no_blank_pages(oneside: Path) -> None:
    pages = pdf_pages(oneside)
    starts = sorted(page for page, _ in openings(oneside).values())
    assert [i for i, text in enumerate(pages, 1) if not text.strip()] == []
    assert any(page % 2 == 0 for page in starts), starts


def test_title_page_is_centred_and_dated_in_korean(twoside: Path) -> None:
    with pdfplumber.open(twoside) as pdf:
        page = pdf.pages[0]
        biggest = max(c["size"] for c in page.chars)
        title = [c for c in page.chars if c["size"] > biggest - 0.5]
        centre = (min(c["x0"] for c in title) + max(c["x1"] for c in title)) / 2
        assert abs(centre - page.width / 2) < 0.03 * page.width, (centre, page.width)
        text = page.extract_text()
    assert "2026년11월21일" in squash(text)  # XeLaTeX's spaces read as none
    assert "2026-11-21" not in text


def test_contents_number_chapters_like_their_headings(twoside: Path) -> None:
    pages = pdf_pages(twoside)
    contents = squash(next(text for text in pages if text.strip().startswith("차례")))
    for number, title in enumerate(TITLES[1:4], start=1):
        assert f"{number}장{squash(title)}" in contents, (number, title)


def baselines(page: pdfplumber.page.Page) -> list[float]:
    """The baselines of the page's body lines (Hangul at the most common size)."""
    hangul = [c for c in page.chars if re.match("[가-힣]", c["text"])]
    size = max(
        {round(c["size"], 1) for c in hangul}, key=[round(c["size"], 1) for c in hangul].count
    )
    lines = sorted({round(c["bottom"], 1) for c in hangul if abs(c["size"] - size) < 0.2})
    return [float(b) for b in lines]


def test_inline_fraction_does_not_open_up_its_line(weasy: Path) -> None:
    """Text style: the lines above and below the fraction keep the paragraph's pitch."""
    with pdfplumber.open(weasy) as pdf:
        page = next(p for p in pdf.pages if "로 줄어든다" in (p.extract_text() or ""))
        lines = baselines(page)
        line = next(round(w["bottom"]) for w in page.extract_words() if w["text"].startswith("로"))
    pitches = [b - a for a, b in itertools.pairwise(lines)]
    usual = sorted(pitches)[len(pitches) // 2]
    at = min(range(len(lines)), key=lambda i: abs(lines[i] - line))
    around = [lines[at] - lines[at - 1], lines[at + 1] - lines[at]]
    assert max(around) <= usual * 1.05, (around, usual)


def test_list_number_sits_on_the_formula_baseline(weasy: Path) -> None:
    """Item 2 opens with a three-row matrix: its number sits on the formula's baseline,
    in the middle of the matrix, not at the item's top right under item 1."""
    with pdfplumber.open(weasy) as pdf:
        page = next(p for p in pdf.pages if any(w["text"] == "2." for w in p.extract_words()))
        words = page.extract_words()
        pitch = statistics.median(b - a for a, b in itertools.pairwise(baselines(page)))
        two = next(w for w in words if w["text"] == "2.")
        # The matrix, drawn as paths: the top of what is drawn on the number's rows.
        drawn = [o["top"] for o in page.curves + page.rects if o["bottom"] >= two["top"]]
    one = next((w for w in words if w["text"] == "1." and w["bottom"] < two["top"]), None)
    if one is not None:  # item 1 on the same page: item 2's number well below it
        assert two["bottom"] - one["bottom"] > 1.5 * pitch, (one, two, pitch)
    # Item 2 on a page of its own: the number is below the matrix's top, not level with it.
    assert drawn and two["bottom"] - min(drawn) > 1.2 * pitch, (two, min(drawn), pitch)


def test_tall_figure_is_as_wide_as_the_text(weasy: Path) -> None:
    with pdfplumber.open(weasy) as pdf:
        for page in pdf.pages:
            if "치트시트" in (page.extract_text() or ""):
                break
        text_width = max(c["x1"] for c in page.chars) - min(c["x0"] for c in page.chars)
        drawn = [r for r in page.rects if r["height"] > 100]
    assert drawn, "the SVG's frame should be on the caption's page"
    width = max(r["width"] for r in drawn)
    assert width >= 0.93 * text_width, (width, text_width)
