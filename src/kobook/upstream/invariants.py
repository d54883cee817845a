"""What a translation must keep from its original, checked pair by pair (``kobook check``).

Each translated block aligned with its original (at its lock's base) must keep the
code (comments and strings may be translated), the TeX (``\\text{}`` may be), the
link targets, the numbers of its prose, its citations, footnotes and
cross-references; a translated block much shorter than the book's ratio says may
have dropped a sentence; and one glossary term should be translated one way.  An
original block with no translation at all is an omission.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from .blocks import Block
from .features import TOKEN, tex
from .lock import Lock
from .project import Project
from .status import Aligned, aligned

COMMENT = re.compile(r"(?<![:/])//[^\n]*|/\*.*?\*/|<!--.*?-->|(?<![\w\[!$])#(?=\s)[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
TEXT = re.compile(r"\\(?:text|textrm|mbox|textbf|textit)\s*\{[^{}]*\}")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
SENTENCE = re.compile(r"[.!?](?:\s|$)")
SHORT = 0.45  # a translation under this share of its expected length may drop a sentence
LONG_ENOUGH = 160  # characters of original prose before the length is a signal


@dataclass(frozen=True)
class Problem:
    """One invariant finding: a rule at a translated file's line."""

    file: str
    line: int
    rule: str
    message: str


def code_core(text: str) -> list[str]:
    """Code without comments and string literals, as tokens."""
    return TOKEN.findall(STRING.sub('""', COMMENT.sub(" ", text)))


def math_core(text: str) -> str:
    return tex(TEXT.sub("", text))


def targets(block: Block) -> Counter[str]:
    """The link targets a translation must keep: URLs, and other files (without the
    fragment: a translation may translate heading ids)."""
    found: Counter[str] = Counter()
    for anchor, count in block.features.anchors.items():
        if not anchor.startswith("u:"):
            continue
        target = anchor[2:]
        if target.startswith("#"):
            continue
        found[target if SCHEME.match(target) else target.split("#", 1)[0]] += count
    return found


def tagged(block: Block, tag: str) -> Counter[str]:
    return block.features.of(tag)


def pair_problems(up: Block, ko: Block, ratio: float) -> Iterator[tuple[str, str]]:
    """(rule, message) for each invariant a 1–1 pair breaks."""
    if up.kind == "code":
        if code_core(up.source) != code_core(ko.source):
            yield "SYNC002", "code differs from the original beyond comments and strings"
        return
    if up.kind == "math":
        if math_core(up.canon) != math_core(ko.canon):
            yield "SYNC003", f"math differs from the original: {up.canon[:60]}"
        return
    maths = Counter(math_core(k[2:]) for k in tagged(up, "m:").elements())
    if maths != Counter(math_core(k[2:]) for k in tagged(ko, "m:").elements()):
        yield "SYNC003", "inline math differs from the original"
    theirs, mine = targets(up), targets(ko)
    if theirs != mine:
        changed = sorted((theirs - mine).keys()) or sorted((mine - theirs).keys())
        yield "SYNC004", f"link target missing or changed: {changed[0][:80]}"
    numbers, kept = tagged(up, "n:"), tagged(ko, "n:")
    if numbers - kept:  # numbers a translation adds (10진수, 1분) are its own words
        lost = ", ".join(sorted(k[2:] for k in (numbers - kept))[:3])
        added = ", ".join(sorted(k[2:] for k in (kept - numbers))[:3])
        instead = f" (the translation has {added})" if added else ""
        yield "SYNC005", f"number of the original not in the translation: {lost}{instead}"
    for tag, what in (("@", "citation or cross-reference"), ("^", "footnote")):
        if sum(tagged(up, tag).values()) > sum(tagged(ko, tag).values()):
            yield "SYNC006", f"{what} of the original missing"
    expected = up.features.length * ratio
    if up.features.length >= LONG_ENOUGH and ko.features.length < SHORT * expected:
        sentences = len(SENTENCE.findall(up.plain))
        yield (
            "SYNC007",
            f"possibly dropped sentence: {ko.features.length} characters where "
            f"{expected:.0f} are expected ({sentences} sentences in the original)",
        )


def file_problems(project: Project, file: str) -> list[Problem]:
    """The invariant findings of one translated file against its lock's base."""
    lock = project.lock(file)
    korean = project.korean.get(file)
    if lock is None or korean is None:
        return []
    original = project.original(lock.base).get(lock.upstream)
    if original is None:
        return []
    found = aligned(project, korean, original, lock, lock.base)
    problems: list[Problem] = []
    ratio = project.ratio(lock.base)
    for pair in found.pairs:
        if len(pair.upstream) == 1 and len(pair.korean) == 1:
            up, ko = original.blocks[pair.upstream[0]], korean.blocks[pair.korean[0]]
            line = korean.lines[pair.korean[0]]
            for rule, message in pair_problems(up, ko, ratio):
                problems.append(Problem(file, line, rule, message))
        elif pair.upstream and not pair.korean:
            problems += omissions(found, pair.upstream, file, lock)
    return problems


def omissions(found: Aligned, indexes: tuple[int, ...], file: str, lock: Lock) -> list[Problem]:
    """SYNC001 for each original block with no translation, unless acked as omitted."""
    problems = []
    for index in indexes:
        block = found.original.blocks[index]
        if "omitted" in lock.marks_of(block.key) or ("missing", block.key) in lock.acks:
            continue
        problems.append(
            Problem(
                file,
                found.korean_line(index),
                "SYNC001",
                f"this {block.kind} of the original has no translation: «{block.plain[:60]}»",
            )
        )
    return problems


def glossary_problems(project: Project, terms: list[tuple[str, list[str]]]) -> list[Problem]:
    """SYNC008: an English term of the glossary rendered in more than one of its Korean
    forms across the aligned pairs; each use of a less common form is reported."""
    uses: dict[str, list[tuple[str, int, str]]] = defaultdict(list)
    for file in sorted(project.upstream.chapters):
        lock, korean = project.lock(file), project.korean.get(file)
        if lock is None or korean is None:
            continue
        original = project.original(lock.base).get(lock.upstream)
        if original is None:
            continue
        for pair in aligned(project, korean, original, lock, lock.base).pairs:
            english = " ".join(original.blocks[i].plain for i in pair.upstream).lower()
            for j in pair.korean:
                text = korean.blocks[j].plain
                for source, forms in terms:
                    if source.lower() in english:
                        used = [form for form in forms if form in text]
                        if len(used) == 1:
                            uses[source].append((file, korean.lines[j], used[0]))
    problems = []
    for source, found in sorted(uses.items()):
        counts = Counter(form for _, _, form in found)
        if len(counts) < 2:
            continue
        usual = counts.most_common(1)[0][0]
        for file, line, form in found:
            if form != usual:
                message = f"'{source}' is '{form}' here but '{usual}' in {counts[usual]} places"
                problems.append(Problem(file, line, "SYNC008", message))
    return problems


def reviewed_share(project: Project, file: str) -> tuple[int, int]:
    """(reviewed blocks, blocks) of a translated file's lock."""
    lock = project.lock(file)
    if lock is None:
        return 0, 0
    return sum(1 for e in lock.entries if "reviewed" in e.marks), len(lock.entries)
