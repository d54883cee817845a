"""Watch the book's sources; each batch of saves is one rebuild and one message to the pages.

watchfiles runs in a thread of its own and gathers the saves of a moment into
one batch (an editor's save is often several file-system events).  Only the
book's sources count (:meth:`Session.is_source`): the preview's own writes to
``dist/`` and ``.kobook-cache/`` would otherwise start the next build, forever.

A rebuild that fails shows its error on the pages and keeps the last good ones.
A bug in kobook (any other exception) must not stop the preview either: it is
logged with its traceback and shown on the pages as an internal error.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from watchfiles import Change, DefaultFilter, watch

from ..errors import Diagnostic, KobookError
from .session import Session, Update

log = logging.getLogger("kobook.preview")

Publish = Callable[[Update], None]
# A batch ends once watchfiles finds no new event for this long (it looks every step, so
# a save reaches the rebuild one to two steps after its last event); an editor's save
# writes its events within a millisecond or two, and the debounce still bounds a long
# stream of saves.
DEFAULT_STEP_MS = 10
DEFAULT_DEBOUNCE_MS = 400  # … or after this long in all (a long stream of saves)


def internal_error(error: BaseException) -> Diagnostic:
    """A bug in kobook, in the shape of a build error, for the overlay."""
    text = str(error).strip().splitlines()
    first = text[0][:300] if text else ""
    message = f"internal error: {type(error).__name__}" + (f": {first}" if first else "")
    return Diagnostic(
        code="PREVIEW003",
        message=message,
        hint="this is a bug in kobook, not in the book: the traceback is in the terminal "
        "running kobook preview; the last good pages stay served",
    )


class Watcher:
    """A thread that rebuilds ``session`` after each batch of saves and publishes the result.

    ``publish`` receives every :class:`Update` (the server's
    :meth:`~kobook.preview.server.PreviewServer.publish`).  With ``pdf`` the
    chapter PDF is rebuilt after each good HTML rebuild, by a :class:`PdfWorker`
    (so the next save's pages never wait for it), and published as well.
    """

    def __init__(
        self,
        session: Session,
        publish: Publish,
        *,
        pdf: bool = False,
        step_ms: int = DEFAULT_STEP_MS,
        debounce_ms: int = DEFAULT_DEBOUNCE_MS,
        idle_ms: int = 500,
    ) -> None:
        self.session = session
        self.publish = publish
        self.pdf = pdf
        self.step_ms = step_ms
        self.debounce_ms = debounce_ms
        self.idle_ms = idle_ms
        self.batches = 0  # rebuilds done (for tests and the bench)
        self.ready = threading.Event()  # set once the file system is being watched
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kobook-preview-watch", daemon=True)
        self._default_filter = DefaultFilter()
        self.pdf_worker = PdfWorker(session, publish) if pdf else None

    def start(self) -> Watcher:
        if self.pdf_worker is not None:
            self.pdf_worker.start()
        self._thread.start()
        return self

    def wait_ready(self, timeout: float = 10.0) -> bool:
        """Wait until saves are noticed (watchfiles' watcher is set up)."""
        return self.ready.wait(timeout)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop watching and wait for the thread (a rebuild under way is finished first)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        if self.pdf_worker is not None:
            self.pdf_worker.stop(timeout)

    def wanted(self, change: Change, path: str) -> bool:
        """Whether a file-system event can change the book (a source, not an editor's backup)."""
        return self._default_filter(change, path) and self.session.is_source(Path(path))

    def _run(self) -> None:
        try:
            for changes in watch(
                self.session.root,
                watch_filter=self.wanted,
                step=self.step_ms,
                debounce=self.debounce_ms,
                rust_timeout=self.idle_ms,
                yield_on_timeout=True,  # the first (empty) yield says the watcher is set up
                stop_event=self._stop,
                raise_interrupt=False,
            ):
                self.ready.set()
                if changes and not self._stop.is_set():
                    self.handle(Path(path) for _, path in changes)
        except Exception:  # the watcher itself failed (e.g. the folder was removed)
            log.exception("kobook preview: watching %s stopped", self.session.root)
        finally:
            self.ready.set()

    def handle(self, paths: Iterable[Path]) -> Update:
        """One batch of saves: rebuild and publish; with ``pdf``, the chapter PDF is asked
        for as soon as the chapters are transformed (:attr:`Session.on_transformed`), and
        published once this rebuild is published and only if it succeeded."""
        changed = set(paths)
        self.batches += 1
        published = threading.Event()
        requested: list[Update] = []
        worker = self.pdf_worker

        def transformed(update: Update) -> None:
            if worker is not None:
                requested.append(update)
                worker.request(update, published)

        self.session.on_transformed = transformed
        try:
            update = guarded(lambda: self.session.rebuild(changed))
            self.publish(update)
        finally:
            self.session.on_transformed = None
            published.set()  # even when publishing failed: the PDF worker waits for it
        if worker is not None and update.ok and not requested:
            worker.request(update, published)  # a session that does not tell (tests' fakes)
        return update


class PdfWorker:
    """Typesets the chapter PDF in a thread of its own, after the pages.

    A WeasyPrint chapter takes seconds: done in the watcher's thread, a save
    made meanwhile waited for it before its pages were rebuilt.  Requests
    coalesce: saves made while a PDF is typeset ask for one more run, which
    takes the latest good build (:meth:`Session.rebuild_pdf` reads the session's
    last good state once, at its start, and works on a copy).
    """

    def __init__(self, session: Session, publish: Publish) -> None:
        self.session = session
        self.publish = publish
        self.runs = 0  # typesetting runs done (for tests)
        self._lock = threading.Lock()
        # The HTML update of the newest request, and the event set once it is published.
        self._latest: tuple[Update, threading.Event] | None = None
        self._wanted = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kobook-preview-pdf", daemon=True)

    def start(self) -> PdfWorker:
        self._thread.start()
        return self

    def request(self, html: Update, published: threading.Event | None = None) -> None:
        """Typeset for this HTML build (at once, or when the current run ends).

        ``published`` is set once the build is over and published; the PDF is
        published after it, and not at all when the build failed (its pages
        kept the error: a PDF event must not clear it).  None: it is over.
        """
        done = published if published is not None else threading.Event()
        if published is None:
            done.set()
        with self._lock:
            self._latest = (html, done)
            self._idle.clear()
            self._wanted.set()

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until every request so far is typeset (tests, and stopping)."""
        return self._idle.wait(timeout)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop (a PDF under way is finished first, then nothing more is typeset)."""
        self._stop.set()
        self._wanted.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            self._wanted.wait()
            if self._stop.is_set():
                return
            with self._lock:
                latest = self._latest
                self._wanted.clear()
            if latest is not None:
                html, published = latest
                result = build_pdf(self.session)
                self.runs += 1
                published.wait()
                if result is not None and html.ok:
                    self.publish(with_findings(result, html))
            with self._lock:
                if not self._wanted.is_set():
                    self._idle.set()


def guarded(rebuild: Callable[[], Update]) -> Update:
    """``rebuild()``, with any exception turned into an Update carrying the error."""
    start = time.perf_counter()
    try:
        return rebuild()
    except KobookError as error:  # the session normally catches these itself
        update = Update(error=error.diagnostic)
    except Exception as error:
        log.exception("kobook preview: the rebuild failed (a bug in kobook)")
        update = Update(error=internal_error(error))
    update.seconds = time.perf_counter() - start
    return update


def build_pdf(session: Session) -> Update | None:
    """The chapter PDF of the newest transformed build (None: nothing new to publish)."""
    rebuild_pdf = getattr(session, "rebuild_pdf", None)
    if rebuild_pdf is None:
        return None
    result = guarded(rebuild_pdf)
    if result.ok and not result.pdf:
        return None
    return result


def with_findings(pdf: Update, html: Update) -> Update:
    """The PDF's Update as published: with the HTML build's findings, so that publishing
    it does not empty the pages' findings panel, and naming no page (no reload)."""
    return Update(
        error=pdf.error,
        findings=html.findings,
        warnings=pdf.warnings,
        pdf=pdf.pdf,
        seconds=pdf.seconds,
    )
