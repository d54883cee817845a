"""KO009: a particle that does not agree with the Latin word or number before it.

``GPU을`` → ``GPU를`` (유), ``LLM를`` → ``LLM을`` (엠), ``FP32으로`` →
``FP32로`` (이), ``H100는`` → ``H100은`` (백), ``1으로`` → ``1로`` (일: ㄹ).
Acronyms, digits and units are read by rule, so they are fixed; words whose
reading needs a dictionary (``model``, ``kernel``: a small built-in table,
extended by ``particles: {words: ...}`` in metadata) are reported only.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
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


# KO013 ---------------------------------------------------------------------------
# A space between a word and its particle: ``FLOPS 를``, ``재계산(recomputation) 을``,
# ``4 로``.  Only after what Hangul spacing rules cannot see as a word end of its
# own: Latin letters, digits, a closing bracket or quote, the end of inline code,
# math or a link.  What follows the space must be particles only (``GPU 가격``
# is a noun) and then a space, punctuation or the end.
SPACED_PARTICLE = re.compile(r" +([\uac00-\ud7a3]+)")
CLOSING = set(")]”’」』%")
DELIMITER_RUN = re.compile(r"[*_~]+$")
# Demonstrative 이 ("이 방법"), 다 ("all"), 도 after digits (degrees): particles only
# under the conditions in ``spaced_particle``.
WORD_BEFORE = re.compile(r"\S+$")


def masked_end_before(doc: SourceDoc, offset: int) -> bool:
    """Does a code span, math or a link end right before ``offset`` (outside prose)?"""
    char = doc.text[offset - 1 : offset]
    return char in ("`", "$", ")", "]") and not in_prose(doc, offset - 1)


def in_prose(doc: SourceDoc, offset: int) -> bool:
    index = bisect.bisect_right(doc.spans, (offset, len(doc.text) + 1)) - 1
    return index >= 0 and doc.spans[index][0] <= offset < doc.spans[index][1]


def attaches(doc: SourceDoc, space: int) -> tuple[bool, bool]:
    """Would a particle after the space at ``space`` belong to the word before it?

    Returns (it would, the space may be removed safely).  After ``**…**`` the
    marker run is looked through; removing the space is left to the author when
    the marker follows punctuation (``**재계산(recomputation)**을`` is literal
    asterisks on GitHub, KO010).
    """
    before = doc.text[doc.text.rfind("\n", 0, space) + 1 : space]
    delimiters = DELIMITER_RUN.search(before)
    cut = len(before) - (len(delimiters.group(0)) if delimiters else 0)
    char = before[cut - 1 : cut]
    if not char:
        return False, False
    if cut == len(before) and masked_end_before(doc, space):
        return True, True
    if not in_prose(doc, space - len(before) + cut - 1):
        return False, False
    latin = char.isascii() and char.isalnum()
    if not (latin or char in CLOSING):
        return False, False
    return True, not delimiters or latin


def ko013_spaced_particles(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    text = doc.text
    for offset, prose in doc.prose():
        for match in SPACED_PARTICLE.finditer(prose):
            start = offset + match.start()
            word_end = offset + match.end()
            after = text[word_end : word_end + 1]
            if after and not (after.isspace() or unicodedata.category(after)[0] in "PS"):
                continue  # "GPU 가A": not a word end
            run = ko.particle_run(match.group(1))
            if run is None:
                continue
            belongs, safe = attaches(doc, start)
            if not belongs or not spaced_particle(text, start, run, after, settings):
                continue
            word = WORD_BEFORE.search(text, text.rfind("\n", 0, start) + 1, start)
            shown = word.group(0) if word else ""
            particle = match.group(1)
            yield Finding(
                "KO013",
                start,
                offset + match.start(1),
                f"space before the particle '{particle}': write '{shown}{particle}'",
                "" if safe else None,
            )


def spaced_particle(text: str, start: int, run: list[str], after: str, settings: Settings) -> bool:
    """Is the lone ``run`` after the space at ``start`` a particle, not a word?

    ``이`` is also "this" (``GPU 이 방법``): a particle only when the word before
    takes ``이`` (``LLM 이``) or a sentence ends after it.  ``다`` is also "all":
    a particle (copula) only before punctuation.  ``도`` after digits is
    "degrees" (``90 도``).
    """
    if len(run) > 1:
        return True
    particle = run[0]
    ends = not after or unicodedata.category(after)[0] in "PS"
    digit_before = text[start - 1 : start].isdigit()
    if particle == "이":
        word = WORD_BEFORE.search(text, text.rfind("\n", 0, start) + 1, start)
        shown = word.group(0) if word else ""
        reading = ko.agree(shown, ko.Particle("이", "이", "가"), settings.particle_words)
        return ends or reading == "이"
    if particle == "다":
        return ends
    if particle == "도":
        return not digit_before
    return True
