#!/usr/bin/env python3
"""``kobook upstream`` timings (``python scripts/bench.py --upstream`` runs them).

On the Korean Rust book against ``rust-book-upstream.bundle`` (cloned here): ``init``
at the translation's base, ``status`` to the head, ``check --select SYNC`` and
``init --guess-commit`` over the bundle's 17 commits; and a playbook-sized single
file (the Korean playbook, locked against a repository of itself).  Each command runs
cold (its own empty cache) in its own process: wall seconds, CPU seconds of the
process and its children, peak memory.  The issue's limits: whole-book alignment and
``status`` under 20 s on 2 cores, the single file under 2 s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KOBOOK_SHARED", REPO.parent / "shared"))
BUNDLE = SHARED / "corpus" / "rust-book-upstream.bundle"
RUST = SHARED / "corpus" / "rust-book-ko"
PLAYBOOK = SHARED / "corpus" / "ultrascale-playbook-ko"
BASE = "3684317"  # upstream 369386f, the Korean Rust book's base
GIT = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b"}


@dataclass
class Timing:
    name: str
    wall: float
    cpu: float
    peak_mb: float
    note: str = ""


def timed(name: str, cmd: list[str], cwd: Path) -> Timing:
    """Run ``cmd`` in ``cwd``: wall and CPU seconds, peak RSS of it and its children."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:  # a pipe would fill and stop the command
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        output = out.read().decode("utf-8", "replace")
    cpu = usage.ru_utime + usage.ru_stime
    note = output.strip().splitlines()[-1][:70] if output.strip() else ""
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        note = "FAILED " + note
    return Timing(name, wall, cpu, usage.ru_maxrss / 1024, note)


def kobook(*args: str) -> list[str]:
    return [sys.executable, "-m", "kobook", *args]


def git(cwd: Path, *args: str) -> None:
    env = {**os.environ, **GIT, "GIT_COMMITTER_EMAIL": "b@b"}
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


def rust_rows(work: Path) -> list[Timing]:
    upstream, korean = work / "rust-up", work / "rust-ko"
    git(work, "clone", "-q", str(BUNDLE), str(upstream))
    shutil.copytree(RUST, korean)
    (korean / "metadata.yaml").write_text("dialect: mdbook\n", encoding="utf-8")
    init = kobook("upstream", "init", f"../rust-up@{BASE}")
    rows = [timed("upstream init (rust, 111 files)", init, korean)]
    shutil.rmtree(korean / ".kobook-cache")
    rows.append(timed("upstream status (rust, to head)", kobook("upstream", "status"), korean))
    rows.append(timed("upstream status (rust, warm)", kobook("upstream", "status"), korean))
    check = kobook("check", "--select", "SYNC")
    rows.append(timed("check --select SYNC (rust, warm)", check, korean))
    shutil.rmtree(korean / ".kobook-cache")
    guess = kobook("upstream", "init", "../rust-up", "--guess-commit")
    rows.append(timed("upstream init --guess-commit (rust, 17)", guess, korean))
    return rows


def playbook_rows(work: Path) -> list[Timing]:
    original, korean = work / "playbook-up", work / "playbook-ko"
    shutil.copytree(PLAYBOOK, original)
    git(original, "init", "-q")
    git(original, "add", "-A")
    git(original, "commit", "-q", "-m", "a")
    shutil.copytree(PLAYBOOK, korean)
    init = kobook("upstream", "init", "../playbook-up", "--dialect", "pandoc")
    rows = [timed("upstream init (playbook-sized file)", init, korean)]
    status = kobook("upstream", "status")
    rows.append(timed("upstream status (playbook-sized, warm)", status, korean))
    return rows


def upstream_rows(work: Path) -> list[Timing]:
    """Every upstream row the corpus allows (a message for what it does not)."""
    rows: list[Timing] = []
    if BUNDLE.is_file() and RUST.is_dir():
        rows += rust_rows(work)
    else:
        print(f"(corpus not found at {BUNDLE}: upstream rows skipped)")
    if PLAYBOOK.is_dir():
        rows += playbook_rows(work)
    return rows


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="kobook-bench-upstream-") as tmp:
        rows = upstream_rows(Path(tmp))
    width = max((len(r.name) for r in rows), default=10)
    print(f"{'measurement':<{width}}  {'wall s':>7}  {'CPU s':>7}  {'peak MB':>7}  note")
    for r in rows:
        print(f"{r.name:<{width}}  {r.wall:7.2f}  {r.cpu:7.2f}  {r.peak_mb:7.0f}  {r.note}")
    return 0 if all("FAILED" not in r.note for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
