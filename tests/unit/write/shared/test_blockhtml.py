"""Pages written block by block (``write/shared/blockhtml.py``): pandoc's bytes,
fewer pandoc runs."""

from __future__ import annotations

from typing import Any

import pytest

from kobook.write.shared.blockhtml import MARKER, BlockHtml
from kobook.write.shared.common import blocks_to_html


def para(text: str) -> dict[str, Any]:
    return {"t": "Para", "c": [{"t": "Str", "c": text}]}


def code(text: str, language: str = "python", ident: str = "") -> dict[str, Any]:
    return {"t": "CodeBlock", "c": [[ident, [language] if language else [], []], text]}


def listed(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"t": "BulletList", "c": [list(blocks)]}


PAGE = [
    para("처음"),
    code("x = 1"),  # highlighted: id cb1
    code("plain words", "text"),  # not highlighted, no id, but counted (cb2)
    listed(para("목록"), code("y = 2")),  # cb3, inside a list
    code("z = 3", ident="named"),  # has its own id: not counted
    {"t": "RawBlock", "c": ["latex", "\\newpage"]},  # no HTML at all
    {"t": "Div", "c": [["", [], []], []]},
    para("처음"),  # the same block twice
    code("x = 1"),  # the same code as the first, at another count: cb4
    para("끝"),
]


@pytest.fixture
def writes() -> tuple[BlockHtml, list[list[Any]]]:
    runs: list[list[Any]] = []

    def write(blocks: list[Any]) -> str:
        runs.append(blocks)
        return blocks_to_html(blocks)

    return BlockHtml(write), runs


def test_a_page_is_pandocs_own_bytes(writes: tuple[BlockHtml, list[list[Any]]]) -> None:
    kept, runs = writes
    expected = blocks_to_html(PAGE)
    assert 'id="cb4"' in expected and 'id="cb2"' not in expected  # what pandoc does
    kept.html(PAGE[::-1])  # pieces kept at other counts first
    assert kept.html(PAGE) == expected
    assert kept.html(PAGE) == expected  # now all from kept pieces ...
    assert len(runs) == 2  # ... with no third pandoc run
    assert kept.html([]) == blocks_to_html([])


def test_an_edit_writes_only_its_block(writes: tuple[BlockHtml, list[list[Any]]]) -> None:
    kept, runs = writes
    kept.html(PAGE)
    edited = [*PAGE[:7], para("처음 고침"), *PAGE[8:]]
    assert kept.html(edited) == blocks_to_html(edited)
    written = [b for b in runs[-1] if b["t"] != "RawBlock"]
    assert written == [para("처음 고침")]
    # a new code block shifts the count of the code after it: those are written again
    more = [code("w = 0"), *PAGE]
    assert kept.html(more) == blocks_to_html(more)
    again = [b for b in runs[-1] if b["t"] == "CodeBlock" and b["c"][1]]
    assert [b["c"][1] for b in again] == ["w = 0", "x = 1", "plain words", "x = 1"]
    assert [b for b in runs[-1] if b["t"] == "BulletList"]  # the list holds a counted one


def test_footnotes_and_markers_in_raw_html_are_written_whole(
    writes: tuple[BlockHtml, list[list[Any]]],
) -> None:
    kept, runs = writes
    note = {"t": "Para", "c": [{"t": "Str", "c": "각주"}, {"t": "Note", "c": [para("내용")]}]}
    page = [para("하나"), note, para("둘"), note]
    assert kept.html(page) == blocks_to_html(page)  # footnotes are numbered page-wide
    assert runs[-1] == page
    tricky = [para("하나"), {"t": "RawBlock", "c": ["html", MARKER]}, para("둘")]
    assert kept.html(tricky) == blocks_to_html(tricky)
    assert runs[-1] == tricky
