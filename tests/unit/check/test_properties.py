"""Property-based tests of ``fix_text`` on generated Korean/English Markdown.

The generator mixes prose fragments carrying every fixable problem (NFD text,
odd spaces, full-width forms, ``GPU을``, ``"한글"``, ``...``) with headings,
lists, links, images, footnotes, inline code, fenced code and math, where the
same problems appear and must survive byte for byte.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin

from kobook.check import Settings, fix_text

from .util import NFD_SCREENSHOT

SETTINGS = Settings(fix_emphasis=True)

BAD = [
    f"{NFD_SCREENSHOT}을 보라",
    unicodedata.normalize("NFD", "오후 3시"),
    "GPU을 쓴다",
    "LLM를 학습한다",
    "FP32으로 저장한다",
    '"한글" 표기',
    "'한국어' 표기",
    "그리고... 끝",
    "그리고 。。。",
    "메모리\u00a0사용량",
    "전각\u3000공백",
    "두  칸",
    "ＧＰＵ，",
    "단어 .",
    "(예 )",
    "입력ㆍ출력",
    "보이지\u200b않는",
    "Figure 3",
    "**커널(kernel)**이라고",
    '"quote"',
    "FLOPS 를 센다",
    "재계산(recomputation) 을 쓴다",
    "A100 에서는 4 로 나눈다",
]
CLEAN = [
    "학습 한 스텝에서",
    "액티베이션을 저장한다.",
    "the model is sharded",
    "GPU를 쓴다",
    "FP32로 저장한다",
    "don't panic",
    "**강조**를 한다",
    "데이터 병렬화(data parallelism)",
    "GPU 가격이 비싸다",
    "GPU 이 방법",
]
FRAGMENTS = BAD + CLEAN
# Inside math: no ``$``, and no space at either end (pandoc's rules).
MATH_BODIES = [f"x_{{{bad}}}" for bad in BAD] + ["a+b", r"\alpha", "GPU을...b"]
URL_SLUGS = ["a...b", "GPU을", NFD_SCREENSHOT, "x,y", "ＧＰＵ"]


@dataclass
class Generated:
    """A generated document and what it is made of."""

    text: str
    protected: dict[str, list[str]] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)

    @property
    def protected_is_nfc(self) -> bool:
        return all(unicodedata.is_normalized("NFC", s) for v in self.protected.values() for s in v)


@st.composite
def documents(draw: st.DrawFn) -> Generated:
    protected: dict[str, list[str]] = {k: [] for k in ("fence", "math_block", "code", "math")}
    protected["url"] = []
    counts: Counter[str] = Counter()
    footnotes: list[str] = []

    def inline() -> str:
        kind = draw(
            st.sampled_from(["text", "text", "text", "code", "math", "link", "image", "note"])
        )
        if kind == "code":
            span = f"`{draw(st.sampled_from(FRAGMENTS))}`"
            protected["code"].append(span)
            return span
        if kind == "math":
            span = f"${draw(st.sampled_from(MATH_BODIES))}$"
            protected["math"].append(span)
            return span
        if kind == "link":
            url = f"https://example.com/{draw(st.sampled_from(URL_SLUGS))}/end"
            protected["url"].append(url)
            counts["link"] += 1
            return f"[{draw(st.sampled_from(FRAGMENTS))}]({url})"
        if kind == "image":
            counts["image"] += 1
            return f"![{draw(st.sampled_from(FRAGMENTS))}](images/a.png)"
        if kind == "note":
            label = f"n{len(footnotes) + 1}"
            footnotes.append(f"[^{label}]: {draw(st.sampled_from(FRAGMENTS))}")
            counts["footnote"] += 1
            return f"각주[^{label}]"
        return draw(st.sampled_from(FRAGMENTS))

    def line() -> str:
        # Always starts with a Hangul word, so no fragment turns into block syntax.
        parts = ["문장"] + [inline() for _ in range(draw(st.integers(1, 5)))]
        return " ".join(parts)

    blocks = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["para", "para", "heading", "list", "fence", "math", "quote"]))
        if kind == "para":
            blocks.append("\n".join(line() for _ in range(draw(st.integers(1, 3)))))
        elif kind == "heading":
            counts["heading"] += 1
            blocks.append(f"{'#' * draw(st.integers(1, 3))} {line()}")
        elif kind == "list":
            items = draw(st.integers(1, 4))
            counts["item"] += items
            marker = draw(st.sampled_from(["-", "*", "1."]))
            blocks.append("\n".join(f"{marker} {line()}" for _ in range(items)))
        elif kind == "fence":
            body = "\n".join(draw(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=4)))
            fence = f"```{draw(st.sampled_from(['', 'python', 'text']))}\n{body}\n```"
            protected["fence"].append(fence)
            blocks.append(fence)
        elif kind == "math":
            math = f"$$\n{draw(st.sampled_from(MATH_BODIES))}\n$$"
            protected["math_block"].append(math)
            blocks.append(math)
        else:
            blocks.append(f"> {line()}")
    blocks += footnotes
    return Generated("\n\n".join(blocks) + "\n", protected, counts)


FENCE = re.compile(r"^```[^\n]*\n.*?^```$", re.M | re.S)
MATH_BLOCK = re.compile(r"^\$\$\n.*?\n\$\$$", re.M | re.S)
CODE = re.compile(r"`[^`\n]+`")
MATH = re.compile(r"\$[^$\n]+\$")
URL = re.compile(r"https://example\.com/\S+?/end")


def extract(text: str) -> dict[str, list[str]]:
    """Code, math and URLs of a generated document, in order, by kind."""
    found = {"fence": FENCE.findall(text)}
    text = FENCE.sub("", text)
    found["math_block"] = MATH_BLOCK.findall(text)
    text = MATH_BLOCK.sub("", text)
    found["code"] = CODE.findall(text)
    text = CODE.sub("", text)
    found["math"] = MATH.findall(text)
    found["url"] = URL.findall(text)
    return found


PARSER = MarkdownIt("commonmark").enable("table").use(footnote_plugin)
STRUCTURE = {
    "heading_open": "heading",
    "link_open": "link",
    "image": "image",
    "footnote_ref": "footnote",
    "list_item_open": "item",
}


def structure(text: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    for token in PARSER.parse(text):
        for t in [token, *(token.children or [])]:
            if t.type in STRUCTURE:
                counts[STRUCTURE[t.type]] += 1
    return counts


def fix(text: str) -> str:
    return fix_text(text, None, SETTINGS)[0]


PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_generator_makes_what_it_says() -> None:
    """The extractor and the structure count agree with the generator (else the tests lie)."""
    seen: list[Generated] = []

    @PROPERTY
    @given(documents())
    def check(doc: Generated) -> None:
        assert extract(doc.text) == doc.protected
        assert structure(doc.text) == +doc.counts
        seen.append(doc)

    check()
    assert any(doc.text != fix(doc.text) for doc in seen[:20])


@PROPERTY
@given(documents())
def test_fix_is_idempotent(doc: Generated) -> None:
    once = fix(doc.text)
    assert fix(once) == once


@PROPERTY
@given(documents())
def test_code_math_and_urls_are_byte_identical(doc: Generated) -> None:
    assert extract(fix(doc.text)) == doc.protected


@PROPERTY
@given(documents())
def test_output_is_nfc(doc: Generated) -> None:
    out = fix(doc.text)
    if doc.protected_is_nfc:
        assert unicodedata.is_normalized("NFC", out)
    else:
        # Only the protected parts may still be decomposed.
        rest = out
        for items in doc.protected.values():
            for item in items:
                rest = rest.replace(item, "", 1)
        assert unicodedata.is_normalized("NFC", rest)


@PROPERTY
@given(documents())
def test_structure_is_unchanged(doc: Generated) -> None:
    assert structure(fix(doc.text)) == structure(doc.text) == +doc.counts
