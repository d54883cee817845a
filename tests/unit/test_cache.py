"""kobook.cache: content-addressed keys and atomic writes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kobook.cache import Cache, atomic_write, digest
from kobook.model import Chapter
from kobook.parse import parse_chapter


def test_digest_is_stable_hex() -> None:
    key = digest("ast", "3.9", "본문")
    assert key == digest("ast", "3.9", "본문")
    assert re.fullmatch(r"[0-9a-f]{32}", key)


def test_digest_text_and_bytes_agree() -> None:
    assert digest("한글") == digest("한글".encode())


def test_digest_is_order_sensitive() -> None:
    assert digest("a", "b") != digest("b", "a")


def test_digest_keeps_part_boundaries() -> None:
    assert digest("ab", "c") != digest("a", "bc")
    assert digest("abc") != digest("abc", "")
    assert digest() != digest("")


@given(st.lists(st.text(max_size=5), max_size=4), st.lists(st.text(max_size=5), max_size=4))
def test_digest_differs_for_different_parts(a: list[str], b: list[str]) -> None:
    assert (digest(*a) == digest(*b)) == (a == b)


def test_cache_none_stores_nothing(tmp_path: Path) -> None:
    cache = Cache(None)
    assert cache.path("ast", "abcd") is None
    assert cache.put("ast", "abcd", b"data") is None
    assert cache.get("ast", "abcd") is None
    assert cache.misses == 1
    assert cache.hits == 0
    assert list(tmp_path.iterdir()) == []


def test_put_get_roundtrip(tmp_path: Path) -> None:
    cache = Cache(tmp_path / ".kobook-cache")
    key = digest("x")
    assert cache.get("ast", key, ".json") is None
    path = cache.put("ast", key, b'{"a": 1}', ".json")
    assert path is not None and path.parent.parent == tmp_path / ".kobook-cache" / "ast"
    assert path.suffix == ".json" and key not in path.name  # named with the machine's secret
    assert path is not None and path.read_bytes() == b'{"a": 1}'
    assert cache.get("ast", key, ".json") == b'{"a": 1}'
    assert (cache.hits, cache.misses) == (1, 1)
    # Kinds and suffixes are separate name spaces.
    assert cache.get("math", key, ".json") is None
    assert cache.get("ast", key) is None


def test_put_overwrites(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    cache.put("k", "aa11", b"one")
    cache.put("k", "aa11", b"two")
    assert cache.get("k", "aa11") == b"two"


def test_unwritable_cache_is_skipped(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    cache = Cache(blocker)
    assert cache.put("ast", "abcd", b"data") is None
    assert cache.get("ast", "abcd") is None


def test_atomic_write_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "file.bin"
    atomic_write(target, b"hello")
    assert target.read_bytes() == b"hello"
    assert [p.name for p in target.parent.iterdir()] == ["file.bin"]
    atomic_write(target, b"again")
    assert target.read_bytes() == b"again"
    assert [p.name for p in target.parent.iterdir()] == ["file.bin"]


def test_atomic_write_failure_keeps_old_content(tmp_path: Path) -> None:
    target = tmp_path / "file.bin"
    atomic_write(target, b"old")
    with pytest.raises(TypeError):
        atomic_write(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["file.bin"]


def test_parse_uses_the_cache(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache")
    chapter = Chapter(id="c", path=tmp_path / "c.md", text="# 제목\n\n본문\n")
    first = parse_chapter(chapter, cache)
    assert (cache.hits, cache.misses) == (0, 1)
    second = parse_chapter(chapter, cache)
    assert (cache.hits, cache.misses) == (1, 1)
    assert first.blocks == second.blocks
    assert second.blocks[0]["t"] == "Header"
    assert len(list((tmp_path / "cache" / "ast").rglob("*.json"))) == 1
