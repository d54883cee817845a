"""Column widths of XeLaTeX tables (``shared.tables.table_widths``): no column narrower
than its longest word (issue 11: ``그래디언트`` ran 12 pt into the next cell)."""

from __future__ import annotations

from typing import Any

import pytest

from kobook.parse.pandoc import markdown_to_ast
from kobook.write.shared.tables import CELL_SCALE, TABCOLSEP, UNIT_EM, at_least, table_widths

# A pipe table whose dashes give the first column 5 % of the width (pandoc's rule
# for pipe tables with a line longer than the page).
NARROW = """\
| a | 이 열은 설명이 길어서 한 줄에 다 들어가지 않는 문장을 담는다 | 값 |
|-|----------------------------------------------|--|
| 그래디언트 | 역전파로 얻은 기울기를 모든 랭크에서 평균한 값이다 | BF16 |
| 가중치 | 옵티마이저가 갱신하는 파라미터다 | FP32 |
"""
TEXT_WIDTH = 453.0  # A4 with 25 mm margins, in points


def table(markdown: str) -> dict[str, Any]:
    blocks = markdown_to_ast(markdown)["blocks"]
    return next(b for b in blocks if b["t"] == "Table")


def fractions(node: dict[str, Any]) -> list[float]:
    return [spec[1]["c"] for spec in node["c"][2]]


def test_pandoc_gives_the_narrow_column_less_than_its_word() -> None:
    """The premise: without kobook, the first column is a sliver."""
    before = fractions(table(NARROW))
    assert before[0] < 0.1


def test_every_column_holds_its_longest_word() -> None:
    node = table(NARROW)
    table_widths([node], text_width=TEXT_WIDTH, body_size=10.0)
    after = fractions(node)
    room = TEXT_WIDTH - 2 * TABCOLSEP * 3
    size = CELL_SCALE * 10.0
    # 그래디언트: five Hangul syllables, ten display units.
    assert after[0] * room >= 10 * UNIT_EM * size
    assert after[2] * room >= 4 * UNIT_EM * size  # BF16
    assert sum(after) == pytest.approx(0.98, abs=0.01)
    assert after[1] > 0.5  # the long column keeps most of the width


def test_without_a_text_width_the_widths_are_pandocs() -> None:
    node = table(NARROW)
    table_widths([node])
    assert fractions(node) == pytest.approx(
        [0.98 * f / sum(fractions(table(NARROW))) for f in fractions(table(NARROW))], abs=1e-3
    )


def test_at_least() -> None:
    assert at_least([0.05, 0.45, 0.48], [0.1, 0.1, 0.1]) == pytest.approx(
        [0.1, 0.4258, 0.4542], abs=1e-3
    )
    # Minimums that do not fit share the width: the table stays on the page.
    assert sum(at_least([0.3, 0.3, 0.38], [0.5, 0.5, 0.1])) == pytest.approx(0.98)
    assert at_least([0.5, 0.48], [0.1, 0.1]) == [0.5, 0.48]
