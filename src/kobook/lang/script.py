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
