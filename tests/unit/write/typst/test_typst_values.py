"""Typst values (write/typst/values.py): whatever a book's text holds, Typst reads it back
as that text, never as code."""

from __future__ import annotations

import json

import typst
from hypothesis import given, settings
from hypothesis import strategies as st

from kobook.write.typst.values import Code, label, label_of, length, literal, string

NASTY = [
    '", fill: red); #text[INJ]; #set text(lang: "',
    'a\\"b\\',
    "#for i in range(3e8) {}",
    "줄\n바꿈\r\t탭",
    "\u202eRTL\u200f \u0000 \x7f \u2028",
    "$x$ <lab> @ref [a] *b* _c_ `d` ~ // /* */",
    "\\u{41}",
]


def evaluated(code: str) -> object:
    """What Typst's evaluator makes of ``code`` (it answers in JSON)."""
    return json.loads(typst.Compiler().eval(code))


def test_strings_evaluate_to_themselves() -> None:
    for text in NASTY:
        assert evaluated(string(text)) == text, text


@settings(max_examples=20, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40),
        min_size=1,
        max_size=10,
    )
)
def test_any_string_evaluates_to_itself(texts: list[str]) -> None:
    """Up to 200 strings, ten to a Typst run (each run costs more than its strings)."""
    assert evaluated("(" + "".join(f"{string(text)}, " for text in texts) + ")") == texts


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=30).filter(lambda t: t != ""))
def test_labels_read_back(ident: str) -> None:
    written = label(ident)
    assert label_of(written) == ident
    assert "\n" not in written


def test_literals() -> None:
    assert literal(True) == "true" and literal(None) == "none" and literal(3) == "3"
    assert literal(["a", 'b"']) == '("a", "b\\"", )'
    assert evaluated(literal(["a", 'b"'])) == ["a", 'b"']
    assert literal(Code("#pagebreak()")) == "#pagebreak()"


def test_lengths_are_checked() -> None:
    assert length("148mm") == "148mm"
    for bad in ("1pt); #text[x]", "1", "pt", "1e9pt"):
        try:
            length(bad)
        except ValueError:
            continue
        raise AssertionError(bad)
