"""Bibliography and style files are bounded before pandoc reads them (issue 35)."""

from __future__ import annotations

from pathlib import Path

import pytest

import kobook
from kobook import limits
from kobook.errors import KobookError
from kobook.transform.bibfiles import check_bibliography, check_style
from tests.conftest import REPO, BookMaker

GOOD = """@string{acm = "ACM"}
@article{korthikanti2022,
  title = {Reducing Activation Recomputation},
  author = {Korthikanti, Vijay},
  journal = acm # " Transactions",
  year = 2022,
}
@inproceedings{child, crossref = {parent}, title = {Child}}
@proceedings{parent, title = {Parent}}
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path) -> KobookError:
    with pytest.raises(KobookError) as info:
        (check_style if path.suffix == ".csl" else check_bibliography)(path)
    return info.value


def test_a_real_bibliography_passes(tmp_path: Path) -> None:
    check_bibliography(write(tmp_path, "good.bib", GOOD))
    check_bibliography(REPO / "references.bib")


def test_a_huge_field_is_limit011_at_its_line(tmp_path: Path) -> None:
    text = GOOD + "@book{big,\n  title = {" + "x" * (limits.MAX_BIB_FIELD + 1) + "},\n}\n"
    error = error_of(write(tmp_path, "big.bib", text))
    assert error.code == "LIMIT011" and error.location.line == GOOD.count("\n") + 2
    assert "title" in str(error)


def test_nested_string_macros_are_limit011(tmp_path: Path) -> None:
    lines = ['@string{a0 = "' + "x" * 100 + '"}']
    lines += [f"@string{{a{i} = a{i - 1} # a{i - 1}}}" for i in range(1, 30)]
    text = "\n".join(lines) + "\n@book{k, title = a29}\n"
    error = error_of(write(tmp_path, "bomb.bib", text))
    assert error.code == "LIMIT011" and "@string a" in str(error)
    assert 1 < error.location.line <= 30


def test_a_macro_using_itself_is_limit011(tmp_path: Path) -> None:
    text = '@string{a = b # "x"}\n@string{b = a}\n@book{k, title = a}\n'
    error = error_of(write(tmp_path, "cycle.bib", text))
    assert error.code == "LIMIT011" and "uses itself" in str(error)


def test_a_crossref_loop_is_limit011(tmp_path: Path) -> None:
    text = "@book{a, crossref = {b}}\n@book{b, crossref = {c}}\n@book{c,\n crossref = {a}}\n"
    error = error_of(write(tmp_path, "loop.bib", text))
    assert error.code == "LIMIT011" and "crossref loop" in str(error)
    assert error.location.line in (1, 2, 4)


def test_a_bibliography_past_the_size_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_BIBLIOGRAPHY_BYTES", 1000)
    error = error_of(write(tmp_path, "large.bib", GOOD * 10))
    assert error.code == "LIMIT003" and error.location.file is not None


def test_a_style_with_an_external_entity_names_its_file_and_line(tmp_path: Path) -> None:
    style = (
        '<?xml version="1.0"?>\n<!DOCTYPE style [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        '<style xmlns="http://purl.org/net/xbiblio/csl">&x;</style>\n'
    )
    error = error_of(write(tmp_path, "evil.csl", style))
    assert error.code == "CITE003" and error.location.line == 2
    assert error.location.file is not None and error.location.file.name == "evil.csl"


def test_a_build_stops_at_the_bibliography_not_in_pandoc(make_book: BookMaker) -> None:
    text = "@book{k, title = {" + "x" * (limits.MAX_BIB_FIELD + 5) + "}}\n"
    root = make_book(
        {"book/01.md": "# 장\n\n인용 [@k].\n", "refs.bib": text},
        metadata={"title": "책", "bibliography": "refs.bib"},
    )
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["html"])
    assert info.value.code == "LIMIT011"
    assert info.value.location.file is not None and info.value.location.file.name == "refs.bib"
