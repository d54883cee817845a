"""Pairing a chapter's original blocks with its translation's, without a language model.

Two passes of one dynamic programme.  First the hard anchors (headings, code,
display math, figures) are aligned alone; the pairs it is sure of cut the chapter
into segments.  Then each segment's blocks are aligned with five moves: 1–1, an
original block left out (1–0), a block only the translation has (0–1; free for a
translator's note), and two blocks joined or split (2–1, 1–2).  A pair's score
comes from what translation keeps: its kind, code tokens, TeX, image sources,
URLs, inline code, numbers, citations and footnotes, the English words a Korean
sentence keeps, and its length against the book's length ratio.
"""

from __future__ import annotations

import difflib
import math
from collections import Counter
from dataclasses import dataclass

from .blocks import Block
from .features import Features, overlap

HARD = frozenset({"heading", "code", "math", "figure"})
GAP = 0.35  # a block with no partner
JOIN = 0.3  # two blocks translated as one (or one as two), on top of the pair's score
SURE = 0.55  # a hard-anchor pair that cuts the chapter into segments
BLIND = 0.5  # the best score of a pair with nothing but its length to go by
BAND = 12  # blocks either side of the diagonal a segment's alignment looks at


@dataclass(frozen=True)
class Pair:
    """Original blocks (0–2 indexes) aligned with translated blocks (0–2 indexes)."""

    upstream: tuple[int, ...]
    korean: tuple[int, ...]
    score: float = 0.0


@dataclass(frozen=True)
class Side:
    """What the score looks at for one or two joined blocks."""

    kind: str
    level: int
    features: Features
    tex: str
    key: str


def side(blocks: list[Block]) -> Side:
    first = blocks[0]
    if len(blocks) == 1:
        return Side(first.kind, first.level, first.features, first.canon, first.key)
    anchors: Counter[str] = Counter()
    code: Counter[str] = Counter()
    latin: set[str] = set()
    for block in blocks:
        anchors.update(block.features.anchors)
        code.update(block.features.code)
        latin |= block.features.latin
    length = sum(b.features.length for b in blocks)
    joined = Features(anchors, frozenset(latin), length, code)
    return Side(first.kind, first.level, joined, " ".join(b.canon for b in blocks), "")


class Scorer:
    """Scores pairs for one book: its length ratio and the pairs a reviewer confirmed."""

    def __init__(self, ratio: float, confirmed: frozenset[tuple[str, str]] = frozenset()):
        self.ratio = ratio if ratio > 0 else 1.0
        self.confirmed = confirmed

    def score(self, up: Side, ko: Side) -> float | None:
        """How sure the pair is, 0–1; None: the kinds differ and cannot pair."""
        if up.kind != ko.kind:
            return None
        if up.key and (up.key == ko.key or (up.key, ko.key) in self.confirmed):
            return 1.0  # the same block (left untranslated), or a pair a reviewer confirmed
        if up.kind == "code":
            found = overlap(up.features.code, ko.features.code)
            return 0.5 if found is None else found
        if up.kind == "math":
            return difflib.SequenceMatcher(None, up.tex, ko.tex, autojunk=False).ratio()
        value = self.prose(up.features, ko.features)
        if up.kind == "heading" and up.level != ko.level:
            value *= 0.5
        return value

    def prose(self, up: Features, ko: Features) -> float:
        """Anchors and kept English words are evidence; length alone is not (two short
        paragraphs are alike by length): without evidence a pair scores at most
        :data:`BLIND`, enough to keep order, never enough to cut a chapter."""
        parts: list[tuple[float, float]] = []
        anchors = overlap(up.anchors, ko.anchors)
        if anchors is not None:
            parts.append((0.5, anchors))
        if ko.latin:
            parts.append((0.25, len(ko.latin & up.latin) / len(ko.latin)))
        length = self.length(up.length, ko.length)
        if not parts:
            return BLIND * (0.5 + 0.5 * length)
        parts.append((0.35, length))
        weight = sum(w for w, _ in parts)
        return sum(w * v for w, v in parts) / weight

    def length(self, up: int, ko: int) -> float:
        expected = up * self.ratio
        if expected <= 0 or ko <= 0:
            return 1.0 if expected <= 0 and ko <= 0 else 0.0
        return math.exp(-abs(math.log(ko / expected)) * 1.2)


def align(up: list[Block], ko: list[Block], scorer: Scorer) -> list[Pair]:
    """The alignment of two block lists, in order, gaps included."""
    hard_up = [i for i, b in enumerate(up) if b.kind in HARD]
    hard_ko = [j for j, b in enumerate(ko) if b.kind in HARD and not b.note]
    cuts: list[tuple[int, int, float]] = []
    if hard_up and hard_ko:
        first = dynamic([up[i] for i in hard_up], [ko[j] for j in hard_ko], scorer)
        for pair in first:
            if len(pair.upstream) == 1 and len(pair.korean) == 1 and pair.score >= SURE:
                cuts.append((hard_up[pair.upstream[0]], hard_ko[pair.korean[0]], pair.score))
    pairs: list[Pair] = []
    start_u = start_k = 0
    for cut_u, cut_k, score in [*cuts, (len(up), len(ko), 0.0)]:
        inner = dynamic(up[start_u:cut_u], ko[start_k:cut_k], scorer)
        for pair in inner:
            pairs.append(
                Pair(
                    tuple(i + start_u for i in pair.upstream),
                    tuple(j + start_k for j in pair.korean),
                    pair.score,
                )
            )
        if cut_u < len(up):
            pairs.append(Pair((cut_u,), (cut_k,), score))
        start_u, start_k = cut_u + 1, cut_k + 1
    return pairs


def dynamic(up: list[Block], ko: list[Block], scorer: Scorer) -> list[Pair]:
    """The best-scoring alignment of ``up`` with ``ko`` by the five moves."""
    n, m = len(up), len(ko)
    if not n or not m:
        return [Pair((i,), ()) for i in range(n)] + [Pair((), (j,)) for j in range(m)]
    band = max(BAND, abs(n - m) + BAND)
    minus = -math.inf
    best = [[minus] * (m + 1) for _ in range(n + 1)]
    move: list[list[tuple[int, int, float]]] = [[(0, 0, 0.0)] * (m + 1) for _ in range(n + 1)]
    best[0][0] = 0.0
    singles_up = [side([b]) for b in up]
    singles_ko = [side([b]) for b in ko]
    for i in range(n + 1):
        centre = i * m / n
        low, high = max(0, int(centre) - band), min(m, int(centre) + band + 1)
        for j in range(low, high + 1):
            if i == 0 and j == 0:
                continue
            here, step = minus, (0, 0, 0.0)
            if i and best[i - 1][j] > minus:
                here, step = best[i - 1][j] - GAP, (1, 0, 0.0)
            if j and best[i][j - 1] > minus:
                value = best[i][j - 1] - (0.0 if ko[j - 1].note else GAP)
                if value > here:
                    here, step = value, (0, 1, 0.0)
            if i and j and best[i - 1][j - 1] > minus:
                score = scorer.score(singles_up[i - 1], singles_ko[j - 1])
                if score is not None and best[i - 1][j - 1] + score > here:
                    here, step = best[i - 1][j - 1] + score, (1, 1, score)
            if i > 1 and j and best[i - 2][j - 1] > minus and up[i - 2].kind == up[i - 1].kind:
                score = scorer.score(side(up[i - 2 : i]), singles_ko[j - 1])
                if score is not None and best[i - 2][j - 1] + score - JOIN > here:
                    here, step = best[i - 2][j - 1] + score - JOIN, (2, 1, score)
            if i and j > 1 and best[i - 1][j - 2] > minus and ko[j - 2].kind == ko[j - 1].kind:
                score = scorer.score(singles_up[i - 1], side(ko[j - 2 : j]))
                if score is not None and best[i - 1][j - 2] + score - JOIN > here:
                    here, step = best[i - 1][j - 2] + score - JOIN, (1, 2, score)
            best[i][j], move[i][j] = here, step
    return backtrack(move, n, m)


def backtrack(move: list[list[tuple[int, int, float]]], n: int, m: int) -> list[Pair]:
    pairs: list[Pair] = []
    i, j = n, m
    while i or j:
        di, dj, score = move[i][j]
        if not di and not dj:  # outside the band: cannot happen at the corner's path
            di, dj = (1, 0) if i else (0, 1)
        pairs.append(Pair(tuple(range(i - di, i)), tuple(range(j - dj, j)), score))
        i, j = i - di, j - dj
    pairs.reverse()
    return pairs
