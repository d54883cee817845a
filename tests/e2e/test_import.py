"""``kobook import`` from the command line: detection, idempotency, --force, --to, errors."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import BookMaker
from tests.e2e.test_cli import kobook
from tests.unit.importer.test_importer import DISTILL_POST, distill_site, mdbook_book


def clean_error(result: subprocess.CompletedProcess[str]) -> str:
    """The one-line error of a refused command (exit 1, no traceback)."""
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: "), result.stderr
    return result.stderr


def test_import_twice_changes_nothing(make_book: BookMaker) -> None:
    root = mdbook_book(make_book)
    first = kobook("import", str(root))
    assert first.returncode == 0, first.stderr
    assert "format: mdbook" in first.stdout
    path = root / "metadata.yaml"
    before = path.read_bytes(), path.stat().st_mtime_ns
    second = kobook("import", str(root))
    assert second.returncode == 0, second.stderr
    assert "metadata.yaml is up to date" in second.stdout
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def test_hand_edited_metadata_needs_force(make_book: BookMaker) -> None:
    root = mdbook_book(make_book)
    assert kobook("import", str(root)).returncode == 0
    path = root / "metadata.yaml"
    edited = path.read_text("utf-8").replace("러스트 책", "러스트 프로그래밍 언어")
    path.write_text(edited, "utf-8")
    refused = clean_error(kobook("import", str(root)))
    assert "IMP004" in refused and str(path) in refused and "--force" in refused
    assert path.read_text("utf-8") == edited
    forced = kobook("import", str(root), "--force")
    assert forced.returncode == 0, forced.stderr
    assert "러스트 책" in path.read_text("utf-8")


def test_report_names_what_could_not_be_converted(make_book: BookMaker) -> None:
    root = distill_site(make_book)
    result = kobook("import", str(root), "--from", "distill")
    assert result.returncode == 0, result.stderr
    assert "format: distill" in result.stdout
    assert "  figure: 1" in result.stdout
    line = DISTILL_POST.split("\n").index("{% unknowntag x %}") + 1
    assert f"intro.md:{line}" in result.stdout, result.stdout


def test_to_dir_builds_the_same_chapters(make_book: BookMaker, tmp_path: Path) -> None:
    root = mdbook_book(make_book)
    out = tmp_path / "plain"
    result = kobook("import", str(root), "--to", str(out))
    assert result.returncode == 0, result.stderr
    assert not (root / "metadata.yaml").exists()
    chapter = (out / "book" / "02-ch01-00.md").read_text("utf-8")
    assert 'println!("hi");' in chapter and "{{#include" not in chapter
    build = kobook(
        "build",
        "html",
        "--project",
        str(out),
        "--out",
        str(tmp_path / "dist"),
        "--cache-dir",
        str(tmp_path / "cache"),
        "-q",
    )
    assert build.returncode == 0, build.stderr
    html = "".join(p.read_text("utf-8") for p in (tmp_path / "dist" / "html").glob("*.html"))
    for title in ("표지", "시작하기", "설치"):  # SUMMARY.md's titles
        assert title in html
    assert "println!" in html
    again = clean_error(kobook("import", str(root), "--to", str(out)))
    assert "IMP005" in again and "--force" in again


@pytest.mark.parametrize("kind", ["missing", "file"])
def test_bad_source_is_a_clear_error(tmp_path: Path, kind: str) -> None:
    source = tmp_path / "nothing-here"
    if kind == "file":
        source = tmp_path / "chapter.md"
        source.write_text("# 장\n", "utf-8")
    message = clean_error(kobook("import", str(source)))
    assert "IMP001" in message and str(source) in message


def test_nothing_recognised_says_what_was_looked_for(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello", "utf-8")
    message = clean_error(kobook("import", str(tmp_path)))
    assert "IMP002" in message
    for sign in ("_config.yml", "book.toml", "SUMMARY.md", "book/*.md"):
        assert sign in message
