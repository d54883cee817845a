"""Alignment without a model: moves, evidence and translator's notes."""

from __future__ import annotations

from kobook.parse.pandoc import markdown_to_ast
from kobook.upstream.align import BLIND, Scorer, align, side
from kobook.upstream.blocks import flatten

ENGLISH = (
    "# Tiles\n\nCount 12 tiles with `tally()`.\n\n```\nx = 1\n```\n\n"
    "Grout fills joints in 24 hours.\n\nSeal them after a week.\n"
)
KOREAN = (
    "# 타일\n\n`tally()`로 타일 12장을 센다.\n\n> 옮긴이: 덧붙인 말.\n\n```\nx = 1\n```\n\n"
    "줄눈은 24시간 뒤 굳는다.\n\n일주일 뒤 막는다.\n"
)


def pairs(english: str, korean: str) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    up = flatten(markdown_to_ast(english)["blocks"])
    ko = flatten(markdown_to_ast(korean)["blocks"])
    return [(p.upstream, p.korean) for p in align(up, ko, Scorer(0.45))]


def test_one_to_one_with_a_translators_note_between() -> None:
    assert pairs(ENGLISH, KOREAN) == [
        ((0,), (0,)),
        ((1,), (1,)),
        ((), (2,)),
        ((2,), (3,)),
        ((3,), (4,)),
        ((4,), (5,)),
    ]


def test_a_dropped_paragraph_is_a_gap() -> None:
    korean = KOREAN.replace("줄눈은 24시간 뒤 굳는다.\n\n", "")
    assert ((3,), ()) in pairs(ENGLISH, korean)


def test_two_paragraphs_translated_as_one() -> None:
    korean = KOREAN.replace(
        "줄눈은 24시간 뒤 굳는다.\n\n일주일 뒤 막는다.", "줄눈은 24시간 뒤 굳고 일주일 뒤 막는다."
    )
    assert ((3, 4), (4,)) in pairs(ENGLISH, korean)


def test_length_alone_is_never_sure() -> None:
    scorer = Scorer(1.0)
    up = flatten(markdown_to_ast("Same length here.")["blocks"])
    ko = flatten(markdown_to_ast("같은 길이의 문장이다요.")["blocks"])
    assert scorer.score(side(up), side(ko)) == BLIND * (0.5 + 0.5 * scorer.length(15, 11))


def test_kinds_never_pair() -> None:
    up = flatten(markdown_to_ast("```\nx\n```")["blocks"])
    ko = flatten(markdown_to_ast("x")["blocks"])
    assert Scorer(1.0).score(side(up), side(ko)) is None
