"""KO009: a particle that does not agree with the Latin word or number before it.

``GPU을`` → ``GPU를`` (유), ``LLM를`` → ``LLM을`` (엠), ``FP32으로`` →
``FP32로`` (이), ``H100는`` → ``H100은`` (백), ``1으로`` → ``1로`` (일: ㄹ).
Acronyms, digits and units are read by rule, so they are fixed; words whose
reading needs a dictionary (``model``, ``kernel``: a small built-in table,
extended by ``particles: {words: ...}`` in metadata) are reported only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..korean import particles as ko
from ..source import SourceDoc
from .model import Finding, Settings

CHECKED_PAIRS = {
    ("은", "는"),
    ("이", "가"),
    ("을", "를"),
    ("과", "와"),
    ("으로", "로"),
    ("이나", "나"),
    ("이라고", "라고"),
    ("이랑", "랑"),
}
PARTICLES = sorted({f for pair in CHECKED_PAIRS for f in pair}, key=len, reverse=True)
PATTERN = re.compile(
    r"(?<![\w.])([A-Za-z0-9][A-Za-z0-9.,+%-]*?)([*_]{0,3})("
    + "|".join(PARTICLES)
    + r")(?![\uac00-\ud7a3])"
)


def pair_of(form: str) -> tuple[str, str]:
    return next(pair for pair in CHECKED_PAIRS if form in pair)


def ko009_particles(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    extra = settings.particle_words
    for offset, text in doc.prose():
        for match in PATTERN.finditer(text):
            word, marks, form = match.groups()
            if word.endswith((".", ",")) or (word[-1] == "-"):
                continue
            consonant_form, vowel_form = pair_of(form)
            particle = ko.Particle(form, consonant_form, vowel_form)
            wanted = ko.agree(word, particle, extra)
            if wanted is None or wanted == form:
                continue
            # Rule-read words are fixed; dictionary words only reported.
            dictionary = bool(re.search(r"[a-z]", word)) and not re.search(r"\d", word)
            start = offset + match.start(3)
            yield Finding(
                "KO009",
                start,
                start + len(form),
                f"particle '{form}' does not agree with '{word}': write '{word}{marks}{wanted}'",
                None if dictionary else wanted,
            )
