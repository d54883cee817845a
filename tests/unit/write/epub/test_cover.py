"""The drawn EPUB cover (``write/epub/cover.py``), kept by what it shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.cache import Cache
from kobook.load import load_book
from kobook.write.epub import cover
from tests.conftest import BookMaker, spy


def test_a_cover_of_the_same_words_is_not_drawn_again(
    make_book: BookMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_book({"book/01.md": "# 장\n"}, metadata={"title": "책 제목", "author": "이름"})
    cache = Cache(tmp_path / "cache")
    drawn = spy(monkeypatch, cover, "draw_cover", lambda book, *_: book.config.title)
    first = cover.drawn_cover(load_book(root), tmp_path / "a.png", "Noto Sans CJK KR", cache)
    again = cover.drawn_cover(load_book(root), tmp_path / "b.png", "Noto Sans CJK KR", cache)
    assert drawn == ["책 제목"]
    assert again.read_bytes() == first.read_bytes()
    assert first.read_bytes().startswith(b"\x89PNG")
    (root / "metadata.yaml").write_text("title: 다른 제목\n", encoding="utf-8")
    cover.drawn_cover(load_book(root), tmp_path / "c.png", "Noto Sans CJK KR", cache)
    assert drawn == ["책 제목", "다른 제목"]
