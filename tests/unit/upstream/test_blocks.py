"""Flattening pandoc's AST into blocks, and placing them in the source."""

from __future__ import annotations

from kobook.parse.pandoc import markdown_to_ast
from kobook.upstream.blocks import find_words, flatten, place


def blocks_of(text: str) -> list[tuple[str, str]]:
    return [(b.kind, b.canon) for b in flatten(markdown_to_ast(text)["blocks"])]


def test_containers_open_into_the_blocks_a_translator_translates() -> None:
    text = (
        "# Title\n\n> A quote with *stress*.\n\n- one\n- two\n  - nested\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n```py\nx = 1\n```\n\n$$x^2$$\n\n"
        "![alt](img.png)\n\nText[^n].\n\n[^n]: The note.\n\n<!-- a comment -->\n"
    )
    assert blocks_of(text) == [
        ("heading", "Title"),
        ("para", "A quote with *stress*."),
        ("item", "one"),
        ("item", "two"),
        ("item", "nested"),
        ("row", "| a | b"),
        ("row", "| 1 | 2"),
        ("code", "x = 1"),
        ("math", "$x^2$"),
        ("figure", "![alt](img.png) alt"),  # pandoc's Figure: the image and its caption
        ("para", "Text^[]."),
        ("footnote", "The note."),
    ]


def test_rewrapping_and_emphasis_syntax_keep_the_key() -> None:
    one = flatten(markdown_to_ast("A *b* c\nd.")["blocks"])[0]
    two = flatten(markdown_to_ast("A _b_ c d.")["blocks"])[0]
    three = flatten(markdown_to_ast("A **b** c d.")["blocks"])[0]
    assert one.key == two.key != three.key


def test_a_translators_note_is_marked() -> None:
    found = flatten(markdown_to_ast("> 옮긴이: 덧붙인 설명.\n\n보통 문단.")["blocks"])
    assert [b.note for b in found] == [True, False]


def test_place_finds_blocks_through_markup_and_links() -> None:
    source = (
        "# Title\n\nFirst [linked](http://x.org) *paragraph* here today.\n\n"
        "[2장][ref]<!-- x -->의 숫자 맞추기 게임 튜토리얼에서 본 것처럼.\n"
    )
    found = flatten(markdown_to_ast(source)["blocks"])
    place(found, source)
    assert [b.line for b in found] == [1, 3, 5]


def test_find_words_never_jumps_far_on_one_common_word() -> None:
    text = "alpha beta\n" + "x " * 5000 + "\nthe end"
    assert find_words("the", text, 0) is None
    assert find_words("alpha beta", text, 0) == (0, 1)
