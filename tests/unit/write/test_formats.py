"""``formats:`` in metadata.yaml: what ``kobook build`` makes when no format is given."""

from __future__ import annotations

from pathlib import Path

import pytest

import kobook
from kobook.errors import KobookError
from kobook.load import load_config
from tests.conftest import BookMaker


def config_from(tmp_path: Path, text: str) -> list[str]:
    (tmp_path / "metadata.yaml").write_text(text, encoding="utf-8")
    return load_config(tmp_path / "metadata.yaml").formats


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("title: 책\n", ["pdf"]),  # no key: PDF, as before
        ("formats:\n", ["pdf"]),  # the key alone: the default
        ("formats: html\n", ["html"]),
        ("formats: all\n", ["all"]),
        ("formats: [pdf, html]\n", ["pdf", "html"]),
        ("formats:\n  - html\n", ["html"]),
    ],
)
def test_formats_is_a_list_or_a_single_format(
    tmp_path: Path, text: str, expected: list[str]
) -> None:
    assert config_from(tmp_path, text) == expected


@pytest.mark.parametrize(
    ("text", "code", "line", "words"),
    [
        ("title: 책\nformats: pfd\n", "CFG005", 2, "did you mean 'pdf'"),
        ("title: 책\nformats:\n  - pdf\n  - htm\n", "CFG005", 4, "did you mean 'html'"),
        ("formats: epbu\n", "CFG005", 1, "did you mean 'epub'"),
        ("title: 책\nformats: []\n", "CFG005", 2, "lists no format"),
        ("formats: [pdf, 3]\n", "CFG003", 1, "not a number"),
        ("formats: {pdf: true}\n", "CFG003", 1, "'formats' should be"),
    ],
)
def test_a_bad_format_is_an_error_at_its_line(
    tmp_path: Path, text: str, code: str, line: int, words: str
) -> None:
    with pytest.raises(KobookError) as caught:
        config_from(tmp_path, text)
    error = caught.value
    assert (error.code, error.location.line, error.location.file) == (
        code,
        line,
        tmp_path / "metadata.yaml",
    )
    assert words in str(error)


def test_epub_is_a_format(tmp_path: Path) -> None:
    assert config_from(tmp_path, "formats: [pdf, epub]\n") == ["pdf", "epub"]


def test_build_without_formats_builds_what_metadata_lists(
    make_book: BookMaker, tmp_path: Path
) -> None:
    root = make_book(
        {"book/01.md": "# 장\n\n본문이다.\n"}, metadata={"title": "책", "formats": "html"}
    )
    result = kobook.build(root, out=tmp_path / "out", cache_dir=tmp_path / "cache")
    assert set(result.outputs) == {"html"}
    assert not list((tmp_path / "out").glob("*.pdf"))
    # Formats the caller gives are checked as before (and win over metadata).
    with pytest.raises(KobookError) as caught:
        kobook.build(root, ["ebook"], out=tmp_path / "out")
    assert caught.value.code == "CLI001"
