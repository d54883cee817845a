"""The build's normalize stage through the cache: a chapter whose text did not change is
not checked again, and what it reports is what an uncached build reports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kobook import normalize
from kobook.cache import Cache
from kobook.load import load_book
from tests.conftest import BookMaker

FILES = {
    "book/01.md": '# 하나\n\n이 장은 GPU을 쓴다... 그리고 "따옴표"도 있다.\n',
    "book/02.md": "# 둘\n\n둘째 장은 CPU을 쓴다.\n\n![그림](../images/later.png)\n",
}


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    original = normalize.normalize_chapter

    def spy(chapter: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(chapter.id)
        return original(chapter, *args, **kwargs)

    monkeypatch.setattr(normalize, "normalize_chapter", spy)
    return seen


def run(root: Path, cache: Cache | None) -> tuple[list[str], list[Any]]:
    book = load_book(root)
    report = normalize.normalize_book(book, cache)
    return [c.text for c in book.chapters], report.remaining


def test_unchanged_chapters_are_not_checked_again(
    make_book: BookMaker, tmp_path: Path, checked: list[str]
) -> None:
    root = make_book(dict(FILES), metadata={"title": "책"})
    cache = Cache(tmp_path / "cache")
    first = run(root, cache)
    assert first == run(root, None)  # the cache changes nothing
    assert any("GPU를" in text for text in first[0])
    assert [d.code for d in first[1]] == ["IMG001"]
    checked.clear()
    assert run(root, cache) == first
    assert checked == []
    edited = (root / "book/02.md").read_text(encoding="utf-8").replace("둘째", "고친 둘째")
    (root / "book/02.md").write_text(edited, encoding="utf-8")
    texts, remaining = run(root, cache)
    assert checked == ["02"]
    assert (texts, remaining) == run(root, None)


def test_a_missing_image_that_appears_is_checked_again(
    make_book: BookMaker, tmp_path: Path, checked: list[str]
) -> None:
    """IMG001 reads the files: the kept finding must not outlive the missing image."""
    root = make_book(dict(FILES), metadata={"title": "책"})
    cache = Cache(tmp_path / "cache")
    assert [d.code for d in run(root, cache)[1]] == ["IMG001"]
    checked.clear()
    (root / "images").mkdir()
    (root / "images/later.png").write_bytes(b"png")
    assert run(root, cache)[1] == []
    assert checked == ["02"]


def test_the_rules_are_in_the_key(make_book: BookMaker, tmp_path: Path, checked: list[str]) -> None:
    root = make_book(dict(FILES), metadata={"title": "책"})
    cache = Cache(tmp_path / "cache")
    run(root, cache)
    checked.clear()
    (root / "metadata.yaml").write_text(
        "title: 책\nnormalize: {ignore: [KO007]}\n", encoding="utf-8"
    )
    texts, _ = run(root, cache)
    assert sorted(checked) == ["01", "02"]
    assert (texts, _) == run(root, None)


def test_a_fixed_chapter_is_parsed_by_pandoc_twice_not_three_times(
    make_book: BookMaker, tmp_path: Path, pandoc_inputs: list[str]
) -> None:
    """The proof parses the original and the fixed text; the parse stage takes the fixed
    text's AST from it (the same reader, the same text) instead of a third pandoc run."""
    from kobook.parse import parse_book

    root = make_book(dict(FILES), metadata={"title": "책"})
    texts = pandoc_inputs
    book = load_book(root)
    cache = Cache(tmp_path / "cache")
    normalize.normalize_book(book, cache)
    docs = parse_book(book, cache)
    fixed = book.chapters[0].text
    assert "GPU를" in fixed
    assert texts.count(fixed) == 1  # the proof's parse, reused by the parse stage
    assert book.chapters[1].text in texts  # no fix, no proof: the parse stage's own run
    again = parse_book(book, Cache(tmp_path / "fresh"))  # what pandoc itself makes of it
    assert [d.blocks for d in docs] == [d.blocks for d in again]
    assert [d.meta for d in docs] == [d.meta for d in again]
