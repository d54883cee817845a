"""``kobook upstream`` on a small pandoc pair written for the tests: init, status, diff, ack."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from kobook.cli import main
from kobook.upstream import open_project
from kobook.upstream.lock import lock_path, read_lock
from kobook.upstream.status import findings
from tests.upstream_repo import commit_edit, git, new_repo, replace_in

DATA = Path(__file__).parents[1] / "data" / "upstream" / "pandoc"
CHAPTER = "book/01-tiles.md"


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path, str]:
    """(the translation, the original's repository, the original's first commit)."""
    original = tmp_path / "original"
    first = new_repo(original, DATA / "original")
    korean = tmp_path / "korean"
    shutil.copytree(DATA / "korean", korean)
    result = CliRunner().invoke(main, ["upstream", "init", str(original), "--project", str(korean)])
    assert result.exit_code == 0, result.output
    return korean, original, first


def status(korean: Path, *args: str) -> tuple[int, list[dict[str, object]]]:
    result = CliRunner().invoke(
        main, ["upstream", "status", "--project", str(korean), "--format", "json", *args]
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, json.loads(result.stdout)


def korean_line(korean: Path, text: str) -> int:
    lines = (korean / CHAPTER).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_init_records_the_upstream_and_locks_every_block(pair: tuple[Path, Path, str]) -> None:
    korean, _, first = pair
    meta = yaml.safe_load((korean / "metadata.yaml").read_text(encoding="utf-8"))
    assert meta["title"] == "타일 책"  # what was there is kept
    assert meta["upstream"] == {
        "repository": "../original",
        "dialect": "pandoc",
        "chapters": {CHAPTER: CHAPTER},
    }
    lock = read_lock(korean, CHAPTER)
    assert lock is not None and lock.base == first
    kinds = [e.kind for e in lock.entries]
    assert kinds.count("heading") == 2 and "code" in kinds and "math" in kinds
    assert kinds.count("row") == 3 and kinds.count("item") == 3 and "footnote" in kinds
    assert all(e.korean != "-" for e in lock.entries), "every block of the pair is aligned"
    text = lock_path(korean, CHAPTER).read_text(encoding="utf-8")
    assert text == "\n".join(sorted(text.splitlines(), key=order)) + "\n"
    assert status(korean) == (0, [])


def order(line: str) -> tuple[int, str]:
    """The lock's line order: header lines, then blocks by number, then acks sorted."""
    rank = {"#": 0, "file": 1, "upstream": 2, "base": 3, "block": 4, "ack": 5}
    return rank[line.split()[0]], line if line.startswith("ack") else ""


def test_rewrapping_and_emphasis_syntax_upstream_stale_nothing(
    pair: tuple[Path, Path, str],
) -> None:
    korean, original, _ = pair

    def rewrap(repo: Path) -> None:
        path = repo / CHAPTER
        replace_in(path, "set. This chapter\nshows", "set.\nThis chapter shows")
        replace_in(path, "the joints. See", "the joints.\nSee")
        replace_in(path, "first, then columns", "*first*, then columns")

    commit_edit(original, rewrap)
    code, before = status(korean)
    assert [f["kind"] for f in before] == ["stale"] and before[0]["class"] == "cosmetic"
    assert code == 0  # cosmetic only: CI passes

    commit_edit(original, lambda repo: replace_in(repo / CHAPTER, "*first*", "_first_"))
    code, found = status(korean)
    assert found == before  # `_x_` for `*x*` is the same block


@pytest.mark.parametrize(
    ("old", "new", "grade", "korean_text"),
    [
        ("Seal the joints after a week", "Seal the joints after one week", "minor", "물이 스며"),
        ("let it cure for 24 hours", "let it cure for 48 hours", "substantive", "줄눈은 이음"),
        ("rows * cols  # whole", "rows * cols + 1  # whole", "substantive", "def tally"),
        (r"\frac{W H}{w h}", r"\frac{W H}{w_1 h}", "substantive", r"\lceil"),
        ("example.org/grout", "example.org/grout-v2", "substantive", "줄눈은 이음"),
        ("Count rows first, then", "Count the rows first, and then", "minor", "먼저 줄을"),
        ("Square | 300", "Square | 600", "substantive", "정사각형"),
        ("saves about 7 percent", "saves about 9 percent", "substantive", "7퍼센트"),
    ],
)
def test_each_upstream_edit_is_stale_at_the_korean_line(
    pair: tuple[Path, Path, str], old: str, new: str, grade: str, korean_text: str
) -> None:
    korean, original, _ = pair
    commit_edit(original, lambda repo: replace_in(repo / CHAPTER, old, new))
    code, found = status(korean)
    assert [(f["kind"], f["class"]) for f in found] == [("stale", grade)]
    assert found[0]["file"] == CHAPTER
    assert found[0]["line"] == korean_line(korean, korean_text)
    assert code == (1 if grade == "substantive" else 0)


def test_new_and_removed_blocks_name_where_they_belong(pair: tuple[Path, Path, str]) -> None:
    korean, original, _ = pair

    def edit(repo: Path) -> None:
        path = repo / CHAPTER
        replace_in(path, "## Grout\n", "## Grout\n\nWear gloves: wet grout burns the skin.\n")
        replace_in(path, "- Measure the walls twice.\n", "")

    commit_edit(original, edit)
    code, found = status(korean)
    kinds = {f["kind"]: f for f in found}
    assert sorted(kinds) == ["new", "removed"]
    assert kinds["new"]["line"] == korean_line(korean, "## 줄눈")  # it belongs after it
    assert kinds["removed"]["line"] == korean_line(korean, "벽을 두 번")
    assert kinds["removed"]["block"] == "item"
    assert code == 0


def test_status_is_deterministic_and_names_upstream_lines(pair: tuple[Path, Path, str]) -> None:
    korean, original, _ = pair
    commit_edit(original, lambda repo: replace_in(repo / CHAPTER, "24 hours", "2 days"))
    runs = [
        CliRunner().invoke(main, ["upstream", "status", "--project", str(korean), "--format", fmt])
        for fmt in ("json", "json", "text", "text", "github")
    ]
    assert runs[0].stdout == runs[1].stdout and runs[2].stdout == runs[3].stdout
    (finding,) = json.loads(runs[0].stdout)
    assert set(finding) >= {"chapter", "file", "line", "kind", "class", "upstream_path"}
    assert finding["upstream_path"] == CHAPTER
    upstream_lines = (original / CHAPTER).read_text(encoding="utf-8").splitlines()
    assert upstream_lines[int(str(finding["upstream_line"])) - 1].startswith("Grout fills")
    assert f"{CHAPTER}:{finding['line']}: stale:" in runs[2].stdout
    assert runs[4].stdout.startswith(f"::warning file={CHAPTER},line={finding['line']},")


def test_diff_shows_the_change_beside_the_korean(pair: tuple[Path, Path, str]) -> None:
    korean, original, _ = pair
    commit_edit(original, lambda repo: replace_in(repo / CHAPTER, "24 hours", "2 days"))
    result = CliRunner().invoke(main, ["upstream", "diff", "--project", str(korean)])
    assert "[-24 hours.-] {+2 days.+}" in result.stdout
    assert "24시간 동안 굳힌다" in result.stdout


def test_ack_clears_a_finding_and_editing_the_korean_does_not(
    pair: tuple[Path, Path, str],
) -> None:
    korean, original, _ = pair
    head = commit_edit(original, lambda repo: replace_in(repo / CHAPTER, "24 hours", "2 days"))
    replace_in(korean / CHAPTER, "24시간 동안", "이틀 동안")  # the translator updates it
    code, found = status(korean)
    assert code == 1 and [f["kind"] for f in found] == ["stale"]  # still stale until acked
    place = f"{CHAPTER}:{found[0]['line']}"
    result = CliRunner().invoke(main, ["upstream", "ack", place, "--project", str(korean)])
    assert result.exit_code == 0, result.output
    assert "lock moved" in result.stdout
    lock = read_lock(korean, CHAPTER)
    assert lock is not None and lock.base == head and not lock.acks
    assert status(korean) == (0, [])


def test_ack_cosmetic_takes_every_cosmetic_change_at_once(pair: tuple[Path, Path, str]) -> None:
    korean, original, _ = pair

    def edit(repo: Path) -> None:
        replace_in(repo / CHAPTER, "Seal the joints", "seal the joints")
        replace_in(repo / CHAPTER, "24 hours", "2 days")

    commit_edit(original, edit)
    _, found = status(korean)
    assert sorted(str(f["class"]) for f in found) == ["cosmetic", "substantive"]
    result = CliRunner().invoke(main, ["upstream", "ack", "--cosmetic", "--project", str(korean)])
    assert "acked 1 finding" in result.stdout
    _, left = status(korean)
    assert [f["class"] for f in left] == ["substantive"]


def test_deleted_korean_block_is_missing_until_acked_as_omitted(
    pair: tuple[Path, Path, str],
) -> None:
    korean, _, _ = pair
    replace_in(korean / CHAPTER, "물이 스며들지 않도록 일주일 뒤에 이음매를 막는다.\n", "")
    code, found = status(korean)
    assert [(f["kind"], f["block"]) for f in found] == [("missing", "para")]
    assert code == 1
    result = CliRunner().invoke(
        main, ["upstream", "ack", f"{CHAPTER}:{found[0]['line']}", "--project", str(korean)]
    )
    assert result.exit_code == 0, result.output
    assert status(korean) == (0, [])


def test_review_marks_are_kept_in_the_lock(pair: tuple[Path, Path, str]) -> None:
    korean, _, _ = pair
    line = korean_line(korean, "줄눈은 이음매를")
    result = CliRunner().invoke(
        main, ["upstream", "ack", "--reviewed", f"{CHAPTER}:{line}", "--project", str(korean)]
    )
    assert "marked 1 block" in result.stdout
    lock = read_lock(korean, CHAPTER)
    assert lock is not None
    assert [e.kind for e in lock.entries if "reviewed" in e.marks] == ["para"]


def test_guess_commit_takes_the_last_commit_the_translation_matches(tmp_path: Path) -> None:
    original = tmp_path / "original"
    new_repo(original, DATA / "original")
    matching = commit_edit(original, lambda repo: replace_in(repo / CHAPTER, "Grout", "Grout"))
    commit_edit(original, lambda repo: replace_in(repo / CHAPTER, "24 hours", "36 hours"))
    commit_edit(original, lambda repo: replace_in(repo / CHAPTER, "rows * cols", "cols * rows"))
    korean = tmp_path / "korean"
    shutil.copytree(DATA / "korean", korean)
    result = CliRunner().invoke(
        main, ["upstream", "init", str(original), "--guess-commit", "--project", str(korean)]
    )
    assert result.exit_code == 0, result.output
    lock = read_lock(korean, CHAPTER)
    assert lock is not None and lock.base == matching
    found = findings(open_project(korean))
    assert sorted(f.grade for f in found) == ["substantive", "substantive"]


def test_a_ref_after_the_source_and_a_file_url(tmp_path: Path) -> None:
    original = tmp_path / "original"
    first = new_repo(original, DATA / "original")
    commit_edit(original, lambda repo: replace_in(repo / CHAPTER, "24 hours", "2 days"))
    korean = tmp_path / "korean"
    shutil.copytree(DATA / "korean", korean)
    source = f"file:{original}@{first[:8]}"
    result = CliRunner().invoke(main, ["upstream", "init", source, "--project", str(korean)])
    assert result.exit_code == 0, result.output
    lock = read_lock(korean, CHAPTER)
    assert lock is not None and lock.base == first
    assert git(original, "rev-parse", "HEAD") != first
    assert [f["kind"] for f in status(korean)[1]] == ["stale"]


def test_a_remote_upstream_is_refused_offline_and_at_loopback(tmp_path: Path) -> None:
    korean = tmp_path / "korean"
    shutil.copytree(DATA / "korean", korean)
    for url, words in (
        ("https://example.org/book.git", "--offline forbids"),
        ("https://127.0.0.1/book.git", "loopback"),
        ("http://example.org/book.git", "only https"),
    ):
        args = ["upstream", "init", url, "--project", str(korean)]
        result = CliRunner().invoke(main, [*args, "--offline"] if "offline" in words else args)
        assert result.exit_code != 0
        assert words in str(result.exception) or words in result.output
    assert not (korean / ".kobook" / "upstream").exists()


def check_rules(korean: Path, *args: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(
        main, ["check", "--project", str(korean), "--select", "SYNC", "--format", "json", *args]
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return [f for f in json.loads(result.stdout) if f["path"] == CHAPTER]


@pytest.mark.parametrize(
    ("old", "new", "rule", "at"),
    [
        ("rows * cols  # 온전한", "rows + cols  # 온전한", "SYNC002", "def tally"),
        (r"\frac{W H}{w h}", r"\frac{W H}{w}", "SYNC003", r"$$n ="),
        ("$a = w \\times h$", "$a = w h$", "SYNC003", "타일 한 장의"),
        ("https://example.org/grout", "https://example.org/grot", "SYNC004", "줄눈은 이음매를"),
        ("24시간 동안", "42시간 동안", "SYNC005", "줄눈은 이음매를"),
        ("장이 필요하다.[^waste]", "장이 필요하다.", "SYNC006", "장이 필요하다"),
        ("물이 스며들지 않도록 일주일 뒤에 이음매를 막는다.\n", "", "SYNC001", "줄눈은 이음매를"),
    ],
)
def test_check_catches_what_the_translation_changed(
    pair: tuple[Path, Path, str], old: str, new: str, rule: str, at: str
) -> None:
    korean, _, _ = pair
    assert check_rules(korean) == []
    replace_in(korean / CHAPTER, old, new)
    found = [f for f in check_rules(korean) if f["rule"] == rule]
    assert found, check_rules(korean)
    assert found[0]["line"] == korean_line(korean, at)


def test_check_lets_comments_strings_and_text_in_math_be_translated(
    pair: tuple[Path, Path, str],
) -> None:
    korean, _, _ = pair
    replace_in(korean / CHAPTER, "# 온전한 타일만", "# 잘리지 않은 타일만 셉니다")
    replace_in(korean / CHAPTER, r"$a = w \times h$", r"$a = w \times h \text{ (넓이)}$")
    assert check_rules(korean) == []


def test_check_github_format_and_reviewed_share(pair: tuple[Path, Path, str]) -> None:
    korean, _, _ = pair
    replace_in(korean / CHAPTER, "24시간 동안", "42시간 동안")
    result = CliRunner().invoke(
        main, ["check", "--project", str(korean), "--select", "SYNC", "--format", "github"]
    )
    line = korean_line(korean, "줄눈은 이음매를")
    assert f"{CHAPTER},line={line},col=1,title=SYNC005::number" in result.stdout
    assert result.exit_code == 1
    CliRunner().invoke(
        main, ["upstream", "ack", "--reviewed", f"{CHAPTER}:{line}", "--project", str(korean)]
    )
    stats = CliRunner().invoke(
        main, ["check", "--project", str(korean), "--select", "SYNC001", "--stats"]
    )
    lock = read_lock(korean, CHAPTER)
    assert lock is not None
    assert f"reviewed 1/{len(lock.entries)} (" in stats.stdout


def test_one_glossary_term_translated_two_ways(pair: tuple[Path, Path, str]) -> None:
    korean, _, _ = pair
    (korean / "glossary.yaml").write_text("grout: {ko: 줄눈, variants: [메지]}\n", encoding="utf-8")
    assert [f["rule"] for f in check_rules(korean, "--select", "SYNC008")] == []
    replace_in(korean / CHAPTER, "## 줄눈", "## 메지")
    found = check_rules(korean, "--select", "SYNC008")
    assert [(f["rule"], f["line"]) for f in found] == [("SYNC008", korean_line(korean, "## 메지"))]
    assert "'grout' is '메지' here but '줄눈'" in str(found[0]["message"])


def test_a_weak_pair_is_reported_until_a_reviewer_confirms_it(
    pair: tuple[Path, Path, str],
) -> None:
    korean, _, _ = pair
    replace_in(korean / CHAPTER, "물이 스며들지 않도록 일주일 뒤에 이음매를 막는다.", "막는다.")
    code, found = status(korean)
    assert [(f["kind"], f["block"]) for f in found] == [("weak", "para")] and code == 0
    line = korean_line(korean, "막는다.")
    assert found[0]["line"] == line
    result = CliRunner().invoke(
        main, ["upstream", "ack", "--confirm", f"{CHAPTER}:{line}", "--project", str(korean)]
    )
    assert "marked 1 block" in result.stdout
    assert status(korean) == (0, [])


def test_metadata_cannot_lead_upstream_outside_the_workspace(
    pair: tuple[Path, Path, str], tmp_path: Path
) -> None:
    korean, original, _ = pair
    meta = korean / "metadata.yaml"
    text = meta.read_text(encoding="utf-8")
    far = tmp_path.parent / "elsewhere-repo"  # not beside the book: never read from metadata
    shutil.rmtree(far, ignore_errors=True)
    shutil.copytree(original, far)
    meta.write_text(text.replace("../original", str(far)), encoding="utf-8")
    result = CliRunner().invoke(main, ["upstream", "status", "--project", str(korean)])
    assert result.exit_code == 1 and "UPS001" in str(result.exception.diagnostic.code)  # type: ignore[union-attr]
    named = ["upstream", "status", "--project", str(korean), "--repository", str(far)]
    assert CliRunner().invoke(main, named).exit_code == 0  # named on the command line: fine
    meta.write_text(
        text.replace(f"{CHAPTER}: {CHAPTER}", f"../../escape.md: {CHAPTER}"), encoding="utf-8"
    )
    result = CliRunner().invoke(main, ["upstream", "ack", "--cosmetic", "--project", str(korean)])
    assert result.exit_code == 1 and result.exception.code == "SEC001"  # type: ignore[union-attr]
    assert not (korean.parent / "escape.md.lock").exists()
    shutil.rmtree(far)
