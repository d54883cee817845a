"""``kobook upstream`` on the Korean Rust book against ``rust-book-upstream.bundle``.

The edits are made by the test from the bundle's own files, chosen at random with a
fixed seed (never hand-picked): synthetic upstream commits, rewrapping, emphasis
syntax, and Korean paragraphs deleted.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from kobook.upstream import Project, findings, open_project, upstream_init
from kobook.upstream.status import Finding
from tests.conftest import CORPUS, need_corpus
from tests.upstream_repo import commit_edit, git

BUNDLE = CORPUS / "rust-book-upstream.bundle"
KOREAN = CORPUS / "rust-book-ko"
BASE = "3684317"  # the bundle's commit of upstream 369386f, the translation's base
SEED = 20261126
LINK = re.compile(r"(\]\(|^\[[^\]]+\]:\s*)(https?://[^)\s]+)")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
KOREAN_NUMBER = re.compile(r"(?<![\w.`-])(\d+)(?=[\uac00-\ud7a3])")
EMPHASIS = re.compile(r"(?<![*\w`])\*([A-Za-z][^*`\n]*?[A-Za-z])\*(?![*\w])")


@dataclass
class Rust:
    korean: Path
    upstream: Path
    base: str
    project: Project  # the translation as the fixture made it, read once for every test

    def reopen(self, korean: Path) -> Project:
        """A changed copy of the translation, read with the book's own cache."""
        return open_project(korean, cache_dir=self.korean / ".kobook-cache")


@pytest.fixture(scope="module")
def rust(tmp_path_factory: pytest.TempPathFactory) -> Rust:
    need_corpus(BUNDLE)
    need_corpus(KOREAN)
    folder = tmp_path_factory.mktemp("rust-upstream")
    upstream = folder / "upstream"
    subprocess.run(["git", "clone", "-q", str(BUNDLE), str(upstream)], check=True)
    korean = folder / "korean"
    shutil.copytree(KOREAN, korean, ignore=shutil.ignore_patterns(".kobook*"))
    (korean / "metadata.yaml").write_text("dialect: mdbook\n", encoding="utf-8")  # as import says
    report = upstream_init(korean, f"{upstream}@{BASE}")
    assert len(report.mapped) == 111 and not report.unmapped
    return Rust(korean, upstream, report.commit, open_project(korean))


@dataclass(frozen=True)
class Edit:
    kind: str
    file: str
    lines: range  # where the finding must point in the original (new text; old for removed)


def paragraphs(text: str, first: str = r"[A-Za-z]") -> list[tuple[int, int]]:
    """(first line, last line), 0-based, of each paragraph outside code fences whose
    first line starts with ``first`` (prose, not a list, table, heading or tag)."""
    found: list[tuple[int, int]] = []
    fence, start, prose = False, None, False
    for index, line in enumerate([*text.split("\n"), ""]):
        if line.startswith("```"):
            fence = not fence
        if fence or line.startswith("```") or not line.strip():
            if start is not None and prose:
                found.append((start, index - 1))
            start = None
        elif start is None:
            start, prose = index, bool(re.match(first, line))
    return found


def code_lines(text: str) -> list[int]:
    """Lines inside a code fence written in the chapter (not an include) with a digit."""
    lines, fence, found = text.split("\n"), False, []
    for index, line in enumerate(lines):
        if line.startswith("```"):
            fence = not fence
            continue
        if fence and re.search(r"\d", line) and "{{#" not in line:
            found.append(index)
    return found


def synthetic_edits(repo: Path, rng: random.Random, count: int) -> list[Edit]:
    """Edit ``count`` chapter files of the work tree, one edit each; what to expect."""
    files = sorted(p.relative_to(repo).as_posix() for p in (repo / "src").glob("ch*.md"))
    files += sorted(p.relative_to(repo).as_posix() for p in (repo / "src").glob("appendix*.md"))
    rng.shuffle(files)
    edits: list[Edit] = []
    kinds = ["word", "insert", "delete", "move", "code"]
    for file in files:
        if len(edits) == count:
            break
        path = repo / file
        lines = path.read_text(encoding="utf-8").split("\n")
        text = "\n".join(lines)
        kind = kinds[len(edits) % len(kinds)]
        paras = [p for p in paragraphs(text) if len(" ".join(lines[p[0] : p[1] + 1]).split()) >= 8]
        if kind == "code":
            candidates = code_lines(text)
            if not candidates:
                continue
            at = rng.choice(candidates)
            digit = re.search(r"\d", lines[at])
            assert digit
            d = digit.start()
            lines[at] = lines[at][:d] + str((int(lines[at][d]) + 1) % 10) + lines[at][d + 1 :]
            fence_start = max(i for i in range(at) if lines[i].startswith("```"))
            edits.append(Edit("code", file, range(fence_start + 1, at + 2)))
        elif len(paras) < 4:
            continue
        elif kind == "word":
            a, b = rng.choice(paras)
            words = [(m.start(), m.end()) for m in re.finditer(r"\b[a-z]{5,}\b", lines[a])]
            if not words:
                continue
            s, e = rng.choice(words)
            lines[a] = lines[a][:s] + "zebra" + lines[a][e:]
            edits.append(Edit("stale", file, range(a + 1, b + 2)))
        elif kind == "insert":
            a, b = rng.choice(paras)
            lines[b + 1 : b + 1] = ["", "Zebras cross the road in a herd of twelve animals."]
            edits.append(Edit("new", file, range(b + 3, b + 4)))
        elif kind == "delete":
            a, b = rng.choice(paras)
            old = range(a + 1, b + 2)
            del lines[a : b + 2]
            edits.append(Edit("removed", file, old))
        elif kind == "move":
            index = rng.randrange(len(paras) - 3)
            (a, b), (_, d) = paras[index], paras[index + 3]
            moved = lines[a : b + 1]
            edits.append(Edit("removed", file, range(a + 1, b + 2)))
            lines[d + 1 : d + 1] = ["", *moved]
            del lines[a : b + 2]
            start = d + 1 - (b + 2 - a) + 1
            edits.append(Edit("new", file, range(start + 1, start + 2 + b - a)))
        path.write_text("\n".join(lines), encoding="utf-8")
    return edits


def branch(rust: Rust, name: str, edit: Callable[[Path], None]) -> str:
    git(rust.upstream, "checkout", "-q", "-B", name, rust.base)
    return commit_edit(rust.upstream, edit, name)


def matches(finding: Finding, edit: Edit) -> bool:
    return finding.upstream_path == edit.file and finding.upstream_line in edit.lines


def test_synthetic_upstream_edits_are_found_with_their_grade(rust: Rust) -> None:
    edits: list[Edit] = []

    def edit(repo: Path) -> None:
        edits.extend(synthetic_edits(repo, random.Random(SEED), 100))

    target = branch(rust, "synthetic", edit)
    assert len(edits) >= 100
    found = [f for f in findings(rust.project, target) if f.kind != "weak"]
    moving = [f for f in found if f.kind in ("stale", "new", "removed")]
    missed = [e for e in edits if not any(matches(f, e) for f in moving)]
    assert not missed, f"{len(missed)} of {len(edits)} edits not found: {missed[:5]}"
    false = [f for f in moving if not any(matches(f, e) for e in edits)]
    assert len(false) <= 0.05 * len(moving), false[:5]
    for e in edits:
        hits = [f for f in moving if matches(f, e)]
        if e.kind == "code":
            assert [f.grade for f in hits] == ["substantive"], (e, hits)
        elif e.kind in ("new", "removed"):
            assert e.kind in {f.kind for f in hits}, (e, hits)


def test_rewrapping_and_emphasis_syntax_upstream_stale_nothing(rust: Rust) -> None:
    rng = random.Random(SEED + 1)
    touched: list[str] = []

    def edit(repo: Path) -> None:
        for path in sorted((repo / "src").glob("ch*.md")):
            text = path.read_text(encoding="utf-8")
            lines = text.split("\n")
            for a, b in paragraphs(text):
                for index in range(a, b + 1):  # *x* → _x_ in prose
                    lines[index] = EMPHASIS.sub(r"_\1_", lines[index])
                spaces = [m.start() for m in re.finditer(r" (?=[a-z])", lines[a])]
                if spaces and rng.random() < 0.5:
                    cut = rng.choice(spaces)
                    lines[a] = lines[a][:cut] + "\n" + lines[a][cut + 1 :]
                    touched.append(path.name)
            path.write_text("\n".join(lines), encoding="utf-8")

    target = branch(rust, "rewrap", edit)
    assert len(touched) > 200
    assert "_" in git(rust.upstream, "diff", rust.base, target, "--word-diff=porcelain")
    moving = [f for f in findings(rust.project, target) if f.kind == "stale"]
    assert moving == []


def test_deleted_korean_paragraphs_are_missing_at_their_place(rust: Rust) -> None:
    def missing(project: Project) -> Counter[tuple[str, str]]:
        found = findings(project, rust.base)
        return Counter((f.file, f.key) for f in found if f.kind == "missing")

    before = missing(rust.project)
    rng = random.Random(SEED + 2)
    korean = rust.korean.parent / "korean-deleted"
    shutil.copytree(rust.korean, korean, ignore=shutil.ignore_patterns(".kobook-cache"))
    files = sorted((korean / "src").glob("ch*.md"))
    rng.shuffle(files)
    deleted: dict[str, int] = {}
    for path in files:
        if len(deleted) == 20:
            break
        text = path.read_text(encoding="utf-8")
        paras = paragraphs(text, first=r"[\uac00-\ud7a3]")[1:]
        if len(paras) < 3:
            continue
        a, b = rng.choice(paras)
        lines = text.split("\n")
        if len(" ".join(lines[a : b + 1])) < 40:
            continue
        del lines[a : b + 2]
        path.write_text("\n".join(lines), encoding="utf-8")
        deleted[path.relative_to(korean).as_posix()] = a + 1
    project = rust.reopen(korean)
    new = missing(project) - before
    assert sorted(file for file, _ in new.elements()) == sorted(deleted)
    for f in findings(project, rust.base):
        if f.kind == "missing" and new[(f.file, f.key)]:
            assert f.block == "para"
            # where the paragraph was: the block before it (a code listing may be long)
            assert deleted[f.file] - 40 <= f.line <= deleted[f.file], (f, deleted[f.file])


def korean_mutations(
    root: Path,
    rng: random.Random,
    flagged: Callable[[str, str], set[int]],
    original: Callable[[str], str],
) -> list[tuple[str, str, int]]:
    """Change, in different files, ten code lines, ten link URLs and ten numbers of prose
    the translation kept from the original (in blocks no finding of that rule is already
    at); (rule, file, line) each must be found at."""
    files = sorted((root / "src").glob("ch*.md"))
    rng.shuffle(files)
    wanted = {"SYNC002": 10, "SYNC004": 10, "SYNC005": 10}
    done: list[tuple[str, str, int]] = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        options = {
            "SYNC002": [  # a number in code, not in a string or comment (translatable)
                i
                for i in code_lines(text)
                if re.search(r"\b\d+\b", lines[i]) and not re.search(r"[\"'#]|//", lines[i])
            ],
            "SYNC004": [  # in translated prose (some chapters are still in English)
                i
                for i, line in enumerate(lines)
                if LINK.search(line) and (HANGUL.search(line) or line.startswith("["))
            ],
            "SYNC005": [
                i
                for a, b in paragraphs(text, first=r"[\uac00-\ud7a3]")
                for i in range(a, b + 1)
                if KOREAN_NUMBER.search(lines[i]) and "`" not in lines[i]
            ],
        }
        rule = max(wanted, key=lambda r: (wanted[r] > 0 and bool(options[r]), wanted[r]))
        places = options[rule] if wanted[rule] else []
        if not places:
            continue
        file = path.relative_to(root).as_posix()
        if rule == "SYNC005":  # a number the original has (a translation may add its own)
            theirs = set(re.findall(r"\d+", original(file)))
            places = [i for i in places if KOREAN_NUMBER.search(lines[i])[1] in theirs]
        taken = flagged(file, rule)
        places = [i for i in places if block_start(lines, i, rule) + 1 not in taken]
        if not places:
            continue
        at = rng.choice(places)
        start = block_start(lines, at, rule)
        if rule == "SYNC002":
            lines[at] = re.sub(r"\b(\d+)\b", lambda m: str(int(m[1]) + 7), lines[at], count=1)
        elif rule == "SYNC004":
            lines[at] = LINK.sub(r"\1\2-moved", lines[at], count=1)
        else:
            lines[at] = KOREAN_NUMBER.sub(lambda m: str(int(m[1]) + 7), lines[at], 1)
        path.write_text("\n".join(lines), encoding="utf-8")
        wanted[rule] -= 1
        # A reference definition's URL is reported where the link is used.
        definition = rule == "SYNC004" and not LINK.search(lines[at]).group(1).startswith("]")
        done.append((rule, file, 0 if definition else start + 1))
    return done


def block_start(lines: list[str], at: int, rule: str) -> int:
    """The 0-based first line of the block line ``at`` is in: a code block's first code
    line, a paragraph's first line."""
    if rule == "SYNC002":
        return max(i for i in range(at) if lines[i].startswith("```")) + 1
    while at > 0 and lines[at - 1].strip():
        at -= 1
    return at


def test_korean_code_urls_and_numbers_changed_are_caught(rust: Rust) -> None:
    from kobook.upstream.invariants import file_problems

    korean = rust.korean.parent / "korean-mutated"
    shutil.copytree(rust.korean, korean, ignore=shutil.ignore_patterns(".kobook-cache"))
    before = rust.project

    def flagged(file: str, rule: str) -> set[int]:
        return {p.line for p in file_problems(before, file) if p.rule == rule}

    def original(file: str) -> str:
        return git(rust.upstream, "show", f"{rust.base}:{file}")

    mutations = korean_mutations(korean, random.Random(SEED + 3), flagged, original)
    assert len(mutations) == 30
    after = rust.reopen(korean)
    for rule, file, line in mutations:
        old = Counter((p.rule, p.line, p.message) for p in file_problems(before, file))
        new = [p for p in file_problems(after, file) if not old[(p.rule, p.line, p.message)]]
        hits = [p for p in new if p.rule == rule]
        assert hits, (rule, file, line, new)
        assert not line or line in {p.line for p in hits}, (rule, file, line, hits)
