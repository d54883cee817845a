"""Formulas in Typst (``write/typst/formulas.py``): pandoc's Typst for each, set as TeX sets it."""

from __future__ import annotations

from pathlib import Path

import pytest

import kobook
from kobook.write.typst.formulas import tight_calls, typst_of_math
from tests.checks import pdf_pages
from tests.conftest import BookMaker


@pytest.mark.parametrize(
    ("tex", "tight"),
    [
        (r"\text{LayerNorm}(x)", 'upright("LayerNorm")\\( x \\)'),
        (r"\operatorname{mean}(x)", '"mean"\\( x \\)'),
        (r"\text{Softmax}\left( x \right)", 'upright("Softmax")(x)'),
    ],
)
def test_a_name_in_text_takes_its_parenthesis_without_a_space(tex: str, tight: str) -> None:
    [code] = typst_of_math([("InlineMath", tex)])
    assert tight not in code  # pandoc writes a space before the parenthesis
    assert tight in tight_calls(code)


def test_spaces_that_mean_something_stay() -> None:
    for code in ('$"if " x$', r"$f \( x \)$", "$a (b)$", r"$upright(v a r) \( x \)$"):
        assert tight_calls(code) == code


def test_the_typst_pdf_sets_a_text_name_against_its_parenthesis(
    make_book: BookMaker, tmp_path: Path
) -> None:
    text = "# 장\n\n정규화는 $\\text{LayerNorm}(x)$이고 평균은 $\\operatorname{mean}(x)$다.\n"
    root = make_book({"book/01.md": text}, metadata={"title": "수식"})
    result = kobook.build(root, ["pdf"], engine="typst", out=tmp_path / "out")
    flat = " ".join(" ".join(pdf_pages(result.outputs["pdf"])).split())
    assert "LayerNorm(𝑥)" in flat and "mean(𝑥)" in flat
