"""``kobook preview``: serve the HTML book, rebuild what a save changed, reload the page.

Three small parts, each replaceable on its own:

* :mod:`.session` — the book's build state.  ``Session.build()`` builds once;
  ``Session.rebuild(paths)`` rebuilds after the files in ``paths`` changed and
  says which pages changed, or which error stopped the build (the last good
  pages stay in place).  It knows nothing of HTTP.
* :mod:`.server` — a threaded HTTP server on 127.0.0.1 that serves only files
  under the preview folder, adds the live-reload script to HTML pages and
  pushes events to them (server-sent events).
* :mod:`.watch` — watchfiles over the book's sources; each batch of saves is
  one ``rebuild`` and one event.
"""

from __future__ import annotations

from .command import run
from .server import PreviewServer, start
from .session import Session, Update
from .watch import Watcher

__all__ = ["PreviewServer", "Session", "Update", "Watcher", "run", "start"]
