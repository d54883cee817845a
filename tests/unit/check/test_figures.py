"""FIG001 (hand-written figure references), FIG002 (file-name alt text), IMG001 (missing file)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kobook.check import Settings

from .util import fix, found, hits

PIXEL = Path(__file__).resolve().parents[2] / "data" / "pixel.png"
TWO_FIGURES = "![메모리 사용량](a.png)\n\n![통신 비용](b.png)\n\n"


@pytest.mark.parametrize(
    "written", ["Figure 3", "Fig. 3", "Fig.3", "그림3", "[그림 3]", "[Figure 3]"]
)
def test_fig001_hand_written_reference_is_normalized(written: str) -> None:
    text = f"자세한 내용은 {written}에 있다.\n"
    assert hits(text, "FIG001") == [(written, "그림 3")]
    assert fix(text) == "자세한 내용은 그림 3에 있다.\n"


def test_fig001_table_reference_is_normalized_too() -> None:
    assert fix("Table 2를 보라.\n") == "표 2를 보라.\n"


def test_fig001_normal_reference_is_clean() -> None:
    text = f"{TWO_FIGURES}그림 2와 그림 1을 보라.\n"
    assert found(text, "FIG001") == []


def test_fig001_reference_to_a_missing_figure_is_an_error() -> None:
    text = f"{TWO_FIGURES}그림 9를 보라. 그림 2도 보라.\n"
    [finding] = found(text, "FIG001")
    assert text[finding.start : finding.end] == "그림 9"
    assert finding.severity == "error"
    assert finding.replacement is None
    assert "2" in finding.message


def test_fig001_file_name_images_are_not_captioned_figures() -> None:
    # Only one captioned figure: the screenshot with a file-name alt is not one.
    text = "![캡션](a.png)\n\n![image.png](b.png)\n\n그림 2를 보라.\n"
    [finding] = found(text, "FIG001")
    assert finding.severity == "error"


@pytest.mark.parametrize(
    "alt",
    [
        "image.png",
        "스크린샷 2025-06-27 오후 3.52.11.png",
        "Screenshot 2024-01-01 at 10.00.00.png",
        "IMG_1234.JPG",
    ],
)
def test_fig002_file_name_alt_is_reported(alt: str) -> None:
    text = f"![{alt}](images/a.png)\n"
    [finding] = found(text, "FIG002")
    assert text[finding.start : finding.end] == alt
    assert finding.replacement is None
    assert fix(text) == text


@pytest.mark.parametrize("alt", ["메모리 사용량", "GPU 3대의 통신 구조", ""])
def test_fig002_real_caption_is_clean(alt: str) -> None:
    assert found(f"![{alt}](images/a.png)\n", "FIG002") == []


def test_fig002_image_inside_code_is_not_checked() -> None:
    assert found("```\n![image.png](a.png)\n```\n", "FIG002") == []


def test_img001_missing_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    shutil.copyfile(PIXEL, tmp_path / "images" / "here.png")
    chapter = tmp_path / "01.md"
    text = "![있는 그림](images/here.png)\n\n![없는 그림](images/gone.png)\n"
    [finding] = found(text, "IMG001", Settings(project=tmp_path), path=chapter)
    assert text[finding.start : finding.end] == "images/gone.png"
    assert finding.severity == "error"
    assert finding.replacement is None


def test_img001_looks_in_the_project_folder_and_skips_urls(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "book").mkdir()
    shutil.copyfile(PIXEL, tmp_path / "images" / "a b.png")
    chapter = tmp_path / "book" / "01.md"
    text = "![그림](images/a%20b.png)\n\n![원격](https://example.com/x.png)\n"
    assert found(text, "IMG001", Settings(project=tmp_path), path=chapter) == []
    assert found(text, "IMG001", Settings(), path=chapter)  # not next to the chapter
