"""The key of what a build's passes read besides the chapters (``transform/world.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.cache import Cache
from kobook.load import load_book
from kobook.transform import Context
from kobook.transform import world as world_module
from kobook.transform.world import world_key
from tests.conftest import BookMaker


def key(root: Path, *outputs: Path) -> str | None:
    book = load_book(root)
    return world_key(book, Context(book=book, cache=Cache(root / ".cache")), outputs)


@pytest.fixture
def root(make_book: BookMaker) -> Path:
    return make_book(
        {"book/01.md": "# 하나\n\n![그림](../images/a.png)\n", "refs.bib": "@book{a,title={A}}\n"},
        metadata={"title": "책"},
        images=["images/a.png"],
    )


def test_a_chapter_edit_or_an_output_is_not_the_world(root: Path) -> None:
    before = key(root, root / "dist")
    (root / "book" / "01.md").write_text("# 하나\n\n다른 글.\n", encoding="utf-8")
    (root / "dist").mkdir()
    (root / "dist" / "index.html").write_text("<p>", encoding="utf-8")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref", encoding="utf-8")
    assert key(root, root / "dist") == before


@pytest.mark.parametrize(
    "change",
    ["images/a.png", "refs.bib", "images/new.png", "metadata.yaml", "dist/index.html"],
)
def test_any_other_file_is(root: Path, change: str) -> None:
    before = key(root)  # dist/ is no output of this build: a file like any other
    path = root / change
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes((path.read_bytes() if path.exists() else b"") + b"\n")
    assert key(root) != before


def test_a_project_too_big_to_list_has_none(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(world_module, "MOST_FILES", 2)
    assert key(root) is None
