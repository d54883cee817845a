"""The Typst engine's chapters prepared by two processes are the chapters one prepares."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import kobook
from kobook import forked
from kobook.write.typst import template
from tests.conftest import BookMaker

CHAPTER = """# {n}장 제목 {{#sec-{n}}}

{n}장의 문단은 [다음 장](#sec-{m})과 [없는 곳](#nowhere)을 가리킨다.[^a{n}]

[^a{n}]: {n}장의 각주.

```rust
fn main() {{ println!("{n}"); }}
```

| 가 | 나 |
|----|----|
| {n} | $x^{n}$ |
"""


def test_chapters_prepared_beside_the_build_are_the_same(
    make_book: BookMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {f"book/{n:02}.md": CHAPTER.format(n=n, m=n % 4 + 1) for n in range(1, 5)}
    root = make_book(files, metadata={"title": "둘이 준비한 책", "engine": "typst"})
    calls: list[tuple[int, ...]] = []
    prepare = template.prepare_chapters

    def spied(indices: list[int], *args: object) -> object:
        calls.append(tuple(indices))
        return prepare(indices, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(template, "prepare_chapters", spied)
    children: list[int] = []
    ahead = template.ahead

    @contextlib.contextmanager
    def watched(*args: Any, worth: bool) -> Iterator[Any]:
        with ahead(*args, worth=worth) as later:
            children.append(later.pid)
            yield later

    monkeypatch.setattr(template, "ahead", watched)
    monkeypatch.setattr(forked, "WORTH_FROM", 0)  # four short chapters: forked all the same
    typst = []
    for shared_from in (2, 10**6):  # four chapters: half forked, then all here
        monkeypatch.setattr(template, "SHARED_FROM", shared_from)
        cache = tmp_path / f"cache-{shared_from}"
        kobook.build(root, ["pdf"], out=tmp_path / f"out-{shared_from}", cache_dir=cache)
        [main] = cache.glob("typst/*/book.typ")
        typst.append(main.read_text(encoding="utf-8"))
    assert calls == [(0, 1, 2, 3)] * 2
    assert len(children) == 1 and children[0] > 0  # the first build forked, once
    assert typst[0] == typst[1]
    assert "sec-4" in typst[0] and "nowhere" not in typst[0]  # a dangling link dropped


def test_two_pandoc_runs_write_what_one_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long book's chapters go to two pandoc runs side by side: the same Typst, chapter
    by chapter, an empty chapter included."""
    from kobook.parse.pandoc import markdown_to_ast

    chapters = [markdown_to_ast(CHAPTER.format(n=n, m=n + 1))["blocks"] for n in range(1, 6)]
    chapters.insert(2, [])
    monkeypatch.setattr(template, "SPLIT_FROM", 10**9)
    one = template.pandoc_typst(chapters)
    runs: list[int] = []
    typst_of = template.typst_of
    monkeypatch.setattr(
        template, "typst_of", lambda texts: runs.append(len(texts)) or typst_of(texts)
    )
    monkeypatch.setattr(template, "SPLIT_FROM", 0)
    assert template.pandoc_typst(chapters) == one
    assert sorted(runs) == [3, 3] and len(one) == 6 and one[2] == "\n\n"
    assert 'println!("5")' in one[5] and "sec-3" in one[3]
