"""Math macros (``\\def``, ``\\newcommand``) hold for the rest of a chapter; bombs stop.

``expand`` is tested on strings; the pass through the real load → parse →
transform stages, so the chapter order, the removal of a formula that only
defines and the LIMIT009 location are what a build sees.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kobook import limits
from kobook.cache import Cache
from kobook.errors import KobookError
from kobook.load import load_book
from kobook.model import Doc
from kobook.normalize import normalize_book
from kobook.parse import parse_book
from kobook.parse.ast import iter_nodes
from kobook.transform import Context, transform_book
from kobook.transform.math_macros import (
    MacroError,
    Macros,
    expand,
    for_mathml,
    nesting,
    without_size_switches,
)
from kobook.write.shared.mathsvg import MathError, draw, drawable_rows

BookMaker = Callable[..., Path]


def test_def_in_one_formula_is_used_in_the_next() -> None:
    macros: Macros = {}
    first = expand("\\def \\red#1{\\textcolor{red}{#1}}\n\\def\\two#1#2{#2#1}\nx + y", macros)
    assert first.strip() == "x + y"  # the definitions are gone, the rest stays
    assert expand("C[\\red{KL}] \\two ab", macros) == "C[\\textcolor{red}{KL}] ba"


def test_newcommand_forms_and_operators() -> None:
    macros: Macros = {}
    tex = (
        "\\newcommand{\\R}{\\mathbb{R}}\\newcommand*\\pair[2][0]{(#1,#2)}"
        "\\renewcommand{\\R}{\\mathbb{Q}}\\providecommand{\\R}{Z}"
        "\\DeclareMathOperator{\\tr}{tr}"
        "x \\in \\R, \\pair{b}, \\pair[a]{c}, \\tr A"
    )
    assert expand(tex, macros) == "x \\in \\mathbb{Q}, (0,b), (a,c), \\operatorname{tr} A"


def test_a_macro_may_use_another_and_a_letter_stays_apart() -> None:
    macros: Macros = {}
    assert expand("\\def\\a{\\alpha}\\def\\b{\\a x}\\b", macros) == "\\alpha x"
    assert expand("\\def\\c#1{#1}\\c\\beta y", macros) == "\\beta y"


def test_a_definition_kobook_cannot_read_is_left_as_written() -> None:
    tex = "\\def\\a#1.{x} \\a y."  # a delimited parameter
    assert expand(tex, {}) == tex


@given(st.text(alphabet="ab{}\\ #1^_\n.$", max_size=40))
def test_text_without_definitions_is_unchanged(tex: str) -> None:
    if any(word in tex for word in ("\\def", "\\gdef", "\\edef", "\\xdef")):
        return
    assert expand(tex, {}) == tex


@pytest.mark.parametrize(
    "bomb",
    [
        "\\def\\a{\\a}\\a",  # never ends
        "\\def\\a{x\\a}\\a",  # grows by one each time
        "\\def\\a#1{#1#1#1#1#1#1#1#1#1}\\a{\\a{\\a{\\a{\\a{\\a{\\a{\\a{\\a{x}}}}}}}}}",  # 9⁹
        "\\def\\ma{xxxxxxxxxx}"
        + "".join(
            f"\\def\\m{b}{{" + f"\\m{a}" * 10 + "}"
            for a, b in zip("abcdefgh", "bcdefghi", strict=True)
        )
        + "\\mi",  # 10⁹ characters
    ],
)
def test_bombs_stop_at_a_limit(bomb: str) -> None:
    # Without the limit the bomb itself would run (10⁹ characters); how fast the refusal is
    # belongs to scripts/bench.py.
    with pytest.raises(MacroError, match=r"expand"):
        expand(bomb, {})


def test_the_size_limit_is_the_one_in_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    macros: Macros = {}
    tex = "\\def\\a{xxxxxxxxxx}\\a\\a\\a"
    monkeypatch.setattr(limits, "MAX_MATH_CHARS", 25)
    with pytest.raises(MacroError, match="25 characters"):
        expand(tex, macros)
    monkeypatch.setattr(limits, "MAX_MATH_CHARS", 30)
    assert expand(tex, {}) == "x" * 30


def test_size_switches_and_textcolor_for_mathml() -> None:
    assert without_size_switches("\\small{a+b} + \\tiny c \\smallint") == "{a+b} + c \\smallint"
    assert for_mathml("\\textcolor{red}{x} + \\textcolor {blue} y") == (
        "{\\color{red}{x}} + {\\color{blue}{y}}"
    )
    assert for_mathml("\\textnormal{T}") == "\\textrm{T}"


# --- the pass, on a chapter ------------------------------------------------------------


def transformed(make_book: BookMaker, text: str, keep_going: bool = True) -> tuple[Doc, Context]:
    root = make_book({"book/01.md": text, "book/02.md": "# 둘\n\n$\\blue{x}$\n"})
    book = load_book(root)
    normalize_book(book)
    docs = parse_book(book, Cache(None))
    docs, ctx = transform_book(book, docs, keep_going=keep_going)
    return docs, ctx


def formulas(doc: Doc) -> list[str]:
    return [n["c"][1] for n in iter_nodes(doc.blocks) if n["t"] == "Math"]


CHAPTER = """# 하나

$$
\\def \\blue#1{\\textcolor{blue}{#1}}
$$

본문 $\\blue{GH}IJ$ 입니다.

$$
\\blue{K} + 1
$$
"""


def test_pass_applies_definitions_to_later_formulas_of_the_chapter_only(
    make_book: BookMaker,
) -> None:
    docs, ctx = transformed(make_book, CHAPTER)
    assert formulas(docs[0]) == ["\\textcolor{blue}{GH}IJ", "\n\\textcolor{blue}{K} + 1\n"]
    assert formulas(docs[1]) == ["\\blue{x}"]  # another chapter: not defined there
    assert not ctx.diagnostics


def test_pass_reports_a_bomb_with_its_line_and_keeps_the_source_as_code(
    make_book: BookMaker,
) -> None:
    text = "# 하나\n\n문단.\n\n$$\n\\def\\a{\\a}\n\\a\n$$\n"
    docs, ctx = transformed(make_book, text)
    [problem] = ctx.diagnostics
    assert problem.code == "LIMIT009"
    assert problem.location.file is not None and problem.location.file.name == "01.md"
    assert problem.location.line == 6
    codes = [n for n in iter_nodes(docs[0].blocks) if n["t"] == "Code"]
    assert [c["c"][1] for c in codes] == ["\\def\\a{\\a}\n\\a"]
    assert formulas(docs[0]) == []
    with pytest.raises(KobookError) as raised:
        transformed(make_book, text, keep_going=False)
    assert raised.value.code == "LIMIT009"


def test_nesting_counts_groups_and_left_right() -> None:
    assert nesting(r"a_{b_{c}} \left( \left[ x \right] \right) \{ \} \leftarrow") == 2
    assert nesting("{" * 30 + "x" + "}" * 30) == 30


def test_a_formula_nested_too_deep_is_limit009_before_any_renderer(
    make_book: BookMaker,
) -> None:
    deep = "{" * 5_000 + "x" + "}" * 5_000
    docs, ctx = transformed(make_book, f"# 하나\n\n문단 ${deep}$ 끝.\n")
    [problem] = ctx.diagnostics
    assert problem.code == "LIMIT009" and "deeper than" in problem.message
    assert problem.location.line == 3 and formulas(docs[0]) == []


def test_a_formula_too_long_as_written_is_limit009(make_book: BookMaker) -> None:
    """Checked before expansion: 8,000 terms and no macro took 151 s and 960 MB."""
    long = " + ".join(f"x_{{{i}}}" for i in range(4_000))
    assert len(long) > limits.MAX_MATH_CHARS
    docs, ctx = transformed(make_book, f"# 하나\n\n$$\n{long}\n$$\n")
    [problem] = ctx.diagnostics
    assert problem.code == "LIMIT009" and "characters" in problem.message
    assert formulas(docs[0]) == []


def test_a_drawing_past_any_page_is_refused() -> None:
    with pytest.raises(MathError, match="em across"):
        draw("\\rule{100000pt}{100000pt}", True)
    assert draw("\\rule{10pt}{2pt}", True).width_em < 2


def test_macros_share_the_books_expansion_budget(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each formula stays under its own limit; all of them together do not (LIMIT010)."""
    monkeypatch.setattr(limits, "MAX_EXPANDED_BYTES", 64 * 1024)
    uses = "\n\n".join(f"식 {i}: $\\big{{{i}}}$" for i in range(200))
    text = "# 하나\n\n$$\n\\def\\big#1{" + "x" * 500 + "#1}\n$$\n\n" + uses + "\n"
    docs, ctx = transformed(make_book, text)
    over = [d for d in ctx.diagnostics if d.code == "LIMIT010"]
    assert over and "math macros" in over[0].message
    assert over[0].location.file is not None and over[0].location.line > 5
    assert len(over) + sum(1 for f in formulas(docs[0]) if "x" * 500 in f) == 200


# --- what the SVG drawing (ziamath) refuses instead of drawing TeX as letters ----------


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        ("\\blue{GH} + 1", "unknown command \\\\blue"),  # a macro nobody defined
        ("\\fbox{\\color{red}{z}}", "unknown command \\\\color"),  # TeX inside a text box
        ("\\def\\a#1.{x} \\a y.", "macro definition"),  # ziamath would expand it unbounded
        ("\\\\{U_Y\\\\}", "no height"),  # a line break in inline math: a box upside down
    ],
)
def test_svg_refuses_what_it_would_draw_as_source(tex: str, reason: str) -> None:
    with pytest.raises(MathError, match=reason):
        draw(tex, display=False)


def test_svg_draws_colour_and_ignores_size_switches() -> None:
    small = draw("\\small{x + \\textcolor{red}{y}}", display=True)
    plain = draw("{x + \\textcolor{red}{y}}", display=True)
    assert 'fill="red"' in small.svg
    assert small.svg == plain.svg


TABLE = "\\begin{array}{cc}\na & b \\\\\n\\hline \\\\\nc & d \\\\[10pt]\ne & f \\\\\n\\end{array}"


def test_array_rows_are_made_drawable() -> None:
    # ziamath printed "[10pt]" before the next row, and gave an empty row (and so the
    # whole table) a height of about -20,000: the scaling book's transformers table.
    assert drawable_rows(TABLE) == (
        "\\begin{array}{cc}\na & b \\\\\n\\hline \\vphantom{x} \\\\\nc & d \\\\\n"
        "e & f \\\\\n\\end{array}"
    )
    assert drawable_rows("a \\\\ [x, y]") == "a \\\\ [x, y]"  # a bracket, not a space
    assert drawable_rows("\\\\{U_Y\\\\}") == "\\\\{U_Y\\\\}"
    image = draw(TABLE, display=True)
    assert 3.5 < image.height_em < 6 and image.width_em < 5


def test_escaped_signs_in_text_are_drawn_as_signs() -> None:
    """ziamath kept ``\\_`` inside ``\\text`` as two characters (the PDF showed the
    backslash) and wrote ``&`` into MathML unescaped (the formula was MATH001)."""
    from kobook.write.shared.mathsvg import text_escapes

    assert text_escapes("\\text{all\\_reduce}(x)") == "{\\text{all}\\mathrm{\\_}\\text{reduce}}(x)"
    assert text_escapes("x_\\text{a\\&b}") == "x_{\\text{a}\\mathrm{\\&}\\text{b}}"
    assert text_escapes("\\text{plain} + y") == "\\text{plain} + y"
    wide = draw("\\text{all\\_reduce}(x) + \\text{a\\&b}", display=False)
    plain = draw("\\text{allreduce}(x) + \\text{ab}", display=False)
    assert wide.width_em > plain.width_em  # the signs are drawn, nothing failed
