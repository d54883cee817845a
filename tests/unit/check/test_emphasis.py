"""KO010: bold that CommonMark/GitHub shows with literal asterisks."""

from __future__ import annotations

from typing import Any

import pytest
from markdown_it import MarkdownIt

from kobook.check import Settings
from kobook.parse.pandoc import markdown_to_ast

from .util import fix, found, hits

COMMONMARK = MarkdownIt("commonmark")


def pandoc_strong(text: str) -> list[Any]:
    """The Strong nodes pandoc's markdown reader finds in ``text``."""
    strong: list[Any] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("t") == "Strong":
                strong.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(markdown_to_ast(text)["blocks"])
    return strong


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("GPU의 코드 조각을 **커널(kernel)**이라고 한다.\n", "**커널(kernel)**"),
        ("이것이 **“강조”**를 쓰는 법이다.\n", "**“강조”**"),
        ("**f\\***는 all-reduce 연산이다.\n", "**f\\***"),
    ],
)
def test_ko010_bold_commonmark_cannot_read_is_reported(text: str, span: str) -> None:
    [finding] = found(text, "KO010")
    assert text[finding.start : finding.end] == span
    assert finding.replacement is None  # report only by default
    assert fix(text) == text
    assert "<strong>" not in COMMONMARK.render(text)


@pytest.mark.parametrize(
    "text",
    [
        "**강조**를 쓴다.\n",
        "괄호 (**강조**) 안\n",
        "“**강조**”를 쓴다.\n",
        "**커널**(kernel)이라고\n",
    ],
)
def test_ko010_bold_commonmark_reads_is_clean(text: str) -> None:
    assert found(text, "KO010") == []
    assert "<strong>" in COMMONMARK.render(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "코드 조각을 **커널(kernel)**이라고 한다.\n",
            "코드 조각을 **커널**(kernel)이라고 한다.\n",
        ),
        ("이것이 **“강조”**를 쓴다.\n", "이것이 “**강조**”를 쓴다.\n"),
    ],
)
def test_ko010_fix_emphasis_moves_punctuation_outside(text: str, expected: str) -> None:
    settings = Settings(fix_emphasis=True)
    assert hits(text, "KO010", settings)[0][1] is not None
    fixed = fix(text, settings)
    assert fixed == expected
    assert found(fixed, "KO010", settings) == []
    # The rewrite is bold for CommonMark/GitHub ...
    assert "<strong>" in COMMONMARK.render(fixed)
    assert "**" not in COMMONMARK.render(fixed)
    # ... and still bold for pandoc, which the build uses.
    assert len(pandoc_strong(text)) == 1
    assert len(pandoc_strong(fixed)) == 1


def test_ko010_is_not_applied_by_the_build() -> None:
    from kobook.check.runner import fix_text

    text = "**커널(kernel)**이라고 한다.\n"
    settings = Settings(fix_emphasis=True)
    assert fix_text(text, None, settings, build_only=True)[0] == text
