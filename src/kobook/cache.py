"""Content-addressed cache under ``.kobook-cache/`` for expensive pure steps.

Keys are hashes of everything that determines the result (input text, tool
versions, options), so a stale entry is never read; entries are written
atomically so an interrupted build never leaves a half-written one.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


def digest(*parts: str | bytes) -> str:
    """A stable hex key for ``parts`` (order matters)."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:32]


class Cache:
    """A folder of small files named by key, grouped by kind (``ast``, ``math``...)."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self.hits = 0
        self.misses = 0

    def path(self, kind: str, key: str, suffix: str = "") -> Path | None:
        if self.root is None:
            return None
        return self.root / kind / key[:2] / f"{key}{suffix}"

    def get(self, kind: str, key: str, suffix: str = "") -> bytes | None:
        path = self.path(kind, key, suffix)
        if path is None or not path.exists():
            self.misses += 1
            return None
        self.hits += 1
        return path.read_bytes()

    def put(self, kind: str, key: str, data: bytes, suffix: str = "") -> Path | None:
        path = self.path(kind, key, suffix)
        if path is None:
            return None
        try:
            atomic_write(path, data)
        except OSError:
            return None  # a read-only project still builds, just without a cache
        return path


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
