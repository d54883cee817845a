"""The lock files: sorted lines, no dates, merge conflicts named at their line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.errors import KobookError
from kobook.upstream.lock import Entry, Lock, dump, parse, read_lock, write_lock


def test_dump_and_parse_round_trip(tmp_path: Path) -> None:
    lock = Lock(
        "src/a.md",
        "The Ultra Scale Playbook.md",  # names with spaces, as real books have
        "0" * 40,
        [Entry("para", "a" * 12, "b" * 12, {"reviewed"}), Entry("code", "c" * 12)],
        {("stale", "d" * 12), ("missing", "e" * 12)},
    )
    text = dump(lock)
    assert "ack missing eeeeeeeeeeee\nack stale dddddddddddd\n" in text
    assert parse(text, tmp_path / "x") == lock
    write_lock(tmp_path, lock)
    assert read_lock(tmp_path, "src/a.md") == lock
    assert (tmp_path / ".kobook/upstream/src/a.md.lock").stat().st_mode & 0o777 == 0o644


def test_a_merge_conflict_is_named_at_its_line(tmp_path: Path) -> None:
    text = dump(Lock("a.md", "a.md", "0" * 40)) + "<<<<<<< HEAD\n"
    with pytest.raises(KobookError) as caught:
        parse(text, tmp_path / "a.md.lock")
    assert caught.value.code == "UPS010" and caught.value.diagnostic.location.line == 5
