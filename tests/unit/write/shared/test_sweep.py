"""What a killed build leaves is removed by the next one (issue 35): temporary outputs are
named by the process that made them, and swept once that process is gone."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import kobook
from kobook.write.shared.common import sweep
from tests.conftest import BookMaker


def dead_pid() -> int:
    """The id of a process that has ended."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_sweep_removes_only_what_dead_processes_left(tmp_path: Path) -> None:
    gone = dead_pid()
    left = tmp_path / f".book.pdf.{gone}.abc.tmp"
    left.write_bytes(b"")
    folder = tmp_path / f".html.{gone}.xyz"
    (folder / "images").mkdir(parents=True)
    running = tmp_path / f".book.pdf.{os.getppid()}.def.tmp"  # a live process's
    running.write_bytes(b"")
    mine = tmp_path / f".book.pdf.{os.getpid()}.ghi.tmp"
    mine.write_bytes(b"")
    other = tmp_path / "book.pdf"
    other.write_bytes(b"%PDF")
    sweep(tmp_path, ".book.pdf")
    sweep(tmp_path, ".html")
    assert not left.exists() and not folder.exists()
    assert running.exists() and mine.exists() and other.exists()


def test_a_build_sweeps_what_a_killed_one_left(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 장\n\n본문.\n"}, metadata={"title": "책"})
    gone = dead_pid()
    (root / "dist").mkdir()
    stale = root / "dist" / f".book.pdf.{gone}.k9.tmp"
    stale.write_bytes(b"")
    stale_site = root / "dist" / f".html.{gone}.k9"
    stale_site.mkdir()
    runs = Path(tempfile.gettempdir()) / f"kobook-runs.{gone}.k9"
    runs.mkdir(exist_ok=True)
    kobook.build(root, ["pdf", "html"])
    assert not stale.exists() and not stale_site.exists() and not runs.exists()
    assert not [p for p in (root / "dist").iterdir() if p.name.startswith(".")]
