"""The chapter PDF of ``kobook preview --pdf``, typeset in a process kept warm.

Typesetting a chapter is seconds of Python (WeasyPrint's layout).  Run in a
thread of the preview, it held the GIL while the next save's pages were
rebuilt, so the pages waited for the PDF.  A process of its own runs beside
them on the second core, and being kept between saves it keeps what makes
the next PDF faster: WeasyPrint and the fonts loaded, the formulas already
drawn (:mod:`kobook.write.weasyprint.svgreplay`), the font subsets
(:mod:`kobook.write.weasyprint.subset`) and the pages of the last chapter PDF, of
which a save lays out again only those it changed
(:mod:`kobook.write.weasyprint.relayout`).  With ``engine: typst`` it keeps the
Typst compiler (:mod:`kobook.write.typst.compiler`), whose memoized layout makes
the next compile of the chapter cost what the edit changed; with ``xelatex``,
latexmk's files in the cache.

The process is ``python -m kobook.preview.typesetter_main``, not a
multiprocessing child: that would run the caller's main script again (a
script using :class:`~kobook.preview.Session` without a ``__main__`` guard
would start itself), and a daemon child may not start the writer's own
worker processes.  It runs in a session of its own, so the terminal's Ctrl-C
reaches only the preview, which stops it; it ends by itself when its pipe
closes (the preview died), and is started again if it dies.  Jobs and
answers are pickled over its standard input and output: copies of the book
and of the chapter's transformed AST in, the build's warnings or its error
out.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import subprocess
import sys
import threading
import traceback
import weakref
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from ..cache import Cache
from ..errors import Diagnostic, KobookError
from ..model import Book, Doc
from ..write.shared.blockhtml import BlockHtml
from ..write.shared.common import blocks_to_html
from ..write.shared.setup import PrintSetup
from ..write.weasyprint import relayout

# The first PDF of a new process also pays for loading WeasyPrint and the fonts: done
# by a small document at start, while the first pages are built.
# The HTML of the blocks typeset so far, for the whole life of the process.
KEPT_HTML = BlockHtml(blocks_to_html)
# The pages laid out for the last chapter PDF: a save lays out only what it changed.
KEPT_LAYOUT = relayout.Relayout()
WARM_UP = "<html lang='ko'><body><p>미리 보기 준비 — preview 1.</p></body></html>"


def typeset(
    engine: str, book: Book, docs: list[Doc], target: Path, cache: Cache, setup: PrintSetup
) -> list[Any]:
    """Write ``target`` with ``engine`` (in this process); the build's warnings.  ``setup``:
    the session's print set-up, as a build hands it to its writers."""
    KEPT_LAYOUT.made = KEPT_LAYOUT.reused = 0
    if engine != "weasyprint":
        # XeLaTeX keeps its own files in the cache; Typst keeps its compiler in this
        # process (kobook.write.typst.compiler) and each chapter's Typst in the cache.
        from ..write import registry

        return (
            registry.get(engine, output="pdf")
            .run(registry.Job(book, docs, target, cache, all_docs=docs, setup=setup))
            .problems
        )
    from ..write.weasyprint import subset
    from ..write.weasyprint import writer as weasyprint_writer

    # Successive chapter PDFs share their font subsets (kept while a save brings no
    # new glyph): not for ``kobook build``, whose bytes must not depend on what the
    # process built before.  The blocks' HTML is kept too (the same bytes either way), and
    # the pages laid out (the same pages either way: tests/unit/write/weasyprint/test_relayout.py).
    growing = subset.GROWING.set(True)
    kept = weasyprint_writer.KEPT_HTML.set(KEPT_HTML)
    laid = relayout.KEPT.set(KEPT_LAYOUT)
    try:
        return weasyprint_writer.write_pdf(book, docs, target, cache, setup=setup)
    finally:
        relayout.KEPT.reset(laid)
        weasyprint_writer.KEPT_HTML.reset(kept)
        subset.GROWING.reset(growing)


def pages_laid() -> tuple[int, int]:
    """The last chapter PDF's pages laid out, and reused from the one before."""
    return (KEPT_LAYOUT.made, KEPT_LAYOUT.reused)


def serve(jobs: Connection, answers: Connection) -> None:
    """The process's loop: a job in; ``("ok", (warnings, pages_laid))``, ``("error", (diagnostic,
    diagnostics))`` or ``("crash", traceback)`` out.  ``None`` or the end of the pipe
    ends it."""
    with contextlib.suppress(Exception):
        import weasyprint

        weasyprint.HTML(string=WARM_UP).write_pdf()
    while True:
        try:
            job = jobs.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        engine, book, docs, target, cache_root, setup = job
        try:
            warnings = typeset(engine, book, docs, Path(target), Cache(cache_root), setup)
            reply: tuple[str, Any] = ("ok", (warnings, pages_laid()))
        except KobookError as error:
            reply = ("error", (error.diagnostic, error.diagnostics))
        except Exception as error:  # a bug: the preview reports it as one
            reply = ("crash", f"{type(error).__name__}: {error}\n{traceback.format_exc()}")
        try:
            answers.send(reply)
        except OSError:
            return


def main() -> None:
    """The PDF process (:mod:`.typesetter_main`): jobs on stdin, answers on stdout.

    The answers get their own copy of stdout, and stdout itself becomes stderr:
    whatever a library prints cannot corrupt them.
    """
    answers = Connection(os.dup(1), readable=False)
    os.dup2(2, 1)
    serve(Connection(os.dup(0), writable=False), answers)


# Typesetters with a process, closed at exit (the process would also end once its
# pipe closes; this ends it at once and waits for it).
RUNNING: weakref.WeakSet[Typesetter] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for typesetter in list(RUNNING):
        typesetter.close()


class Typesetter:
    """A warm process that typesets chapter PDFs, one at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._jobs: Connection | None = None
        self._answers: Connection | None = None
        self.pages_laid: tuple[int, int] | None = None  # of the last PDF (see pages_laid())
        RUNNING.add(self)

    @property
    def pid(self) -> int | None:
        """The process's id while it runs (for tests)."""
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def start(self) -> Typesetter:
        """Start the process (it warms up while the caller goes on)."""
        with self._lock:
            self._ensure()
        return self

    def _ensure(self) -> tuple[Connection, Connection]:
        if self._process is not None and self._process.poll() is None:
            assert self._jobs is not None and self._answers is not None
            return self._jobs, self._answers
        self._close()
        process = subprocess.Popen(
            [sys.executable, "-m", "kobook.preview.typesetter_main"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,  # the terminal's Ctrl-C is the preview's alone
        )
        assert process.stdin is not None and process.stdout is not None
        self._jobs = Connection(os.dup(process.stdin.fileno()), readable=False)
        self._answers = Connection(os.dup(process.stdout.fileno()), writable=False)
        process.stdin.close()
        process.stdout.close()
        self._process = process
        return self._jobs, self._answers

    def typeset(
        self,
        engine: str,
        book: Book,
        docs: list[Doc],
        target: Path,
        cache: Cache,
        setup: PrintSetup,
    ) -> list[Diagnostic]:
        """Write ``target`` in the warm process; its warnings, or its error raised here."""
        with self._lock:
            jobs, answers = self._ensure()
            try:
                jobs.send((engine, book, docs, str(target), cache.root, setup))
                kind, value = answers.recv()
            except (EOFError, OSError) as error:
                self._close()  # started again for the next PDF
                raise KobookError(
                    f"the PDF process stopped while typesetting ({type(error).__name__})",
                    code="PREVIEW005",
                    hint="the next save typesets again; the terminal may say why it stopped",
                ) from None
        if kind == "error":
            diagnostic, diagnostics = value
            failure = KobookError(diagnostic.message, code=diagnostic.code, diagnostics=diagnostics)
            failure.diagnostic = diagnostic
            raise failure
        if kind == "crash":
            raise RuntimeError(f"in the PDF process: {value}")
        warnings, self.pages_laid = value
        return list(warnings)

    def close(self) -> None:
        """Stop the process (after the PDF under way, if any)."""
        with self._lock:
            self._close()

    def _close(self) -> None:
        jobs, answers, process = self._jobs, self._answers, self._process
        self._jobs = self._answers = self._process = None
        if jobs is not None:
            with contextlib.suppress(OSError):
                jobs.send(None)
            jobs.close()
        if answers is not None:
            answers.close()
        if process is not None:
            try:
                process.wait(2.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(2.0)
