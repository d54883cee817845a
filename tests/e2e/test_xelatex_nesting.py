"""XeLaTeX with what the dialects emit: figures inside details boxes, callouts, lists and
footnotes (no float can leave those), MathJax-style math, a chapter numbered from 0.

One tiny book is typeset once for the module; the LaTeX-only checks render the
source with pandoc and no XeLaTeX run.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import kobook
from kobook.cache import Cache
from kobook.load import load_book
from kobook.parse import parse_book
from kobook.transform import transform_book
from kobook.write.latex.passes import row_brackets, text_in_math
from kobook.write.latex.template import render_latex
from tests.checks import in_order, pdf_pages, squash

REPO = Path(__file__).resolve().parents[2]

CHAPTER = """# 상자와 그림

본문 첫 문단입니다.

::: {.details summary="답을 보려면"}
상자 안의 그림입니다.

![상자 속 그림](images/a.png){#fig:box}

| 가 | 나 |
|----|----|
| 1  | 2  |

상자의 끝 문장입니다.
:::

- 목록 항목의 그림입니다.

  ![목록 속 그림](images/b.png){#fig:item}

- 둘째 항목입니다.

::: {.callout-takeaway title="요점"}
![요점 속 그림](images/c.png){#fig:take}
:::

각주가 붙는 문장입니다.[^n]

[^n]: 각주 속 그림입니다.

    ![각주 속 그림](images/d.png){#fig:note}

$$
\\begin{array}{cc}
x & y \\\\
[c_0, c_1] & z \\\\
\\end{array}
$$

문장 속 $\\text{num_params} \\cdot \\text{x^2}$ 수식입니다.

$$
a = b

\\\\[0.5em] c = d
$$

@fig:box 그림과 @fig:note 그림을 보세요.
"""

DISTILL = """---
layout: distill
title: 들어가며
section_number: 0
---

본문입니다.

{% details 답 %}
상자 안의 그림입니다.

{% include figure.liquid path="assets/img/a.png" caption="상자 속 그림" %}

상자의 끝입니다.
{% enddetails %}
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("nesting") / "book"
    (root / "book").mkdir(parents=True)
    (root / "book" / "01.md").write_text(CHAPTER, encoding="utf-8")
    (root / "metadata.yaml").write_text("title: 중첩\nlang: ko\n", encoding="utf-8")
    (root / "images").mkdir()
    for name in "abcd":
        (root / "images" / f"{name}.png").write_bytes((REPO / "tests/data/pixel.png").read_bytes())
    return root


@pytest.fixture(scope="module")
def built(tiny: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The book typeset by XeLaTeX: before the fix it stopped at "Not in outer par mode"."""
    out = tmp_path_factory.mktemp("nesting-out")
    result = kobook.build(
        tiny, ["pdf"], engine="xelatex", out=out, cache_dir=out / "cache", offline=True
    )
    return pdf_pages(result.outputs["pdf"])


@pytest.fixture(scope="module")
def latex(tiny: Path) -> str:
    book = load_book(tiny)
    docs, _ = transform_book(book, parse_book(book, Cache(None)))
    return render_latex(book, docs, Cache(None))[0]


def test_nested_figures_are_typeset_where_they_stand(built: list[str]) -> None:
    text = "\n".join(built)
    assert not in_order(
        text,
        [
            "상자 안의 그림입니다.",
            "그림 1.1. 상자 속 그림",
            "상자의 끝 문장입니다.",
            "목록 항목의 그림입니다.",
            "그림 1.2. 목록 속 그림",
            "둘째 항목입니다.",
            "그림 1.3. 요점 속 그림",
        ],
    )
    assert "그림1.4.각주속그림" in squash(text)


def test_nested_figures_do_not_float(latex: str) -> None:
    body = latex[latex.index("\\begin{document}") :]
    nested = re.findall(r"\\begin\{figure\}(\[H\])?", body)
    assert nested == ["[H]"] * 4


def test_top_level_figures_stay_in_place_despite_pandocs_default(latex: str) -> None:
    """pandoc's part of the preamble sets floats to htbp; the template's placement comes
    later: here if it fits (!h), else the next page while the text fills this one, never
    above the text that precedes it (flafter)."""
    preamble = latex[: latex.index("\\begin{document}")]
    assert preamble.rindex("\\floatplacement{figure}{!htbp}") > preamble.find("\\fps@figure{htbp}")
    assert "\\usepackage{flafter}" in preamble


def test_mathjax_math_is_typeset(built: list[str]) -> None:
    text = squash("\n".join(built))
    assert "[c0,c1]" in text.replace("𝑐", "c")  # the row, not a row skip
    assert "num_params" in text


def test_a_row_bracket_is_kept_but_a_row_skip_is_not_touched() -> None:
    assert row_brackets("x \\\\\n[c_0] & y") == "x \\\\\\relax\n[c_0] & y"
    assert row_brackets("a \\\\[0.5em] b") == "a \\\\[0.5em] b"
    assert row_brackets("a \\\\ [ -2pt ] b") == "a \\\\ [ -2pt ] b"


def test_underscores_in_math_text_are_letters() -> None:
    assert text_in_math("\\text{num_params} x_1") == "\\text{num\\_params} x_1"
    assert text_in_math("\\textrm{a^b $c_d$}") == "\\textrm{a\\^{}b $c_d$}"
    assert text_in_math("\\text{a\\_b}") == "\\text{a\\_b}"


@pytest.fixture(scope="module")
def distill_pages(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    root = tmp_path_factory.mktemp("distill-nesting") / "site"
    (root / "assets" / "img").mkdir(parents=True)
    (root / "assets" / "img" / "a.png").write_bytes((REPO / "tests/data/pixel.png").read_bytes())
    (root / "_config.yml").write_text("title: 작은 사이트\nlang: ko-KR\n", encoding="utf-8")
    (root / "metadata.yaml").write_text("dialect: distill\n", encoding="utf-8")
    (root / "intro.md").write_text(DISTILL, encoding="utf-8")
    out = tmp_path_factory.mktemp("distill-nesting-out")
    result = kobook.build(
        root, ["pdf"], engine="xelatex", out=out, cache_dir=out / "cache", offline=True
    )
    return pdf_pages(result.outputs["pdf"])


def test_distill_details_figure_and_chapter_zero(distill_pages: list[str]) -> None:
    """A figure in a ``{% details %}`` box; ``section_number: 0`` is chapter 0, and its
    figures are 0.x, as the heading says."""
    page = next(p for p in distill_pages if "들어가며" in p and "상자" in p)
    assert "0장" in squash(page)
    assert not in_order(
        page, ["상자 안의 그림입니다.", "그림 0.1. 상자 속 그림", "상자의 끝입니다."]
    )
