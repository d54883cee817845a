"""``kobook check`` on the real Korean playbook translation (a copy of ../shared/corpus)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

from kobook.check import Settings, check_files, check_text
from kobook.check.runner import FileReport
from kobook.source import parse_source
from tests.conftest import PLAYBOOK, need_corpus

pytestmark = pytest.mark.corpus

NAME = "The UltraScale Playbook.md"
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?^ {0,3}\1[ \t]*$", re.M | re.S)
MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.S)


def copy_playbook(target: Path) -> Path:
    need_corpus(PLAYBOOK / NAME)
    shutil.copytree(PLAYBOOK, target)
    for folder, dirs, files in os.walk(target):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            os.chmod(path, path.stat().st_mode | 0o200)
    os.chmod(target, target.stat().st_mode | 0o200)
    return target


@pytest.fixture(scope="module")
def playbook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_playbook(tmp_path_factory.mktemp("corpus") / "playbook")


@pytest.fixture(scope="module")
def report(playbook: Path) -> FileReport:
    reports = check_files(playbook)
    assert [r.path.name for r in reports] == [NAME]
    return reports[0]


def flagged(report: FileReport, rule: str) -> list[str]:
    return [report.doc_text[f.start : f.end] for f in report.findings if f.rule == rule]


def test_decomposed_hangul_is_found(report: FileReport) -> None:
    # Every NFD word of the playbook is in a screenshot's file-name alt text: --fix
    # composes them (check_text finds them), the report leaves them to FIG002.
    found = check_text(report.doc_text, report.path, Settings())
    words = [report.doc_text[f.start : f.end] for f in found if f.rule == "KO001"]
    assert len(words) >= 20
    assert "오후" in [unicodedata.normalize("NFC", w) for w in words]
    assert all(not unicodedata.is_normalized("NFC", w) for w in words)
    assert flagged(report, "KO001") == []


def test_file_name_alt_text_is_reported_once(report: FileReport) -> None:
    """143 of 172 findings were about alt texts: FIG002 plus KO001 twice per screenshot."""
    names = [(f.start, f.end) for f in report.findings if f.rule == "FIG002"]
    assert len(names) >= 80
    others = [
        f
        for f in report.findings
        if f.rule != "FIG002" and any(f.start < end and start < f.end for start, end in names)
    ]
    assert others == []


def test_spaces_before_particles_are_found(report: FileReport) -> None:
    """The editor's examples: 재계산(recomputation) 을, FLOPS 를 (42+ of them)."""
    text = report.doc_text
    spaced = [
        text[text.rfind(" ", 0, f.start) + 1 : f.end + 1]
        for f in report.findings
        if f.rule == "KO013"
    ]
    assert "재계산(recomputation) 을" in spaced
    assert "FLOPS 를" in spaced
    assert len(spaced) >= 42


def test_heading_emphasis_across_a_parenthesis_is_found(report: FileReport) -> None:
    [finding] = [f for f in report.findings if f.rule == "KO015"]
    assert report.doc_text[finding.start : finding.end] == "**gradient accumulation)**"
    line = report.doc_text.count("\n", 0, finding.start) + 1
    assert line == 236


def test_bold_commonmark_shows_literally_is_found(report: FileReport) -> None:
    spans = flagged(report, "KO010")
    assert "**커널(kernel)**" in spans
    assert "**f\\***" in spans
    literal = 0
    for token in MarkdownIt("commonmark").parse(report.doc_text):
        for child in token.children or []:
            if child.type == "text" and "**" in child.content:
                literal += len(re.findall(r"\*\*.+?\*\*", child.content))
    assert literal > 0
    assert len(spans) == literal


def test_file_name_alt_texts_are_found(report: FileReport) -> None:
    assert len(flagged(report, "FIG002")) >= 80
    assert not [f for f in report.findings if f.rule == "IMG001"]  # every image is there


@pytest.fixture(scope="module")
def fixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    root = copy_playbook(tmp_path_factory.mktemp("corpus-fix") / "playbook")
    path = root / NAME
    original = path.read_text(encoding="utf-8")
    check_files(root, fix=True, write=True)
    return root, original, path.read_text(encoding="utf-8")


def test_fix_removes_every_ko001(fixed: tuple[Path, str, str]) -> None:
    root, original, new = fixed
    assert new != original
    [after] = check_files(root)
    assert not [f for f in after.findings if f.rule == "KO001"]
    doc = parse_source(new)
    assert all(unicodedata.is_normalized("NFC", text) for _, text in doc.prose())
    assert "스크린샷 2025-06-27 오후 3.52.11.png" in new


def test_second_fix_changes_nothing(fixed: tuple[Path, str, str]) -> None:
    root, _, _ = fixed
    path = root / NAME
    before = path.read_bytes()
    stamp = path.stat().st_mtime_ns
    [again] = check_files(root, fix=True, write=True)
    assert again.fixed_text == again.doc_text
    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == stamp


def test_fix_keeps_code_and_math_byte_identical(fixed: tuple[Path, str, str]) -> None:
    _, original, new = fixed
    fences = [m.group(0) for m in FENCE.finditer(original)]
    assert len(fences) > 5
    assert fences == [m.group(0) for m in FENCE.finditer(new)]
    outside = FENCE.sub("", original)
    math = MATH.findall(outside)
    assert len(math) > 20
    assert math == MATH.findall(FENCE.sub("", new))


def test_glossary_extract_on_the_corpus(playbook: Path) -> None:
    def extract(*args: str) -> str:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "kobook",
                "glossary",
                "extract",
                "--project",
                str(playbook),
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    rows = [line for line in extract().splitlines() if "data parallelism" in line.lower()]
    assert any("데이터 병렬화" in row for row in rows), rows
    data = yaml.safe_load(extract("--format", "yaml"))
    assert isinstance(data, dict)
    [key] = [k for k in data if k.lower() == "data parallelism"]
    entry = data[key]
    korean = entry["ko"] if isinstance(entry, dict) else entry
    assert korean == "데이터 병렬화"
    counts = Counter(type(v).__name__ for v in data.values())
    assert counts["dict"] > 0  # conflicting translations come with variants
