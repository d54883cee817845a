"""``kobook upstream status``: which translated blocks the original's changes made stale.

For each translated file: the translation is aligned with the original at its
lock's base commit; the original's changes from that commit to the target are
listed block by block (``compare.py``); each change is reported at the translated
block it concerns.  Staleness follows the original only: editing a translated
block never clears it, ``kobook upstream ack`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from .align import Pair, align
from .blocks import PROSE, Block
from .compare import changes
from .lock import Lock
from .project import Project
from .sides import Text

WEAK = 0.3  # a prose pair scored below this is reported for a reviewer to confirm


@dataclass(frozen=True)
class Finding:
    """One thing a translator should look at, at a translated file's line."""

    chapter: str
    file: str
    line: int
    kind: str  # stale | new | removed | missing | weak
    grade: str  # cosmetic | minor | substantive (stale); the block kind otherwise
    upstream_path: str
    upstream_line: int
    key: str  # the hash an ack names
    block: str  # the original block's kind
    old: str = ""  # the original block's text at the base
    new: str = ""  # ... and at the target
    korean: str = ""  # the translated block's text
    index: int | None = None  # the base's original block it concerns (new: follows)

    @property
    def failing(self) -> bool:
        """Does it fail CI: a substantive stale block, or a missing one."""
        return (self.kind == "stale" and self.grade == "substantive") or self.kind == "missing"

    def as_json(self) -> dict[str, object]:
        return {
            "chapter": self.chapter,
            "file": self.file,
            "line": self.line,
            "kind": self.kind,
            "class": self.grade if self.kind == "stale" else None,
            "block": self.block,
            "upstream_path": self.upstream_path,
            "upstream_line": self.upstream_line,
            "key": self.key,
        }


@dataclass
class Aligned:
    """A translated file aligned with its original at one commit."""

    korean: Text
    original: Text
    pairs: list[Pair]
    partner: dict[int, int]  # original block index → first translated block index

    def korean_line(self, index: int | None) -> int:
        """The translated line for original block ``index``: its partner's, else the line
        after the nearest earlier block that has one (where the text belongs)."""
        if index is not None:
            for i in range(index, -1, -1):
                if i in self.partner:
                    return self.korean.lines[self.partner[i]]
        return self.korean.lines[0] if self.korean.lines else 1

    def korean_text(self, index: int | None) -> str:
        if index is None or index not in self.partner:
            return ""
        return self.korean.blocks[self.partner[index]].plain


def aligned(
    project: Project, korean: Text, original: Text, lock: Lock | None, commit: str
) -> Aligned:
    confirmed = lock.confirmed() if lock else frozenset()
    pairs = align(original.blocks, korean.blocks, project.scorer(commit, confirmed))
    partner = {
        p.upstream[k]: p.korean[0] for p in pairs if p.korean for k in range(len(p.upstream))
    }
    return Aligned(korean, original, pairs, partner)


def file_findings(project: Project, file: str, target: str) -> list[Finding]:
    """Every finding of one translated file against the original at ``target``."""
    korean = project.korean.get(file)
    upstream_path = project.upstream.chapters.get(file)
    lock = project.lock(file)
    if korean is None or upstream_path is None or lock is None:
        return []
    old_text = project.original(lock.base).get(upstream_path)
    new_text = project.original(target).get(upstream_path)
    if old_text is None:
        return []
    base = aligned(project, korean, old_text, lock, lock.base)
    chapter = korean.chapters[0] if korean.chapters else file
    found: list[Finding] = []

    def add(kind: str, grade: str, old: int | None, new: int | None, key: str) -> None:
        if (kind, key) in lock.acks:
            return
        anchor = old if old is not None else diff.before(new or 0)
        block = (old_text.blocks[old] if old is not None else new_blocks[new or 0]).kind
        upstream_line = (
            new_text.lines[new] if new is not None and new_text else old_text.lines[old or 0]
        )
        found.append(
            Finding(
                chapter,
                file,
                base.korean_line(anchor),
                kind,
                grade,
                upstream_path,
                upstream_line,
                key,
                block,
                old_text.blocks[old].plain if old is not None else "",
                new_blocks[new].plain if new is not None else "",
                base.korean_text(anchor),
                anchor,
            )
        )

    new_blocks: list[Block] = new_text.blocks if new_text else []
    diff = changes(old_text.blocks, new_blocks)
    gone = set()
    for change in diff.changes:
        if change.kind == "stale":
            add("stale", change.grade, change.old, change.new, new_blocks[change.new or 0].key)
        elif change.kind == "new":
            add("new", "", None, change.new, new_blocks[change.new or 0].key)
        else:
            gone.add(change.old)
            add("removed", "", change.old, None, old_text.blocks[change.old or 0].key)
    for pair in base.pairs:
        if pair.korean:
            if len(pair.upstream) == 1 and pair.score < WEAK:
                index = pair.upstream[0]
                block = old_text.blocks[index]
                if block.kind in PROSE and "confirmed" not in lock.marks_of(block.key):
                    add("weak", "", index, None, block.key)
            continue
        for index in pair.upstream:
            block = old_text.blocks[index]
            if index in gone or "omitted" in lock.marks_of(block.key):
                continue
            add("missing", "", index, None, block.key)
    return sorted(found, key=lambda f: (f.line, ORDER[f.kind], f.upstream_line, f.key))


ORDER = {"stale": 0, "new": 1, "removed": 2, "missing": 3, "weak": 4}


def findings(project: Project, target: str | None = None) -> list[Finding]:
    """Every translated file's findings against ``target`` (default: the upstream's head)."""
    commit = project.commit(target)
    found: list[Finding] = []
    for file in sorted(project.upstream.chapters):
        found += file_findings(project, file, commit)
    return found
