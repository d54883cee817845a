"""The garbage collector during a build (collector.py): rare collections while it runs,
the process's own thresholds back after it, whether it ends well or not."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

import kobook
from kobook import collector
from kobook.collector import DURING_A_BUILD, few_collections
from kobook.errors import KobookError
from tests.conftest import BookMaker


def test_a_build_collects_rarely_and_puts_the_thresholds_back(
    make_book: BookMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kobook.write.html import writer

    seen = []
    original = writer.write_html

    def spying(*args: object, **kwargs: object) -> object:
        seen.append(gc.get_threshold())
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(writer, "write_html", spying)
    before = gc.get_threshold()
    root = make_book({"book/01.md": "# 장\n\n본문.\n"}, metadata={"title": "책"})
    kobook.build(root, ["html"], out=tmp_path / "out")
    assert seen == [DURING_A_BUILD]
    assert gc.get_threshold() == before


def test_the_thresholds_come_back_after_a_failed_build(tmp_path: Path) -> None:
    before = gc.get_threshold()
    with pytest.raises(KobookError):
        kobook.build(tmp_path / "nowhere", ["html"])
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError), few_collections():
        assert gc.get_threshold() == DURING_A_BUILD
        raise RuntimeError
    assert gc.get_threshold() == before


class Node:
    """An object that can hold itself: a cycle only a collection frees."""

    loop: object = None


def cycle_in_the_oldest_generation() -> weakref.ref[Node]:
    """A cycle nobody holds, left where young collections do not look."""
    node = Node()
    node.loop = node
    alive = weakref.ref(node)
    gc.collect()  # held: it survives into the oldest generation
    del node
    return alive


def test_a_later_build_first_collects_what_an_earlier_one_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A process that builds again does not carry every earlier build's cycles."""
    monkeypatch.setattr(collector, "_BUILDS", [1])  # a build has run in this process
    alive = cycle_in_the_oldest_generation()
    assert alive() is not None
    with few_collections():
        assert alive() is None


def test_a_first_build_does_not_collect_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collector, "_BUILDS", [0])
    alive = cycle_in_the_oldest_generation()
    with few_collections():
        assert alive() is not None  # the first build of a process pays nothing
    gc.collect()
    assert alive() is None
