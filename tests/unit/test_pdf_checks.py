"""The PDF layout checks of tests/checks.py on tiny PDFs where the defect is put on purpose.

Each check must find the defect in the first PDF and nothing in the clean one, so the
checks run on the sample book and the corpus can be trusted when they read zero.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checks import (
    broken_cell_words,
    chapter_openings,
    foreign_running_heads,
    glued_breaks,
    headings_at_foot,
    korean_citation_problems,
    letter_spacing,
    lone_lines,
    loose_lines,
    median_word_gap,
    pdf_pages,
    spaced_syllables,
    text_outside_boxes,
    word_gaps,
)

STYLE = """
@page { size: a5; margin: 20mm 15mm; @top-left { content: string(head); font-size: 7.5pt } }
@page cover { @top-left { content: none } }
@page opening { @top-left { content: none } }
body { font: 10pt/1.6 "Noto Serif CJK KR", serif; text-align: justify; }
h1 { font-size: 20pt; string-set: head content(); break-before: page; }
"""

SENTENCE = "한국어 본문은 낱말 사이를 고르게 벌린다. 줄 끝을 맞추려고 빈칸만 늘리면 보기 싫다. "


def render(tmp_path: Path, body: str, name: str, style: str = "") -> Path:
    from weasyprint import HTML

    html = f'<html lang="ko"><style>{STYLE}{style}</style><body>{body}</body></html>'
    pdf = tmp_path / f"{name}.pdf"
    HTML(string=html).write_pdf(pdf)
    return pdf


def test_loose_lines_are_measured_in_em(tmp_path: Path) -> None:
    text = f"<p>{SENTENCE * 6}</p>"
    loose = render(tmp_path, text, "loose", "p { word-spacing: 1.6em }")
    even = render(tmp_path, text, "even")
    assert max(gap for _, _, gap in word_gaps(loose)) > 1.6
    assert len(loose_lines(loose)) >= 3
    gaps = [gap for _, _, gap in word_gaps(even)]
    assert len(gaps) >= 3  # full lines were found and measured
    assert max(gaps) < 0.6 and loose_lines(even) == []


SPACED = "할 수 있다. 시퀀스 병렬화는 텐서 병렬화가 맡지 않는 연산을 나눈다. "


def test_syllables_pulled_apart_are_found(tmp_path: Path) -> None:
    """``시 퀀 스``: a word's syllables a fifth of an em apart, against the source that
    writes the word whole; one-syllable words side by side (``할 수``) are not a finding."""
    source = SPACED * 4
    # Ragged lines: kobook's own justification (write/weasyprint/justify.py, installed by
    # other tests of the run) would add letter spacing to justified ones.
    spread = render(
        tmp_path, f"<p>{source}</p>", "spread", "p { letter-spacing: 0.25em; text-align: left }"
    )
    plain = render(tmp_path, f"<p>{source}</p>", "plain", "p { text-align: left }")
    found = spaced_syllables(spread, source)
    assert found and any("시|퀀" in line for line in found)
    assert spaced_syllables(plain, source) == []
    assert letter_spacing(spread) == []  # a quarter em is a word space's width
    assert max(letter_spacing(plain)) < 0.02


def test_letter_spacing_is_measured_per_script(tmp_path: Path) -> None:
    text = "<p>한국어 낱말 backward 낱말 forward 한국어</p>"
    hangul = render(tmp_path, text, "hangul", "p { letter-spacing: 0.08em; text-align: left }")
    assert 0.07 < max(letter_spacing(hangul)) < 0.1
    assert 0.07 < max(letter_spacing(hangul, "latin")) < 0.1
    plain = render(tmp_path, text, "plain", "p { text-align: left }")
    assert max(letter_spacing(plain, "latin")) < 0.03


def test_median_word_gap_reads_full_lines(tmp_path: Path) -> None:
    text = f"<p>{SENTENCE * 6}</p>"
    wide = render(tmp_path, text, "wide", "p { word-spacing: 0.3em }")
    even = render(tmp_path, text, "even")
    assert median_word_gap(wide) > median_word_gap(even) + 0.25
    assert 0.2 < median_word_gap(even) < 0.45


def test_last_lines_headings_and_tables_are_not_measured(tmp_path: Path) -> None:
    body = (
        f"<h1>머리</h1><p>{SENTENCE * 4}짧은 끝줄.</p>"
        '<table style="width: 100%; border-collapse: collapse">'
        + '<tr style="border-bottom: 1px solid"><td>가</td><td style="text-align: right">나</td>'
        * 3
        + "</table>"
    )
    pdf = render(tmp_path, body, "mixed")
    measured = [text for _, text, _ in word_gaps(pdf)]
    assert measured and not any("끝줄" in t or t == "머리" or "가나" in t for t in measured)
    assert loose_lines(pdf) == []


def chapters(head_on_opening: bool, wrong_head: bool = False) -> str:
    opening = "" if head_on_opening else ' style="page: opening"'
    other = "<span style=\"string-set: head '2장 둘째 장'\"></span>" if wrong_head else ""
    return (
        '<section style="page: cover"><p>책 제목</p></section>'
        f"<section{opening}><h1>1장 첫째 장</h1><p>{SENTENCE}</p></section>"
        f'<section style="break-before: page">{other}<p>{SENTENCE * 10}</p></section>'
        f'<section style="break-before: page"><p>{SENTENCE * 10}</p></section>'
        f'<section style="page: opening"><h1>2장 둘째 장</h1><p>{SENTENCE}</p></section>'
        f'<section style="break-before: page"><p>{SENTENCE * 10}</p></section>'
    )


def test_running_head_on_a_chapter_opening_is_found(tmp_path: Path) -> None:
    titles = ["첫째 장", "둘째 장"]
    bad = chapter_openings(render(tmp_path, chapters(head_on_opening=True), "bad"), titles)
    assert [(page, head) for page, _, head in bad] == [(2, "1장 첫째 장"), (5, None)]
    good = chapter_openings(render(tmp_path, chapters(head_on_opening=False), "good"), titles)
    assert [(page, head) for page, _, head in good] == [(2, None), (5, None)]


def test_a_head_naming_another_chapter_is_found(tmp_path: Path) -> None:
    titles = ["첫째 장", "둘째 장"]
    wrong = render(tmp_path, chapters(False, wrong_head=True), "wrong")
    assert foreign_running_heads(wrong, titles) == [
        f"page {n}: head '2장 둘째 장' in '첫째 장'" for n in (3, 4)
    ]
    right = render(tmp_path, chapters(False), "right")
    assert foreign_running_heads(right, titles) == []


TABLE = """<style>td, th {{ padding: 2pt 6pt }}</style>
<table lang="en" style="width: 100%; border-collapse: collapse">
<tr style="border-bottom: 1px solid"><th>방식</th><th>통신</th><th>비고</th></tr>
<tr style="border-bottom: 1px solid"><td style="width: 2.6em">{cell}</td><td>all-reduce</td>
<td style="width: 60%">넓은 칸</td></tr></table>"""


def test_latin_words_broken_in_table_cells_are_found(tmp_path: Path) -> None:
    source = "| 방식 | 통신 | 비고 |\n|---|---|---|\n| throughput | all-reduce | 넓은 칸 |\n"
    hyphenated = TABLE.format(cell='<span style="hyphens: auto">throughput</span>')
    broken = broken_cell_words(render(tmp_path, hyphenated, "cells"), source)
    assert any("hyphen inserted" in p for p in broken), broken
    narrow = TABLE.replace("60%", "85%").format(cell="x")  # squeezes the all-reduce column
    broken = broken_cell_words(render(tmp_path, narrow, "narrow"), source)
    assert any("all-/reduce" in p for p in broken), broken
    whole = TABLE.format(cell='<span style="white-space: nowrap">throughput</span>')
    assert broken_cell_words(render(tmp_path, whole, "whole"), source) == []


def test_text_outside_a_code_box_is_found(tmp_path: Path) -> None:
    code = '<pre style="background: #eee; width: 80%; font-size: 8pt">{}</pre>'
    long = code.format("x = torch.zeros(1024, 1024, dtype=torch.float32, device='cuda')  # 긴 줄")
    problems = text_outside_boxes(render(tmp_path, long, "overflow"))
    assert problems and "outside" in problems[0]
    short = code.format("x = torch.zeros(8)\ny = x + 1")
    assert text_outside_boxes(render(tmp_path, short, "inside")) == []


def test_a_particle_cut_from_a_latin_word_is_found(tmp_path: Path) -> None:
    source = "이 모델은 GPU가 한 장이면 되고 대규모 언어 모델(LLM)의 계산을 다룬다.\n"
    cut = render(
        tmp_path,
        "<p>이 모델은 GPU<br>가 한 장이면 되고 대규모 언어 모델<br>(LLM)의 계산을</p>",
        "cut",
    )
    assert glued_breaks("\f".join(pdf_pages(cut)), source) == [("GPU", "가"), ("모델", "(LLM)의")]
    kept = render(
        tmp_path, "<p>이 모델은<br>GPU가 한 장이면 되고 대규모 언어<br>모델(LLM)의</p>", "kept"
    )
    assert glued_breaks("\f".join(pdf_pages(kept)), source) == []


@pytest.mark.parametrize(
    ("cite", "bad"),
    [("(Tazi 기타 2025년)", True), ("Ruwase, 와/과 Yuxiong He", True), ("(Tazi 외, 2025)", False)],
)
def test_korean_citation_forms_are_read_from_the_pdf(tmp_path: Path, cite: str, bad: bool) -> None:
    pdf = render(tmp_path, f"<p>이 방법은 앞선 연구를 따른다 {cite}.</p>", "cite")
    assert bool(korean_citation_problems("\n".join(pdf_pages(pdf)))) == bad


def test_lone_lines_and_titles_at_a_foot(tmp_path: Path) -> None:
    """A paragraph's first line alone at the foot, its last alone at the next page's head,
    and a title as a page's last line are found; the same text kept together is clean."""
    paragraph = SENTENCE * 5
    opening = "앞 문단은 짧다. 두 줄을 채울 만큼은 쓴다. 한국어 본문은 낱말 사이를 벌린다."
    source = f"# 머리\n\n{opening}\n\n{paragraph}\n\n{paragraph}\n"
    page = "@page { size: 120mm 80mm; margin: 10mm } body { orphans: 1; widows: 1 }"
    body = f"<p>{opening}</p><p>{paragraph}</p><p>{paragraph}</p>"
    found = []
    for space in range(0, 40, 2):
        spaced = f"<div style='height: {space}mm'></div>{body}"
        found += lone_lines(render(tmp_path, spaced, f"lone{space}", page), source)
    assert any("orphan" in f for f in found) and any("widow" in f for f in found), found
    kept = render(tmp_path, body, "kept", page.replace("orphans: 1; widows: 1", ""))
    assert lone_lines(kept, source) == []
    title = "<h2 style='font: bold 14pt sans-serif'>끝에 걸린 제목</h2>"
    feet = [
        headings_at_foot(
            render(
                tmp_path,
                f"<p>{opening}</p><div style='height: {space}mm'></div>{title}{body}",
                f"foot{space}",
                page + " h2 { break-after: auto }",
            )
        )
        for space in range(20, 50, 3)
    ]
    assert any(feet) and headings_at_foot(kept) == []
