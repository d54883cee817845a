"""Every formula is drawn in the site and the WeasyPrint PDF, or is MATH001 with its line.

A tiny book holds what the distill corpus does: ``\\def`` macros in one display
formula used in later ones, ``\\textcolor``, ``\\small``, a command pandoc's
MathML does not know (``\\vphantom``: the site draws it as SVG) and one broken
formula.  Built once per output; the tests read what a reader sees: the
page's visible text and the PDF's text, never ``$$`` or ``\\def``.
"""

from __future__ import annotations

import base64
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import kobook

CHAPTER = """\
# 수식

$$
\\def \\red#1{\\textcolor{red}{#1}}
\\def \\blue#1{\\textcolor{blue}{#1}}
\\begin{array}{cc}
x & y \\\\ \\hline
\\end {array}
$$

축약 $C[\\blue{GH}IJ\\red{KL}]$ 입니다.

$$\\small{\\frac{\\textrm{attention}}{\\textrm{matmul}} = \\blue{T}}$$

유령 $\\vphantom{x}\\textcolor{red}{z}$ 입니다.

$$
\\tiny \\text{step} = \\blue{B} + 1
$$

깨진 수식입니다.

$$
\\frac{1}{
$$
"""
BROKEN_LINE = CHAPTER.splitlines().index("\\frac{1}{") + 1


class Visible(HTMLParser):
    """The text a browser shows: no scripts, styles, or MathML's TeX annotation."""

    HIDDEN = ("script", "style", "annotation")

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.hidden += tag in self.HIDDEN

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in self.HIDDEN

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.text.append(data)


def visible(html: str) -> str:
    parser = Visible()
    parser.feed(html)
    return "".join(parser.text)


def build(root: Path, formats: list[str]) -> Any:
    (root / "book").mkdir()
    (root / "book" / "01.md").write_text(CHAPTER, encoding="utf-8")
    (root / "metadata.yaml").write_text("title: 수식 책\n", encoding="utf-8")
    return kobook.build(
        root, formats, out=root / "dist", keep_going=True, cache_dir=root / ".cache"
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str]:
    root = tmp_path_factory.mktemp("math-html")
    result = build(root, ["html"])
    return result, (root / "dist" / "html" / "ch01.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str]:
    root = tmp_path_factory.mktemp("math-pdf")
    result = build(root, ["pdf"])
    pdf = root / "dist" / "book.pdf"
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=True)
    return result, text.stdout.decode("utf-8")


def only_the_broken_formula(result: Any) -> None:
    problems = [d for d in result.diagnostics if d.severity in ("warning", "error")]
    assert [d.code for d in problems] == ["MATH001"], problems
    [problem] = problems
    assert problem.location.file.name == "01.md"
    assert problem.location.line == BROKEN_LINE
    assert "\\frac{1}{" in problem.message


def test_site_shows_no_tex_source(site: tuple[Any, str]) -> None:
    text = visible(site[1])
    assert "$" not in text
    for leaked in ("\\def", "\\blue", "\\textcolor", "\\small", "\\tiny"):
        assert leaked not in text
    assert "\\frac{1}{" in text  # the broken one, in code style


def test_site_formulas_are_mathml_or_svg_with_their_tex_as_alt(site: tuple[Any, str]) -> None:
    html = site[1]
    assert html.count("<math") == 4  # the array, the two with \blue, the \small one
    assert "<mi>G</mi><mi>H</mi>" in html  # \blue{GH} expanded: its argument is kept
    images = re.findall(r'<img class="math inline"[^>]*alt="([^"]*)" src="([^"]*)"', html)
    assert [alt for alt, _ in images] == ["\\vphantom{x}{\\color{red}{z}}"]
    svg = base64.b64decode(images[0][1].split(",", 1)[1]).decode()
    assert 'fill="red"' in svg  # the colour survives where the renderer has colours


def test_site_reports_the_broken_formula_with_its_line(site: tuple[Any, str]) -> None:
    only_the_broken_formula(site[0])
    code = re.findall(r'<code class="math-error">([^<]*)</code>', site[1])
    assert code == ["\\frac{1}{"]  # no dollars: a reported failure, not leaked syntax


def test_pdf_shows_no_tex_source(printed: tuple[Any, str]) -> None:
    result, text = printed
    assert "$" not in text
    for leaked in ("\\def", "\\blue", "\\textcolor", "\\small", "\\tiny", "\\vphantom"):
        assert leaked not in text
    assert "\\frac{1}{" in text
    only_the_broken_formula(result)


@pytest.fixture(scope="module")
def epub(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    root = tmp_path_factory.mktemp("math-epub")
    result = build(root, ["epub"])
    return result, root / "dist" / "book.epub"


def test_epub_formulas_are_mathml_or_svg_with_their_tex_as_alt(epub: tuple[Any, Path]) -> None:
    from tests.checks import epub_pages, epubcheck

    result, book = epub
    pages = "".join(page for _, page in epub_pages(book))
    assert pages.count("<math") == 4  # as on the site
    images = re.findall(r'<img[^>]*class="math inline"[^>]*>', pages)
    assert len(images) == 1 and 'alt="\\vphantom{x}{\\color{red}{z}}"' in images[0]
    assert re.search(r'src="\.\./media/[^"]+\.svg"', images[0])  # in the container
    assert "$" not in visible(pages)  # no formula left as TeX text
    assert re.findall(r'<code class="math-error">([^<]*)</code>', pages) == ["\\frac{1}{"]
    only_the_broken_formula(result)
    assert epubcheck(book) == []


LIST_WITH_MATRIX = """\
# 목록

행렬 곱셈의 두 성질이다:

1. $A⋅B=A⋅[B_1\\quad B_2⋯ ]$
2. $A \\cdot B = \\begin{bmatrix} A_1 \\\\ A_2 \\\\ \\vdots \\end{bmatrix}
\\begin{bmatrix} B_1 & B_2 & \\cdots \\end{bmatrix} = \\sum_{i=1}^{n} A_i B_i$
3. 보통 문장으로 시작하는 항목이다.
"""


@pytest.mark.slow
def test_pdf_list_number_sits_on_the_baseline_of_a_tall_formula(
    make_book: Any, tmp_path: Path
) -> None:
    """WeasyPrint put an item's number at the top of its first line: ``2.`` floated
    above a matrix (issue 11, corpus p.41).  Numbers and texts of the items line up."""
    from tests.checks import _layout

    root = make_book({"book/01.md": LIST_WITH_MATRIX}, metadata={"title": "시험", "lang": "ko"})
    result = kobook.build(root, ["pdf"], engine="weasyprint", out=tmp_path / "out")
    page = next(
        p for p in _layout(Path(result.outputs["pdf"])) if any("보통" in ln.text for ln in p.lines)
    )
    one = next(ln for ln in page.lines if ln.text.startswith("1."))
    two = next(ln for ln in page.lines if ln.text.startswith("2."))
    three = next(ln for ln in page.lines if ln.text.startswith("3."))
    digit = two.glyphs[0]
    # The formula of item 2: every path drawn right of its number, between items 1 and 3.
    parts = [
        s
        for s in page.shapes
        if s.x0 > digit.x1 and s.top >= one.bottom - 1 and s.bottom <= three.top + 1
    ]
    top, bottom = min(s.top for s in parts), max(s.bottom for s in parts)
    assert bottom - top > 2.5 * digit.size  # the matrix: three rows
    # On the formula's baseline: well below its top (the matrix's axis), not beside row 1.
    assert digit.bottom > top + 0.5 * (bottom - top), (digit, top, bottom)
    # The numbers stand in one column.
    assert abs(digit.x0 - three.glyphs[0].x0) < 1.0
