"""transform/headings.py: one level-1 heading per chapter, and no skipped level."""

from __future__ import annotations

from kobook.parse.ast import iter_nodes, stringify
from tests.conftest import BookMaker
from tests.unit.transform.test_transforms import run


def headings(doc: object) -> list[tuple[int, str, bool]]:
    return [
        (n["c"][0], stringify(n["c"][2]), "unnumbered" in n["c"][1][1])
        for n in iter_nodes(doc)
        if n["t"] == "Header"
    ]


def test_a_skipped_level_moves_up_unnumbered_and_is_reported(make_book: BookMaker) -> None:
    text = "# 장\n\n글.\n\n> #### 키워드\n>\n> 인용.\n\n## 절\n\n#### 깊이\n\n### 셋\n"
    _book, docs, ctx = run(make_book, {"book/01.md": text}, {"chapter-level": 1})
    assert headings(docs[0].blocks) == [
        (1, "장", False),
        (2, "키워드", True),
        (2, "절", False),
        (3, "깊이", True),
        (3, "셋", False),
    ]
    found = [(d.code, d.location.line, d.severity) for d in ctx.diagnostics if d.code == "HEAD001"]
    assert found == [("HEAD001", 5, "warning"), ("HEAD001", 11, "warning")]
    numbers = [
        dict(n["c"][1][2]).get("number") for n in iter_nodes(docs[0].blocks) if n["t"] == "Header"
    ]
    assert numbers == ["1", None, "1.1", None, "1.1.1"]


def test_levels_that_go_down_one_at_a_time_are_left_alone(make_book: BookMaker) -> None:
    text = "# 장\n\n## 절\n\n### 항\n\n#### 목\n\n## 다음 절\n"
    _book, docs, ctx = run(make_book, {"book/01.md": text}, {"chapter-level": 1})
    assert [level for level, _, _ in headings(docs[0].blocks)] == [1, 2, 3, 4, 2]
    assert not [d for d in ctx.diagnostics if d.code == "HEAD001"]
