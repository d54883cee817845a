"""Classing an original's changes: cosmetic, minor, substantive."""

from __future__ import annotations

import pytest

from kobook.parse.pandoc import markdown_to_ast
from kobook.upstream.blocks import flatten
from kobook.upstream.compare import changes, grade


def one(text: str):  # type: ignore[no-untyped-def]
    return flatten(markdown_to_ast(text)["blocks"])[0]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Grout fills the joints.", "grout fills the joints", "cosmetic"),
        ("Grout fills the joints.", "Grout fills *the* joints.", "cosmetic"),
        ("Grout fills the joints.", "Grout fills all the joints.", "minor"),
        ("Wait 24 hours here.", "Wait 48 hours here.", "substantive"),
        ("See [a](http://a.org).", "See [a](http://b.org).", "substantive"),
        ("Use `x` now.", "Use `y` now.", "substantive"),
        ("A long sentence about tiles.", "Another sentence about floors entirely.", "substantive"),
        ("```\nx = 1\n```", "```\nx  =  1\n```", "cosmetic"),
        ("```\nx = 1\n```", "```\nx = 2\n```", "substantive"),
        ("$$x^2$$", "$$x^3$$", "substantive"),
    ],
)
def test_grades(old: str, new: str, expected: str) -> None:
    assert grade(one(old), one(new)) == expected


def test_changes_pair_edits_and_list_the_rest() -> None:
    old = flatten(markdown_to_ast("A one.\n\nB two three.\n\nC four.\n\nD five.")["blocks"])
    new = flatten(markdown_to_ast("A one.\n\nB two three four.\n\nNew here.\n\nD five.")["blocks"])
    diff = changes(old, new)
    assert [(c.kind, c.old, c.new) for c in diff.changes] == [
        ("stale", 1, 1),
        ("removed", 2, None),
        ("new", None, 2),
    ]
    assert diff.before(2) == 1 and diff.was[3] == 3
