"""``kobook init`` as a library: the skeleton's files, the requirement CI installs, refusals."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest
import yaml

from kobook.errors import KobookError
from kobook.load import load_config
from kobook.scaffold import LANGUAGES, init_book, requirement_from, skeleton

REPO = Path(__file__).resolve().parents[2]
REQUIREMENT = "kobook @ git+https://example.org/kobook.git@0123abcd"


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_skeleton_metadata_is_valid_and_names_title_and_language(lang: str, tmp_path: Path) -> None:
    files = skeleton('My "Book": 2nd ed.', lang, REQUIREMENT)
    for name, data in files.items():
        if not name.endswith(".png"):
            assert not re.search(rb"@[A-Z_]+@", data), name  # every placeholder filled
    (tmp_path / "metadata.yaml").write_bytes(files["metadata.yaml"])
    config = load_config(tmp_path / "metadata.yaml")  # kobook's own validation
    assert config.title == 'My "Book": 2nd ed.'
    assert config.language == ("zh-Hans" if lang == "zh" else lang)
    assert config.formats == ["all"]
    assert {".gitignore", "glossary.yaml", "references.bib", "images/pipeline.png"} <= set(files)
    assert sorted(n for n in files if n.startswith("book/")) == [
        "book/01-intro.md",
        "book/02-next.md",
    ]


def test_commented_metadata_keys_are_keys_kobook_knows() -> None:
    """Uncommenting any commented key gives metadata kobook accepts (no invented keys)."""
    text = skeleton("책", "ko", REQUIREMENT)["metadata.yaml"].decode()
    uncommented = re.sub(r"(?m)^# ((?:[\w-]+):|  )", r"\1", text)
    assert uncommented.count("\n# ") < text.count("\n# ")
    data = yaml.safe_load(uncommented)
    for key in ("original", "chapters", "csl", "geometry", "captions", "particles", "pdf"):
        assert key in data, key
    path = Path("/nonexistent/metadata.yaml")
    from kobook.load.config import validate

    validate(data, path, uncommented)  # raises on an unknown or misspelt key


def test_workflow_installs_the_given_requirement() -> None:
    workflow = yaml.safe_load(skeleton("책", "ko", REQUIREMENT)[".github/workflows/book.yml"])
    assert workflow["env"]["KOBOOK_REQUIREMENT"] == REQUIREMENT
    steps = [s.get("run", "") for job in workflow["jobs"].values() for s in job["steps"]]
    assert any("kobook check --format github" in run for run in steps)
    assert any("git log -1 --format=%ct" in run for run in steps)


def test_gitignore_keeps_outputs_and_cache_out() -> None:
    lines = skeleton("책", "ko", REQUIREMENT)[".gitignore"].decode().splitlines()
    assert "dist/" in lines and ".kobook-cache/" in lines


@pytest.mark.parametrize(
    ("direct_url", "expected"),
    [
        (
            {
                "url": "https://github.com/someone/kobook.git",
                "vcs_info": {"vcs": "git", "commit_id": "a" * 40, "requested_revision": "main"},
            },
            f"kobook @ git+https://github.com/someone/kobook.git@{'a' * 40}",
        ),
        (  # a token in the URL is never written into the book's repository
            {
                "url": "https://x-token:secret@github.com/o/kobook.git",
                "vcs_info": {"vcs": "git", "commit_id": "b" * 40},
            },
            f"kobook @ git+https://github.com/o/kobook.git@{'b' * 40}",
        ),
        ({"url": "file:///home/me/kobook", "dir_info": {"editable": True}}, "kobook==1.2.3"),
        (
            {"url": "https://example.org/kobook-1.2.3.tar.gz", "archive_info": {}},
            "kobook @ https://example.org/kobook-1.2.3.tar.gz",
        ),
        (  # nothing that could break out of the workflow's YAML string or run an expression
            {
                "url": 'https://e.org/k"${{ secrets.X }}',
                "vcs_info": {"vcs": "git", "commit_id": "c"},
            },
            "kobook==1.2.3",
        ),
        (None, "kobook==1.2.3"),
    ],
)
def test_requirement_from_direct_url(direct_url: object, expected: str) -> None:
    text = None if direct_url is None else json.dumps(direct_url)
    assert requirement_from(text, "1.2.3") == expected
    assert requirement_from("not json", "1.2.3") == "kobook==1.2.3"


def test_non_empty_folder_is_refused_without_force(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(KobookError) as caught:
        init_book(tmp_path, requirement=REQUIREMENT)
    assert caught.value.code == "INIT001" and "--force" in caught.value.diagnostic.hint
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_force_writes_the_skeleton_and_keeps_everything_else(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "03-mine.md").write_text("# 내 장\n", encoding="utf-8")
    (tmp_path / "metadata.yaml").write_text("title: old\n", encoding="utf-8")
    written = init_book(tmp_path, title="새 제목", force=True, requirement=REQUIREMENT)
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (tmp_path / "book" / "03-mine.md").read_text(encoding="utf-8") == "# 내 장\n"
    assert load_config(tmp_path / "metadata.yaml").title == "새 제목"
    assert tmp_path / "metadata.yaml" in written


def test_a_symlink_named_like_a_skeleton_file_is_replaced_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.yaml"
    victim.write_text("keep me\n", encoding="utf-8")
    book = tmp_path / "book"
    book.mkdir()
    (book / "metadata.yaml").symlink_to(victim)
    init_book(book, force=True, requirement=REQUIREMENT)
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert not (book / "metadata.yaml").is_symlink()


def test_a_folder_symlinked_out_of_the_book_stops_before_any_write(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    book = tmp_path / "book"
    book.mkdir()
    (book / "images").symlink_to(elsewhere)
    with pytest.raises(KobookError) as caught:
        init_book(book, force=True, requirement=REQUIREMENT)
    assert caught.value.code == "SEC001"
    assert not list(elsewhere.iterdir()) and sorted(p.name for p in book.iterdir()) == ["images"]


@pytest.mark.parametrize(
    ("title", "lang", "code"), [("a\nb", "ko", "INIT003"), ("t", "fr", "INIT004")]
)
def test_bad_title_or_language_is_an_error(
    title: str, lang: str, code: str, tmp_path: Path
) -> None:
    with pytest.raises(KobookError) as caught:
        init_book(tmp_path / "new", title=title, lang=lang, requirement=REQUIREMENT)
    assert caught.value.code == code
    assert not (tmp_path / "new").exists()


def test_a_file_in_the_way_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "book").write_text("x", encoding="utf-8")
    with pytest.raises(KobookError) as caught:
        init_book(tmp_path / "book", requirement=REQUIREMENT)
    assert caught.value.code == "INIT002"


def test_the_skeleton_is_shipped_as_package_data() -> None:
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    line = re.search(r"(?m)^kobook = \[.*\]$", text.split("[tool.setuptools.package-data]")[1])
    assert line and '"scaffold/skeleton/**/*"' in line.group()


def test_readme_shows_the_workflow_init_writes() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("### 릴리스 워크플로", 1)[1]
    shown = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    example = "kobook @ git+https://github.com/OWNER/kobook@COMMIT"
    assert shown == skeleton("책", "ko", example)[".github/workflows/book.yml"].decode()


def test_new_files_get_the_usual_mode_not_the_temporary_files_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        written = init_book(tmp_path / "book", requirement=REQUIREMENT)
    finally:
        os.umask(old)
    modes = {p.relative_to(tmp_path).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in written}
    assert set(modes.values()) == {0o644}, modes
