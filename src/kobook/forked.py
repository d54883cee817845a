"""Work done ahead in a forked process while the build goes on: the same answer either way.

A build has work whose answer it needs only at the end and whose inputs are ready
early: the ledger's count of what the book holds, asked for after every output is
written.  Most writers leave a core idle for long stretches (pandoc's Typst writer
runs alone; Python's own passes use one core), so the count is made by a forked
process meanwhile and read back when it is wanted (:func:`ahead`).

Not for little work (:data:`WORTH_FROM`: forking costs tens of milliseconds in a
process of a few hundred megabytes, more in a bigger one, and a short book's count
costs less), not in a process with other threads (forking one can deadlock the child:
the preview's server), nor where there is no ``fork``: the work is then done when its
answer is asked for.  A child that fails, or whose answer cannot be read, is the
same: the answer is worked out here.  A child left when the build stops early is
killed, and its file removed.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Generic, TypeVar

from .write.shared.common import owned

T = TypeVar("T")

# Characters of the chapters' text the work is about, from which it is done ahead.
WORTH_FROM = 60_000


def worth_it(size: int) -> bool:
    """Is work about ``size`` characters of the book's text worth a process?"""
    return size >= WORTH_FROM


class Ahead(Generic[T]):
    """``work(*args)``, started in a forked process when the caller finds it ``worth`` one
    (:func:`worth_it`, or its own measure); :meth:`result` gives its answer."""

    def __init__(self, work: Callable[..., T], *args: object, worth: bool) -> None:
        self.work = work
        self.args = args
        self.pid = 0
        self.file: Path | None = None
        if worth and hasattr(os, "fork") and threading.active_count() == 1:
            self._start()

    def _start(self) -> None:
        handle, name = tempfile.mkstemp(prefix=owned("kobook-ahead"), suffix=".pickle")
        self.file = Path(name)
        pid = os.fork()
        if pid == 0:  # the child: its answer into the file, and out without clean-ups
            code = 1
            try:
                for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                    signal.signal(signum, signal.SIG_DFL)  # the build's handler is not ours
                with os.fdopen(handle, "wb") as out:
                    pickle.dump(self.work(*self.args), out, protocol=pickle.HIGHEST_PROTOCOL)
                code = 0
            finally:
                os._exit(code)
        os.close(handle)
        self.pid = pid

    def result(self) -> T:
        """The child's answer (waiting for it), or the work done here when it has none."""
        if self.pid:
            pid, self.pid = self.pid, 0
            _, status = os.waitpid(pid, 0)
            if os.waitstatus_to_exitcode(status) == 0 and self.file is not None:
                with contextlib.suppress(Exception):  # unreadable: worked out below
                    with self.file.open("rb") as answer:
                        found: T = pickle.load(answer)
                    self._remove()
                    return found
        self._remove()
        return self.work(*self.args)

    def close(self) -> None:
        """Stop a child whose answer was not asked for, and remove its file."""
        if self.pid:
            pid, self.pid = self.pid, 0
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        self._remove()

    def _remove(self) -> None:
        if self.file is not None:
            self.file.unlink(missing_ok=True)
            self.file = None


@contextlib.contextmanager
def ahead(work: Callable[..., T], *args: object, worth: bool) -> Iterator[Ahead[T]]:
    """``with ahead(work, *args, worth=…) as later: … later.result()``: the child is gone
    after."""
    started = Ahead(work, *args, worth=worth)
    try:
        yield started
    finally:
        started.close()
