"""pandoc's LaTeX metadata in a real XeLaTeX build: what existing translation repos carry.

header-includes (a list with plain LaTeX, a fenced ```{=latex} block and a
fancyhdr set-up), ``date: \\today``, ``documentclass: ctexbook`` and
``classoption`` go through one shared build; broken LaTeX in header-includes
and in a chapter must fail with the error line and its source.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import kobook
from tests.checks import pdf_pages, squash

EPOCH = "1795219200"  # 2026-11-21 UTC

CHAPTER = """# 첫 장

본문이다. 머리말 정의가 효과를 낸다:

```{=latex}
\\kobookfenced{} \\kobookplain{}
```
"""

METADATA = {
    "title": "메타데이터 책",
    "author": "지은이",
    "date": "\\today",
    "documentclass": "ctexbook",
    "classoption": ["oneside", "openany"],
    "header-includes": [
        "\\newcommand{\\kobookplain}{PLAINMACRO}",
        "```{=latex}\n\\newcommand{\\kobookfenced}{FENCEDMACRO}\n```",
        "\\usepackage{fancyhdr}\n\\pagestyle{fancy}\n\\fancyhead[L]{FANCYHEAD}",
    ],
}


def write(root: Path, metadata: dict[str, object], chapters: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "metadata.yaml").write_text(yaml.safe_dump(metadata, allow_unicode=True), "utf-8")
    for name, text in chapters.items():
        (root / "book").mkdir(exist_ok=True)
        (root / "book" / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[kobook.BuildResult, str]:
    root = write(tmp_path_factory.mktemp("meta"), METADATA, {"01.md": CHAPTER})
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        result = kobook.build(root, ["pdf"], engine="xelatex", cache_dir=root / "cache")
    tex = next((root / "cache" / "latex").rglob("book.tex")).read_text(encoding="utf-8")
    return result, tex


def test_header_includes_reach_xelatex_and_take_effect(
    built: tuple[kobook.BuildResult, str],
) -> None:
    result, tex = built
    preamble = tex[: tex.index("\\begin{document}")]
    assert "\\newcommand{\\kobookplain}{PLAINMACRO}" in preamble
    assert "\\newcommand{\\kobookfenced}{FENCEDMACRO}" in preamble and "```" not in tex
    text = "\n".join(pdf_pages(result.outputs["pdf"]))
    assert "PLAINMACRO" in text and "FENCEDMACRO" in text


def test_fancyhdr_is_left_out_with_a_warning(built: tuple[kobook.BuildResult, str]) -> None:
    result, tex = built
    assert result.outputs["pdf"].is_file()
    assert "fancyhdr" not in tex and "\\pagestyle{fancy}" not in tex
    [warning] = [d for d in result.diagnostics if "fancyhdr" in d.message]
    assert warning.code == "TEX004" and warning.severity == "warning"
    assert "scrlayer-scrpage" in warning.message and "\\fancyhead" in warning.message
    assert "FANCYHEAD" not in "\n".join(pdf_pages(result.outputs["pdf"]))


def test_today_prints_the_build_date_in_korean(built: tuple[kobook.BuildResult, str]) -> None:
    result, _ = built
    title_page = pdf_pages(result.outputs["pdf"])[0]
    assert "2026년 11월 21일" in title_page and "today" not in title_page


def test_documentclass_and_classoption(built: tuple[kobook.BuildResult, str]) -> None:
    result, tex = built
    head = re.search(r"\\documentclass\[([^\]]*)\]\{(\w+)\}", tex)
    assert head is not None and head.group(2) == "scrbook"
    assert {"oneside", "open=any"} <= set(head.group(1).split(","))
    assert "twoside" not in head.group(1) and "open=right" not in head.group(1)
    [warning] = [d for d in result.diagnostics if "ctexbook" in d.message]
    assert "kobook typesets with KOMA scrbook; documentclass ctexbook is ignored" in (
        warning.message
    )
    assert warning.location.file is not None and warning.location.file.name == "metadata.yaml"


def test_html_notes_once_that_it_ignores_raw_latex(
    built: tuple[kobook.BuildResult, str], tmp_path: Path
) -> None:
    root = write(tmp_path / "html", METADATA, {"01.md": CHAPTER})
    result = kobook.build(root, ["html"], cache_dir=tmp_path / "cache")
    notes = [d for d in result.diagnostics if d.code == "TEX005"]
    assert len(notes) == 1 and notes[0].severity == "info"
    assert "header-includes" in notes[0].message and "HTML" in notes[0].message


def build_fails(root: Path, cache: Path) -> str:
    """Build through the CLI and return stderr (the build must fail).

    ``--trust``: the broken LaTeX must reach XeLaTeX (without it, a chapter's raw
    LaTeX that is not a layout command is left out, SEC003).
    """
    env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH}
    proc = subprocess.run(
        [
            *(sys.executable, "-m", "kobook", "build", "pdf", "--engine", "xelatex", "--trust"),
            *("--project", str(root), "--cache-dir", str(cache)),
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 1, proc.stderr
    return proc.stderr


def test_broken_header_includes_names_the_line_and_the_metadata(tmp_path: Path) -> None:
    metadata = {"title": "책", "header-includes": "\\usepackage{xcolor}\n\\undefinedkobookmacro"}
    root = write(tmp_path / "book", metadata, {"01.md": "# 장\n\n본문.\n"})
    stderr = build_fails(root, tmp_path / "cache")
    assert "TEX001" in stderr and "Undefined control sequence" in stderr
    assert "\\undefinedkobookmacro" in stderr and "header-includes in metadata.yaml" in stderr
    assert "metadata.yaml:" in stderr and "XeLaTeX failed" not in stderr
    assert "book.log" in stderr and len(stderr.strip().splitlines()) < 10


def test_broken_raw_block_names_the_chapter_file_and_line(tmp_path: Path) -> None:
    chapter = "# 장\n\n첫 문단.\n\n```{=latex}\n\\kobookbrokencommand{x}\n```\n"
    root = write(
        tmp_path / "book", {"title": "책"}, {"01.md": "# 하나\n\n본문.\n", "02.md": chapter}
    )
    stderr = build_fails(root, tmp_path / "cache")
    assert "TEX001" in stderr and "Undefined control sequence" in stderr
    assert "02.md:6" in stderr and "\\kobookbrokencommand" in stderr
    assert re.search(r"l\.\d+ \\kobookbrokencommand", stderr)


def test_fancyhdr_build_text_is_clean(built: tuple[kobook.BuildResult, str]) -> None:
    """The left-out lines leave nothing behind: the body reads as written."""
    result, _ = built
    flat = squash("\n".join(pdf_pages(result.outputs["pdf"])))
    assert "본문이다." in flat and "\\" not in flat
