"""The book's boundary: every path kobook reads or writes stays inside a folder.

A book's sources come from pull requests by strangers, and CI builds them.  A
path written in the book (``chapters: [/etc/passwd]``, ``../../x``, a symlink
committed into ``images/``, ``pdf: {filename: ../../x/pwned}``) must therefore
never take kobook outside the project folder (or outside ``--out`` for
outputs).  :func:`inside` is the one check every stage uses: it resolves the
path with symlinks followed and raises SEC001, naming the file and line where
the path was written, when the result lies outside.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from .errors import KobookError

SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def within(path: Path, root: Path) -> bool:
    """True when ``path`` (resolved, symlinks followed) is ``root`` or lies under it."""
    resolved = path.resolve()
    top = root.resolve()
    return resolved == top or top in resolved.parents


def inside(
    path: Path | str,
    root: Path,
    *,
    what: str,
    file: Path | str | None = None,
    line: int = 0,
    also: Iterable[Path] = (),
    folder: str = "the book folder",
    hint: str = "",
    written: str = "",
) -> Path:
    """``path`` resolved, when it lies inside ``root`` (or one of ``also``); else SEC001.

    ``path`` is taken as it is (relative paths are relative to the working
    directory: join them to their base first).  ``what`` names it in the
    message ("chapter file", "image"), ``file`` and ``line`` say where it was
    written, ``folder`` names ``root`` for the reader, ``written`` is the path
    as the book wrote it (default: ``path``).
    """
    shown = written or str(path)
    try:
        resolved = Path(path).resolve()
    except (ValueError, OSError) as exc:  # a NUL byte, a name too long, a loop of links
        raise KobookError(
            f"{what} is not a path this machine can open: {shown!r} ({exc})",
            code="SEC001",
            file=file,
            line=line,
            hint="write a plain relative path, without control characters",
        ) from None
    if any(within(resolved, top) for top in (root, *also)):
        return resolved
    if str(resolved) != shown:
        shown += f" → {resolved}"
    raise KobookError(
        f"{what} resolves outside {folder}: {shown}",
        code="SEC001",
        file=file,
        line=line,
        hint=hint
        or f"kobook reads and writes only inside {folder} ({root.resolve()}); copy the file "
        "into it (a symlink must point inside it too)",
    )


def is_file_url(url: str) -> bool:
    """True for ``file:`` URLs (``file:///etc/passwd``, ``FILE:/x``), which kobook refuses."""
    return url.strip().lower().startswith("file:")


def has_scheme(url: str) -> bool:
    """True for ``http:``, ``file:``, ``data:`` ... and ``//host``: not a path in the book."""
    return bool(SCHEME.match(url)) or url.startswith("//")


def real_folders(root: Path, folder: Path) -> Path:
    """Make ``folder`` (``root`` or below it) and every folder between, refusing (SEC001) a
    symbolic link or a file anywhere below ``root``, without following it.

    The top folders kobook writes to are checked where they are chosen; this is for
    what lies below them.  A book that commits ``dist/preview/images -> ~/.ssh`` would
    otherwise have an image written over ``~/.ssh/authorized_keys``.
    """
    import stat as stat_module

    root.mkdir(parents=True, exist_ok=True)  # chosen and checked where it was chosen
    current = root
    for part in folder.relative_to(root).parts:
        current = current / part
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            try:
                os.mkdir(current)
                continue
            except FileExistsError:  # made meanwhile by another process (the math workers)
                info = os.lstat(current)
        if stat_module.S_ISLNK(info.st_mode) or not stat_module.S_ISDIR(info.st_mode):
            kind = "a symbolic link" if stat_module.S_ISLNK(info.st_mode) else "not a folder"
            raise KobookError(
                f"output folder {current} is {kind}: kobook does not write through it",
                code="SEC001",
                file=current,
                hint="delete it (a build makes the folders it needs); a symbolic link inside "
                "an output folder would let the book write elsewhere",
            )
    return folder
