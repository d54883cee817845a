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

from ..boundary import inside
from ..errors import KobookError
from ..files.reading import read_yaml
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


def book_glossary(root: Path, config: Any) -> tuple[list[Term], Path] | None:
    """The book's glossary (``glossary:`` in metadata.yaml, else ``glossary.yaml`` when
    there is one) and its file; None without one.  A glossary named but missing is
    CFG012; one that leads outside the book is refused."""
    name = config.get("glossary") or "glossary.yaml"
    path = root / str(name)
    if path.exists() or path.is_symlink():
        # Named in metadata.yaml: the message points there; else at the file itself.
        where, line = path, 0
        if config.get("glossary") and config.path is not None:
            where = config.path
            line = config.line("glossary")
        inside(path, root, what="glossary file", file=where, line=line)
    if path.is_file():
        return load_glossary(path), path
    if config.get("glossary"):
        raise KobookError(
            f"glossary file not found: {name}",
            code="CFG012",
            file=config.path,
            hint="fix 'glossary:' in metadata.yaml",
        )
    return None


def terms_from(settings: Settings) -> list[Term]:
    value = settings.glossary.get("terms")
    return list(value) if isinstance(value, list) else []


def inside_parentheses(text: str, index: int) -> bool:
    return text.rfind("(", 0, index) > text.rfind(")", 0, index)


class TermIndex:
    """Every occurrence of many words in a text, in one pass over it.

    A glossary can hold tens of thousands of terms: one regular expression per term
    and variant read a 210 KB chapter 60,000 times (over ten minutes).  The words are
    kept in a trie of their characters, so each position of the text costs at most
    the length of the longest word, whatever the number of words.
    """

    END = ""  # the key under which a trie node keeps the word that ends there

    def __init__(self, words: list[str], fold: bool = False) -> None:
        self.fold = fold
        self.trie: dict[str, Any] = {}
        for word in dict.fromkeys(self.folded(w) for w in words if w):
            node = self.trie
            for char in word:
                node = node.setdefault(char, {})
            node[self.END] = word

    def folded(self, text: str) -> str:
        """``text`` in lower case when folding, ASCII letters only (the length stays)."""
        return text.translate(ASCII_LOWER) if self.fold else text

    def find(self, text: str) -> dict[str, list[int]]:
        """Each word found → where it starts, in order."""
        haystack = self.folded(text)
        found: dict[str, list[int]] = defaultdict(list)
        trie, end, size = self.trie, self.END, len(haystack)
        for index in range(size):
            node = trie.get(haystack[index])
            at = index + 1
            while node is not None:
                word = node.get(end)
                if word is not None:
                    found[word].append(index)
                if at >= size:
                    break
                node = node.get(haystack[at])
                at += 1
        return found


ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True)
class Indexes:
    variants: TermIndex
    sources: TermIndex
    korean: TermIndex
    longer: dict[str, list[str]]  # a Korean term → the longer terms that contain it
    owners: dict[str, list[Term]]  # a variant → the terms that forbid it
    by_source: dict[str, list[Term]]  # a source term (folded) → its terms
    by_korean: dict[str, list[tuple[int, Term]]]  # a Korean term → (place, term)

    def terms_of(self, found: dict[str, list[int]]) -> list[Term]:
        """The terms whose Korean ``found`` holds, in the glossary's order."""
        return [t for _, t in sorted(p for k in found for p in self.by_korean.get(k, ()))]


_INDEXES: dict[tuple[Term, ...], Indexes] = {}


def indexes(terms: list[Term]) -> Indexes:
    """The glossary's indexes, made once per glossary."""
    key = tuple(terms)
    if key not in _INDEXES:
        if len(_INDEXES) > 8:
            _INDEXES.clear()
        koreans = [t.korean for t in terms]
        by_length = sorted(set(koreans), key=len)
        longer: dict[str, list[str]] = {}
        if len(by_length) <= 5000:
            longer = {k: [o for o in by_length if k in o and o != k] for k in by_length}
        else:  # a huge glossary: a term's longer forms found through the index itself
            index = TermIndex(by_length)
            for other in by_length:
                for word in index.find(other):
                    if word != other:
                        longer.setdefault(word, []).append(other)
        sources = TermIndex([t.source for t in terms], fold=True)
        owners: dict[str, list[Term]] = defaultdict(list)
        by_source: dict[str, list[Term]] = defaultdict(list)
        by_korean: dict[str, list[tuple[int, Term]]] = defaultdict(list)
        for place, term in enumerate(terms):
            for variant in term.variants:
                owners[variant].append(term)
            by_source[sources.folded(term.source)].append(term)
            by_korean[term.korean].append((place, term))
        _INDEXES[key] = Indexes(
            TermIndex([v for t in terms for v in t.variants]),
            sources,
            TermIndex(koreans),
            longer,
            owners,
            by_source,
            by_korean,
        )
    return _INDEXES[key]


def ko012_glossary(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    """KO012 for each span of prose: variants, source terms left in English, first uses.

    Only the terms the span holds are looked at (:class:`TermIndex`), so the work grows
    with the text and what it uses, not with the size of the glossary.
    """
    terms = terms_from(settings)
    if not terms:
        return
    index = indexes(terms)
    first_use_seen: set[str] = set(settings.glossary_seen)
    for offset, text in doc.prose():
        for variant, starts in index.variants.find(text).items():
            owning = index.owners[variant]
            for term in owning:
                for start in starts:
                    yield Finding(
                        "KO012",
                        offset + start,
                        offset + start + len(variant),
                        f"glossary: write '{term.korean}' for {term.source}, not '{variant}'",
                        term.korean if len(owning) == 1 else None,
                    )
        for source, starts in index.sources.find(text).items():
            for term in index.by_source[source]:
                for start in starts:
                    end = start + len(term.source)
                    if not word_edges(text, start, end) or inside_parentheses(text, start):
                        continue
                    yield Finding(
                        "KO012",
                        offset + start,
                        offset + end,
                        f"glossary: '{text[start:end]}' left in English; the book writes "
                        f"'{term.korean}({term.source})'",
                        None,
                    )
        if not settings.glossary_first_use:
            continue
        koreans = index.korean.find(text)
        for term in index.terms_of(koreans):
            if term.korean in first_use_seen:
                continue
            found = first_use(doc.text, offset, text, term, koreans, index.longer)
            if found < 0:
                continue
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


def word_edges(text: str, start: int, end: int) -> bool:
    """No Latin letter right before ``start`` or at ``end`` (a whole English word)."""
    latin = re.compile(r"[A-Za-z]")
    before = start > 0 and latin.match(text[start - 1])
    after = end < len(text) and latin.match(text[end])
    return not before and not after


def terms_used(doc: SourceDoc, settings: Settings) -> set[str]:
    """The glossary's Korean terms that ``doc``'s body text uses (KO012's first uses).

    Why: a term glossed in chapter 1 is not glossed again in chapter 2, so the
    chapters before a file tell KO012 which first uses are already behind.
    """
    terms = terms_from(settings)
    if not terms:
        return set()
    index = indexes(terms)
    used: set[str] = set()
    for offset, text in doc.prose():
        koreans = index.korean.find(text)
        for term in index.terms_of(koreans):
            if term.korean in used:
                continue
            if first_use(doc.text, offset, text, term, koreans, index.longer) >= 0:
                used.add(term.korean)
    return used


def first_use(
    source: str,
    offset: int,
    text: str,
    term: Term,
    found: dict[str, list[int]],
    longer: dict[str, list[str]],
) -> int:
    """Offset in ``text`` (a prose span at ``offset`` of ``source``) of the first use
    of ``term.korean`` in body text, or -1 (``found``: where each Korean term starts).

    Headings do not count (a gloss belongs in the text), nor does a use inside
    a longer glossary term (``액티베이션`` inside ``액티베이션 재계산(...)``).
    """
    for start in found.get(term.korean, ()):
        absolute = offset + start
        line_start = source.rfind("\n", 0, absolute) + 1
        if source[line_start:].lstrip().startswith("#"):
            continue
        inside = False
        for other in longer.get(term.korean, ()):
            at = start - other.index(term.korean)
            if at >= 0 and text.startswith(other, at):
                inside = True
        if not inside:
            return start
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
