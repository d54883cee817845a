"""KO011: paragraphs left in English, and the translation progress behind ``--stats``."""

from __future__ import annotations

from kobook.check import Settings
from kobook.check.untranslated import progress
from kobook.source import parse_source

from .util import found

ENGLISH = "The model is split across many devices so that each one holds a shard.\n"


def test_ko011_english_paragraph_is_an_info_finding() -> None:
    text = f"# 장\n\n한국어 문단이다.\n\n{ENGLISH}"
    [finding] = found(text, "KO011")
    assert finding.severity == "info"
    assert finding.replacement is None
    assert text[finding.start : finding.end] == ENGLISH.rstrip("\n")
    assert "no Hangul" in finding.message


def test_ko011_korean_paragraph_with_english_words_is_translated() -> None:
    text = "모델은 many devices에 걸쳐 split되어 each one holds a shard 형태가 된다.\n"
    assert found(text, "KO011") == []


def test_ko011_reference_section_is_skipped() -> None:
    text = f"# 장\n\n## References\n\n{ENGLISH}\n### Papers\n\n{ENGLISH}"
    assert found(text, "KO011") == []
    text = f"# 장\n\n## 참고 문헌\n\n{ENGLISH}"
    assert found(text, "KO011") == []


def test_ko011_a_heading_after_the_references_ends_them() -> None:
    text = f"## References\n\n{ENGLISH}\n## 다음 절\n\n{ENGLISH}"
    [finding] = found(text, "KO011")
    assert finding.start == text.rindex(ENGLISH)


def test_ko011_latin_words_only_in_links_and_code_do_not_count() -> None:
    text = (
        "[The model is split across many devices](https://example.com) "
        "`each one holds a shard of the whole model here` $a + b$\n"
    )
    assert found(text, "KO011") == []


def test_ko011_minimum_word_count_is_a_setting() -> None:
    text = "Data parallel training works.\n"
    assert found(text, "KO011") == []
    assert found(text, "KO011", Settings(untranslated_min_words=3))


def test_progress_counts_paragraphs_with_hangul() -> None:
    text = f"첫 문단.\n\n둘째 문단.\n\n{ENGLISH}\n셋째 문단.\n\n```\ncode only\n```\n"
    numbers = progress(parse_source(text))
    assert (numbers.translated, numbers.paragraphs) == (3, 4)
    assert numbers.percent == 75.0
