"""Line origins survive a dialect's rewrites (every diagnostic names the written line)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kobook.dialect import Dialect, get_dialect
from kobook.errors import KobookError
from kobook.model import Chapter
from kobook.model.origins import Lines

A, B = Path("a.md"), Path("b.md")


def consistent(lines: Lines) -> bool:
    return lines.text.count("\n") + 1 == len(lines.origins)


def test_same_line_count_maps_line_to_line() -> None:
    lines = Lines.of("x\n{% a %}\ny\nz", A)
    out = lines.sub(re.compile(r"\{% a %\}\ny"), lambda m: "A\nY")
    assert out.text == "x\nA\nY\nz"
    assert [line for _, line in out.origins] == [1, 2, 3, 4]


def test_fewer_lines_keep_the_following_text_on_its_line() -> None:
    lines = Lines.of("x\n<d-footnote>one\ntwo</d-footnote> after\nz", A)
    out = lines.sub(re.compile(r"<d-footnote>(.*?)</d-footnote>", re.S), lambda m: "^[note]")
    assert out.text == "x\n^[note] after\nz"
    assert [line for _, line in out.origins] == [1, 2, 4]
    assert consistent(out)


def test_more_lines_point_at_the_match() -> None:
    lines = Lines.of("x\n{{#include f}}\nz", A)
    out = lines.sub(re.compile(r"\{\{#include f\}\}"), lambda m: "1\n2\n3")
    assert [line for _, line in out.origins] == [1, 2, 2, 2, 3]
    assert consistent(out)


def test_join_keeps_each_files_lines() -> None:
    joined = Lines.join([Lines.of("# A\ntext", A), Lines.of("## B\nmore", B, 3)])
    assert joined.text == "# A\ntext\n\n## B\nmore"
    assert joined.origins[-2:] == ((B, 3), (B, 4))
    assert consistent(joined)


def test_chapter_where_names_the_file_of_each_line() -> None:
    joined = Lines.join([Lines.of("# A\ntext", A), Lines.of("## B\nmore", B, 3)])
    chapter = Chapter(id="a", path=A, text=joined.text, origins=joined.origins)
    found = chapter.locate("more")
    assert found is not None and (found.file, found.line, found.col) == (B, 4, 1)
    plain = Chapter(id="a", path=A, text="x\ny", line_offset=10)
    assert plain.where(2).line == 12


def test_unknown_dialect_is_an_error_not_a_traceback() -> None:
    assert isinstance(get_dialect("pandoc"), Dialect)
    with pytest.raises(KobookError) as caught:
        get_dialect("sphinx")
    assert caught.value.diagnostic.code == "CFG015"
