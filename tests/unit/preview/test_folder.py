"""The preview's folder, written file by file (``preview/folder.py``)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from kobook.preview import folder as folder_module
from kobook.preview.folder import PreviewFolder


def test_a_folder_swapped_away_while_the_pages_are_written_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search index is made in a thread of its own and swapped in whole: the folder
    it was being made in can vanish between listing the site's folders and opening it."""
    out = tmp_path / "dist" / "preview"
    out.mkdir(parents=True)
    making = out / ".search.new"
    making.mkdir()
    walk = os.walk

    def swapped_meanwhile(top: Path) -> Iterator[tuple[str, list[str], list[str]]]:
        for entry in walk(top):
            if entry[0] == str(making):
                shutil.rmtree(making)  # the index thread renames it now
            yield entry

    monkeypatch.setattr(folder_module.os, "walk", swapped_meanwhile)
    written = PreviewFolder(tmp_path, out).write({"index.html": b"<p>x</p>"})
    assert written == ["index.html"]
    assert (out / "index.html").read_bytes() == b"<p>x</p>"
    assert out.stat().st_mode & 0o777 == 0o755
