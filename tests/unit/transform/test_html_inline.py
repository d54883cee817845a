"""Inline HTML markup becomes pandoc's own elements (transform/html_inline.py, issue 28)."""

from __future__ import annotations

from kobook.parse.ast import stringify
from kobook.parse.pandoc import markdown_to_ast
from kobook.transform.html_inline import markup_in


def inlines(text: str) -> list[dict[str, object]]:
    blocks = markup_in(markdown_to_ast(text)["blocks"])
    return list(blocks[0]["c"])


def kinds(text: str) -> list[str]:
    return [str(node["t"]) for node in inlines(text)]


def test_pairs_become_elements() -> None:
    assert kinds("2<sup>7</sup>") == ["Str", "Superscript"]
    assert kinds("H<sub>2</sub>O") == ["Str", "Subscript", "Str"]
    assert kinds("<b>굵게</b> <i>기울임</i> <del>지움</del> <u>밑줄</u>") == [
        "Strong", "Space", "Emph", "Space", "Strikeout", "Space", "Underline",
    ]  # fmt: skip
    kbd = inlines("<kbd>Ctrl</kbd>")[0]
    assert kbd["t"] == "Code" and kbd["c"][0][1] == ["kbd"] and kbd["c"][1] == "Ctrl"
    mark = inlines("<mark>표시</mark>")[0]
    assert mark["t"] == "Span" and mark["c"][0][1] == ["mark"]
    assert "LineBreak" in kinds("첫 줄<br>둘째 줄")


def test_nested_and_inside_other_elements() -> None:
    [strong] = inlines("<b>x<sup>2</sup></b>")
    assert strong["t"] == "Strong" and strong["c"][1]["t"] == "Superscript"
    link = inlines("[2<sup>7</sup>](https://example.org)")[0]
    assert link["t"] == "Link" and link["c"][1][1]["t"] == "Superscript"


def test_what_is_not_a_plain_pair_stays_raw() -> None:
    assert kinds('<sup class="x">1</sup>') == ["RawInline", "Str", "RawInline"]
    assert kinds("<sup>열고 닫지 않음").count("RawInline") == 1
    assert kinds("<b>교차<i>된</b>태그</i>").count("RawInline") >= 2
    assert stringify(inlines("<span>그대로</span>")) == "그대로"
