"""The chapters' originals read in one go before the fixes (normalize/prefetch.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kobook.cache import Cache
from kobook.parse import pandoc
from kobook.pipeline import Hooks, Pipeline
from tests.conftest import BookMaker

FILES = {
    "book/01.md": "# 하나\n\n이 장은 GPU을 쓴다.\n",  # a fix: the proof reads it
    "book/02.md": "# 둘\n\n고칠 것이 없는 장.\n",
    "book/03.md": "---\ntitle: 셋\n---\n\n# 셋\n\n머리말이 있는 장.\n",
}


class NoPrefetch(Hooks):
    def prefetch(self, book: Any, cache: Cache) -> None:
        return None


def build(root: Path, cache: Cache, hooks: Hooks | None = None) -> list[Any]:
    pipeline = Pipeline(root, hooks=hooks or Hooks())
    book = pipeline.front().book
    pipeline.normalize(book, cache)
    return [(p.load().blocks, p.load().meta) for p in pipeline.parse(book, cache)]


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    original = pandoc.run_pandoc

    def counted(args: list[str], stdin: str, **kwargs: Any) -> str:
        seen.append(stdin)
        return original(args, stdin, **kwargs)

    monkeypatch.setattr(pandoc, "run_pandoc", counted)
    return seen


def alone(runs: list[str], text: str) -> int:
    """pandoc runs that read ``text`` by itself."""
    return sum(1 for stdin in runs if stdin == text)


def test_originals_are_read_in_one_go_and_nothing_twice(
    make_book: BookMaker, tmp_path: Path, runs: list[str]
) -> None:
    root = make_book(dict(FILES), metadata={"title": "책"})
    docs = build(root, Cache(tmp_path / "cache"))
    batches = [json.loads(stdin)["texts"] for stdin in runs if stdin.startswith('{"texts"')]
    assert len(batches) == 2  # two processes, two cores
    read = sorted(text for batch in batches for text in batch)
    third = "# 셋\n\n머리말이 있는 장.\n"  # the loader took the front matter off
    assert read == sorted([FILES["book/01.md"], FILES["book/02.md"], third])
    for text in (FILES["book/01.md"], FILES["book/02.md"], third):
        assert alone(runs, text) == 0
    fixed = FILES["book/01.md"].replace("GPU을", "GPU를")
    assert alone(runs, fixed) == 1  # the proof's candidate, which the parse stage takes
    runs.clear()
    assert build(root, Cache(tmp_path / "plain"), NoPrefetch()) == docs  # the same ASTs


def test_a_warm_build_reads_nothing_again(
    make_book: BookMaker, tmp_path: Path, runs: list[str]
) -> None:
    root = make_book(dict(FILES), metadata={"title": "책"})
    cache = Cache(tmp_path / "cache")
    build(root, cache)
    runs.clear()
    build(root, cache)
    assert [stdin for stdin in runs if stdin != "x"] == []  # "x": pandoc's version probe
