"""A compiler's working folder in the cache, and the files it may read there.

XeLaTeX and Typst both compile a generated source inside the cache: each may
read only below its working folder (kpathsea's paranoid mode, Typst's root),
so the images kobook checked get links ``assets/<hash><suffix>`` there
(:class:`Assets`), made just before the run, and a folder a repository
committed is not trusted (:func:`own_workdir`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from ...boundary import inside


class Assets:
    """The files a compiler reads (images, emoji), by names inside its working folder.

    XeLaTeX runs with kpathsea in paranoid mode (``latex.run.run_xelatex``), which
    refuses absolute and ``../`` paths: each file kobook checked (inside the
    book or the cache) gets a link ``assets/<hash><suffix>`` in the working
    folder, made just before the run (:meth:`link`).
    """

    FOLDER = "assets"

    def __init__(self, cache: Path | None = None, book: Path | None = None) -> None:
        self.files: dict[str, Path] = {}
        # The cache first: it may be inside the book (.kobook-cache/) or not (--cache-dir).
        pairs = (("cache", cache), ("book", book))
        self.roots = {tag: root.resolve() for tag, root in pairs if root is not None}

    def name(self, path: Path) -> str:
        """The name the LaTeX source uses for ``path`` (see :meth:`key`)."""
        resolved = path.resolve()
        name = f"{self.FOLDER}/{self.key(resolved)}{resolved.suffix.lower()}"
        self.files[name] = resolved
        return name

    def key(self, resolved: Path) -> str:
        """A hash of the file's path inside the cache (entries are named by what they were
        made from) or the book, else of its bytes: never of its absolute path, which
        differs between checkouts and would change the PDF (the order of xdvipdfmx's
        image objects follows these names; kobook.reproducible)."""
        for tag, root in self.roots.items():
            if resolved.is_relative_to(root):
                text = f"{tag}:{resolved.relative_to(root).as_posix()}"
                return hashlib.sha256(text.encode()).hexdigest()[:16]
        try:
            return hashlib.sha256(resolved.read_bytes()).hexdigest()[:16]
        except OSError:  # XeLaTeX reports the missing file
            return hashlib.sha256(str(resolved).encode()).hexdigest()[:16]

    def link(self, workdir: Path) -> None:
        """Make ``workdir/assets/`` hold exactly the links to :attr:`files`."""
        folder = workdir / self.FOLDER
        if folder.is_symlink() or folder.is_file():
            folder.unlink()
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for name, target in self.files.items():
            os.symlink(target, workdir / name)


MADE_HERE = ".kobook-made-here"


def own_workdir(workdir: Path) -> None:
    """Empty the LaTeX working folder unless kobook made it on this machine.

    LaTeX runs ``book.aux`` (and ``.toc``, ``.out``) before the book itself, and
    latexmk trusts the PDF it finds: a ``.kobook-cache/`` committed to the
    repository must not supply them.  The mark is a hash of the folder's device
    and inode, the user and the host, which a repository cannot carry.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    marker = workdir / MADE_HERE
    made_here = not marker.is_symlink() and marker.is_file()
    if made_here and marker.read_text("utf-8", "replace") == folder_mark(workdir):
        return
    shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    marker.write_text(folder_mark(workdir), encoding="utf-8")


def folder_mark(folder: Path) -> str:
    import socket

    info = folder.stat()
    user = os.getuid() if hasattr(os, "getuid") else 0
    return hashlib.sha256(
        f"{info.st_dev}:{info.st_ino}:{user}:{socket.gethostname()}".encode()
    ).hexdigest()


def remove_links(workdir: Path) -> None:
    """Remove symlinks from the LaTeX working folder (kobook makes its own in ``assets/``).

    A link there would let TeX read outside it: kpathsea checks names, not targets.
    """
    for folder, subfolders, files in os.walk(workdir):
        for name in subfolders + files:
            path = Path(folder, name)
            if path.is_symlink():
                path.unlink()


def compiler_workdir(cache_root: Path | None, out: Path, engine: str, what: str) -> Path:
    """The working folder of ``engine`` (``latex``, ``typst``) for the output ``out``: inside
    the cache, made on this machine (:func:`own_workdir`) and without links it did not make
    (:func:`remove_links`).  ``what`` names it in an error (``LaTeX working folder``)."""
    base = cache_root or Path(".kobook-cache")
    key = hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:12]
    workdir = inside(base / engine / key, base, what=what, folder="the cache folder")
    own_workdir(workdir)
    remove_links(workdir)
    return workdir
