"""kobook.load.config: metadata.yaml is read, type-checked and misspellings are caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.errors import KobookError
from kobook.files.reading import read_text
from kobook.load.config import load_config
from kobook.model import Config
from kobook.model.config import as_list
from kobook.write.registry import engine_for


def write(tmp_path: Path, text: str | bytes, name: str = "metadata.yaml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def load_error(tmp_path: Path, text: str | bytes) -> KobookError:
    path = write(tmp_path, text)
    with pytest.raises(KobookError) as info:
        load_config(path)
    return info.value


# --- valid metadata -------------------------------------------------------------------


def test_valid_metadata_loads_with_typed_accessors(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "title: 초대규모 학습\n"
        "author: [가, 나]\n"
        "translators: 한빛나\n"
        "lang: ko-KR\n"
        "toc: false\n"
        "toc-depth: 3\n"
        "chapters:\n"
        "  - book/01.md\n"
        "  - book/02.md\n"
        "original:\n"
        "  title: The Ultra-Scale Playbook\n"
        "  url: https://example.com\n"
        "engine: xelatex\n"
        "chapter-level: 2\n"
        "bibliography: refs.bib\n"
        "captions: {figure: Figure}\n",
    )
    config = load_config(path)
    assert config.path == path
    assert config.title == "초대규모 학습"
    assert config.authors == ["가", "나"]
    assert config.translators == ["한빛나"]
    assert config.toc is False
    assert config.toc_depth == 3
    assert config.get("chapters") == ["book/01.md", "book/02.md"]
    assert config.original["title"] == "The Ultra-Scale Playbook"
    assert config.original["url"] == "https://example.com"
    assert config.original["authors"] == ""  # missing keys read as empty, never an error
    assert engine_for(config, path.parent) == "xelatex"
    assert config.get("chapter-level") == 2
    assert config.bibliography == ["refs.bib"]
    assert config.words.label("figure", 3) == "Figure 3"
    assert config.words.label("table", 1) == "표 1"  # defaults stay for the others


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    config = load_config(tmp_path / "metadata.yaml")
    assert config.raw == {}
    assert config.path is None
    assert config.lang == "ko-KR"
    assert engine_for(config, tmp_path) == "typst"
    assert config.toc is True
    assert config.numbersections is True
    assert config.preface_title == "들어가며"
    assert config.words.caption("figure", "3.2") == "그림 3.2."


def test_empty_file_is_an_empty_mapping(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, "")).raw == {}


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, b"\xef\xbb\xbf" + "title: 책\n".encode())
    assert load_config(path).title == "책"


def test_as_list() -> None:
    assert as_list(None) == []
    assert as_list("") == []
    assert as_list("가") == ["가"]
    assert as_list(["b", "a"]) == ["b", "a"]
    assert as_list([{"name": "홍길동"}]) == ["홍길동"]


def test_config_accessors_defaults_and_overrides() -> None:
    config = Config(raw={"translators": ["a", "b"], "preface-title": "서문", "linestretch": 1.6})
    assert config.translators == ["a", "b"]
    assert config.preface_title == "서문"
    assert config.get("linestretch") == 1.6
    assert config.get("missing", "x") == "x"


# --- CFG001: not YAML -----------------------------------------------------------------


def test_bad_yaml_reports_line_and_column(tmp_path: Path) -> None:
    error = load_error(tmp_path, "title: 책\nsubtitle: a: b\nlang: ko\n")
    assert error.code == "CFG001"
    assert error.location.file is not None
    assert error.location.file.name == "metadata.yaml"
    assert error.location.line == 2
    assert error.location.col == 12  # the second ':' on "subtitle: a: b"
    assert "not valid YAML" in str(error)


def test_bad_yaml_in_unclosed_flow_list(tmp_path: Path) -> None:
    error = load_error(tmp_path, "title: a\nauthor: [x, y\nlang: ko\n")
    assert error.code == "CFG001"
    assert error.location.line == 3
    assert error.location.col == 5


def test_bad_yaml_indentation(tmp_path: Path) -> None:
    error = load_error(tmp_path, "title: a\n  lang: ko\n")
    assert error.code == "CFG001"
    assert (error.location.line, error.location.col) == (2, 7)


def test_top_level_list_is_cfg002(tmp_path: Path) -> None:
    error = load_error(tmp_path, "- a\n- b\n")
    assert error.code == "CFG002"
    assert error.location.line == 1


# --- CFG003: wrong type ---------------------------------------------------------------


def test_toc_string_is_wrong_type(tmp_path: Path) -> None:
    error = load_error(tmp_path, 'title: 책\nlang: ko\ntoc: "yes"\n')
    assert error.code == "CFG003"
    assert error.location.line == 3
    assert "'toc'" in str(error)
    assert "true/false" in str(error)
    assert "toc: true" in error.diagnostic.hint


def test_chapters_string_is_wrong_type(tmp_path: Path) -> None:
    error = load_error(tmp_path, "title: 책\n\nchapters: foo\n")
    assert error.code == "CFG003"
    assert error.location.line == 3
    assert "'chapters'" in str(error)
    assert "a list" in str(error)


def test_wrong_type_line_is_the_top_level_key_not_a_nested_one(tmp_path: Path) -> None:
    # A nested ``toc:`` under ``pdf:`` comes first in the file; the error is about the
    # top-level ``toc:`` on line 3 and must point there.
    error = load_error(tmp_path, 'pdf:\n  toc: false\ntoc: "yes"\n')
    assert error.code == "CFG003"
    assert error.location.line == 3


def test_boolean_for_integer_key_is_rejected(tmp_path: Path) -> None:
    # YAML booleans are Python ints; ``chapter-level: true`` must not pass as level 1.
    error = load_error(tmp_path, "chapter-level: true\n")
    assert error.code in ("CFG003", "CFG005")
    assert error.location.line == 1


def test_toc_depth_boolean_is_rejected(tmp_path: Path) -> None:
    error = load_error(tmp_path, "title: 책\ntoc-depth: true\n")
    assert error.code in ("CFG003", "CFG005")
    assert error.location.line == 2


def test_chapters_must_be_file_names(tmp_path: Path) -> None:
    error = load_error(tmp_path, "chapters:\n  - a.md\n  - {x: 1}\n")
    assert error.code == "CFG005"
    assert error.location.line == 1


# --- CFG004: misspelt keys ------------------------------------------------------------


@pytest.mark.parametrize(
    ("wrong", "right"),
    [
        ("translator", "translators"),
        ("chapter", "chapters"),
        ("bibliografy", "bibliography"),
        ("subtitel", "subtitle"),
    ],
)
def test_misspelt_key_suggests_the_right_one(tmp_path: Path, wrong: str, right: str) -> None:
    error = load_error(tmp_path, f"title: 책\n# 주석\n{wrong}: x\n")
    assert error.code == "CFG004"
    assert error.location.line == 3
    assert f"did you mean '{right}'" in str(error)
    assert f"'{wrong}'" in str(error)


def test_unknown_unrelated_key_is_kept(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "title: 책\nmy-custom-var: 42\nother: {a: 1}\n"))
    assert config.raw["my-custom-var"] == 42
    assert config.get("other") == {"a": 1}


# --- CFG005: values from a closed set -------------------------------------------------


def test_engine_typo_suggests_xelatex(tmp_path: Path) -> None:
    error = load_error(tmp_path, "title: 책\nengine: xelatx\n")
    assert error.code == "CFG005"
    assert error.location.line == 2
    assert "xelatx" in str(error)
    assert "did you mean 'xelatex'" in str(error)


def test_original_flow_mapping_typo(tmp_path: Path) -> None:
    error = load_error(tmp_path, "title: 책\noriginal: {titel: x}\n")
    assert error.code == "CFG005"
    assert error.location.line == 2
    assert "original.titel" in str(error)
    assert "did you mean 'original.title'" in str(error)


def test_original_block_mapping_typo(tmp_path: Path) -> None:
    error = load_error(tmp_path, "original:\n  url: https://x\n  titel: x\n")
    assert error.code == "CFG005"
    assert "did you mean 'original.title'" in str(error)


def test_captions_typo(tmp_path: Path) -> None:
    error = load_error(tmp_path, "captions: {figur: 도판}\n")
    assert error.code == "CFG005"
    assert "did you mean 'captions.figure'" in str(error)


@pytest.mark.parametrize(
    "text", ["chapter-level: 4\n", "line-breaking: char\n", "hyphenate: english\n"]
)
def test_closed_set_values(tmp_path: Path, text: str) -> None:
    assert load_error(tmp_path, text).code == "CFG005"


@pytest.mark.parametrize("value", ["1", "2", "3", "auto"])
def test_chapter_level_accepted_values(tmp_path: Path, value: str) -> None:
    config = load_config(write(tmp_path, f"chapter-level: {value}\n"))
    assert str(config.get("chapter-level")) == value


# --- ENC001: not UTF-8 ----------------------------------------------------------------


def test_cp949_file_is_enc001_with_iconv_hint(tmp_path: Path) -> None:
    path = write(tmp_path, b"lang: ko\n" + "title: 한국어\n".encode("cp949"))
    with pytest.raises(KobookError) as info:
        load_config(path)
    error = info.value
    assert error.code == "ENC001"
    assert error.location.file == path
    assert error.location.line == 2
    text = str(error)
    assert str(path) in text
    assert "iconv" in text
    assert "CP949" in text


def test_read_text_cp949_names_file(tmp_path: Path) -> None:
    path = write(tmp_path, "한국어".encode("cp949"), name="01.md")
    with pytest.raises(KobookError) as info:
        read_text(path)
    assert info.value.code == "ENC001"
    assert "01.md" in str(info.value)
    assert "iconv" in info.value.diagnostic.hint


def test_read_text_utf8() -> None:
    # Not a file-system test: read_text of a real UTF-8 file round-trips.
    path = Path(__file__)
    assert read_text(path).startswith('"""kobook.load.config')


def test_the_originals_language_is_read_and_checked(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "title: 책\noriginal:\n  lang: ja\n"))
    assert config.original_lang == "ja"
    assert Config({"original": {"lang": "<b>"}}).original_lang == "en"  # not a language tag
    assert Config({}).original_lang == "en"


@pytest.mark.parametrize(
    ("text", "latin"),
    [
        ("", False),
        ("hyphenate: none\n", False),
        ("hyphenate: false\n", False),
        ("hyphenate: latin\n", True),
    ],
)
def test_hyphenate_is_an_opt_in(tmp_path: Path, text: str, latin: bool) -> None:
    """Issue 32: no hyphen inside a Korean line unless the book says ``hyphenate: latin``."""
    assert load_config(write(tmp_path, text or "title: t\n")).hyphenates_latin is latin


@pytest.mark.parametrize(
    "text",
    [
        "pdf:\n  bleed: 3\n",
        "pdf:\n  bleed: 30mm\n",
        "pdf:\n  bleed: 1em\n",
        "pdf:\n  marks: yes please\n",
    ],
)
def test_bleed_and_marks_are_checked(tmp_path: Path, text: str) -> None:
    """Issue 32: ``pdf.bleed`` is a length up to 20 mm, ``pdf.marks`` true or false."""
    error = load_error(tmp_path, text)
    assert error.code == "CFG003" and "pdf." in str(error)


def test_bleed_and_marks_reach_the_print_setup(tmp_path: Path) -> None:
    from kobook.model import Book
    from kobook.write.shared.setup import PrintSetup

    config = load_config(write(tmp_path, "pdf:\n  bleed: 0.125in\n  marks: true\n"))
    trim = PrintSetup(Book(root=tmp_path, config=config, chapters=[])).trim
    assert trim is not None and trim.marks and abs(trim.bleed - 9.0) < 0.01
    plain = load_config(write(tmp_path, "title: t\n"))
    assert PrintSetup(Book(root=tmp_path, config=plain, chapters=[])).trim is None
