"""Particle (조사) agreement: pick ``을`` or ``를`` from how the word before is read.

Korean particles change with the last sound of the word they follow: ``그림 3을``
(삼, ends in ㅁ) but ``그림 2를`` (이, no final consonant).  For Latin words and
digits the written form says nothing; what counts is the Korean reading:
``GPU를`` (유), ``LLM을`` (엠), ``FP32로`` (이), ``H100은`` (백), ``1로`` (일:
ㄹ takes 로, not 으로).  :func:`final_sound` gives that last sound, or ``None``
when it needs a dictionary we do not have.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .hangul import RIEUL, final_index, is_syllable

# Final sound: "" (vowel), "ㄹ" (rieul: 로 not 으로), or "C" (another consonant).
VOWEL, LIQUID, CONSONANT = "", "ㄹ", "C"

# Letters read one by one (acronyms): A 에이, B 비, ..., L 엘, M 엠, N 엔, R 알.
LETTER_FINAL = {c: VOWEL for c in "ABCDEFGHIJKOPQSTUVWXYZ"} | {
    "L": LIQUID,
    "M": CONSONANT,
    "N": CONSONANT,
    "R": LIQUID,
}
DIGIT_FINAL = {
    "0": CONSONANT,  # 영
    "1": LIQUID,  # 일
    "2": VOWEL,  # 이
    "3": CONSONANT,  # 삼
    "4": VOWEL,  # 사
    "5": VOWEL,  # 오
    "6": CONSONANT,  # 육
    "7": LIQUID,  # 칠
    "8": LIQUID,  # 팔
    "9": VOWEL,  # 구
}
# Units written after digits, by their Korean reading.
UNIT_FINAL = {
    "B": VOWEL,  # 바이트 / 비 (8B: 팔비)
    "KB": VOWEL,
    "MB": VOWEL,
    "GB": VOWEL,
    "TB": VOWEL,
    "PB": VOWEL,
    "KIB": VOWEL,
    "MIB": VOWEL,
    "GIB": VOWEL,
    "TIB": VOWEL,
    "%": VOWEL,  # 퍼센트
    "X": VOWEL,  # 배
    "MS": VOWEL,  # 밀리초
    "S": VOWEL,  # 초
    "US": VOWEL,  # 마이크로초
    "NS": VOWEL,  # 나노초
    "HZ": VOWEL,  # 헤르츠
    "GHZ": VOWEL,
    "MHZ": VOWEL,
    "W": VOWEL,  # 와트
    "KW": VOWEL,
    "FLOPS": VOWEL,  # 플롭스
    "TFLOPS": VOWEL,
    "PFLOPS": VOWEL,
}
# Common technical words, by their usual Korean reading.  Books extend this with
# ``particles: {words: {Megatron: 메가트론}}`` in metadata.yaml.
WORD_READINGS = {
    "model": "모델",
    "kernel": "커널",
    "transformer": "트랜스포머",
    "zero": "제로",
    "attention": "어텐션",
    "pipeline": "파이프라인",
    "tensor": "텐서",
    "batch": "배치",
    "token": "토큰",
    "layer": "레이어",
    "optimizer": "옵티마이저",
    "adam": "아담",
    "adamw": "아담W",
    "python": "파이썬",
    "pytorch": "파이토치",
    "jax": "잭스",
    "cuda": "쿠다",
    "triton": "트라이톤",
    "nvidia": "엔비디아",
    "nvlink": "엔브이링크",
    "infiniband": "인피니밴드",
    "megatron": "메가트론",
    "deepspeed": "딥스피드",
    "nanotron": "나노트론",
    "picotron": "피코트론",
    "llama": "라마",
    "deepseek": "딥시크",
    "gradient": "그래디언트",
    "activation": "액티베이션",
    "throughput": "스루풋",
    "latency": "레이턴시",
    "checkpoint": "체크포인트",
    "forward": "포워드",
    "backward": "백워드",
    "softmax": "소프트맥스",
    "embedding": "임베딩",
    "flashattention": "플래시어텐션",
    "allreduce": "올리듀스",
    "all-reduce": "올리듀스",
    "all-gather": "올개더",
    "reduce-scatter": "리듀스스캐터",
    "github": "깃허브",
    "google": "구글",
    "tpu": "티피유",
}

# (after a consonant, after a vowel); ``으로`` also takes ``로`` after ㄹ.
PAIRS: list[tuple[str, str]] = [
    # The copula and its endings (표 1.3이다 / 표 1.2다) come before 이/가.
    ("이었다", "였다"),
    ("이므로", "므로"),
    ("이지만", "지만"),
    ("이라서", "라서"),
    ("이어서", "여서"),
    ("이에요", "예요"),
    ("이라고", "라고"),
    ("이라는", "라는"),
    ("이라면", "라면"),
    ("으로서", "로서"),
    ("으로써", "로써"),
    ("으로", "로"),
    ("이나", "나"),
    ("이랑", "랑"),
    ("이다", "다"),
    ("이며", "며"),
    ("이고", "고"),
    ("은", "는"),
    ("이", "가"),
    ("을", "를"),
    ("과", "와"),
]
RO_FORMS = {"으로", "으로서", "으로써"}

NUMBER = re.compile(r"(\d[\d,]*)(?:\.(\d+))?$")
TRAILING_UNIT = re.compile(r"(\d[\d,.]*)\s?([A-Za-z%]+)$")


@dataclass(frozen=True)
class Particle:
    """A particle found at the start of some text: its form and the pair it belongs to."""

    text: str
    consonant_form: str
    vowel_form: str


def split_particle(text: str) -> tuple[Particle | None, str]:
    """Split a leading particle off ``text`` (``"를 보면"`` → ``를``, ``" 보면"``)."""
    for consonant_form, vowel_form in PAIRS:
        for form in (consonant_form, vowel_form):
            if text.startswith(form):
                return Particle(form, consonant_form, vowel_form), text[len(form) :]
    return None, text


def number_final(digits: str, decimals: str | None) -> str:
    """Last sound of a number as read in Sino-Korean (``100`` 백, ``3.2`` 이)."""
    if decimals:
        return DIGIT_FINAL[decimals[-1]]
    digits = digits.replace(",", "")
    stripped = digits.rstrip("0")
    zeros = len(digits) - len(stripped)
    if not stripped:  # "0"
        return CONSONANT
    if zeros == 0:
        return DIGIT_FINAL[digits[-1]]
    if zeros == 1:
        return CONSONANT  # 십
    if zeros == 2:
        return CONSONANT  # 백
    if zeros == 3:
        return CONSONANT  # 천
    if zeros < 8:
        return CONSONANT  # 만
    if zeros < 12:
        return CONSONANT  # 억
    return VOWEL  # 조


def strip_trailing(word: str) -> str:
    """Drop closing quotes/brackets and a trailing parenthetical (``커널(kernel)`` → ``커널``)."""
    word = word.rstrip("”’\"'」』]*_`")
    if word.endswith(")") and "(" in word:
        depth = 0
        for index in range(len(word) - 1, -1, -1):
            if word[index] == ")":
                depth += 1
            elif word[index] == "(":
                depth -= 1
                if depth == 0:
                    before = word[:index]
                    # "커널(kernel)": a gloss, read the word before it.
                    # "식 (3.1)": a spaced parenthesis is read aloud, use what is inside.
                    if before and not before[-1].isspace():
                        return strip_trailing(before)
                    return strip_trailing(word[index + 1 : -1])
    return word.rstrip(")")


def final_sound(word: str, extra: dict[str, str] | None = None) -> str | None:
    """The last sound of ``word`` as read aloud: VOWEL, LIQUID, CONSONANT or None (unknown)."""
    word = strip_trailing(word.strip())
    if not word:
        return None
    last = word[-1]
    if is_syllable(last):
        index = final_index(last)
        return VOWEL if index == 0 else LIQUID if index == RIEUL else CONSONANT
    readings = {**WORD_READINGS, **{k.lower(): v for k, v in (extra or {}).items()}}
    if re.search(r"-[A-Za-z]*\d+$", word) or re.search(r"\d[A-Za-z]+\d", word):
        # Version numbers (ZeRO-3, GPT-4: 쓰리, 포) and codes (E4M3) are read in
        # English or letter by letter: no reliable reading.
        return None
    tail = re.search(r"[A-Za-z][A-Za-z0-9.+-]*$", word)
    if tail and tail.group(0).lower() in readings:
        return final_sound(readings[tail.group(0).lower()])
    number = NUMBER.search(word)
    if number:
        return number_final(number.group(1), number.group(2))
    unit = TRAILING_UNIT.search(word)
    if unit and unit.group(2).upper() in UNIT_FINAL:
        return UNIT_FINAL[unit.group(2).upper()]
    letters = re.search(r"[A-Za-z]+$", word)
    if letters:
        run = letters.group(0)
        start = letters.start()
        # Acronyms (GPU, LLM, FP32's letters, H100's H) are read letter by letter.
        if run.isupper() or (start > 0 and word[start - 1].isdigit() and len(run) == 1):
            return LETTER_FINAL[run[-1].upper()]
        return None
    return None


def agree(word: str, particle: Particle, extra: dict[str, str] | None = None) -> str | None:
    """The form of ``particle`` that agrees with ``word``; None when the reading is unknown."""
    sound = final_sound(word, extra)
    if sound is None:
        return None
    if sound == VOWEL:
        return particle.vowel_form
    if sound == LIQUID and particle.consonant_form in RO_FORMS:
        return particle.vowel_form
    return particle.consonant_form


# Particles with no consonant/vowel twin (``GPU에서``, ``FP8까지``).
STANDALONE = (
    "에서",
    "에게",
    "한테",
    "까지",
    "부터",
    "보다",
    "처럼",
    "만큼",
    "마다",
    "조차",
    "마저",
    "밖에",
    "이라도",
    "라도",
    "의",
    "에",
    "께",
    "도",
    "만",
    "뿐",
)
# Particles another one may follow (``에서``+``는``, ``만``+``으로``, ``과``+``의``) and
# what may follow them: a short closed list, so that ``로고`` (logo) or ``가는``
# (going) are not read as ``로``+``고`` or ``가``+``는``.
STACKING = {
    "에",
    "에서",
    "에게",
    "한테",
    "께",
    "으로",
    "로",
    "과",
    "와",
    "까지",
    "부터",
    "보다",
    "처럼",
    "만큼",
    "마다",
    "만",
    "뿐",
    "밖에",
}
FOLLOWING = {"는", "은", "도", "의", "만", "으로", "로", "에", "까지", "이나", "나"}
PARTICLE_FORMS = sorted(
    {form for pair in PAIRS for form in pair} | set(STANDALONE), key=len, reverse=True
)


def particle_readings() -> dict[str, tuple[str, ...]]:
    """Every run of particles :func:`particle_run` accepts, with its reading.

    Built once: KO013 asks about every Hangul word after a space (thousands per
    chapter, on each save in ``kobook preview``).  A single form wins over a
    stacked reading, and a longer first particle over a shorter one.
    """
    readings: dict[str, tuple[str, ...]] = {}
    for first in sorted(STACKING, key=len):
        for rest in FOLLOWING:
            readings[first + rest] = (first, rest)
    readings.update({form: (form,) for form in PARTICLE_FORMS})
    return readings


PARTICLE_READINGS = particle_readings()


def particle_run(word: str) -> list[str] | None:
    """``word`` (a run of Hangul) read as particles only, or None.

    ``에서는`` → ``["에서", "는"]``, ``를`` → ``["를"]``; ``가격`` or ``로고`` → None:
    a word that merely starts like a particle is not one.  Why: a space before a
    particle (``FLOPS 를``) is a spacing error only when what follows the space
    is a particle and nothing else.
    """
    reading = PARTICLE_READINGS.get(word)
    return list(reading) if reading is not None else None


# The final sounds a particle may follow, as the site's search writes them: V (a vowel),
# L (ㄹ) and C (another consonant).
SOUND_LETTERS = {VOWEL: "V", LIQUID: "L", CONSONANT: "C"}


def form_sounds(form: str) -> set[str]:
    """The final sounds of the word before that ``form`` agrees with (``을``: C and L)."""
    sounds: set[str] = set()
    for consonant_form, vowel_form in PAIRS:
        if form == consonant_form:
            sounds |= {CONSONANT} if form in RO_FORMS else {CONSONANT, LIQUID}
        if form == vowel_form:
            sounds |= {VOWEL, LIQUID} if consonant_form in RO_FORMS else {VOWEL}
    if form in STANDALONE:
        sounds |= {VOWEL, LIQUID, CONSONANT}
    return sounds


def search_endings() -> list[tuple[str, str]]:
    """Every run of particles with the final sounds it follows, longest first: the table
    the HTML book's search strips a query's particles with (``모델을`` → ``모델``).

    Why a table and not code: the stripping runs in the reader's browser
    (``assets/book.js``), and this module stays the one place that knows Korean
    particles.  The sounds keep ``사이`` whole: ``이`` does not follow a vowel.
    """
    endings = []
    for run, reading in PARTICLE_READINGS.items():
        sounds = form_sounds(reading[0])
        endings.append(
            (run, "".join(SOUND_LETTERS[s] for s in (VOWEL, LIQUID, CONSONANT) if s in sounds))
        )
    return sorted(endings, key=lambda item: (-len(item[0]), item[0]))
