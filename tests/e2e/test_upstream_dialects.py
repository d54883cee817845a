"""``kobook upstream`` with an original in another dialect: a distill site beside its
distill translation, and an original published as HTML beside a Markdown one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kobook.cli import main
from kobook.upstream.lock import read_lock
from tests.upstream_repo import commit_edit, new_repo, replace_in

DATA = Path(__file__).parents[1] / "data" / "upstream"


def pair(tmp_path: Path, name: str) -> tuple[Path, Path]:
    original = tmp_path / "original"
    new_repo(original, DATA / name / "original")
    korean = tmp_path / "korean"
    shutil.copytree(DATA / name / "korean", korean)
    result = CliRunner().invoke(main, ["upstream", "init", str(original), "--project", str(korean)])
    assert result.exit_code == 0, result.output
    return korean, original


def status(korean: Path) -> list[dict[str, object]]:
    result = CliRunner().invoke(
        main, ["upstream", "status", "--project", str(korean), "--format", "json"]
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return list(json.loads(result.stdout))


def test_distill_original_and_translation(tmp_path: Path) -> None:
    korean, original = pair(tmp_path, "distill")
    lock = read_lock(korean, "clocks.md")
    assert lock is not None and lock.upstream == "clocks.md"
    kinds = sorted(e.kind for e in lock.entries)
    assert kinds.count("figure") == 1 and kinds.count("math") == 1 and "footnote" in kinds
    assert all(e.korean != "-" for e in lock.entries)  # figure, details, takeaway: all paired
    assert status(korean) == []

    def edit(repo: Path) -> None:
        replace_in(repo / "clocks.md", "15 flip-flops halves the count 15", "16 flip-flops, 16")
        replace_in(repo / "clocks.md", "About 1.7 seconds a day.", "About 2 seconds a day.")
        replace_in(repo / "clocks.md", "{2^{15}} = 1", "{2^{16}} = 1")

    commit_edit(original, edit)
    found = status(korean)
    assert sorted((f["kind"], f["class"], f["block"]) for f in found) == [
        ("stale", "substantive", "footnote"),
        ("stale", "substantive", "math"),
        ("stale", "substantive", "para"),
    ]
    lines = (korean / "clocks.md").read_text(encoding="utf-8").splitlines()
    by_block = {f["block"]: lines[int(str(f["line"])) - 1] for f in found}
    assert "플립플롭 15개" in by_block["para"]  # its translation still says 15
    assert "frac{f}" in by_block["math"]


def test_an_original_published_as_html(tmp_path: Path) -> None:
    korean, original = pair(tmp_path, "html")
    meta = (korean / "metadata.yaml").read_text(encoding="utf-8")
    assert "dialect: html" in meta and "clocks.md: index.html" in meta
    assert status(korean) == []
    commit_edit(original, lambda repo: replace_in(repo / "index.html", "20 ppm", "25 ppm"))
    (found,) = status(korean)
    assert (found["kind"], found["class"], found["upstream_path"]) == (
        "stale",
        "substantive",
        "index.html",
    )
    lines = (korean / "clocks.md").read_text(encoding="utf-8").splitlines()
    assert "20 ppm" in lines[int(str(found["line"])) - 1]
    upstream = (original / "index.html").read_text(encoding="utf-8").splitlines()
    assert "25 ppm" in upstream[int(str(found["upstream_line"])) - 1]


@pytest.mark.parametrize("dialect", ["nonsense", "../../etc"])
def test_an_unknown_dialect_is_refused(tmp_path: Path, dialect: str) -> None:
    original = tmp_path / "original"
    new_repo(original, DATA / "pandoc" / "original")
    korean = tmp_path / "korean"
    shutil.copytree(DATA / "pandoc" / "korean", korean)
    args = ["upstream", "init", str(original), "--dialect", dialect, "--project", str(korean)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "Invalid value for '--dialect'" in result.output
    assert not (korean / ".kobook").exists()


@pytest.mark.parametrize("dialect", ["mkdocs", "quarto", "bookdown"])
def test_repository_shapes_on_both_sides(tmp_path: Path, dialect: str) -> None:
    source = DATA.parent / "dialects" / dialect
    original = tmp_path / "original"
    new_repo(original, source)
    korean = tmp_path / "korean"
    shutil.copytree(source, korean)
    (korean / "metadata.yaml").write_text(f"dialect: {dialect}\n", encoding="utf-8")  # as import
    result = CliRunner().invoke(main, ["upstream", "init", str(original), "--project", str(korean)])
    assert result.exit_code == 0, result.output
    meta = (korean / "metadata.yaml").read_text(encoding="utf-8")
    assert f"dialect: {dialect}" in meta
    assert status(korean) == []  # the same text on both sides: every block paired
    mapped = sorted((korean / ".kobook" / "upstream").rglob("*.lock"))
    assert len(mapped) >= 2
    biggest = max(mapped, key=lambda path: (path.stat().st_size, path.name))
    file = biggest.relative_to(korean / ".kobook" / "upstream").as_posix()[: -len(".lock")]
    commit_edit(
        original,
        lambda repo: (repo / file).write_text(
            (repo / file).read_text(encoding="utf-8") + "\n\nA paragraph added upstream.\n",
            encoding="utf-8",
        ),
    )
    assert [(f["kind"], f["file"]) for f in status(korean)] == [("new", file)]
