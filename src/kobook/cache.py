"""Content-addressed cache under ``.kobook-cache/`` for expensive pure steps.

Keys are hashes of everything that determines the result (input text, tool
versions, options), so a stale entry is never read; entries are written
atomically so an interrupted build never leaves a half-written one.

The folder sits inside the book, and a repository can carry one: a crafted
AST entry once changed the HTML while the Markdown stayed innocent.  So no
entry is trusted for sitting at the right place:

* every entry's file name is an HMAC of its kind, key and suffix under a
  secret of this machine (:func:`machine_secret`, made once and kept in the
  user's cache folder).  A repository cannot know the name, so a file it
  carries is never one kobook looks up; entries written on another machine
  are simply not found (and rebuilt).
* every entry's content is checked against a tag (an HMAC of kind, name and
  bytes under the same secret) kept in ``tags/``.  An entry changed after it
  was written (this machine's own cache, committed, then edited in a pull
  request) no longer matches and is a miss, then written anew.

Entries that writers hand to other programs by path (images for WeasyPrint
and XeLaTeX, downloaded images) are found with :meth:`Cache.lookup`, which
checks the tag the same way.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import stat
import tempfile
from pathlib import Path

from .boundary import real_folders

SECRET_BYTES = 32
TAGS = "tags"


def digest(*parts: str | bytes) -> str:
    """A stable hex key for ``parts`` (order matters)."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:32]


@functools.cache
def code_digest() -> str:
    """A key for kobook's own code (every module under ``kobook/``): entries that hold what
    kobook computed (a chapter's findings, its Typst) are misses after kobook changes, even
    between two commits that keep the version number."""
    package = Path(__file__).resolve().parent
    sources = sorted(package.rglob("*.py"))
    return digest(
        *(path.relative_to(package).as_posix() for path in sources),
        *(path.read_bytes() for path in sources),
    )


def secret_file() -> Path:
    """Where this machine's cache secret is kept: ``$XDG_CACHE_HOME/kobook/key``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kobook" / "key"


@functools.cache
def machine_secret() -> bytes:
    """This user's secret on this machine (32 random bytes, file mode 0600).

    Made on first use; when the user's cache folder cannot be written, a secret
    for this process only (its cache entries are then found only by this run).
    """
    path = secret_file()
    found = read_secret(path)
    if found is not None:
        return found
    secret = os.urandom(SECRET_BYTES)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".key.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:  # mkstemp: mode 0600
                handle.write(secret)
            os.link(tmp, path)  # fails if another process made one first: use that one
        except FileExistsError:
            return read_secret(path) or secret
        finally:
            Path(tmp).unlink(missing_ok=True)
    except OSError:
        return secret
    return secret


def read_secret(path: Path) -> bytes | None:
    """The secret in ``path`` if it is ours: a regular file of this user, 32 bytes."""
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_size != SECRET_BYTES:
            return None
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            return None
        data = path.read_bytes()
    except OSError:
        return None
    return data if len(data) == SECRET_BYTES else None


def entry_name(kind: str, key: str, suffix: str = "") -> str:
    """The file name (without suffix) of an entry: unguessable without the secret."""
    message = digest("name", kind, key, suffix).encode("ascii")
    return hmac.new(machine_secret(), message, hashlib.sha256).hexdigest()[:32]


def tag(kind: str, name: str, data: bytes) -> bytes:
    """The HMAC that proves ``data`` was written by kobook on this machine as this entry."""
    mac = hmac.new(machine_secret(), digest("tag", kind, name).encode("ascii"), hashlib.sha256)
    mac.update(data)
    return mac.hexdigest().encode("ascii")


class Cache:
    """A folder of small files named by key, grouped by kind (``ast``, ``math``...)."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self.hits = 0
        self.misses = 0
        if root is not None:
            machine_secret()  # before any worker process is forked: they share it

    def path(self, kind: str, key: str, suffix: str = "") -> Path | None:
        """Where the entry ``(kind, key, suffix)`` lives (whether it exists or not)."""
        if self.root is None:
            return None
        name = entry_name(kind, key, suffix)
        return self.root / kind / name[:2] / f"{name}{suffix}"

    def tag_path(self, path: Path) -> Path:
        assert self.root is not None
        return self.root / TAGS / path.relative_to(self.root)

    def verified(self, kind: str, path: Path) -> bytes | None:
        """The entry's bytes when its tag matches them, else None."""
        try:
            data = path.read_bytes()
            expected = self.tag_path(path).read_bytes()
        except OSError:
            return None
        return data if hmac.compare_digest(tag(kind, path.name, data), expected) else None

    def get(self, kind: str, key: str, suffix: str = "") -> bytes | None:
        path = self.path(kind, key, suffix)
        data = self.verified(kind, path) if path is not None else None
        if data is None:
            self.misses += 1
            return None
        self.hits += 1
        return data

    def lookup(self, kind: str, key: str, suffix: str = "") -> Path | None:
        """The path of an entry whose content checks out, for writers that pass files on."""
        path = self.path(kind, key, suffix)
        if path is None or self.verified(kind, path) is None:
            return None
        return path

    def put(self, kind: str, key: str, data: bytes, suffix: str = "") -> Path | None:
        path = self.path(kind, key, suffix)
        if path is None:
            return None
        try:
            atomic_write(path, data, self.root)
            atomic_write(self.tag_path(path), tag(kind, path.name, data), self.root)
        except OSError:
            return None  # a read-only project still builds, just without a cache
        return path


def atomic_write(path: Path, data: bytes, root: Path | None = None) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder; with ``root``
    (the output or cache folder ``path`` lies in) no folder from ``root`` down may be a
    symbolic link (SEC001): a link already at ``path`` is replaced, never followed."""
    if root is not None:
        real_folders(root, path.parent)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
