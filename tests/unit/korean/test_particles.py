"""kobook.korean.particles: 을/를, 은/는, (으)로 ... chosen by how the word before is read."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kobook.korean.hangul import final_index, has_hangul, is_syllable
from kobook.korean.particles import (
    CONSONANT,
    LIQUID,
    PAIRS,
    PARTICLE_READINGS,
    VOWEL,
    agree,
    final_sound,
    search_endings,
    split_particle,
)


def agreed(word: str, written: str, extra: dict[str, str] | None = None) -> str | None:
    """The particle ``written`` after ``word`` as agree() corrects it."""
    particle, rest = split_particle(written)
    assert particle is not None, written
    assert rest == ""
    return agree(word, particle, extra)


@pytest.mark.parametrize(
    ("word", "written", "expected"),
    [
        ("GPU", "을", "를"),  # 유
        ("LLM", "를", "을"),  # 엠
        ("FP32", "으로", "로"),  # 이
        ("H100", "는", "은"),  # 백
        ("8GB", "을", "를"),  # 기가바이트
        ("1", "으로", "로"),  # 일: ㄹ takes 로
        ("7", "으로", "로"),  # 칠
        ("8", "으로", "로"),  # 팔
        ("3", "로", "으로"),  # 삼
        ("6", "로", "으로"),  # 육
        ("10", "는", "은"),  # 십
        ("그림 3", "를", "을"),
        ("그림 2", "을", "를"),
        ("그림 3.2", "을", "를"),  # 삼 점 이
        ("식 (3.1)", "으로", "로"),  # 일
        ("커널(kernel)", "라고", "이라고"),  # the gloss is not read; 커널 ends in ㄹ
        ("ZeRO", "은", "는"),  # 제로
        ("model", "를", "을"),  # 모델
        ("LLM", "와", "과"),
        ("GPU", "과", "와"),
        ("H100", "가", "이"),
    ],
)
def test_agree_examples(word: str, written: str, expected: str) -> None:
    assert agreed(word, written) == expected


@pytest.mark.parametrize(
    ("word", "sound"),
    [
        ("GPU", VOWEL),
        ("LLM", CONSONANT),
        ("FP32", VOWEL),
        ("H100", CONSONANT),
        ("8GB", VOWEL),
        ("1", LIQUID),
        ("7", LIQUID),
        ("8", LIQUID),
        ("3", CONSONANT),
        ("10", CONSONANT),
        ("1,000", CONSONANT),
        ("그림 3.2", VOWEL),
        ("식 (3.1)", LIQUID),
        ("커널(kernel)", LIQUID),
        ("ZeRO", VOWEL),
        ("model", LIQUID),
        ("“GPU”", VOWEL),
        ("**커널**", LIQUID),
        ("GPU들", LIQUID),
    ],
)
def test_final_sound(word: str, sound: str) -> None:
    assert final_sound(word) == sound


@pytest.mark.parametrize("word", ["foobar", "Picasso", "x", "", "   "])
def test_unknown_reading_is_none(word: str) -> None:
    assert final_sound(word) is None
    assert agreed(word, "을") is None


def test_extra_readings_from_metadata() -> None:
    assert agreed("Picasso", "을", {"Picasso": "피카소"}) == "를"
    assert agreed("Megatron", "를", {"Megatron": "메가트론"}) == "을"
    # Extra readings override the built-in ones, case-insensitively.
    assert agreed("Model", "을", {"model": "모형"}) == "을"
    assert agreed("model", "으로", {"MODEL": "모형"}) == "으로"


@pytest.mark.parametrize(
    ("word", "written", "expected"),
    [
        ("사과", "을", "를"),
        ("책", "를", "을"),
        ("물", "으로", "로"),
        ("집", "로", "으로"),
        ("나무", "이", "가"),
        ("사람", "는", "은"),
        ("서울", "으로서", "로서"),
        ("학교", "이라고", "라고"),
    ],
)
def test_hangul_words_by_batchim(word: str, written: str, expected: str) -> None:
    assert agreed(word, written) == expected


@pytest.mark.parametrize(
    ("text", "form", "pair", "rest"),
    [
        ("를 보면", "를", ("을", "를"), " 보면"),
        ("을", "을", ("을", "를"), ""),
        ("으로 간다", "으로", ("으로", "로"), " 간다"),
        ("이라고 부른다", "이라고", ("이라고", "라고"), " 부른다"),
        ("와 함께", "와", ("과", "와"), " 함께"),
        ("과 비교", "과", ("과", "와"), " 비교"),
        ("로서는", "로서", ("으로서", "로서"), "는"),
    ],
)
def test_split_particle(text: str, form: str, pair: tuple[str, str], rest: str) -> None:
    particle, tail = split_particle(text)
    assert particle is not None
    assert particle.text == form
    assert (particle.consonant_form, particle.vowel_form) == pair
    assert tail == rest


@pytest.mark.parametrize("text", ["의 크기", "에서", " 를", "abc", ""])
def test_split_particle_none(text: str) -> None:
    assert split_particle(text) == (None, text)


def test_longest_form_wins() -> None:
    # "으로서" must not be read as "으로" + "서", nor "이라고" as "이" + "라고".
    assert split_particle("으로서")[0].text == "으로서"  # type: ignore[union-attr]
    assert split_particle("이라고")[0].text == "이라고"  # type: ignore[union-attr]


def test_hangul_helpers() -> None:
    assert is_syllable("가") and not is_syllable("a") and not is_syllable("가나")
    assert final_index("가") == 0
    assert final_index("물") == 8
    assert has_hangul("GPU를") and not has_hangul("GPU")
    with pytest.raises(ValueError):
        final_index("a")


SYLLABLES = st.integers(0xAC00, 0xD7A3).map(chr)


@given(SYLLABLES, st.sampled_from(PAIRS))
def test_agree_on_any_syllable_is_one_of_the_pair(syllable: str, pair: tuple[str, str]) -> None:
    consonant_form, vowel_form = pair
    particle, _ = split_particle(vowel_form)
    assert particle is not None
    form = agree(syllable, particle)
    final = (ord(syllable) - 0xAC00) % 28
    takes_vowel_form = final == 0 or (final == 8 and consonant_form.startswith("으로"))
    if takes_vowel_form:
        assert form == vowel_form
    else:
        assert form == consonant_form


def test_search_endings_follow_the_sounds_each_particle_agrees_with() -> None:
    endings = dict(search_endings())
    assert endings["을"] == "LC" and endings["를"] == "V"  # 모델을, 데이터를
    assert endings["으로"] == "C" and endings["로"] == "VL"  # 그림으로, 모델로, 데이터로
    assert endings["이"] == "LC" and endings["가"] == "V"  # 사이 is not 사 + 이
    assert endings["의"] == endings["에서"] == "VLC"  # one form after any word
    assert endings["에서는"] == "VLC" and endings["으로는"] == "C"  # a run: its first particle
    assert endings["이라도"] == "VLC"
    runs = [run for run, _ in search_endings()]
    assert runs == sorted(runs, key=len, reverse=True)  # longest first: 에서는 before 는
    assert set(runs) == set(PARTICLE_READINGS)
