"""``front-matter:``: the chapters set before the body (옮긴이의 말, 옮긴이 소개, a foreword).

A Korean translation opens with the translator's pages: 옮긴이 소개 and 옮긴이의 말
come after the title page and the contents, numbered i, ii, … like them, before the
body's page 1.  ``front-matter:`` names their files, in order::

    front-matter:
      - book/00-옮긴이의-말.md
      - book/00-옮긴이-소개.md

Each named file must be one of the book's chapters (in ``book/``, or listed under
``chapters:``); its chapters become the ``front`` kind, move before the others in
the order named, and are never numbered: ``1장`` is the body's first chapter.  Every
writer puts them before the body (the PDF engines in the front matter's folios).
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from ..errors import KobookError
from ..model import Chapter, Config


def front_files(config: Config) -> list[str]:
    """The files ``front-matter:`` names (one name, or a list), as written."""
    value = config.get("front-matter") or []
    names = [value] if isinstance(value, str) else list(value)
    return [str(name) for name in names]


def front_first(chapters: list[Chapter], config: Config, root: Path) -> list[Chapter]:
    """``chapters`` with those of the ``front-matter:`` files first, of kind ``front``,
    unnumbered; a named file that is no chapter is CFG017."""
    names = front_files(config)
    if not names:
        return chapters
    front: list[Chapter] = []
    for name in names:
        wanted = (root / posixpath.normpath(name.replace("\\", "/"))).resolve()
        found = [c for c in chapters if c.path.resolve() == wanted and c not in front]
        if not found:
            raise KobookError(
                f"front-matter names '{name}', which is not one of the book's chapters",
                code="CFG017",
                file=config.path,
                line=config.entry_line("front-matter", name) or config.line("front-matter"),
                hint="put the file in book/ (or list it under chapters:), or fix its name",
            )
        for chapter in found:
            chapter.kind = "front"
            chapter.number = None
        front += found
    return front + [c for c in chapters if c not in front]
