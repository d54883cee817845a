"""``kobook upstream init``: tie each translated file to its original and lock the pairs.

The file map is guessed where metadata does not give it: the same path in the
original, else the same file name, else the original file whose anchors (code,
URLs, numbers, inline code) the translated file shares most.  ``--guess-commit``
scans the original's history for the commits the translation matches best and takes
the last of the best run (a translation follows the original until it stops).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import KobookError
from ..importer.detect import detect
from .align import align
from .blocks import Block
from .features import overlap
from .lock import Entry, Lock, write_lock
from .project import Project, Upstream, write_upstream
from .repo import describe, history, split_ref, tree
from .sides import HTML, Text

MAP_SURE = 0.2  # anchor overlap a content-guessed file pair needs


@dataclass
class InitReport:
    """What ``init`` decided, printed for the translator."""

    commit: str
    described: str
    mapped: dict[str, str] = field(default_factory=dict)
    unmapped: list[str] = field(default_factory=list)  # translated files with no original
    untranslated: list[str] = field(default_factory=list)  # original files with no translation
    scores: list[tuple[str, int]] = field(default_factory=list)  # --guess-commit's scan


def anchors_of(text: Text) -> Counter[str]:
    total: Counter[str] = Counter()
    for block in text.blocks:
        total.update(block.features.anchors)
        total.update({"k:" + t: n for t, n in block.features.code.items() if len(t) > 2})
    return total


def guess_map(
    korean: dict[str, Text], original: dict[str, Text], given: dict[str, str]
) -> dict[str, str]:
    """Translated file → original file: given, same path, same name, then most anchors."""
    mapped = {k: v for k, v in given.items() if k in korean and v in original}
    by_name: dict[str, list[str]] = {}
    for path in original:
        by_name.setdefault(Path(path).name, []).append(path)
    left: list[str] = []
    for file in korean:
        if file in mapped:
            continue
        if file in original:
            mapped[file] = file
        elif len(by_name.get(Path(file).name, [])) == 1:
            mapped[file] = by_name[Path(file).name][0]
        else:
            left.append(file)
    free = [path for path in original if path not in mapped.values()]
    for file in left:
        mine = anchors_of(korean[file])
        scored = [(overlap(mine, anchors_of(original[p])) or 0.0, p) for p in free]
        if scored:
            score, best = max(scored)
            if score >= MAP_SURE:
                mapped[file] = best
                free.remove(best)
    return mapped


def lock_file(
    project: Project, file: str, upstream_path: str, commit: str, old: Lock | None
) -> Lock:
    """A fresh lock of ``file`` against the original at ``commit``; marks carried over."""
    korean = project.korean[file]
    original = project.original(commit)[upstream_path]
    confirmed = old.confirmed() if old else frozenset()
    pairs = align(original.blocks, korean.blocks, project.scorer(commit, confirmed))
    entries: list[Entry] = []
    for pair in pairs:
        for index in pair.upstream:
            block = original.blocks[index]
            partner = korean.blocks[pair.korean[0]].key if pair.korean else "-"
            marks = set(old.marks_of(block.key)) if old else set()
            entries.append(Entry(block.kind, block.key, partner, marks))
    kept = {h for k, h in old.acks if k == "missing"} if old else set()
    for key in kept:
        for entry in entries:
            if entry.upstream == key:
                entry.marks.add("omitted")
    return Lock(file, upstream_path, commit, entries)


def signature_hits(
    korean: dict[str, Text], original: dict[str, Text], mapped: dict[str, str]
) -> int:
    """How many translated code blocks and anchored blocks appear, exactly, in the
    original: the measure ``--guess-commit`` maximises."""
    hits = 0
    for file, upstream_path in mapped.items():
        theirs = original.get(upstream_path)
        if theirs is None:
            continue
        signatures = Counter(signature(b) for b in theirs.blocks)
        for block in korean[file].blocks:
            mine = signature(block)
            if mine and signatures[mine] > 0:
                signatures[mine] -= 1
                hits += 1
    return hits


def signature(block: Block) -> str:
    """What identifies a block across commits without its words: its code or TeX, else
    its kind and anchors ("" for a block with neither)."""
    if block.kind == "code":
        return "code:" + " ".join(block.canon.split())
    if block.kind == "math":
        return "math:" + block.canon
    anchors = sorted(k for k in block.features.anchors if not k.startswith("^"))
    return f"{block.kind}:" + "|".join(anchors) if anchors else ""


def best_commit(
    project: Project, ref: str, mapped: dict[str, str]
) -> tuple[str, list[tuple[str, int]]]:
    """The last commit of the first run of commits the translation matches best (a
    translation follows its original until it stops); every commit's score."""
    commits = list(reversed(history(project.repo, ref)))  # oldest first
    scores = []
    for commit in commits:  # read once each, not kept: a long history must fit in memory
        original = project.read_original(commit)
        scores.append((commit, signature_hits(project.korean, original, mapped)))
    top = max(score for _, score in scores)
    start = next(i for i, (_, score) in enumerate(scores) if score == top)
    end = start
    while end + 1 < len(scores) and scores[end + 1][1] == top:
        end += 1
    return scores[end][0], scores


def init(project: Project, source: str, *, guess_commit: bool = False) -> InitReport:
    """Record the upstream and write every translated file's lock."""
    _, ref = split_ref(source)
    commit = project.commit(ref or project.upstream.ref)
    if not project.upstream.dialect or project.upstream.dialect == "auto":
        project.upstream.dialect = dialect_of(tree(project.repo, commit, project.cache_dir))
    mapped = guess_map(project.korean, project.original(commit), project.upstream.chapters)
    if not mapped:
        raise KobookError(
            "no translated file could be matched with a file of the original",
            code="UPS005",
            file=project.root / "metadata.yaml",
            hint="list them under upstream: chapters: (translated file: original file)",
        )
    scores: list[tuple[str, int]] = []
    if guess_commit:
        commit, scores = best_commit(project, ref or project.upstream.ref, mapped)
    project.upstream.chapters = mapped
    for file, upstream_path in sorted(mapped.items()):
        write_lock(
            project.root, lock_file(project, file, upstream_path, commit, project.lock(file))
        )
    write_upstream(project.root / "metadata.yaml", project.upstream)
    original = project.original(commit)
    return InitReport(
        commit,
        describe(project.repo, commit),
        mapped,
        sorted(set(project.korean) - set(mapped)),
        sorted(set(original) - set(mapped.values())),
        scores,
    )


def dialect_of(folder: Path) -> str:
    """The original's dialect, as ``kobook import`` tells it; pages of HTML and nothing
    else a dialect reads: ``html``."""
    try:
        return detect(folder).dialect
    except KobookError:
        if any(folder.rglob("*.html")):
            return HTML
        raise


def new_upstream(source: str, dialect: str) -> Upstream:
    """The ``upstream:`` block ``init SOURCE[@REF]`` starts from."""
    repository, ref = split_ref(source)
    return Upstream(repository, ref, dialect)
