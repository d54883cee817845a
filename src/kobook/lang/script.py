"""Which language a piece of text is in, from its script, for language-aware rules.

Korean rules (quotes, particles, full-width forms, ...) must not touch Chinese
or Japanese text, whether the whole book is Chinese or one paragraph quotes
it.  Hangul marks Korean, kana Japanese and Han alone Chinese (or Japanese in
a Japanese book); text in Latin letters only takes the chapter's language.
"""

from __future__ import annotations

import re

from ..korean.hangul import HANGUL_RE

KANA = re.compile("[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]")


def text_language(text: str, default: str) -> str:
    """``ko``, ``ja``, ``zh-Hans``/``zh-Hant`` (per ``default``) or ``default`` for ``text``."""
    if HANGUL_RE.search(text):
        return "ko"
    if KANA.search(text):
        return "ja"
    if HAN.search(text):
        if default in ("ja", "zh-Hans", "zh-Hant"):
            return default
        return "zh-Hans"
    return default


def is_korean(text: str, default: str) -> bool:
    """True when Korean rules apply to ``text`` in a chapter whose language is ``default``."""
    return text_language(text, default) == "ko"


LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
# Fewer Latin words than this and a block is a name, a term or a title in the original's
# words (``Hello, Cargo!``), not text left untranslated.
UNTRANSLATED_MIN_WORDS = 6


def untranslated(text: str, min_words: int = UNTRANSLATED_MIN_WORDS) -> bool:
    """True when ``text`` holds ``min_words`` Latin words and no Hangul, kana or Han: in a
    Korean, Japanese or Chinese book, prose still in the original's language."""
    if HANGUL_RE.search(text) or KANA.search(text) or HAN.search(text):
        return False
    return len(LATIN_WORD.findall(text)) >= min_words
