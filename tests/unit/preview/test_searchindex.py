"""The preview's background search index: changes folded, made after a quiet moment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kobook.preview import searchindex
from kobook.preview.searchindex import SearchIndex


def test_changes_during_the_quiet_moment_make_one_index(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    made: list[tuple[Any, ...]] = []
    monkeypatch.setattr(searchindex, "index_pages", lambda *job: made.append(job) or [])
    index = SearchIndex(quiet=60.0)  # far longer than the test: only wait() ends it
    for n in range(3):
        index.refresh(tmp_path, [f"{n}.html"], "ko")
    assert made == []  # Pagefind waits: the browser is reloading the page
    index.wait(timeout=30)
    assert made == [(tmp_path, ["2.html"], "ko")]  # the newest pages, once
    index.refresh(tmp_path, ["3.html"], "ko")  # a later change: a quiet moment again
    index.wait(timeout=30)
    assert made[1:] == [(tmp_path, ["3.html"], "ko")]


def test_a_folder_gone_meanwhile_is_a_warning_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    def gone(*job: Any) -> list[Any]:
        raise FileNotFoundError(str(tmp_path / "gone"))

    monkeypatch.setattr(searchindex, "index_pages", gone)
    index = SearchIndex(quiet=0)
    index.refresh(tmp_path / "gone", ["1.html"], "ko")
    index.wait(timeout=30)
    assert "the search index was not made" in caplog.text
    assert index._thread is None  # ended, and a later change starts another
