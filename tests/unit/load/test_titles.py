"""The table of contents' titles over the files' headings (``load/titles.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pypandoc
import pytest

from kobook.load.book import load_book
from kobook.load.titles import pandoc_id, retitle, unnumbered_below_top
from kobook.model.origins import Lines
from tests.conftest import BookMaker

TITLES = [
    "Common Collections",
    "`match` 제어 흐름 구조",
    "1단계: 준비",
    "Storing UTF-8 Encoded Text with Strings",
    "*강조*와 [링크](x.md)",
    "What Is Ownership?",
    "2024",
    "A.B_c-d",
]


@pytest.mark.parametrize("title", TITLES)
def test_the_id_is_pandocs(title: str) -> None:
    ast = json.loads(pypandoc.convert_text(f"# {title}", "json", format="markdown"))
    assert pandoc_id(title) == ast["blocks"][0]["c"][1][0]


def lines(text: str) -> Lines:
    return Lines.of(text, Path("ch.md"), 1)


def test_a_different_title_replaces_the_heading_and_keeps_its_id() -> None:
    new, note = retitle(lines("\n# Common Collections\n\n본문"), "일반 컬렉션", "SUMMARY.md")
    assert new.text.split("\n")[1] == "# 일반 컬렉션 {#common-collections}"
    assert note is not None and note.location.line == 2 and note.severity == "info"


def test_the_same_title_in_other_markup_is_left_alone() -> None:
    source = lines("## `match` 흐름")
    assert retitle(source, "match 흐름", "SUMMARY.md") == (source, None)


def test_own_attributes_are_kept() -> None:
    new, _ = retitle(lines("# Old {#keep .x}"), "새 제목", "SUMMARY.md")
    assert new.text == "# 새 제목 {#keep .x}"


def test_text_before_the_heading_means_no_top_heading() -> None:
    source = lines("머리글\n\n# Title")
    assert retitle(source, "제목", "SUMMARY.md") == (source, None)


def test_headings_below_the_top_one_are_unnumbered() -> None:
    text = "## 절\n\n```\n# 코드\n```\n\n### 실습 {#p}\n\n#### 더"
    assert unnumbered_below_top(lines(text)).text.split("\n") == [
        "## 절",
        "",
        "```",
        "# 코드",
        "```",
        "",
        "### 실습 {#p .unnumbered}",
        "",
        "#### 더 {.unnumbered}",
    ]


def test_a_file_without_a_title_is_named_after_its_file(make_book: BookMaker) -> None:
    """Not its first line cut at 40 characters (issue 29)."""
    long = "이 파일은 제목 없이 바로 본문으로 시작하는 아주 긴 첫 문장을 가지고 있다."
    root = make_book(
        {"book/01-memory_use.md": long + "\n", "book/02.md": "### 작은 제목\n\n본문\n"}
    )
    titles = [c.title for c in load_book(root).chapters]
    assert titles == ["Memory use", "작은 제목"]
