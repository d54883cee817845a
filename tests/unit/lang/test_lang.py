"""The words kobook prints per language, dates, and which text Korean rules may touch."""

from __future__ import annotations

import pytest

from kobook.lang import Words, format_date, is_korean, language_of, text_language
from kobook.model import Config


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        ("ko-KR", "ko"),
        ("", "ko"),
        ("zh-CN", "zh-Hans"),
        ("zh", "zh-Hans"),
        ("zh-Hans-CN", "zh-Hans"),
        ("zh-TW", "zh-Hant"),
        ("zh-Hant", "zh-Hant"),
        ("zh_HK", "zh-Hant"),
        ("ja-JP", "ja"),
        ("en-US", "en"),
        ("fr", "en"),
    ],
)
def test_language_of(tag: str, language: str) -> None:
    assert language_of(tag) == language


@pytest.mark.parametrize(
    ("language", "chapter", "figure", "caption", "contents"),
    [
        ("ko", "3장", "그림 3.2", "그림 3.2.", "차례"),
        ("en", "Chapter 3", "Figure 3.2", "Figure 3.2.", "Contents"),
        ("zh-Hans", "第3章", "图 3.2", "图 3.2", "目录"),
        ("zh-Hant", "第3章", "圖 3.2", "圖 3.2", "目錄"),
        ("ja", "第3章", "図 3.2", "図 3.2", "目次"),
    ],
)
def test_words_per_language(
    language: str, chapter: str, figure: str, caption: str, contents: str
) -> None:
    words = Words(language)
    assert words.label("chapter", 3) == chapter
    assert words.label("figure", "3.2") == figure
    assert words.caption("figure", "3.2") == caption
    assert words.word("contents") == contents


def test_captions_override_keeps_its_old_meaning() -> None:
    config = Config(raw={"lang": "en", "captions": {"chapter": "장", "figure": "Fig."}})
    assert config.words.label("chapter", 2) == "2장"
    assert config.words.label("figure", 1) == "Fig. 1"
    assert Config(raw={"captions": {"chapter": "Kapitel {n}"}}).words.label("chapter", 4) == (
        "Kapitel 4"
    )
    assert Words("ko").names("by", ["가", "나"]) == "가, 나 지음"
    assert Words("zh-Hans").names("translated-by", ["甲", "乙"]) == "甲、乙 译"


def test_dates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1795219200")  # 2026-11-21 UTC
    assert format_date("\\today", "ko") == "2026년 11월 21일"
    assert format_date("today", "en") == "November 21, 2026"
    assert format_date("2025-02-04", "ja") == "2025年2月4日"
    assert format_date("2024-13-45", "ko") == "2024-13-45"  # not a date: printed as written
    assert format_date("2025년 봄", "ko") == "2025년 봄"
    assert Config(raw={"date": "\\today", "lang": "zh-CN"}).date_text == "2026年11月21日"


@pytest.mark.parametrize(
    ("text", "default", "language"),
    [
        ("한국어 문장", "ko", "ko"),
        ("这是中文，还有 GPU。", "ko", "zh-Hans"),
        ("日本語のテキスト", "ko", "ja"),
        ("漢字だけ", "ja", "ja"),
        ("漢字只有", "zh-Hant", "zh-Hant"),
        ("plain English words", "ko", "ko"),
        ("plain English words", "zh-Hans", "zh-Hans"),
        ("한자 漢字 섞인 문장", "zh-Hans", "ko"),
    ],
)
def test_text_language(text: str, default: str, language: str) -> None:
    assert text_language(text, default) == language
    assert is_korean(text, default) is (language == "ko")
