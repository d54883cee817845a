"""Korean rules touch Korean text only: a Chinese book, or a Chinese paragraph, is left alone."""

from __future__ import annotations

import pytest

from kobook.check import Settings, check_files, check_text, fix_text
from tests.conftest import BookMaker

CHINESE = (
    "在训练大型语言模型（LLM）时，我们需要把模型分布到多个 GPU 上：数据并行 (data parallelism) "
    '是最简单的方法 ... 然后所有 GPU 通过 all-reduce 同步梯度，这是 "quoted" text and more '
    "English words here too。"
)
KOREAN = '한국어 문단에서 ＧＰＵ을 씁니다 , 그리고 "따옴표" 문장...'


@pytest.mark.parametrize("language", ["ko", "zh-Hans", "ja", "en"])
def test_a_chinese_paragraph_is_never_changed(language: str) -> None:
    text = f"# 제목\n\n{CHINESE}\n"
    fixed, remaining = fix_text(text, None, Settings(language=language))
    assert fixed == text
    assert not [f for f in remaining if f.rule.startswith("KO")]


def test_korean_paragraphs_still_get_the_korean_rules_in_any_book() -> None:
    text = f"{CHINESE}\n\n{KOREAN}\n"
    for language in ("ko", "zh-Hans"):
        fixed, _ = fix_text(text, None, Settings(language=language))
        chinese, korean = fixed.split("\n\n")
        assert chinese == CHINESE
        assert "GPU를" in korean and "“따옴표”" in korean and "…" in korean


def test_nfc_and_invisible_characters_are_fixed_in_every_language() -> None:
    decomposed = "\u1112\u1161\u11ab"  # 한 as jamo
    text = f"中文段落{decomposed}\u200b。\n"
    fixed, _ = fix_text(text, None, Settings(language="zh-Hans"))
    assert fixed == "中文段落한。\n"


def test_untranslated_is_not_said_of_a_chinese_paragraph() -> None:
    findings = check_text(f"{CHINESE}\n", None, Settings(language="zh-Hans"))
    assert "KO011" not in {f.rule for f in findings}
    latin = "This paragraph was clearly left in English by the translator today.\n"
    assert "KO011" in {f.rule for f in check_text(latin, None, Settings(language="ko"))}
    assert "KO011" not in {f.rule for f in check_text(latin, None, Settings(language="zh-Hans"))}


def test_check_files_reads_the_book_and_chapter_language(make_book: BookMaker) -> None:
    latin = "This paragraph was clearly left in English by the translator today.\n"
    root = make_book(
        {
            "book/01.md": f"# 一\n\n{CHINESE}\n\n{latin}",
            "book/02.md": f"---\nlang: ko\n---\n# 둘\n\n{latin}",
        },
        metadata={"lang": "zh-CN"},
    )
    reports = check_files(root, fix=True)
    first, second = reports
    assert first.fixed_text == first.doc_text
    assert not first.findings
    assert [f.rule for f in second.findings] == ["KO011"]
