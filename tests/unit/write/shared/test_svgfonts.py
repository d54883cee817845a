"""The book's fonts for an SVG figure's text (write/shared/svgfonts.py)."""

from __future__ import annotations

from kobook.write.shared.svgfonts import completed, with_book_fonts

STACKS = {
    "serif": ["Noto Serif CJK KR"],
    "sans": ["Noto Sans CJK KR"],
    "mono": ["D2Coding", "Noto Sans Mono CJK KR"],
}


def test_a_font_list_gets_the_stack_of_its_generic_family() -> None:
    assert completed("Arial", STACKS) == "'Arial', 'Noto Sans CJK KR', sans-serif"
    assert completed("'Times New Roman', serif", STACKS) == (
        "'Times New Roman', 'Noto Serif CJK KR', serif"
    )
    assert completed("monospace", STACKS) == "'D2Coding', 'Noto Sans Mono CJK KR', monospace"


def test_every_place_an_svg_names_fonts() -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        "<style>text { font-family: Helvetica; }</style>"
        '<text font-family="serif">a</text>'
        "<text style=\"font-family: 'Open Sans'; fill: red\">b</text></svg>"
    )
    out = with_book_fonts(svg, STACKS)
    assert "font-family: 'Helvetica', 'Noto Sans CJK KR', sans-serif;" in out
    assert "font-family=\"'Noto Serif CJK KR', serif\"" in out
    assert "font-family: 'Open Sans', 'Noto Sans CJK KR', sans-serif; fill: red" in out
    # The root gets the sans-serif stack for text that names no font at all.
    assert out.startswith(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" '
        "font-family=\"'Noto Sans CJK KR', sans-serif\">"
    )


def test_a_name_that_could_break_out_of_the_markup_is_dropped() -> None:
    svg = '<svg><text font-family="x&quot; onload=&quot;alert(1)">a</text></svg>'
    out = with_book_fonts(svg, STACKS)
    assert "onload" not in out and "alert" not in out
