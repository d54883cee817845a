"""KO009: particles after Latin words and numbers (read as Korean)."""

from __future__ import annotations

import pytest

from kobook.check import Settings

from .util import fix, found, hits


@pytest.mark.parametrize(
    ("wrong", "right"),
    [
        ("GPU을", "GPU를"),  # 유
        ("LLM를", "LLM을"),  # 엠
        ("FP32으로", "FP32로"),  # 이
        ("H100는", "H100은"),  # 백
        ("8GB을", "8GB를"),  # 기가바이트
        ("1으로", "1로"),  # 일: ㄹ takes 로
        ("CPU과", "CPU와"),  # 유
        ("RAM가", "RAM이"),  # 램
        ("API이라고", "API라고"),  # 이
    ],
)
def test_ko009_rule_read_words_are_fixed(wrong: str, right: str) -> None:
    text = f"이 장에서는 {wrong} 다룬다.\n"
    expected = f"이 장에서는 {right} 다룬다.\n"
    [finding] = found(text, "KO009")
    assert finding.end == text.index(wrong) + len(wrong)  # the particle, at the word's end
    assert finding.replacement is not None
    assert text[: finding.start] + finding.replacement + text[finding.end :] == expected
    assert fix(text) == expected


@pytest.mark.parametrize(
    "right", ["GPU를", "LLM을", "FP32로", "H100은", "8GB를", "1로", "CPU와", "RAM이", "API라고"]
)
def test_ko009_agreeing_particles_are_clean(right: str) -> None:
    text = f"이 장에서는 {right} 다룬다.\n"
    assert found(text, "KO009") == []
    assert fix(text) == text


def test_ko009_dictionary_word_is_reported_without_a_fix() -> None:
    text = "이 model를 학습한다.\n"
    [finding] = found(text, "KO009")
    assert text[finding.start : finding.end] == "를"
    assert finding.replacement is None
    assert "model을" in finding.message
    assert fix(text) == text


def test_ko009_book_reading_table_extends_the_dictionary() -> None:
    text = "Horovod을 쓴다.\n"
    assert found(text, "KO009") == []  # unknown reading: nothing to say
    settings = Settings(particle_words={"Horovod": "호로보드"})
    [finding] = found(text, "KO009", settings)
    assert finding.replacement is None
    assert "Horovod를" in finding.message


@pytest.mark.parametrize(
    "text", ["ZeRO-3는 메모리를 나눈다.\n", "E4M3를 쓴다.\n", "E4M3은 쓴다.\n"]
)
def test_ko009_ambiguous_readings_are_not_reported(text: str) -> None:
    assert found(text, "KO009") == []
    assert fix(text) == text


def test_ko009_particle_after_bold_acronym_is_fixed() -> None:
    text = "먼저 **GPU**을 본다.\n"
    assert hits(text, "KO009") == [("을", "를")]
    assert fix(text) == "먼저 **GPU**를 본다.\n"


@pytest.mark.parametrize("text", ["@fig:x를 보라.\n", "@fig:memory을 보라.\n", "[@sec:gpu을]\n"])
def test_ko009_cross_reference_particles_are_left_to_the_build(text: str) -> None:
    assert found(text, "KO009") == []
    assert fix(text) == text


def test_ko009_hangul_word_after_latin_is_not_a_particle() -> None:
    # "GPU이름" is GPU + 이름, not the particle 이.
    text = "GPU이름과 GPU가격\n"
    assert found(text, "KO009") == []
