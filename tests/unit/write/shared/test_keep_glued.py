"""Where a word must not be broken: the shared ``keep_glued`` pass and its XeLaTeX marks.

Issue 11: XeLaTeX set ``GPU / 가``, ``(row) / 을``, ``모델 / (LLM)의`` across lines,
because xetexko's zero glue between scripts is a legal break.  The rule lives
in ``write/shared/passes/words.py``; each engine renders the mark (XeLaTeX: ``\\nobreak{}``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from kobook.cache import Cache
from kobook.load import load_book
from kobook.parse import parse_book
from kobook.parse.ast import iter_nodes, raw_inline
from kobook.parse.pandoc import markdown_to_ast
from kobook.transform import transform_book
from kobook.write.latex.template import render_latex
from kobook.write.shared import passes
from tests.conftest import BookMaker

MARK = "|"


def marked(markdown: str) -> str:
    """The paragraph's text with ``|`` where the pass put a mark (code and math shown as-is)."""
    blocks = passes.keep_glued(
        list(markdown_to_ast(markdown)["blocks"]), lambda: raw_inline("test", MARK)
    )
    return flatten(blocks)


def flatten(value: Any) -> str:
    if isinstance(value, list):
        return "".join(flatten(v) for v in value)
    if not isinstance(value, dict) or "t" not in value:
        return ""
    kind, content = value["t"], value.get("c")
    if kind == "Str":
        return str(content)
    if kind in ("Space", "SoftBreak"):
        return " "
    if kind == "RawInline":
        return str(content[1]) if content[0] == "test" else ""
    if kind == "Code":
        return f"`{content[1]}`"
    if kind == "Math":
        fence = "$$" if content[0]["t"] == "DisplayMath" else "$"
        return f"{fence}{content[1]}{fence}"
    if kind == "CodeBlock":
        return f"<code>{content[1]}</code>\n"
    if kind in ("Link", "Span", "Cite"):
        return flatten(content[1])
    if kind in ("Para", "Plain"):
        return flatten(content) + "\n"
    return flatten(content)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("GPU가 느리다", "GPU|가 느리다"),  # Latin word, particle
        ("4로 나눈다", "4|로 나눈다"),  # number
        ("(row)을 본다", "(row)|을 본다"),  # closing bracket
        ("모델(LLM)의 크기", "모델|(LLM)|의 크기"),  # opening bracket glued to the word
        ("ZeRO-1과 ZeRO-2", "ZeRO-1|과 ZeRO-2"),
        ("`x`로 쓴다", "`x`|로 쓴다"),  # inline code
        ("$n$개의 GPU", "$n$|개의 GPU"),  # inline math
        ("[GPU](https://example.com)가 있다", "GPU|가 있다"),  # link end
        ("**GPU**를 쓴다", "GPU|를 쓴다"),  # bold end
        ("*커널*(kernel)이라고", "커널|(kernel)|이라고"),  # emphasis end, Hangul first
        ("한국어GPU 모델", "한국어|GPU 모델"),  # Hangul, then Latin
        ("끝났다. 다음", "끝났다|. 다음"),  # punctuation after the word
        ("$n$개.", "$n$|개|."),  # a node junction and a split in the same Str
    ],
)
def test_marks_each_junction(source: str, expected: str) -> None:
    assert marked(source) == expected + "\n"


@pytest.mark.parametrize(
    "source",
    [
        "GPU 가 느리다",  # a space is a break the writer typed
        "모델 (LLM) 크기",
        "커널을 **빠르게** 돌린다",  # Hangul beside Hangul: the line-breaking mode decides
        "**커널**을 돌린다",
        "GPU-가속",  # a hyphen, dash or slash may end a line
        "쓰기/읽기 속도",
        "1—둘 셋",
        "plain English text (kernel) here.",
    ],
)
def test_leaves_breaks_between_words(source: str) -> None:
    assert MARK not in marked(source), marked(source)


def test_code_blocks_and_math_keep_their_text() -> None:
    source = "```\nGPU가 (row)을\n```\n\n`a가(b)를` 쓴다\n\n$$x가(y)$$\n"
    assert marked(source) == "<code>GPU가 (row)을</code>\n`a가(b)를` 쓴다\n$$x가(y)$$\n"


def test_marks_inside_tables_headings_and_notes() -> None:
    source = "# GPU가 빠르다\n\n본문[^1]\n\n[^1]: 4로 나눈다.\n\n| 열 |\n|---|\n| GPU를 |\n"
    text = marked(source)
    assert "GPU|가 빠르다" in text
    assert "4|로 나눈다" in text
    assert "GPU|를" in text


def test_glued_is_about_one_touching_pair() -> None:
    assert passes.glued("U", "가") and passes.glued("가", "(")
    assert not passes.glued("가", "나") and not passes.glued("a", "b")
    assert not passes.glued(" ", "가") and not passes.glued("", "가")


def latex_body(make_book: BookMaker, text: str, lang: str) -> str:
    root = make_book({"book/01.md": f"# 장\n\n{text}\n"}, metadata={"title": "T", "lang": lang})
    book = load_book(root)
    docs, _ = transform_book(book, parse_book(book, Cache(None)))
    tex, _ = render_latex(book, docs, Cache(None))
    return tex


def test_xelatex_renders_the_mark_as_nobreak_in_korean(make_book: BookMaker) -> None:
    tex = latex_body(make_book, "GPU가 `x`로 모델(LLM)의", "ko-KR")
    body = tex[tex.index("\\begin{document}") :]
    assert "GPU\\nobreak{}가" in body
    assert "\\texttt{x}\\nobreak{}로" in body
    assert "모델\\nobreak{}(LLM)\\nobreak{}의" in body
    assert re.search(r"^\\frenchspacing$", tex, re.M)


@pytest.mark.parametrize("lang", ["zh-CN", "ja", "en"])
def test_other_languages_keep_their_rules(make_book: BookMaker, lang: str) -> None:
    tex = latex_body(make_book, "GPU가 模型(LLM)的", lang)
    assert "\\nobreak{}" not in tex[tex.index("\\begin{document}") :]
    assert bool(re.search(r"^\\frenchspacing$", tex, re.M)) == (lang != "en")


# -- The same words in a browser (the HTML site) ---------------------------------------


def kept_whole(markdown: str) -> list[str]:
    """The words the site keeps in a ``span.nobr``, as text."""
    blocks = passes.keep_words_in_browsers(list(markdown_to_ast(markdown)["blocks"]))
    return [
        flatten(n["c"][1])
        for n in iter_nodes(blocks)
        if n["t"] == "Span" and passes.NOBR in n["c"][0][1]
    ]


@pytest.mark.parametrize(
    ("markdown", "whole"),
    [
        ("모델(LLM)의 계산(compute)을 본다.\n", ["모델(LLM)의", "계산(compute)을"]),
        (
            "“인용”을 ‘작은’과 「책」을 [참고]를 읽는다.\n",
            ["“인용”을", "‘작은’과", "「책」을", "[참고]를"],
        ),
        ("100%를 x²을 쓴다.\n", ["100%를", "x²을"]),
        ("**모델**(LLM)의 [GPU](https://x.org)(장치)를 본다.\n", ["모델(LLM)의", "GPU(장치)를"]),
        # letters and digits beside Hangul: keep-all holds them already
        ("GPU가 4로 ZeRO-1과 끝이다.\n", []),
        # a word too long to keep on a phone's line may still break
        ("(" + "a" * 40 + ")를 본다.\n", []),
        ("```\n모델(LLM)의\n```\n", []),
    ],
)
def test_the_site_keeps_words_a_browser_would_break(markdown: str, whole: list[str]) -> None:
    assert kept_whole(markdown) == whole
