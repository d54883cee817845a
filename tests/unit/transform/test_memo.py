"""The build's pass memo (``transform/memo.py``): a warm build replays what did not change
and makes the same book, with the same warnings at the same lines, as a cold one."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import kobook
from kobook import transform
from kobook.errors import Diagnostic
from tests.conftest import BookMaker

# Two chapters in one file: an edit in the first moves the lines of the second.
TEXT = """\
# 하나

첫 문단이다.

![첫 그림](images/a.png){#fig:a}

@fig:b를 본다.

# 둘

![둘째 그림](images/a.png){#fig:b}

![a.png](images/a.png)

@fig:a를 본다.
"""

# A figure before fig:a (renumbering it, and the reference to it in chapter 2) and three
# more lines.
EDITED = TEXT.replace(
    "첫 문단이다.\n", "첫 문단이다.\n\n![새 그림](images/a.png){#fig:new}\n\n더한 문단.\n"
)


def build(root: Path, cache: Path) -> kobook.BuildResult:
    return kobook.build(root, ["html"], out=root / "out", cache_dir=cache)


def where(diagnostics: list[Diagnostic]) -> list[tuple[str, int, int, str]]:
    return sorted(
        (d.code, d.location.line, d.location.col, d.message)
        for d in diagnostics
        if d.location.file is not None
    )


def pages(root: Path) -> dict[str, bytes]:
    site = root / "out" / "html"
    return {p.name: p.read_bytes() for p in sorted(site.glob("*.html"))}


@pytest.fixture
def book(make_book: BookMaker) -> Path:
    return make_book({"book.md": TEXT}, metadata={"title": "책"}, images=["images/a.png"])


def counted(monkeypatch: pytest.MonkeyPatch, name: str) -> list[str]:
    """The chapter ids the pass ``name`` runs on, from now on (replays are not calls)."""
    calls: list[str] = []
    passes: list[tuple[str, Any]] = []
    for pass_name, run in transform.PASSES:
        if pass_name == name:

            def wrapped(doc: Any, ctx: Any, run: Any = run) -> Any:
                calls.append(doc.chapter.id)
                return run(doc, ctx)

            passes.append((pass_name, wrapped))
        else:
            passes.append((pass_name, run))
    monkeypatch.setattr(transform, "PASSES", passes)
    return calls


def test_warm_build_makes_what_a_cold_build_makes(book: Path, tmp_path: Path) -> None:
    build(book, tmp_path / "cache")
    (book / "book.md").write_text(EDITED, encoding="utf-8")
    warm = build(book, tmp_path / "cache")
    fresh = tmp_path / "fresh"
    shutil.copytree(book, fresh, ignore=shutil.ignore_patterns("out"))
    cold = build(fresh, tmp_path / "fresh-cache")
    assert pages(book) == pages(fresh)
    assert where(warm.diagnostics) == where(cold.diagnostics)
    # The figure added in chapter 1 renumbered fig:a, and chapter 2's reference to it.
    assert "그림\u00a01.2" in pages(book)["ch02.html"].decode()
    # Chapter 2's warnings moved with its lines (two more above it).
    assert ("FIG002", 17) in [(code, line) for code, line, _, _ in where(warm.diagnostics)]


def test_unchanged_chapters_are_replayed(
    book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = counted(monkeypatch, "figures")
    build(book, tmp_path / "cache")
    assert calls == ["ch01", "ch02"]
    calls.clear()
    build(book, tmp_path / "cache")
    assert calls == []  # nothing changed: every call replayed
    (book / "book.md").write_text(TEXT.replace("@fig:a를 본다.", "@fig:a를 다시 본다."))
    build(book, tmp_path / "cache")
    assert calls == ["ch02"]  # the edited chapter; chapter 1's call is replayed


def test_a_changed_image_replays_nothing(
    book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = counted(monkeypatch, "images")
    build(book, tmp_path / "cache")
    calls.clear()
    (book / "images" / "a.png").write_bytes((book / "images" / "a.png").read_bytes() + b"\0")
    build(book, tmp_path / "cache")
    assert calls == ["ch01", "ch02"]


def test_a_changed_configuration_is_built_anew(book: Path, tmp_path: Path) -> None:
    build(book, tmp_path / "cache")
    (book / "metadata.yaml").write_text(
        "title: 책\ncaptions:\n  separator: '-'\n", encoding="utf-8"
    )
    build(book, tmp_path / "cache")
    assert "그림\u00a01-1" in pages(book)["ch02.html"].decode()
