"""What a transform pass may read besides its chapter: the key of a build's world.

The pass memo (:mod:`.memo`) keys each (pass, chapter) call by the chapter, the
state the earlier calls left and the book's layout.  Everything else a pass may
read is the same for every call of one build, and is this key: kobook's code
and pandoc's version, the book's configuration, the build's options, and every
file of the project that is not a chapter's text (images, bibliographies,
embedded pages, files a link names) by name, size and modification time.  A
build whose world is not the last build's replays nothing.

Files count by their stat, not their bytes: reading every image of a book to
learn that none changed would cost what the memo saves.  A project too big to
list quickly has no key (every call runs, as without a memo).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ..cache import code_digest, digest
from ..model import Book
from ..parse.pandoc import pandoc_version
from .context import Context

# Beyond this many files the project is not listed (its builds replay nothing).
MOST_FILES = 20_000


def world_key(book: Book, ctx: Context, outputs: Iterable[Path] = ()) -> str | None:
    """The key of what the passes of this build may read besides the chapters' texts;
    None when the project holds too many files to list.

    ``outputs``: folders the build writes (never read by a pass), left out; so are
    the cache, the chapters' own files (their texts are in each call's key) and
    hidden folders (``.git``).
    """
    skip = {p.resolve() for p in outputs}
    if ctx.cache is not None and ctx.cache.root is not None:
        skip.add(ctx.cache.root.resolve())
    named = {origin[0] for c in book.chapters for origin in c.origins}  # one a line
    named |= {c.path for c in book.chapters if c.path is not None}
    chapters = {Path(path).resolve() for path in named}
    files = project_files(book.root.resolve(), skip, chapters)
    if files is None:
        return None
    config = book.config
    return digest(
        code_digest(),
        pandoc_version(),
        repr((config.raw, config.extra, config.sources, config.text, str(config.path))),
        repr((ctx.keep_going, ctx.offline, book.trusted)),
        repr(files),
    )


def project_files(
    root: Path, skip: set[Path], chapters: set[Path]
) -> list[tuple[str, int, int]] | None:
    """Every file under ``root`` but ``chapters`` and the folders in ``skip`` or hidden:
    (path from the root, size, modification time in ns), sorted; None past
    :data:`MOST_FILES`."""
    found: list[tuple[str, int, int]] = []
    pending = [root]
    while pending:
        folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            path = Path(entry.path)
            try:
                if entry.is_dir(follow_symlinks=False):
                    if not entry.name.startswith(".") and path not in skip:
                        pending.append(path)
                    continue
                info = entry.stat()  # a link: what it points at
            except OSError:
                continue
            if path in chapters:
                continue
            found.append((path.relative_to(root).as_posix(), info.st_size, info.st_mtime_ns))
            if len(found) > MOST_FILES:
                return None
    return sorted(found)
