"""``kobook preview --review``: the bilingual review pages, kept up to date and answered.

The pages (``kobook.upstream.review``) are written into the preview folder after
every build, so the translation column is what was just saved.  A button on a page
posts ``{"action": ..., "place": "FILE:LINE"}`` to ``/__kobook/review``; the
server (only on loopback, only from its own pages: see ``server.py``) hands it
here, the lock is written and the pages drawn again.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from ..errors import KobookError

log = logging.getLogger("kobook.preview")
FOLDER = "review"


class Reviewer:
    """Draws the review pages of the book at ``root`` into ``folder``; takes the posts."""

    def __init__(self, root: Path, folder: Path) -> None:
        self.root = root
        self.folder = folder
        self._lock = threading.Lock()
        self.pages: list[str] = []  # the pages' names under the preview folder

    def render(self) -> list[str]:
        """Draw every page again (the translation as saved now); their names."""
        from ..upstream import open_project
        from ..upstream.review import write_pages

        with self._lock:
            try:
                written = write_pages(open_project(self.root), self.folder, live=True)
            except KobookError as error:
                log.info("review pages not drawn: %s", error.diagnostic)
                return []
            self.pages = [f"{FOLDER}/{path.name}" for path in written]
            return self.pages

    def act(self, request: dict[str, Any]) -> dict[str, Any]:
        """Do what a button asked (write the lock), then draw the pages again."""
        from ..upstream import open_project
        from ..upstream.review import answer

        with self._lock:
            try:
                result = answer(open_project(self.root), request)
            except KobookError as error:
                return {"ok": False, "message": str(error.diagnostic)}
        if result["ok"]:
            self.render()
        return result
