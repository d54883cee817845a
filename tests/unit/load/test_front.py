"""``front-matter:`` (load/front.py): the translator's pages before the body."""

from __future__ import annotations

import pytest

from kobook.errors import KobookError
from kobook.load import load_book
from tests.conftest import BookMaker

FILES = {
    "book/00-note.md": "# 옮긴이의 말\n\n글.\n",
    "book/01-a.md": "# 첫 장\n\n본문.\n",
    "book/02-b.md": "# 둘째 장\n\n본문.\n",
    "book/99-about.md": "# 옮긴이 소개\n\n글.\n",
}


def test_front_chapters_come_first_unnumbered(make_book: BookMaker) -> None:
    root = make_book(
        FILES, metadata={"title": "책", "front-matter": ["book/99-about.md", "book/00-note.md"]}
    )
    chapters = load_book(root).chapters
    assert [(c.title, c.kind, c.number) for c in chapters] == [
        ("옮긴이 소개", "front", None),
        ("옮긴이의 말", "front", None),
        ("첫 장", "chapter", 1),  # 1장 is the body's first chapter
        ("둘째 장", "chapter", 2),
    ]


def test_a_single_name_is_a_list_of_one(make_book: BookMaker) -> None:
    root = make_book(FILES, metadata={"title": "책", "front-matter": "book/00-note.md"})
    assert [c.kind for c in load_book(root).chapters] == ["front", "chapter", "chapter", "chapter"]


def test_a_name_that_is_no_chapter_is_an_error_at_its_line(make_book: BookMaker) -> None:
    root = make_book(FILES)
    (root / "metadata.yaml").write_text(
        "title: 책\nfront-matter:\n  - book/00-note.md\n  - book/없는-파일.md\n", encoding="utf-8"
    )
    with pytest.raises(KobookError) as error:
        load_book(root)
    found = error.value.diagnostic
    assert found.code == "CFG017" and found.location.line == 4
