"""``kobook check --format github``: workflow commands and GitHub's escaping."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kobook.github import annotation, escape_data, escape_property, github_path

COMMAND = re.compile(r"^::(?P<command>\w+)(?: (?P<props>[^:]*))?::(?P<data>.*)$")


def unescape(text: str) -> str:
    """What GitHub's runner does to a value (toolkit's ``unescapeValue``)."""
    for code, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, char)
    return text


def parse(line: str) -> tuple[str, dict[str, str], str]:
    """A workflow command read the way GitHub reads it: up to '::', properties split at ','."""
    match = COMMAND.match(line)
    assert match, line
    props = {}
    for item in (match["props"] or "").split(","):
        if item:
            key, _, value = item.partition("=")
            props[key] = unescape(value)
    return match["command"], props, unescape(match["data"])


def test_data_escapes_percent_first_then_line_breaks() -> None:
    assert escape_data("100% 끝\r\n다음 줄") == "100%25 끝%0D%0A다음 줄"
    assert escape_data("%0A") == "%250A"  # a literal "%0A" in a message stays literal
    assert escape_data("a:b,c") == "a:b,c"  # data keeps ':' and ','


def test_properties_also_escape_colon_and_comma() -> None:
    assert escape_property("C:\\a,b%\n") == "C%3A\\a%2Cb%25%0A"


def test_annotation_has_file_line_col_and_rule_as_title() -> None:
    line = annotation(
        "warning", "조사 '을'은 'GPU' 뒤에서 '를'", file="book/01.md", line=3, col=9, title="KO009"
    )
    assert (
        line == "::warning file=book/01.md,line=3,col=9,title=KO009::조사 '을'은 'GPU' 뒤에서 '를'"
    )


@pytest.mark.parametrize(("severity", "command"), [("error", "error"), ("info", "notice")])
def test_severities_map_to_github_commands(severity: str, command: str) -> None:
    assert annotation(severity, "m", file="a.md", line=1, title="X").startswith(f"::{command} ")


def test_unknown_line_and_column_are_left_out() -> None:
    assert annotation("error", "m", file="a.md", line=0, col=5, title="IMG001") == (
        "::error file=a.md,title=IMG001::m"
    )
    assert annotation("warning", "m") == "::warning::m"


@given(
    message=st.text(min_size=1, max_size=40),
    file=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20),
)
def test_any_message_and_file_name_survive_githubs_parsing(message: str, file: str) -> None:
    command, props, data = parse(annotation("warning", message, file=file, line=7, title="KO009"))
    assert (command, props, data) == (
        "warning",
        {"file": file, "line": "7", "title": "KO009"},
        message,
    )


def test_paths_are_relative_to_the_working_directory_in_posix_form(tmp_path: Path) -> None:
    assert github_path(tmp_path / "book" / "01.md", cwd=tmp_path) == "book/01.md"
    assert github_path(Path("book/02.md"), cwd=tmp_path) == "book/02.md"
    outside = tmp_path.parent / "elsewhere.md"
    assert github_path(outside, cwd=tmp_path / "sub") == outside.as_posix()
    assert Path(github_path(outside, cwd=tmp_path / "sub")).is_absolute()
