"""Code lines wrapped at token boundaries, table-cell words kept whole, Korean letter spacing."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from kobook.write.shared import passes
from kobook.write.shared.codewrap import code_columns
from kobook.write.shared.layout import PageLayout, points
from kobook.write.shared.passes import CONTINUATION, code_width, unwrap_code_lines, wrap_code_line
from kobook.write.weasyprint.justify import LETTER_MAX, SPACE_STRETCH, byte_spans, letter_budget

LINES = [
    "policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)",
    "optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)  # 랭크마다 자기 조각만 갱신",
    "        return self.layer_norm(hidden_states + self.dropout(self.attention(hidden_states)))",
    "x" * 90,
]


@pytest.mark.parametrize("line", LINES)
@pytest.mark.parametrize("columns", [30, 48, 60])
def test_wrapped_pieces_fit_and_join_back(line: str, columns: int) -> None:
    pieces = wrap_code_line(line, columns)
    assert len(pieces) > 1
    assert all(code_width(p.rstrip()) <= columns for p in pieces)
    assert unwrap_code_lines(pieces) == [line]
    assert all(p.lstrip().startswith(CONTINUATION + " ") for p in pieces[1:])


@pytest.mark.parametrize("line", LINES[:3])
def test_breaks_fall_between_tokens(line: str) -> None:
    """Never inside a name: the piece ends at a space or after , . ( = etc."""
    pieces = wrap_code_line(line, 40)
    for before, after in itertools.pairwise(pieces):
        body = after.lstrip()[2:]
        assert before[-1] == " " or before[-1] in passes.BREAK_AFTER_CODE, (before, body)


@pytest.mark.parametrize(
    ("line", "whole"),
    [
        ("torchrun --nnodes=4 --nproc_per_node=8 --node_rank=0 train.py", "--nproc_per_node"),
        ("y = compute(alpha, beta) ->   result_value_of_the_function", "->"),
        ("scale = factor * -1.0e-4 + offset_value_plus_more_words", "-1.0e-4"),
        ("model = Wrapper(*positional_args, **keyword_arguments_long)", "**keyword_arguments_long"),
        ("if left_hand_side_value == right_hand_side_value: return", "=="),
    ],
)
def test_no_break_inside_marks_or_after_a_leading_sign(line: str, whole: str) -> None:
    """``--nproc_per_node`` was cut between its dashes (``-↪ nproc_per_node``)."""
    for columns in range(30, len(line)):  # narrower: a token longer than a line is cut
        pieces = wrap_code_line(line, columns)
        for before, after in itertools.pairwise(pieces):
            body = after.lstrip()[2:]
            joined = before + body
            cut = len(before)
            start = joined.find(whole)
            assert not (0 <= start < cut < start + len(whole)), (columns, before, body)


def test_a_binary_minus_may_end_a_piece() -> None:
    assert passes.code_break("total = a-b", len("total = a-"))
    assert not passes.code_break("run --flag", len("run -"))
    assert not passes.code_break("run --flag", len("run --"))
    assert not passes.code_break("x = -1", len("x = -"))


def test_continuation_keeps_the_indent() -> None:
    pieces = wrap_code_line(LINES[2], 50)
    assert pieces[1].startswith("        " + "  " + CONTINUATION)


def test_a_bracket_opening_a_group_goes_with_it() -> None:
    line = "    # 스테이지 8개, 스테이지당 10층 (80층 모델), 그리고 f(x, y)를 부른다"
    pieces = wrap_code_line(line, 40)
    assert not any(piece.endswith("(") for piece in pieces)
    assert "(80층" in "".join(pieces)
    assert wrap_code_line("value = compute(alpha, beta, gamma, delta)", 20)[0].endswith("(")


def test_short_lines_and_hangul_width() -> None:
    assert wrap_code_line("print(1)", 40) == ["print(1)"]
    assert code_width("가a") == 3  # Hangul takes two columns in a monospace font
    assert len(wrap_code_line("# " + "가나다라 " * 10, 40)) > 1


def test_columns_from_the_page() -> None:
    a4 = PageLayout("210mm", "297mm", "25mm", "25mm", "25mm", "25mm", "10pt", 1.6)
    assert points("25mm") == pytest.approx(70.87, abs=0.01)
    wide = code_columns(a4, "DejaVu Sans Mono")
    narrow = code_columns(replace(a4, code_scale=1.0), "DejaVu Sans Mono")
    assert 70 < wide < 100 and narrow < wide
    boxed = code_columns(replace(a4, code_inset=20.0), "DejaVu Sans Mono")
    assert boxed < wide


def test_code_blocks_wrapped_in_the_ast() -> None:
    blocks = [{"t": "CodeBlock", "c": [["", ["python"], []], LINES[0] + "\nx = 1"]}]
    passes.wrap_code(blocks, 40)
    lines = blocks[0]["c"][1].split("\n")
    assert unwrap_code_lines(lines) == [LINES[0], "x = 1"]
    assert len(lines) > 2


def cell(text: str) -> dict:
    inlines: list[dict] = []
    for index, word in enumerate(text.split(" ")):
        if index:
            inlines.append({"t": "Space"})
        inlines.append({"t": "Str", "c": word})
    return {"t": "Table", "c": [["", [], []], {"t": "Plain", "c": inlines}]}


def test_table_cells_keep_latin_words_and_operators() -> None:
    blocks = [cell("ZeRO-1 + 그래디언트 all-reduce 없음")]
    marked = []

    def keep(inlines: list) -> list:
        marked.append(inlines[0]["c"])
        return [{"t": "Span", "c": [["", ["nobreak"], []], inlines]}]

    passes.table_cell_words(blocks, keep)
    assert marked == ["ZeRO-1", "all-reduce"]
    inlines = blocks[0]["c"][1]["c"]
    plus = next(i for i, n in enumerate(inlines) if n.get("c") == "+")
    assert inlines[plus + 1] == {"t": "Str", "c": "\u00a0"}  # "+" stays with 그래디언트


def test_prose_outside_tables_untouched() -> None:
    para = {"t": "Para", "c": [{"t": "Str", "c": "all-reduce"}]}
    passes.table_cell_words([para], lambda i: [])
    assert para["c"] == [{"t": "Str", "c": "all-reduce"}]


def test_letter_budget() -> None:
    em = 10.0
    # Slack the spaces can take alone: no letter spacing.
    assert letter_budget(SPACE_STRETCH * em * 4, 4, 40, em) == 0
    # More: letters open, never beyond the cap.
    assert 0 < letter_budget(SPACE_STRETCH * em * 4 + 5, 4, 40, em) <= LETTER_MAX * em
    assert letter_budget(1000, 4, 40, em) == pytest.approx(LETTER_MAX * em)
    assert letter_budget(10, 0, 0, em) == 0


def test_byte_spans_skip_spaces() -> None:
    text = "층의 all-gather를\u00a0현재"
    data = text.encode()
    assert [data[a:b].decode() for a, b in byte_spans(text)] == ["층의", "를", "현재"]


def test_a_korean_word_in_a_comment_keeps_its_bracket() -> None:
    """``값(`` / ``브로드캐스트)``: a wrap in a comment follows the particle rule of prose."""
    line = "    // 같은 값(브로드캐스트), B[k*N+col]은 연속 주소"
    assert not passes.code_break(line, line.index("브"))
    assert not passes.code_break(line, line.index("은"))  # ]은: bracket and particle
    assert passes.code_break(line, line.index("값"))  # at a space
    for columns in range(24, 48):  # narrower, the word is longer than a line and is cut
        for before, after in itertools.pairwise(wrap_code_line(line, columns)):
            assert not passes.glued(before[-1:], after.lstrip()[2:][:1]), (columns, before)


@pytest.mark.parametrize(
    ("family", "advance"),
    [("DejaVu Sans Mono", 1233 / 2048), ("Noto Sans Mono CJK KR", 0.5)],
)
def test_the_code_font_advance_is_read_exactly(family: str, advance: float) -> None:
    """The advance of ``0`` in font units, as the font's hmtx table has it (FreeType at
    one pixel per unit rounds nothing)."""
    from kobook.write.shared.codewrap import mono_advance

    assert mono_advance(family) == advance
