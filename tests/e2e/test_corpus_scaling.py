"""``scaling-book-en`` (Jekyll/distill) built without a dialect: its constructs are LEAK001.

The counts per kind must equal an independent count over the source bodies
(after the front matter, outside fenced code, inline code and comments).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from kobook.cache import Cache
from kobook.check import check_files
from kobook.errors import Diagnostic
from kobook.load import load_book
from kobook.normalize import normalize_book
from kobook.parse import parse_book
from kobook.transform import transform_book
from tests.conftest import SCALING, need_corpus

pytestmark = [pytest.mark.slow, pytest.mark.corpus]

FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*\n", re.S)
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?^ {0,3}\1[ \t]*$", re.M | re.S)
COMMENT = re.compile(r"<!--.*?-->", re.S)
CODE_SPAN = re.compile(r"(`+)[^`].*?\1", re.S)
# What one occurrence is (see kobook.transform.leaks), counted here on its own terms.
KINDS = {
    "Liquid tag": re.compile(r"\{%.*?%\}", re.S),
    "Liquid output": re.compile(r"\{\{(?!#).*?\}\}", re.S),
    "distill element": re.compile(r"<d-[a-z]"),
    'kramdown attribute markdown="1"': re.compile(r"<[A-Za-z][^<>]*\smarkdown\s*=[^<>]*>"),
}


def body(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    text = FRONT_MATTER.sub("", text, count=1)
    text = FENCE.sub("", text)
    text = COMMENT.sub("", text)
    return CODE_SPAN.sub("", text)


@pytest.fixture(scope="module")
def leaks(tmp_path_factory: pytest.TempPathFactory) -> list[Diagnostic]:
    need_corpus(SCALING / "index.md")
    book = load_book(SCALING)  # no metadata.yaml: no dialect, every top-level .md a chapter
    normalize_book(book)
    docs = parse_book(book, Cache(tmp_path_factory.mktemp("scaling-cache")))
    _, ctx = transform_book(book, docs, keep_going=True, offline=True)
    return [d for d in ctx.diagnostics if d.code == "LEAK001"]


def kind_of(diagnostic: Diagnostic) -> str:
    return next((k for k in KINDS if diagnostic.message.startswith(k)), "other")


def test_counts_per_kind_and_file_equal_the_source(leaks: list[Diagnostic]) -> None:
    expected: Counter[tuple[str, str]] = Counter()
    for path in sorted(SCALING.glob("*.md")):
        text = body(path)
        for kind, pattern in KINDS.items():
            count = len(pattern.findall(text))
            if count:
                expected[(path.name, kind)] = count
    found = Counter(
        (d.location.file.name, kind_of(d))
        for d in leaks
        if d.location.file is not None and kind_of(d) != "other"
    )
    assert found == expected
    totals = Counter(kind for (_, kind), n in expected.items() for _ in range(n))
    assert totals["Liquid tag"] >= 150 and totals["distill element"] >= 50
    assert totals["Liquid output"] >= 3 and totals['kramdown attribute markdown="1"'] >= 40


def test_every_leak_is_placed_on_a_line_that_has_it(leaks: list[Diagnostic]) -> None:
    needles = {
        "Liquid tag": "{%",
        "Liquid output": "{{",
        "distill element": "<d-",
        'kramdown attribute markdown="1"': "markdown",
        "other": "",
    }
    for diagnostic in leaks:
        assert diagnostic.location.file is not None
        lines = diagnostic.location.file.read_text(encoding="utf-8").split("\n")
        line = lines[diagnostic.location.line - 1]
        assert needles[kind_of(diagnostic)] in line, diagnostic.format()


def test_check_reports_the_same_places(leaks: list[Diagnostic]) -> None:
    # Lines, not columns: the build reads the text after its typography fixes
    # (a double space removed earlier on the line moves the column by one).
    reports = check_files(SCALING, select=["LEAK001"])
    checked = Counter(
        (report.path.name, d.location.line) for report in reports for d in report.diagnostics()
    )
    built = Counter(
        (d.location.file.name, d.location.line) for d in leaks if d.location.file is not None
    )
    assert checked == built
    assert sum(built.values()) == len(leaks)
