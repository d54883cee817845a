"""The preview's folder (``dist/preview/``, the folder the server serves), written file by
file, each atomically and only when its bytes changed: a page being read is never half
written, and what :meth:`PreviewFolder.write` returns names exactly the pages a browser
showing them should reload.  The folder passes the same boundary check as a build's
``dist`` (SEC001): no symbolic link from the book's folder down leads elsewhere."""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path

from ..boundary import real_folders
from ..cache import atomic_write


class PreviewFolder:
    """The files of the site in ``out`` (inside or outside the book at ``root``)."""

    def __init__(self, root: Path, out: Path) -> None:
        self.root = root
        self.out = out
        self._written: dict[str, str] = {}  # site path → digest of the bytes in the folder
        self._copied: dict[str, tuple[Path, int, int]] = {}  # site path → source, size, mtime

    def check(self) -> None:
        """SEC001 when ``dist`` or ``dist/preview`` is a symbolic link leading elsewhere."""
        top = self.root if self.out.is_relative_to(self.root) else self.out
        real_folders(top, self.out)

    def write(self, files: dict[str, bytes | Path]) -> list[str]:
        """Write the files whose bytes changed; remove the ones the site no longer has."""
        changed: list[str] = []
        self.check()
        for name, data in files.items():
            target = self.out / name
            if isinstance(data, Path):
                stat = data.stat()
                stamp = (data, stat.st_size, stat.st_mtime_ns)
                if self._copied.get(name) == stamp and target.is_file():
                    continue
                content = data.read_bytes()
                self._copied[name] = stamp
            else:
                content = data
            digest = digest_of(content)
            if self._written.get(name) is None and target.is_file():
                with contextlib.suppress(OSError):
                    self._written[name] = digest_of(target.read_bytes())
            if self._written.get(name) == digest:
                continue
            atomic_write(target, content, self.out)
            target.chmod(0o644)
            self._written[name] = digest
            changed.append(name)
        for name in sorted(set(self._written) - set(files)):
            real_folders(self.out, (self.out / name).parent)  # never unlink through a link
            (self.out / name).unlink(missing_ok=True)
            del self._written[name]
            self._copied.pop(name, None)
            changed.append(name)
        for folder, _subfolders, _files in os.walk(self.out):
            # The search index is made in a thread of its own (searchindex.py) and swapped
            # in whole: the folder it was made in may be gone by now.
            with contextlib.suppress(FileNotFoundError):
                os.chmod(folder, 0o755)
        return changed


def digest_of(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()
