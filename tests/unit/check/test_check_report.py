"""What ``kobook check`` reports for a whole book (issue 11, finding 10).

FIG002 alone for a file-name alt text, KO012's first use counted per book in
the chapters' order, ``--diff`` that shows invisible changes, and the severity
in every output format.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

from kobook.check import check_files
from kobook.check.report import run_check
from kobook.check.runner import FileReport, shown
from tests.conftest import BookMaker

from .util import NFD_SCREENSHOT

GLOSSARY = "data parallelism: {ko: 데이터 병렬화}\nbubble: 버블\n"
CHAPTER_1 = "# 하나\n\n데이터 병렬화(data parallelism)는 배치를 나눈다.\n"
CHAPTER_2 = "# 둘\n\n데이터 병렬화는 다시 쓴다. 버블이 생긴다.\n"


def run(root: Path, *args: str, fmt: str = "text", diff: bool = False) -> int:
    return run_check(
        root,
        [root / a for a in args],
        fix=False,
        diff=diff,
        output_format=fmt,
        select=[],
        ignore=[],
        stats=False,
    )


# FIG002 alone -----------------------------------------------------------------------


def test_file_name_alt_text_gets_fig002_alone(make_book: BookMaker) -> None:
    alt = f"{NFD_SCREENSHOT} 2025-06-27 {unicodedata.normalize('NFD', '오후')} 3.52.11.png"
    text = f"# 장\n\n![{alt}](images/a.png)\n\n{NFD_SCREENSHOT}은 본문에도 있다.\n"
    root = make_book({"book/01.md": text}, metadata={"title": "책"}, images=["images/a.png"])
    [report] = check_files(root)
    rules = [(f.rule, report.doc_text[f.start : f.end]) for f in report.findings]
    assert rules == [("FIG002", alt), ("KO001", NFD_SCREENSHOT + "은")]
    # --fix still composes the name (the build drops it; the file reads the same everywhere).
    [fixed] = check_files(root, fix=True)
    assert fixed.fixed_text is not None
    assert unicodedata.is_normalized("NFC", fixed.fixed_text)
    assert [f.rule for f in fixed.findings] == ["FIG002"]


# KO012 per book ----------------------------------------------------------------------


@pytest.fixture
def glossed_book(make_book: BookMaker) -> Path:
    return make_book(
        {
            # Named out of alphabetical order: the chapters' order is metadata's.
            "book/b-first.md": CHAPTER_1,
            "book/a-second.md": CHAPTER_2,
            "glossary.yaml": GLOSSARY,
        },
        metadata={"title": "책", "chapters": ["book/b-first.md", "book/a-second.md"]},
    )


def first_uses(reports: list[FileReport]) -> list[tuple[str, str]]:
    return [
        (r.path.name, r.doc_text[f.start : f.end])
        for r in reports
        for f in r.findings
        if f.rule == "KO012" and "first use" in f.message
    ]


def test_ko012_first_use_is_per_book_in_chapter_order(glossed_book: Path) -> None:
    # 데이터 병렬화 is glossed in chapter 1: chapter 2 is not asked again; 버블 is new there.
    assert first_uses(check_files(glossed_book)) == [("a-second.md", "버블")]


def test_ko012_one_file_checked_still_knows_earlier_chapters(glossed_book: Path) -> None:
    reports = check_files(glossed_book, [glossed_book / "book/a-second.md"])
    assert first_uses(reports) == [("a-second.md", "버블")]
    # Chapter 1 alone has nothing before it.
    reports = check_files(glossed_book, [glossed_book / "book/b-first.md"])
    assert first_uses(reports) == []


def test_ko012_file_outside_the_book_is_its_own_first_use(glossed_book: Path) -> None:
    (glossed_book / "notes.md").write_text(CHAPTER_2, encoding="utf-8")
    reports = check_files(glossed_book, [glossed_book / "notes.md"])
    assert first_uses(reports) == [("notes.md", "데이터 병렬화"), ("notes.md", "버블")]


# --diff ------------------------------------------------------------------------------


def test_diff_marks_invisible_changes(
    make_book: BookMaker, capsys: pytest.CaptureFixture[str]
) -> None:
    text = f"# 장\n\n{NFD_SCREENSHOT}을 본다.\n\n메모리\u00a0사용량과 보이지\u200b않는 글자.\n"
    root = make_book({"book/01.md": text}, metadata={"title": "책"})
    assert run(root, diff=True) == 1
    out = capsys.readouterr().out
    removed = [line for line in out.splitlines() if line.startswith("-") and line[1:2] != "-"]
    added = [line for line in out.splitlines() if line.startswith("+") and line[1:2] != "+"]
    assert removed == [
        "-⟨NFD⟩스크린샷을 본다.".replace("스크린샷", NFD_SCREENSHOT),
        "-메모리⟨U+00A0⟩사용량과 보이지⟨U+200B⟩않는 글자.",
    ]
    assert added == ["+스크린샷을 본다.", "+메모리 사용량과 보이지않는 글자."]
    # No two lines of a pair may look alike once the markers are in.
    assert all(a[1:] != r[1:] for a, r in zip(added, removed, strict=True))


def test_shown_leaves_ordinary_lines_and_spaces_alone() -> None:
    assert shown("+GPU를 쓴다.\t끝\n") == "+GPU를 쓴다.\t끝\n"
    assert shown("-e\u0301 x") == "-⟨NFD⟩e\u0301 x"
    assert shown("+\u3000x\u2028") == "+⟨U+3000⟩x⟨U+2028⟩"


# Severity -----------------------------------------------------------------------------

ROW = re.compile(r"^(?P<path>\S+\.md):(\d+):(\d+): (?P<severity>error|warning|info) (?P<rule>\w+) ")


def test_text_output_shows_severity_like_json_and_github(
    make_book: BookMaker, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        "# 장\n\nGPU을 쓴다.\n\n"
        "This paragraph was never translated into Korean by anyone at all.\n\n"
        "![그림](images/none.png)\n"
    )
    root = make_book({"book/01.md": text}, metadata={"title": "책"})
    run(root)
    rows = [ROW.match(line) for line in capsys.readouterr().out.splitlines()]
    assert all(rows)
    shown_text = [(m["rule"], m["severity"]) for m in rows if m]
    assert shown_text == [("KO009", "warning"), ("KO011", "info"), ("IMG001", "error")]
    run(root, fmt="json")
    data = json.loads(capsys.readouterr().out)
    assert [(d["rule"], d["severity"]) for d in data] == shown_text
    run(root, fmt="github")
    commands = [line.split(" ")[0] for line in capsys.readouterr().out.splitlines()]
    assert commands == ["::warning", "::notice", "::error"]
