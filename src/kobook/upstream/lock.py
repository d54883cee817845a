"""The lock files: what each translated file was last brought in step with.

One file per translated source under ``.kobook/upstream/`` (committed with the
book, unlike ``.kobook-cache/``).  Plain lines, sorted, no dates, so two
translators' changes merge as text does::

    # kobook upstream lock: edit with `kobook upstream ack` / `init`
    file src/ch01-01-installation.md
    upstream src/ch01-01-installation.md
    base 369386fefd1138cbdf50ae628bae1ffc4ffce669
    block 0001 heading 3f2a9c81d0e4 7be1c2d3a4f5
    block 0002 para 9a8b7c6d5e4f 1a2b3c4d5e6f reviewed
    block 0003 para 0c1d2e3f4a5b - omitted
    ack stale 5e6f7a8b9c0d

A ``block`` line is one original block at ``base``: its kind, its hash, the hash of
the translated block aligned with it (``-``: none) and the review marks
(``reviewed``; ``confirmed``: a reviewer said a weak pair is right; ``omitted``: left
out on purpose).  An ``ack`` line is a finding a translator has dealt with.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import KobookError

FOLDER = Path(".kobook") / "upstream"
MARKS = ("confirmed", "omitted", "reviewed")
HEAD = "# kobook upstream lock: edit with `kobook upstream ack` / `init`"
HASH = re.compile(r"[0-9a-f]{12}|-")


@dataclass
class Entry:
    """One original block at the lock's base, with its translation's hash and marks."""

    kind: str
    upstream: str  # hash of the original block
    korean: str = "-"  # hash of the aligned translated block, "-" for none
    marks: set[str] = field(default_factory=set)


@dataclass
class Lock:
    """One translated file's lock."""

    file: str  # the translated file, relative to the book
    upstream: str  # the original's file, relative to its repository
    base: str  # the original's commit the entries were made from
    entries: list[Entry] = field(default_factory=list)
    acks: set[tuple[str, str]] = field(default_factory=set)  # (finding kind, block hash)

    def confirmed(self) -> frozenset[tuple[str, str]]:
        """The pairs the alignment should keep: those a reviewer confirmed or reviewed."""
        return frozenset(
            (e.upstream, e.korean)
            for e in self.entries
            if e.korean != "-" and e.marks & {"confirmed", "reviewed"}
        )

    def marks_of(self, upstream: str) -> set[str]:
        for entry in self.entries:
            if entry.upstream == upstream:
                return entry.marks
        return set()


def lock_path(root: Path, file: str) -> Path:
    """Where ``file``'s lock lives; a name that would lead out of ``.kobook/upstream/``
    (``../``, an absolute path, a linked folder) is SEC001: the names come from
    metadata.yaml, which a pull request may change."""
    from ..boundary import inside

    where = root / FOLDER / (file + ".lock")
    if Path(file).is_absolute() or ".." in Path(file).parts:
        raise KobookError(
            f"'{file}' is not a file of the book",
            code="SEC001",
            file=root / "metadata.yaml",
            hint="upstream: chapters: maps the book's own files (relative paths)",
        )
    return inside(where, root, what="upstream lock", written=file)


def dump(lock: Lock) -> str:
    lines = [HEAD, f"file {lock.file}", f"upstream {lock.upstream}", f"base {lock.base}"]
    for number, entry in enumerate(lock.entries, 1):
        marks = " ".join(sorted(entry.marks))
        lines.append(
            f"block {number:04d} {entry.kind} {entry.upstream} {entry.korean} {marks}".rstrip()
        )
    lines += [f"ack {kind} {key}" for kind, key in sorted(lock.acks)]
    return "\n".join(lines) + "\n"


def parse(text: str, path: Path) -> Lock:
    """A lock file's text; a line kobook did not write is LOCK001 at its line."""
    fields: dict[str, str] = {}
    entries: list[tuple[int, Entry]] = []
    acks: set[tuple[str, str]] = set()
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words or line.startswith("#"):
            continue
        head = words[0]
        if head in ("file", "upstream", "base") and len(words) >= 2:
            fields[head] = line.split(" ", 1)[1].strip()  # a file name may hold spaces
        elif head == "block" and len(words) >= 5 and valid_block(words):
            entry = Entry(words[2], words[3], words[4], set(words[5:]))
            entries.append((int(words[1]), entry))
        elif head == "ack" and len(words) == 3 and HASH.fullmatch(words[2]):
            acks.add((words[1], words[2]))
        else:
            raise KobookError(
                f"a line kobook cannot read: {line.strip()[:60]}",
                code="UPS010",
                file=path,
                line=number,
                hint="resolve the merge by hand (keep both sides' lines), or run "
                "`kobook upstream init` again",
            )
    missing = [name for name in ("file", "upstream", "base") if name not in fields]
    if missing:
        raise KobookError(
            f"the lock has no {', '.join(missing)} line",
            code="UPS010",
            file=path,
            hint="run `kobook upstream init` again",
        )
    entries.sort(key=lambda item: item[0])
    return Lock(fields["file"], fields["upstream"], fields["base"], [e for _, e in entries], acks)


def valid_block(words: list[str]) -> bool:
    return (
        words[1].isdigit()
        and bool(HASH.fullmatch(words[3]))
        and bool(HASH.fullmatch(words[4]))
        and all(mark in MARKS for mark in words[5:])
    )


def read_lock(root: Path, file: str) -> Lock | None:
    path = lock_path(root, file)
    if not path.is_file():
        return None
    return parse(path.read_text(encoding="utf-8"), path)


def write_lock(root: Path, lock: Lock) -> None:
    """Write ``lock`` atomically (a temporary file moved into place)."""
    save(root, lock_path(root, lock.file), dump(lock))


def save(root: Path, path: Path, text: str) -> None:
    """Write a file of the book through a temporary file; no folder from ``root`` down may
    be a symbolic link (SEC001).  A new file is readable by all, as git checks it out."""
    from ..cache import atomic_write

    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        mode = 0o644
    atomic_write(path, text.encode("utf-8"), root=root)
    os.chmod(path, mode)
