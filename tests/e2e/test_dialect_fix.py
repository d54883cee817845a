"""``kobook check --fix`` never changes a dialect's syntax (issue 29): on each fixture book
(MkDocs, Quarto, bookdown), every line holding the dialect's own syntax stays byte for byte,
while the prose beside it is still fixed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kobook.load.book import load_book
from tests.checks import imported_copy
from tests.e2e.test_cli import kobook as kobook_cli

SYNTAX = {
    "mkdocs": r"^\s*(?:!!!|\?\?\?\+?|===|--8<--|\*\[).*$|\{:[^}]*\}",
    "quarto": r"^.*(?:\{\{<|\{#|\{\.|```\{|#\||@(?:fig|tbl|sec|eq)-).*$",
    "bookdown": r"^.*(?:\\@ref|\(\\#|```\{|\(PART|\(APPENDIX|\{-\}|^---|^\w+:).*$",
}
PROSE = '이 줄은 "고칠" 문장이다...'


@pytest.mark.parametrize("dialect", sorted(SYNTAX))
def test_fix_keeps_the_dialects_syntax(tmp_path: Path, dialect: str) -> None:
    root = imported_copy(tmp_path, dialect)
    pages = sorted(
        p for p in root.rglob("*") if p.suffix in (".md", ".qmd", ".Rmd") and "dist" not in p.parts
    )
    first = load_book(root).chapters[0].path  # a page kobook checks (not an included one)
    first.write_text(first.read_text("utf-8") + f"\n{PROSE}\n", encoding="utf-8")
    marker = re.compile(SYNTAX[dialect], re.M)
    before = {p: marker.findall(p.read_text("utf-8")) for p in pages}
    result = kobook_cli("check", "--fix", "--project", str(root))
    assert "Traceback" not in result.stderr, result.stderr
    after = {p: marker.findall(p.read_text("utf-8")) for p in pages}
    assert after == before
    assert sum(len(found) for found in before.values()) >= 6
    assert "“고칠”" in first.read_text("utf-8")  # the prose was fixed
