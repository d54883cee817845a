"""KO013 (space before a particle) and KO015 (unbalanced emphasis in headings).

KO013's cases are the ones a Korean editor found in the playbook's sources
(``재계산(recomputation) 을``, ``FLOPS 를``, ``4 로``) and the words that only
look like particles (``GPU 가격``, ``이 방법``, ``90 도``).  KO015's findings are
checked against pandoc itself: a heading it reads with literal ``**`` is
reported, one it reads as bold is not.
"""

from __future__ import annotations

import json

import pytest

from kobook.check import Settings
from kobook.check.proof import Proof
from kobook.check.rules import BY_ID
from kobook.parse.pandoc import READER, markdown_to_ast

from .util import fix, found, hits

# text → the flagged space's replacement ("" fixes it, None only reports it)
SPACED = {
    "재계산(recomputation) 을 고려한다.": "",
    "FLOPS 를 얻는다.": "",
    "GPU 가 있다.": "",
    "4 로 나눈다.": "",
    "ZeRO 이다.": "",
    "LLM 이 학습한다.": "",
    "GPU 에서는 된다.": "",
    "A100 만으로 충분하다.": "",
    "GPU 와의 통신": "",
    "(그림 3) 을 보라.": "",
    "“데이터” 라는 말": "",
    "[GPU](https://example.com/a) 를 본다.": "",
    "`torch.compile` 을 쓴다.": "",
    "$x$ 는 변수다.": "",
    "**FLOPS** 를 센다.": "",
    # After ``)**``: removing the space leaves GitHub's literal asterisks (KO010).
    "**재계산(recomputation)** 을 쓴다.": None,
}
NOT_PARTICLES = [
    "GPU 가격이 비싸다.",  # 가격: a noun
    "GPU 로드가 높다.",  # 로드: load
    "GPU 로고",  # 로+고 is no particle pair
    "GPU 이 방법은 빠르다.",  # 이 (this): GPU takes 가, not 이
    "GPU 다 쓴다.",  # 다 (all): only a copula before punctuation
    "90 도 돌린다.",  # degrees
    "https://example.com 을 본다.",  # glued, the bare URL would swallow the particle
    "@doe2020 를 본다.",  # glued, the citation key would change
    "학습 을 한다.",  # after Hangul: a spacing question, not this rule's
    "GPU 및 TPU",
    "```\nGPU 를\n```",
]


@pytest.mark.parametrize(("text", "replacement"), SPACED.items())
def test_ko013_space_before_a_particle(text: str, replacement: str | None) -> None:
    [(flagged, fixed)] = hits(text + "\n", "KO013")
    assert flagged == " " and fixed == replacement


@pytest.mark.parametrize("text", NOT_PARTICLES)
def test_ko013_leaves_words_and_syntax_alone(text: str) -> None:
    assert hits(text + "\n", "KO013") == []


def test_ko013_fix_is_proven_by_pandoc_and_then_agrees_the_particle() -> None:
    text = "재계산(recomputation) 을 쓰면 FLOPS 를 센다. GPU 을 `x` 을 $y$ 는\n"
    fixed = fix(text)
    assert fixed == "재계산(recomputation)을 쓰면 FLOPS를 센다. GPU를 `x`을 $y$는\n"
    assert Proof(text).accepts(fixed)


def test_ko013_is_a_korean_rule_and_fixes_in_the_build() -> None:
    # Korean-only like KO009 (a particle is Hangul, so its paragraph reads as Korean),
    # and applied by the build's normalize stage: "GPU 가" is not left to break apart.
    rule = BY_ID["KO013"]
    assert rule.korean and rule.in_build and rule.fixable
    assert fix("FLOPS 를 센다.\n", Settings(ignore={"KO013"})) == "FLOPS 를 센다.\n"


# --- KO015 ------------------------------------------------------------------------


def pandoc_literal_markers(heading: str) -> int:
    """How many ``**``/``__`` pandoc leaves as text in ``heading``."""
    ast = markdown_to_ast(heading + "\n", reader=READER)
    count = 0

    def walk(node: object) -> None:
        nonlocal count
        if isinstance(node, dict):
            if node.get("t") == "Str":
                count += node["c"].count("**") + node["c"].count("__")
            elif node.get("t") not in ("Code", "Math"):
                walk(node.get("c"))
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(ast["blocks"])
    return count


HEADINGS = [
    "## 제목 **굵게",
    "## 제목 ** 굵게**",
    "## **References**",
    "## a **b** c** d",
    "## **커널(kernel)**이라고",
    "## `**` 코드 속 별표",
    "## 굵게**이다** 와 **a** **b**",
    "제목 **굵게\n======",
]


@pytest.mark.parametrize("heading", HEADINGS)
def test_ko015_reports_what_pandoc_shows_as_literal_asterisks(heading: str) -> None:
    literal = [f for f in found(heading + "\n", "KO015") if "opens or closes" in f.message]
    assert bool(literal) == bool(pandoc_literal_markers(heading)), json.dumps(heading)


def test_ko015_emphasis_crossing_a_bracket_in_a_heading() -> None:
    text = "# 장\n\n본문.\n\n### 그래디언트 누적 (**gradient accumulation)**\n"
    [finding] = found(text, "KO015")
    assert text[finding.start : finding.end] == "**gradient accumulation)**"
    assert "write **gradient accumulation**)" in finding.message
    assert finding.replacement is None
    # Body text is KO010's, and a balanced heading is fine.
    assert found("본문 (**gradient accumulation)** 이다\n", "KO015") == []
    assert found("### 그래디언트 누적(**gradient accumulation**)\n", "KO015") == []
    [opened] = found("## **(괄호** 안)\n", "KO015")
    assert "write (**괄호**" in opened.message


def test_ko015_position_is_file_line_col(tmp_path: object) -> None:
    from kobook.check.runner import FileReport

    text = "# 장\n\n### 누적 (**gradient accumulation)**\n"
    report = FileReport(path=None, findings=found(text, "KO015"), doc_text=text)  # type: ignore[arg-type]
    [diagnostic] = report.diagnostics()
    assert (diagnostic.location.line, diagnostic.location.col) == (3, 9)
