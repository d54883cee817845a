"""``kobook preview``: build once, serve, watch, until Ctrl-C.

The CLI command is a thin call of :func:`run`; everything a user sees on the
terminal is decided here.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import sys
import time
import webbrowser
from collections.abc import Callable
from pathlib import Path

from ..errors import KobookError
from ..tools import accept_stop
from .review import FOLDER as REVIEW
from .review import Reviewer
from .server import DEFAULT_PORT, PreviewServer, diagnostic_json, is_loopback, start
from .session import Session, Update
from .watch import Watcher, build_pdf, guarded, with_findings

Echo = Callable[[str], None]


def describe(update: Update, root: Path, first: bool = False) -> str:
    """One line (or two, with the hint) for the terminal about a (re)build."""
    if update.error is not None:
        error = diagnostic_json(update.error, root)
        text = f"build failed: {error['text']}"
        if error["hint"]:
            text += f"\n  → {error['hint']}"
        return text + "\n  (the last good pages stay served; the page shows the error)"
    if update.pdf and not update.pages:
        return f"pdf: {update.pdf} in {update.seconds:.2f} s"
    found = sum(len(found) for found in update.findings.values())
    findings = f", {found} typography finding(s)" if found else ""
    if first:
        return f"built in {update.seconds:.2f} s{findings}"
    return f"rebuilt {len(update.pages)} file(s) in {update.seconds:.2f} s{findings}"


def run(
    project: str | Path,
    *,
    chapter: str | None = None,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    open_browser: bool = False,
    pdf: bool = False,
    review: bool = False,
    echo: Echo | None = None,
    until: Callable[[], bool] | None = None,
) -> None:
    """Preview the book at ``project`` until Ctrl-C (or until ``until()`` is true).

    A first build that fails still starts the server: the page shows the error
    and the next good save builds the pages.  Ctrl-C (or SIGTERM) ends with a
    ``stopped`` line and no traceback.
    """
    if not Path(project).is_dir():
        raise KobookError(
            f"no book folder at {project}",
            code="PREVIEW004",
            hint="run kobook preview in the book's folder, or name it with --project",
        )
    say: Echo = echo or (lambda text: print(text, flush=True))
    setup_logging()
    session = Session(project, chapter=chapter, pdf=pdf)
    server: PreviewServer | None = None
    watcher: Watcher | None = None
    try:
        first = guarded(session.build)
        session.settle()
        say(describe(first, session.root, first=True))
        server = start(session, host, port)
        server.publish(first)
        reviewer = Reviewer(session.root, session.out / REVIEW) if review else None
        server.review = reviewer
        if reviewer is not None:
            pages = reviewer.render()
            say(f"review pages: {server.url}{REVIEW}/index.html ({len(pages)} file(s))")
        if pdf and first.ok:
            pdf_update = build_pdf(session)
            if pdf_update is not None:
                pdf_update = with_findings(pdf_update, first)
                server.publish(pdf_update)
                say(describe(pdf_update, session.root))

        def publish(update: Update) -> None:
            assert server is not None
            server.publish(update)
            say(describe(update, session.root))
            if reviewer is not None and update.ok and update.pages:
                server.broadcast("reload", {"pages": reviewer.render()})

        watcher = Watcher(session, publish, pdf=pdf).start()
        watcher.wait_ready()  # a save made once the URL is printed is seen
        warning = host_warning(host)
        if warning:
            say(warning)
        say(f"serving {session.out} at {server.url}  (Ctrl-C stops)")
        if open_browser:
            with contextlib.suppress(Exception):  # no browser here: the URL is printed
                webbrowser.open(server.url)
        while not (until and until()):
            time.sleep(0.2 if until else 3600)
    except KeyboardInterrupt:
        accept_stop()  # Ctrl-C is how the preview ends
    finally:
        if watcher is not None:
            watcher.stop()
        if server is not None:
            server.close()
        session.close()
        gc.unfreeze()  # what settle() left out is collected again (run() called from Python)
    say("stopped")


def host_warning(host: str) -> str | None:
    """The warning for a server the network can reach (None on loopback)."""
    if is_loopback(host):
        return None
    return (
        f"warning: serving on {host}: anyone who can reach this machine can read "
        "the book's pages (use --host 127.0.0.1 to keep them private)"
    )


def setup_logging() -> None:
    """Internal errors of a rebuild go to the terminal (with their traceback)."""
    logger = logging.getLogger("kobook.preview")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
