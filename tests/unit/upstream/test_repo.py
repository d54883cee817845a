"""The original's repository: refs, trees, and what git may not do."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kobook.errors import KobookError
from kobook.upstream.repo import Repo, commit_of, open_repo, split_ref, tree
from tests.upstream_repo import ENV, git


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("../book@main", ("../book", "main")),
        ("../book", ("../book", "")),
        ("git@github.com:a/b.git", ("git@github.com:a/b.git", "")),
        ("https://x.org/a.git@v1.2", ("https://x.org/a.git", "v1.2")),
        ("file:/tmp/b@369386f", ("file:/tmp/b", "369386f")),
    ],
)
def test_split_ref(source: str, expected: tuple[str, str]) -> None:
    assert split_ref(source) == expected


def test_tree_keeps_files_only_and_never_leaves_the_cache(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "a.md").write_text("# A\n", encoding="utf-8")
    (repo / "link.md").symlink_to("/etc/passwd")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "x")
    opened = open_repo(str(repo), tmp_path, tmp_path / "cache", offline=True)
    commit = commit_of(opened, "")
    folder = tree(opened, commit, tmp_path / "cache")
    assert (folder / "a.md").read_text(encoding="utf-8") == "# A\n"
    assert not (folder / "link.md").exists()


def test_the_repositorys_own_config_runs_nothing(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "a.md").write_text("x\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "x")
    witness = tmp_path / "ran"
    subprocess.run(
        ["git", "-C", str(repo), "config", "core.fsmonitor", f"touch {witness}; false"],
        check=True,
        env=ENV,
    )
    opened = Repo(repo / ".git", str(repo))
    tree(opened, commit_of(opened, "HEAD"), tmp_path / "cache")
    assert not witness.exists()


def test_not_a_repository(tmp_path: Path) -> None:
    with pytest.raises(KobookError) as caught:
        open_repo(str(tmp_path), tmp_path, tmp_path / "cache", offline=True)
    assert caught.value.code == "UPS001"
