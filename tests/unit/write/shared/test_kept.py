"""What a writer made of a chapter, kept by its AST key (``write/shared/kept.py``): a warm
build makes again only the pages of what changed, and puts their warnings where the
chapters have them now."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

import kobook
from kobook.write.epub import writer as epub_writer
from kobook.write.html import writer as html_writer
from tests.conftest import spy
from tests.unit.transform.test_memo import TEXT, book, build, where

__all__ = ["book"]  # the fixture


def test_unchanged_html_pages_are_not_made_again(
    book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = spy(monkeypatch, html_writer, "prepare", lambda doc, *_: doc.chapter.id)
    build(book, tmp_path / "cache")
    assert made == ["ch01", "ch02"]
    made.clear()
    (book / "book.md").write_text(TEXT.replace("첫 문단이다.", "첫 문단이다.\n\n둘째 문단."))
    warm = build(book, tmp_path / "cache")
    assert made == ["ch01"]
    # Chapter 2's page came from the cache; its warnings sit at its lines as they are now.
    assert ("A11Y001", 13) in [(code, line) for code, line, _, _ in where(warm.diagnostics)]


def epub_entries(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as epub:
        return {info.filename: epub.read(info) for info in epub.infolist()}


def test_unchanged_epub_chapters_are_not_made_again(
    book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = spy(monkeypatch, epub_writer, "prepare", lambda doc, *_: doc.chapter.id)
    cache = tmp_path / "cache"
    kobook.build(book, ["epub"], out=book / "out", cache_dir=cache)
    assert made == ["ch01", "ch02"]
    made.clear()
    (book / "book.md").write_text(TEXT.replace("첫 문단이다.", "첫 문단이다.\n\n둘째 문단."))
    warm = kobook.build(book, ["epub"], out=book / "out", cache_dir=cache)
    assert made == ["ch01"]
    fresh = tmp_path / "fresh"
    shutil.copytree(book, fresh, ignore=shutil.ignore_patterns("out"))
    cold = kobook.build(fresh, ["epub"], out=fresh / "out", cache_dir=tmp_path / "c2")
    # The kept chapter's image is in the book again, under the same name.
    assert epub_entries(warm.outputs["epub"]) == epub_entries(cold.outputs["epub"])
    assert where(warm.diagnostics) == where(cold.diagnostics)
