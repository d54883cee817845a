"""The anchors a translation keeps."""

from __future__ import annotations

from collections import Counter

from kobook.parse.pandoc import markdown_to_ast
from kobook.upstream.blocks import flatten
from kobook.upstream.features import overlap


def anchors(text: str) -> Counter[str]:
    return flatten(markdown_to_ast(text)["blocks"])[0].features.anchors


def test_numbers_before_korean_counters_and_inline_code_numbers() -> None:
    assert anchors("타일 12장과 24시간, 3 곱하기 4.") == Counter(
        {"n:12": 1, "n:24": 1, "n:3": 1, "n:4": 1}
    )
    assert anchors("index `5` and v2 and 1,000") == Counter({"c:5": 1, "n:5": 1, "n:1000": 1})


def test_links_images_math_and_citations() -> None:
    found = anchors("See [x](https://a.org/b/) $x ^ 2$ [@key] ![i](dir/p.png)")
    assert found == Counter({"u:https://a.org/b": 1, "m:x^2": 1, "@key": 1, "i:p.png": 1})


def test_overlap_is_a_weighted_jaccard() -> None:
    assert overlap(Counter(), Counter()) is None
    assert overlap(Counter("aab"), Counter("ab")) == 2 / 3
