"""The pieces behind page structure and WeasyPrint math (issue 11), without a build."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.cache import Cache
from kobook.load import load_book
from kobook.write.latex.template import own_running_heads
from kobook.write.shared import mathsvg
from kobook.write.shared.layout import PageLayout
from kobook.write.shared.mathsvg import stix_math_font
from kobook.write.shared.setup import print_setup
from kobook.write.weasyprint.writer import figure_height, math_font_problems, sides
from tests.conftest import BookMaker

FRACTION = r"\frac{2\Psi+2\Psi+k\Psi}{N_d}"


def test_inline_fraction_is_drawn_in_text_style() -> None:
    """At text size a fraction is about 1.5 em tall; in display style it is over 2 em."""
    inline = mathsvg.draw(FRACTION, display=False, font=mathsvg.math_font())
    display = mathsvg.draw(FRACTION, display=True, font=mathsvg.math_font())
    assert inline.height_em < 1.7
    assert display.height_em > 1.25 * inline.height_em


def test_default_math_font_is_the_lighter_latin_modern() -> None:
    # fonts-lmodern comes with scripts/install-system-deps.sh: its absence is a failure.
    assert mathsvg.font_file(mathsvg.DEFAULT_MATH_FONT) is not None
    font = mathsvg.math_font()
    assert font is not None and "latinmodern-math" in font
    assert mathsvg.math_font("No Such Math Font") is None


def test_the_math_font_is_part_of_the_cache_key(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    mathsvg.render_math("x+y", False, cache, None)
    assert cache.misses == 1
    mathsvg.render_math("x+y", False, cache, None)
    assert cache.misses == 1
    stix = mathsvg.render_math("x+y", False, cache, stix_math_font())
    assert cache.misses == 2  # another font: another drawing
    assert stix.width_em > 0


def test_unknown_mathfont_is_reported(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 제목\n\n본문"}, metadata={"mathfont": "No Such Math"})
    book = load_book(root)
    problems = math_font_problems(book, print_setup(book))
    assert [p.code for p in problems] == ["FONT002"]
    assert problems[0].location.line > 0
    root2 = make_book({"book/01.md": "# 제목\n\n본문"}, metadata={"title": "x"})
    book2 = load_book(root2)
    assert math_font_problems(book2, print_setup(book2)) == []


@pytest.mark.parametrize(
    ("classoption", "expected"),
    [
        (None, {"twoside": True, "openright": True}),
        (["oneside"], {"twoside": False, "openright": False}),
        ("openany", {"twoside": True, "openright": False}),
        (["twoside", "open=right"], {"twoside": True, "openright": True}),
    ],
)
def test_weasyprint_reads_classoption_like_scrbook(
    make_book: BookMaker, classoption: object, expected: dict[str, bool]
) -> None:
    metadata = {"title": "x"} if classoption is None else {"classoption": classoption}
    root = make_book({"book/01.md": "# 제목\n\n본문"}, metadata=metadata)
    assert sides(load_book(root).config) == expected


def test_a_figure_may_be_as_tall_as_the_text_block_less_its_caption() -> None:
    a4 = PageLayout("210mm", "297mm", "25mm", "25mm", "25mm", "25mm", "10pt", 1.75)
    height = float(figure_height(a4).removesuffix("mm"))
    # An A4-shaped drawing (1:1.414) at the 160 mm text width is 226 mm tall: it fits.
    assert 226 < height < 247


def test_unnumbered_chapters_set_their_own_running_head() -> None:
    latex = (
        "\\chapter*{x}\\begin{document}\\chapter*{\\texorpdfstring{\\textbf{References}}"
        "{References}}\\label{r}\\addchap{들어가며}\\chapter{하나}"
    )
    out = own_running_heads(latex)
    assert out.startswith("\\chapter*{x}\\begin")  # the preamble is left alone
    assert "\\markboth{들어가며}{들어가며}" in out
    assert "\\markboth{\\texorpdfstring{\\textbf{References}}{References}}" in out
    assert out.count("\\markboth") == 2
