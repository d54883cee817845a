"""What changed in the original between two commits, block by block, and how much.

Blocks with the same hash are the same block (rewrapped or not); the rest are
paired inside each changed run by word similarity, so an edited paragraph is
*stale* and not a removal plus an addition.  A stale block's change is *cosmetic*
(equal once case, punctuation and markup are folded), *minor* (at most three
words, anchors unchanged) or *substantive*: any change to a number, code, TeX or a
URL is substantive.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from .blocks import Block
from .features import tex

MINOR_WORDS = 3
SIMILAR = 0.5  # word similarity above which a changed block is the same block, edited
FOLD = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class Change:
    """One original block that is not the same at both commits."""

    kind: str  # stale | new | removed
    old: int | None  # index among the old commit's blocks
    new: int | None  # index among the new commit's blocks
    grade: str = ""  # cosmetic | minor | substantive (for stale)


def words(block: Block) -> list[str]:
    return block.canon.split()


def similarity(old: Block, new: Block) -> float:
    if old.kind != new.kind:
        return 0.0
    return difflib.SequenceMatcher(None, words(old), words(new), autojunk=False).ratio()


def folded(block: Block) -> str:
    return FOLD.sub(" ", block.plain.lower()).strip()


def word_runs(old: str, new: str) -> list[tuple[str, str, str]]:
    """``old`` → ``new`` word by word: runs of (kind, removed words, added words), kind
    ``equal`` (the words in the second place) or ``changed``; for grades and diffs."""
    a, b = old.split(), new.split()
    runs: list[tuple[str, str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        kind = "equal" if op == "equal" else "changed"
        runs.append((kind, " ".join(a[i1:i2]), " ".join(b[j1:j2])))
    return runs


def changed_words(old: Block, new: Block) -> int:
    return sum(
        max(len(gone.split()), len(came.split()))
        for kind, gone, came in word_runs(old.plain, new.plain)
        if kind != "equal"
    )


def grade(old: Block, new: Block) -> str:
    """How much a stale block changed: cosmetic, minor or substantive."""
    if old.kind == "code":
        same = " ".join(old.canon.split()) == " ".join(new.canon.split())
        return "cosmetic" if same else "substantive"
    if old.kind == "math":
        return "cosmetic" if tex(old.canon) == tex(new.canon) else "substantive"
    if old.features.anchors != new.features.anchors:
        return "substantive"
    if folded(old) == folded(new):
        return "cosmetic"
    return "minor" if changed_words(old, new) <= MINOR_WORDS else "substantive"


@dataclass
class Diff:
    """The changes, and which old block each unchanged or edited new block was."""

    changes: list[Change]
    was: dict[int, int]  # new index → old index

    def before(self, new: int) -> int | None:
        """The old block of the nearest new block before ``new`` that has one."""
        for index in range(new - 1, -1, -1):
            if index in self.was:
                return self.was[index]
        return None


def changes(old: list[Block], new: list[Block]) -> Diff:
    """Every block that differs between ``old`` and ``new``, in the new order."""
    matcher = difflib.SequenceMatcher(
        None, [b.key for b in old], [b.key for b in new], autojunk=False
    )
    found: list[Change] = []
    was: dict[int, int] = {}
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            was.update({j1 + k: i1 + k for k in range(i2 - i1)})
            continue
        run = paired(old, new, range(i1, i2), range(j1, j2))
        was.update({c.new: c.old for c in run if c.new is not None and c.old is not None})
        found += run
    return Diff(found, was)


def paired(old: list[Block], new: list[Block], olds: range, news: range) -> list[Change]:
    """A changed run: edited blocks paired in order by similarity, the rest new or removed."""
    n, m = len(olds), len(news)
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            score = similarity(old[olds[i - 1]], new[news[j - 1]])
            take = best[i - 1][j - 1] + score if score >= SIMILAR else -1.0
            best[i][j] = max(best[i - 1][j], best[i][j - 1], take)
    found: list[Change] = []
    i, j = n, m
    while i or j:
        if i and j:
            score = similarity(old[olds[i - 1]], new[news[j - 1]])
            if score >= SIMILAR and best[i][j] == best[i - 1][j - 1] + score:
                a, b = old[olds[i - 1]], new[news[j - 1]]
                found.append(Change("stale", olds[i - 1], news[j - 1], grade(a, b)))
                i, j = i - 1, j - 1
                continue
        if j and (not i or best[i][j] == best[i][j - 1]):
            found.append(Change("new", None, news[j - 1]))
            j -= 1
        else:
            found.append(Change("removed", olds[i - 1], None))
            i -= 1
    found.reverse()
    return found
