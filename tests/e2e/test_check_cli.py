"""``kobook check`` (and ``kobook build --strict``) as a user runs them, through a subprocess."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

import kobook
from kobook.errors import KobookError
from tests.checks import pdf_pages
from tests.conftest import BookMaker

NFD = unicodedata.normalize("NFD", "스크린샷")
ROW = re.compile(
    r"^(?P<path>[^:\s]+\.md):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning|info) "
    r"(?P<rule>[A-Z]+\d{3}) (?P<msg>.+)$"
)
DIRTY = "# 장\n\n학습에서 GPU을 쓴다. model를 본다.\n"
CLEAN = "# 둘\n\n깨끗한 문장이다.\n"


def kobook_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kobook", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(os.environ, CI="true"),
        timeout=300,
    )


def check(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return kobook_cli("check", "--project", str(root), *args, cwd=root)


def rows(stdout: str) -> list[re.Match[str]]:
    return [m for m in map(ROW.match, stdout.splitlines()) if m]


@pytest.fixture
def book(make_book: BookMaker) -> Path:
    return make_book({"book/01.md": DIRTY, "book/02.md": CLEAN}, metadata={"title": "작은 책"})


def test_findings_are_printed_as_path_line_col_rule(book: Path) -> None:
    result = check(book)
    assert result.returncode == 1, result.stderr
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert lines and all(ROW.match(line) for line in lines), lines
    found = [(m["path"], int(m["line"]), int(m["col"]), m["rule"]) for m in rows(result.stdout)]
    assert found == [("book/01.md", 3, 9, "KO009"), ("book/01.md", 3, 20, "KO009")]
    assert result.stdout.splitlines()[0].endswith("[*]")  # the fixable one says so
    # The summary goes to stderr, not into the machine-readable lines.
    assert "2 problem(s)" in result.stderr
    assert "problem(s)" not in result.stdout
    assert "Traceback" not in result.stderr


def test_clean_book_exits_zero(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": CLEAN}, metadata={"title": "깨끗한 책"})
    result = check(root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""
    assert "no problems found" in result.stderr


def test_fail_on_never_and_info(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": DIRTY}, metadata={"title": "책", "check": {"fail-on": "never"}})
    result = check(root)
    assert result.returncode == 0
    assert len(rows(result.stdout)) == 2
    # An info finding (an untranslated paragraph) fails only with fail-on: info.
    english = "# 장\n\nThis paragraph was never translated into Korean by anyone at all.\n"
    root = make_book({"book/01.md": english}, metadata={"title": "책"})
    result = check(root)
    assert [m["rule"] for m in rows(result.stdout)] == ["KO011"]
    assert result.returncode == 0
    root = make_book(
        {"book/01.md": english}, metadata={"title": "책", "check": {"fail-on": "info"}}
    )
    assert check(root).returncode == 1


def test_json_format(book: Path) -> None:
    result = check(book, "--format", "json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert [d["rule"] for d in data] == ["KO009", "KO009"]
    for item in data:
        assert set(item) == {"path", "line", "col", "rule", "severity", "message", "fixable"}
        assert item["path"] == "book/01.md"
        assert item["severity"] == "warning"
    assert [(d["line"], d["col"], d["fixable"]) for d in data] == [(3, 9, True), (3, 20, False)]
    assert "GPU를" in data[0]["message"]


def test_select_and_ignore(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": '# 장\n\nGPU을 쓴다. "한국어"\n'}, metadata={"title": "책"})
    assert sorted(m["rule"] for m in rows(check(root).stdout)) == ["KO007", "KO009"]
    assert [m["rule"] for m in rows(check(root, "--select", "KO009").stdout)] == ["KO009"]
    assert [m["rule"] for m in rows(check(root, "--ignore", "KO009").stdout)] == ["KO007"]
    both = check(root, "--ignore", "KO009", "--ignore", "KO007")
    assert both.returncode == 0 and rows(both.stdout) == []


def test_unknown_rule_is_a_clear_error(book: Path) -> None:
    result = check(book, "--select", "KO999")
    assert result.returncode == 1
    assert "CHK002" in result.stderr
    assert "KO999" in result.stderr
    assert "Traceback" not in result.stderr


def test_check_settings_in_metadata(make_book: BookMaker) -> None:
    text = "# 장\n\n이를 “한국어”라고 부른다.\n"
    root = make_book({"book/01.md": text}, metadata={"title": "책"})
    assert check(root).returncode == 0
    root = make_book(
        {"book/01.md": text}, metadata={"title": "책", "check": {"quotes": "straight"}}
    )
    result = check(root)
    assert result.returncode == 1
    assert [m["rule"] for m in rows(result.stdout)] == ["KO007", "KO007"]


def test_misspelt_check_key_gets_did_you_mean(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": CLEAN}, metadata={"title": "책", "check": {"quote": "x"}})
    result = check(root)
    assert result.returncode == 1
    assert "CFG008" in result.stderr
    assert "did you mean 'check.quotes'" in result.stderr
    assert "Traceback" not in result.stderr


def test_diff_prints_and_writes_nothing(book: Path) -> None:
    path = book / "book/01.md"
    before, stamp = path.read_bytes(), path.stat().st_mtime_ns
    result = check(book, "--diff")
    assert "--- " in result.stdout and "+++ " in result.stdout
    assert "-학습에서 GPU을 쓴다. model를 본다." in result.stdout
    assert "+학습에서 GPU를 쓴다. model를 본다." in result.stdout
    assert "@@ " in result.stdout
    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == stamp
    # What cannot be fixed is still listed.
    assert [m["rule"] for m in rows(result.stdout)] == ["KO009"]


def test_fix_writes_files_safely(make_book: BookMaker) -> None:
    root = make_book(
        {
            "book/01-crlf.md": '# 장\r\n\r\nGPU을 "한글"\r\n'.encode(),
            "book/02-no-newline.md": "# 둘\n\n그리고... 끝",
            "book/03-clean.md": CLEAN,
            "book/04-mode.md": f"# 넷\n\n{NFD}을 본다.\n",
        },
        metadata={"title": "책"},
    )
    folder = root / "book"
    os.chmod(folder / "04-mode.md", 0o640)
    clean = (folder / "03-clean.md").stat()
    names = sorted(p.name for p in folder.iterdir())
    result = check(root, "--fix")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "fixed 3 file(s)" in result.stderr
    crlf = (folder / "01-crlf.md").read_bytes()
    assert crlf == "# 장\r\n\r\nGPU를 “한글”\r\n".encode()
    assert (folder / "02-no-newline.md").read_bytes() == "# 둘\n\n그리고… 끝".encode()
    assert (folder / "04-mode.md").read_text(encoding="utf-8") == "# 넷\n\n스크린샷을 본다.\n"
    assert (folder / "04-mode.md").stat().st_mode & 0o777 == 0o640
    after = (folder / "03-clean.md").stat()
    assert (after.st_ino, after.st_mtime_ns) == (clean.st_ino, clean.st_mtime_ns)
    assert sorted(p.name for p in folder.iterdir()) == names  # no temporary files left
    # A second run has nothing to do.
    again = check(root, "--fix")
    assert again.returncode == 0
    assert "fixed 0 file(s)" in again.stderr
    assert crlf == (folder / "01-crlf.md").read_bytes()


def test_fix_only_the_given_file(book: Path) -> None:
    other = book / "notes.md"
    other.write_text("GPU을 쓴다.\n", encoding="utf-8")
    result = check(book, "--fix", "notes.md")
    assert result.returncode == 0
    assert other.read_text(encoding="utf-8") == "GPU를 쓴다.\n"
    assert (book / "book/01.md").read_text(encoding="utf-8") == DIRTY


def test_stats_prints_translation_progress(make_book: BookMaker) -> None:
    english = "This paragraph was never translated into Korean by anyone."
    root = make_book(
        {
            "book/01.md": f"# 장\n\n첫 문단.\n\n둘째 문단.\n\n{english}\n\n셋째 문단.\n",
            "book/02.md": CLEAN,
        },
        metadata={"title": "책"},
    )
    result = check(root, "--stats")
    assert "book/01.md: 3/4 (75%)" in result.stdout
    assert "book/02.md: 1/1 (100%)" in result.stdout


@pytest.fixture
def strict_book(make_book: BookMaker) -> Path:
    return make_book(
        {"book/01.md": f"# 첫 장\n\n우리는 GPU을 쓴다. 이 model를 본다. {NFD} 파일.\n"},
        metadata={"title": "엄격한 책"},
    )


@pytest.mark.slow
def test_build_applies_the_fixes_and_leaves_the_source(strict_book: Path) -> None:
    source = strict_book / "book/01.md"
    before = source.read_bytes()
    out = strict_book / "out"
    result = kobook_cli("build", "pdf", "--project", str(strict_book), "--out", str(out), "-q")
    assert result.returncode == 0, result.stderr
    assert source.read_bytes() == before
    text = " ".join(pdf_pages(out / "book.pdf"))
    assert "GPU를 쓴다" in text
    assert "GPU을" not in text
    raw = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(out / "book.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "스크린샷" in raw  # composed, not jamo
    assert NFD not in raw


def test_strict_build_api_fails_on_a_report_only_finding(strict_book: Path) -> None:
    with pytest.raises(KobookError) as info:
        kobook.build(strict_book, ["pdf"], strict=True, out=strict_book / "out")
    assert info.value.code == "CHK003"
    assert not (strict_book / "out" / "book.pdf").exists()


def test_strict_build_cli_fails_on_a_report_only_finding(strict_book: Path) -> None:
    result = kobook_cli("build", "pdf", "--strict", "--project", str(strict_book), "-q")
    assert result.returncode == 1, result.stderr
    assert "CHK003" in result.stderr
    assert "Traceback" not in result.stderr


def test_one_bad_front_matter_does_not_stop_the_other_fixes(tmp_path: Path) -> None:
    (tmp_path / "book").mkdir()
    (tmp_path / "metadata.yaml").write_text("title: 책\n", encoding="utf-8")
    bad = "---\ntitle: [unclosed\n---\n# 장\n\nGPU을 쓴다.\n"
    (tmp_path / "book" / "01.md").write_text(bad, encoding="utf-8")
    (tmp_path / "book" / "02.md").write_text("# 둘\n\nGPU을 쓴다.\n", encoding="utf-8")
    result = kobook_cli("check", "--fix", "--project", str(tmp_path))
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "book/01.md:2:1: error CHK006 not checked: FM001" in result.stdout + result.stderr
    assert (tmp_path / "book" / "02.md").read_text(encoding="utf-8") == "# 둘\n\nGPU를 쓴다.\n"
    assert (tmp_path / "book" / "01.md").read_text(encoding="utf-8") == bad


def test_check_and_build_agree_on_an_mdbook_books_language(tmp_path: Path) -> None:
    """book.toml's language = "en": the build writes English, and check applies the rules
    of an English book (Latin-only prose is not held to Korean rules)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "book.toml").write_text('[book]\ntitle = "Book"\nlanguage = "en"\n', "utf-8")
    (tmp_path / "src" / "SUMMARY.md").write_text("# Summary\n\n- [Ch](ch.md)\n", "utf-8")
    (tmp_path / "src" / "ch.md").write_text("# Chapter\n\nWait for it...\n", "utf-8")
    (tmp_path / "metadata.yaml").write_text("dialect: mdbook\n", "utf-8")
    built = kobook.build(tmp_path, ["html"])
    page = (built.outputs["html"].parent / "index.html").read_text(encoding="utf-8")
    assert 'lang="en"' in page
    checked = kobook_cli("check", "--project", str(tmp_path))
    assert "KO008" not in checked.stdout + checked.stderr, checked.stdout
    (tmp_path / "metadata.yaml").write_text("dialect: mdbook\nlang: ko\n", "utf-8")
    checked = kobook_cli("check", "--project", str(tmp_path))
    assert "KO008" in checked.stdout + checked.stderr  # metadata.yaml wins, as in a build
