"""Links to another chapter's file point inside the book (chapter_links.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kobook.cache import Cache
from kobook.load import load_book
from kobook.normalize import normalize_book
from kobook.parse import parse_book
from kobook.parse.ast import iter_nodes
from kobook.transform import transform_book


def links(project: Path, tmp: Path) -> dict[str, list[str]]:
    book = load_book(project)
    normalize_book(book)
    docs, _ = transform_book(book, parse_book(book, Cache(tmp / "cache")), keep_going=True)
    found: dict[str, list[str]] = {}
    for doc in docs:
        urls: list[str] = [n["c"][2][0] for n in iter_nodes(doc.blocks) if n["t"] == "Link"]
        found[doc.chapter.path.name] = urls
    return found


def test_file_links_become_heading_links(make_book: Any, tmp_path: Path) -> None:
    project = make_book(
        {
            "book/01-a.md": "# 처음 {#start}\n\n[둘째](02-b.md), [절](02-b.md#deep), "
            "[jekyll](../02-b), [html](02-b.html), [out](../../../etc/passwd), [web](https://x.org/a.md)\n",
            "book/02-b.md": "# 둘째 장 {#second}\n\n## 깊은 절 {#deep}\n\n"
            "[처음](01-a.md#nowhere)\n",
        }
    )
    found = links(project, tmp_path)
    assert found["01-a.md"] == [
        "#second",
        "#deep",
        "#second",
        "#second",
        "https://x.org/a.md",
    ]  # [out](../../../etc/passwd) is no chapter and no web address: its text (LINK001)
    assert found["02-b.md"] == ["#start"]  # an unknown fragment: the chapter's heading
