"""KO012: the book's glossary, and ``kobook glossary extract`` to start one.

``glossary.yaml`` maps a source term to its Korean term, optionally with
forbidden variants::

    data parallelism:
      ko: 데이터 병렬화
      variants: [데이터 병렬 처리, 데이터 병렬성]
    throughput: 처리량          # short form: no variants

Reported: a forbidden variant (fixed when it belongs to one term only), the
source term left in English outside a parenthesis, and — when
``glossary-first-use`` is on — the book's first use of the Korean term (in the
chapter order; earlier chapters count when one file is checked) without
the original in parentheses (``데이터 병렬화(data parallelism)``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..errors import KobookError
from ..load.config import read_yaml
from ..source import SourceDoc
from .model import Finding, Settings


@dataclass(frozen=True)
class Term:
    source: str
    korean: str
    variants: tuple[str, ...] = ()


def load_glossary(path: Path) -> list[Term]:
    """Read ``glossary.yaml``; a bad entry is an error naming the file and the term."""
    data = read_yaml(path, "glossary", "CFG010")[0] or {}
    if not isinstance(data, dict):
        raise KobookError(
            "glossary must map source terms to Korean terms",
            code="CFG011",
            file=path,
            hint="data parallelism: 데이터 병렬화",
        )
    terms = []
    for source, value in data.items():
        if isinstance(value, str):
            terms.append(Term(str(source), value))
        elif isinstance(value, dict) and isinstance(value.get("ko"), str):
            variants = value.get("variants") or []
            terms.append(Term(str(source), value["ko"], tuple(str(v) for v in variants)))
        else:
            raise KobookError(
                f"glossary entry '{source}' needs a Korean term",
                code="CFG011",
                file=path,
                hint=f"{source}: {{ko: ..., variants: [...]}}",
            )
    return terms


def terms_from(settings: Settings) -> list[Term]:
    value = settings.glossary.get("terms")
    return list(value) if isinstance(value, list) else []


def inside_parentheses(text: str, index: int) -> bool:
    return text.rfind("(", 0, index) > text.rfind(")", 0, index)


def ko012_glossary(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    terms = terms_from(settings)
    if not terms:
        return
    owners: dict[str, list[Term]] = defaultdict(list)
    for term in terms:
        for variant in term.variants:
            owners[variant].append(term)
    first_use_seen: set[str] = set(settings.glossary_seen)
    for offset, text in doc.prose():
        for term in terms:
            for variant in term.variants:
                for match in re.finditer(re.escape(variant), text):
                    unique = len(owners[variant]) == 1
                    yield Finding(
                        "KO012",
                        offset + match.start(),
                        offset + match.end(),
                        f"glossary: write '{term.korean}' for {term.source}, not '{variant}'",
                        term.korean if unique else None,
                    )
            pattern = re.compile(rf"(?<![A-Za-z]){re.escape(term.source)}(?![A-Za-z])", re.I)
            for match in pattern.finditer(text):
                if inside_parentheses(text, match.start()):
                    continue
                yield Finding(
                    "KO012",
                    offset + match.start(),
                    offset + match.end(),
                    f"glossary: '{match.group(0)}' left in English; the book writes "
                    f"'{term.korean}({term.source})'",
                    None,
                )
            if settings.glossary_first_use and term.korean not in first_use_seen:
                found = first_use(doc.text, offset, text, term, terms)
                if found >= 0:
                    first_use_seen.add(term.korean)
                    after = text[found + len(term.korean) :].lstrip(" ")
                    if not after.startswith("("):
                        yield Finding(
                            "KO012",
                            offset + found,
                            offset + found + len(term.korean),
                            f"glossary: first use of '{term.korean}' in the book: "
                            f"add the original, '{term.korean}({term.source})'",
                            None,
                            "info",
                        )


def terms_used(doc: SourceDoc, settings: Settings) -> set[str]:
    """The glossary's Korean terms that ``doc``'s body text uses (KO012's first uses).

    Why: a term glossed in chapter 1 is not glossed again in chapter 2, so the
    chapters before a file tell KO012 which first uses are already behind.
    """
    terms = terms_from(settings)
    used: set[str] = set()
    for offset, text in doc.prose():
        for term in terms:
            if term.korean not in used and first_use(doc.text, offset, text, term, terms) >= 0:
                used.add(term.korean)
    return used


def first_use(source: str, offset: int, text: str, term: Term, terms: list[Term]) -> int:
    """Offset in ``text`` (a prose span at ``offset`` of ``source``) of the first use
    of ``term.korean`` in body text, or -1.

    Headings do not count (a gloss belongs in the text), nor does a use inside
    a longer glossary term (``액티베이션`` inside ``액티베이션 재계산(...)``).
    """
    longer = [t.korean for t in terms if term.korean in t.korean and t.korean != term.korean]
    for match in re.finditer(re.escape(term.korean), text):
        absolute = offset + match.start()
        line_start = source.rfind("\n", 0, absolute) + 1
        if source[line_start:].lstrip().startswith("#"):
            continue
        inside = False
        for other in longer:
            start = match.start() - other.index(term.korean)
            if start >= 0 and text.startswith(other, start):
                inside = True
        if not inside:
            return match.start()
    return -1


PAIR = re.compile(
    r"((?:[\uac00-\ud7a3]+[ ]){0,2}[\uac00-\ud7a3]+)[ ]?\(([A-Za-z][A-Za-z0-9 .'/+-]{1,60})\)"
)
LONE_PARTICLES = {
    "을",
    "를",
    "이",
    "가",
    "은",
    "는",
    "의",
    "와",
    "과",
    "도",
    "로",
    "에",
    "및",
    "그",
}


@dataclass
class Candidate:
    source: str
    translations: Counter[str] = field(default_factory=Counter)

    @property
    def count(self) -> int:
        return sum(self.translations.values())


def suffixes(korean: str) -> list[str]:
    """The last one, two and three words before the parenthesis (lone particles dropped)."""
    words = [w for w in korean.split(" ") if w]
    while words and words[0] in LONE_PARTICLES:
        words = words[1:]
    return [" ".join(words[-n:]) for n in range(1, len(words) + 1)]


def extract_pairs(texts: list[str]) -> dict[str, Candidate]:
    """``한국어(English)`` and ``한국어 (English)`` pairs in prose, by English term.

    Where the Korean term starts is not marked, so each occurrence offers its
    last one to three words; the one seen most often across the book wins
    (two words on a tie): ``데이터 병렬화`` beats ``병렬화`` when both always
    come together, and ``유휴`` beats ``를 유휴`` and ``유휴 상태``.
    """
    occurrences: dict[str, list[list[str]]] = {}
    names: dict[str, str] = {}
    for text in texts:
        for match in PAIR.finditer(text):
            english = match.group(2).strip()
            key = english.lower()
            names.setdefault(key, english)
            options = suffixes(match.group(1).strip())
            if options:
                occurrences.setdefault(key, []).append(options)
    found: dict[str, Candidate] = {}
    for key, items in occurrences.items():
        seen: Counter[str] = Counter(option for options in items for option in options)
        candidate = Candidate(names[key])
        for options in items:
            best = max(options, key=lambda o: (seen[o], -abs(len(o.split(" ")) - 2)))
            candidate.translations[best] += 1
        found[key] = candidate
    return found


def glossary_yaml(candidates: dict[str, Candidate], minimum: int = 1) -> str:
    """Candidates as ``glossary.yaml`` text: the most common translation, others as variants."""
    entries: dict[str, Any] = {}
    for candidate in sorted(candidates.values(), key=lambda c: (-c.count, c.source.lower())):
        if candidate.count < minimum:
            continue
        ranked = [k for k, _ in candidate.translations.most_common()]
        if len(ranked) == 1:
            entries[candidate.source] = ranked[0]
        else:
            entries[candidate.source] = {"ko": ranked[0], "variants": ranked[1:]}
    return yaml.safe_dump(entries, allow_unicode=True, sort_keys=False)
