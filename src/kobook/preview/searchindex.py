"""The preview's search index, made again in a thread of its own after pages change.

Pagefind indexes the corpus playbook in 0.2 s: longer than the rebuild of one
edited chapter, and the page the translator is reading does not need it.  So
the first build indexes before the site is served, and each later change asks
for a new index without waiting for it; changes that come while one is being
made are folded into the next.  ``write/html/search.py`` swaps each index in
whole, so a search never reads half of one.

It starts a moment after the pages are written (:data:`QUIET_SECONDS`): Pagefind
runs on every core, and right after an edit the cores belong to the browser
reloading the page the translator is reading.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from ..errors import KobookError
from ..write.html.search import index_pages

log = logging.getLogger(__name__)

QUIET_SECONDS = 0.5  # after the last change asked for, before Pagefind runs


class SearchIndex:
    """The newest wanted index of one preview folder, made by at most one thread."""

    def __init__(self, quiet: float = QUIET_SECONDS) -> None:
        self.quiet = quiet
        self._lock = threading.Lock()
        self._wanted: tuple[Path, list[str], str] | None = None
        self._thread: threading.Thread | None = None
        self._hurry = threading.Event()  # set: no quiet moment (someone waits for it)

    def refresh(self, site: Path, pages: list[str], lang: str) -> None:
        """Index ``pages`` of ``site`` soon (now if no index is being made)."""
        with self._lock:
            self._wanted = (site, list(pages), lang)
            if self._thread is None:
                self._hurry.clear()
                self._thread = threading.Thread(target=self._run, name="kobook-search", daemon=True)
                self._thread.start()

    def wait(self, timeout: float | None = None) -> None:
        """Until the wanted index is made (the session's ``close``; tests)."""
        with self._lock:
            thread = self._thread
            self._hurry.set()
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            self._hurry.wait(self.quiet)
            with self._lock:
                job, self._wanted = self._wanted, None
                if job is None:
                    self._thread = None
                    return
            try:
                problems = index_pages(*job)
            except KobookError as error:  # Pagefind ran too long: the old index stays
                problems = [error.diagnostic]
            except OSError as error:  # the folder went (the preview stopped meanwhile)
                log.warning("the search index was not made: %s", error)
                problems = []
            for problem in problems:
                log.warning("%s %s", problem.code, problem.message)
