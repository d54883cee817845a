"""The ``kobook`` command as a user runs it: exit codes, messages, outputs, options."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from kobook.load import load_book
from kobook.write.weasyprint.writer import render_html
from tests.checks import html_problems, pdf_pages, squash
from tests.conftest import BookMaker

CHAPTER_ONE = """# 메모리 {#sec:memory}

학습 한 스텝에서 GPU를 가장 많이 쓰는 것은 액티베이션이다. @fig:pixel를 보라.

![빨간 네모](images/pixel.png){#fig:pixel}

*강조한 한국어 문장*과 *emphasis* 그리고 **굵게**를 쓴다.
"""
CHAPTER_TWO = """# 병렬화

@fig:pixel과 @sec:memory을 다시 본다.[^n]

[^n]: 각주 내용이다.
"""


def kobook(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, CI="true")
    return subprocess.run(
        [sys.executable, "-m", "kobook", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=600,
    )


@pytest.fixture
def small(make_book: BookMaker) -> Path:
    return make_book(
        {"book/01-memory.md": CHAPTER_ONE, "book/02-parallel.md": CHAPTER_TWO},
        metadata={"title": "작은 책", "papersize": "a5", "toc": True},
        images=["images/pixel.png"],
    )


def test_help_and_version() -> None:
    result = kobook("--help")
    assert result.returncode == 0
    for command in ("build", "doctor"):
        assert command in result.stdout
    version = kobook("--version")
    assert version.returncode == 0 and "kobook" in version.stdout


def test_doctor_reports_hangul_fonts_and_pandoc() -> None:
    result = kobook("doctor")
    assert result.returncode == 0, result.stdout
    assert "pandoc" in result.stdout and "Hangul" in result.stdout and "emoji" in result.stdout
    assert "✓ typst" in result.stdout and "✓ weasyprint" in result.stdout


def test_build_all_writes_pdf_and_html_with_plain_progress(small: Path) -> None:
    result = kobook("build", "all", "--project", str(small))
    assert result.returncode == 0, result.stderr
    assert "[" in result.stderr and "loading the book" in result.stderr  # plain lines, not a TTY
    pdf = small / "dist" / "book.pdf"
    assert pdf.is_file() and (small / "dist" / "html" / "index.html").is_file()
    text = squash("\n".join(pdf_pages(pdf)))
    assert "그림1.1을보라" in text  # 1.1 is read 일 점 일: ㄹ takes 을
    assert "그림1.1과" in text and "1장을" in text
    assert oct(pdf.stat().st_mode & 0o777) != oct(0o600)


def test_chapter_option_builds_one_chapter_numbered_as_in_the_book(small: Path) -> None:
    result = kobook("build", "pdf", "--chapter", "02-parallel", "--project", str(small))
    assert result.returncode == 0, result.stderr
    pdf = small / "dist" / "book-02-parallel.pdf"
    text = squash("\n".join(pdf_pages(pdf)))
    assert "2장" in text and "그림1.1과" in text
    assert "액티베이션" not in text  # chapter one is not in this PDF


def test_unknown_chapter_is_a_clear_error(small: Path) -> None:
    result = kobook("build", "pdf", "--chapter", "nope", "--project", str(small))
    assert result.returncode == 1
    assert "LOAD003" in result.stderr and "01-memory" in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_image_names_file_and_line_and_keeps_old_output(small: Path) -> None:
    assert kobook("build", "pdf", "--project", str(small)).returncode == 0
    pdf = small / "dist" / "book.pdf"
    before = pdf.read_bytes()
    chapter = small / "book" / "02-parallel.md"
    chapter.write_text(CHAPTER_TWO + "\n![없는 그림](images/none.png)\n", encoding="utf-8")
    result = kobook("build", "pdf", "--project", str(small))
    assert result.returncode == 1
    assert f"{chapter}:7:" in result.stderr and "IMG001" in result.stderr
    assert "Traceback" not in result.stderr
    assert pdf.read_bytes() == before  # the old PDF is untouched
    assert not [p for p in (small / "dist").iterdir() if p.name.startswith(".")]
    keep = kobook("build", "pdf", "--keep-going", "--project", str(small))
    assert keep.returncode == 0, keep.stderr
    assert "IMG001" in keep.stderr
    assert "그림 없음: images/none.png" in "\n".join(pdf_pages(pdf))


def test_bad_metadata_is_reported_with_line_and_suggestion(small: Path) -> None:
    (small / "metadata.yaml").write_text("title: 책\ntranslator: 홍길동\n", encoding="utf-8")
    result = kobook("build", "pdf", "--project", str(small))
    assert result.returncode == 1
    assert "metadata.yaml:2" in result.stderr and "did you mean 'translators'" in result.stderr


def test_fonts_paper_and_line_breaking_from_metadata(small: Path) -> None:
    (small / "metadata.yaml").write_text(
        "title: 책\npapersize: b5\nCJKmainfont: NanumMyeongjo\nfontsize: 11pt\n"
        "geometry: margin=30mm\nline-breaking: syllable\n",
        encoding="utf-8",
    )
    result = kobook("build", "pdf", "--project", str(small))
    assert result.returncode == 0, result.stderr
    reader = PdfReader(small / "dist" / "book.pdf")
    box = reader.pages[0].mediabox
    # b5 in a Korean book is the B5 Korean printers cut: JIS B5, 182 x 257 mm
    assert (round(float(box.width)), round(float(box.height))) == (516, 729)
    fonts = subprocess.run(
        ["pdffonts", str(small / "dist" / "book.pdf")], capture_output=True, text=True
    ).stdout
    assert "NanumMyeongjo" in fonts
    html, _ = render_html(load_book(small), [], None)
    assert "word-break: normal" in html and "font-size: 11pt" in html and "30mm" in html


def test_font_that_is_not_installed_is_a_warning_and_an_error_when_strict(small: Path) -> None:
    (small / "metadata.yaml").write_text("CJKmainfont: No Such Font KR\n", encoding="utf-8")
    result = kobook("build", "pdf", "--project", str(small))
    assert result.returncode == 0, result.stderr
    assert "FONT002" in result.stderr and "No Such Font KR" in result.stderr
    assert "metadata.yaml:1" in result.stderr and "Noto Serif CJK KR" in result.stderr
    fonts = subprocess.run(
        ["pdffonts", str(small / "dist" / "book.pdf")], capture_output=True, text=True
    ).stdout
    assert "notoserifcjkkr" in fonts.replace("-", "").lower()  # Typst: NotoSerifCJKkr
    strict = kobook("build", "pdf", "--strict", "--project", str(small))
    assert strict.returncode == 1
    assert "FONT002" in strict.stderr and "Traceback" not in strict.stderr


def test_hangul_in_emphasis_is_upright(small: Path) -> None:
    assert kobook("build", "pdf", "--project", str(small)).returncode == 0
    import pdfplumber

    with pdfplumber.open(small / "dist" / "book.pdf") as pdf:
        chars = [c for page in pdf.pages for c in page.chars]
    text = "".join(c["text"] for c in chars)
    start = text.find("강조한")
    assert start >= 0
    fonts = {c["fontname"] for c in chars[start : start + 3]}
    assert not any("Oblique" in f or "Italic" in f for f in fonts), fonts


def test_python_api_matches_cli(small: Path, tmp_path: Path) -> None:
    import kobook as api

    result = api.build(small, ["html"], out=tmp_path / "out")
    assert result.outputs["html"] == tmp_path / "out" / "html" / "index.html"
    assert (tmp_path / "out" / "html" / "01-memory.html").is_file()
    assert result.timings["parse"] >= 0


def test_footnote_sits_at_the_foot_of_its_page(small: Path) -> None:
    assert kobook("build", "pdf", "--project", str(small)).returncode == 0
    out = subprocess.run(
        ["pdftotext", "-bbox", str(small / "dist" / "book.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pages = out.split("<page ")[1:]
    page = next(p for p in pages if "각주" in p and "본다" in p)
    import re

    def y_of(word: str) -> float:
        match = re.search(rf'yMin="([\d.]+)"[^>]*>{word}', page)
        assert match, word
        return float(match.group(1))

    height = float(re.search(r'height="([\d.]+)"', page).group(1))  # type: ignore[union-attr]
    assert y_of("각주") > y_of("병렬화")
    assert y_of("각주") > height * 0.7


def test_chapter_html_build_refreshes_one_page_of_the_site(small: Path) -> None:
    assert kobook("build", "html", "--project", str(small)).returncode == 0
    site = small / "dist" / "html"
    first = (site / "01-memory.html").read_text(encoding="utf-8")
    chapter = small / "book" / "02-parallel.md"
    chapter.write_text(CHAPTER_TWO.replace("다시 본다", "새로 본다"), encoding="utf-8")
    result = kobook("build", "html", "--chapter", "02-parallel", "--project", str(small))
    assert result.returncode == 0, result.stderr
    assert "새로 본다" in (site / "02-parallel.html").read_text(encoding="utf-8")
    assert (site / "01-memory.html").read_text(encoding="utf-8") == first  # kept
    assert html_problems(site) == []
