"""Hangul character tests used by line breaking, checks and particle agreement."""

from __future__ import annotations

import re

SYLLABLE_FIRST, SYLLABLE_LAST = 0xAC00, 0xD7A3
# Precomposed syllables, conjoining jamo, compatibility jamo.
HANGUL_CLASS = "\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\ud7b0-\ud7ff"
HANGUL_RE = re.compile(f"[{HANGUL_CLASS}]")


def is_syllable(char: str) -> bool:
    return len(char) == 1 and SYLLABLE_FIRST <= ord(char) <= SYLLABLE_LAST


def has_hangul(text: str) -> bool:
    return HANGUL_RE.search(text) is not None


def final_index(char: str) -> int:
    """Index of the final consonant (종성) of a syllable: 0 none, 8 ㄹ, ..."""
    if not is_syllable(char):
        raise ValueError(f"not a Hangul syllable: {char!r}")
    return (ord(char) - SYLLABLE_FIRST) % 28


RIEUL = 8
