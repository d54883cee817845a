"""Every external program kobook runs goes through :func:`run`: with a time limit.

A book must not be able to hang the machine that builds it, so each run has a
timeout (the numbers are in ``limits.py``), and a program that outlives it is
stopped with everything it started (latexmk runs xelatex, which runs
xdvipdfmx): the program gets a process group of its own, and the whole group
is killed.  The same happens when kobook itself is interrupted, so no TeX run
is left behind.  Running out of time is a :class:`KobookError` (LIMIT006)
naming the program and what it was working on.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from .errors import KobookError

# Programs running now (from any thread), so that an interrupted build stops them all.
_running: set[subprocess.Popen[Any]] = set()
_lock = threading.RLock()  # re-entrant: the signal handler may run while it is held
_stopping = False
_stopped_by: int | None = None  # the signal that stopped the build (stop_on_signals)


def run(
    args: Sequence[str],
    *,
    timeout: float,
    what: str,
    file: Path | str | None = None,
    input: str | bytes | None = None,
    text: bool = False,
    errors: str | None = None,
    cwd: Path | str | None = None,
    env: dict[str, str] | None = None,
    hint: str = "",
) -> subprocess.CompletedProcess[Any]:
    """Run ``args`` with its output captured; stop it after ``timeout`` seconds.

    Like ``subprocess.run(..., capture_output=True)``: the exit status is the
    caller's to judge, a missing program raises ``OSError``.  ``what`` names
    the run in the message ("parsing 01.md"), ``file`` is where it points.
    """
    with _lock:
        if _stopping:
            raise Interrupted(signal.SIGTERM)  # shutting down: start nothing new
        proc = subprocess.Popen(
            list(args),
            stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=text,
            errors=errors,
            encoding="utf-8" if text else None,
            cwd=cwd,
            env=env,
            start_new_session=True,  # its own process group: stopping it stops its children
        )
        _running.add(proc)
    try:
        stdout, stderr = proc.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        stop(proc)
        raise KobookError(
            f"{what} took longer than {timeout:g} s and was stopped",
            code="LIMIT006",
            file=file,
            hint=hint or "simplify what it works on (split a long chapter, shorten a paragraph)",
        ) from None
    except BaseException:  # interrupted (Ctrl-C, SIGTERM): leave no program running
        stop(proc)
        raise
    finally:
        with _lock:
            _running.discard(proc)
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)


def start(args: Sequence[str], **popen: Any) -> subprocess.Popen[Any]:
    """Start a program that outlives one call (a kept worker), stopped with the others
    when the build is interrupted; :func:`forget` it once it has ended."""
    with _lock:
        if _stopping:
            raise Interrupted(signal.SIGTERM)
        proc = subprocess.Popen(list(args), start_new_session=True, **popen)
        _running.add(proc)
    return proc


def forget(proc: subprocess.Popen[Any]) -> None:
    with _lock:
        _running.discard(proc)


def stop(proc: subprocess.Popen[Any]) -> None:
    """Kill ``proc``'s process group and wait for it (no zombie, no orphan TeX)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError, ValueError, subprocess.TimeoutExpired):
        proc.communicate(timeout=5)
    with contextlib.suppress(OSError):
        proc.kill()
    proc.wait()


@contextlib.contextmanager
def deadline(seconds: float, what: str, file: Path | str | None, hint: str) -> Iterator[None]:
    """Stop the work inside after ``seconds`` with LIMIT006, for work done in this process
    (WeasyPrint lays out in Python): a timer signal raises the error in the main thread,
    and every ``finally`` on the way up runs (the layout processes are stopped, the
    temporary outputs removed).

    Only the main thread receives signals, so elsewhere (kobook used as a library from
    a thread) there is no limit.  An error the work swallowed on its way up (WeasyPrint
    catches ``BaseException`` around an SVG image) is raised again on the way out.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return
    error = KobookError(
        f"{what} took longer than {seconds:g} s and was stopped",
        code="LIMIT006",
        file=file,
        hint=hint,
    )
    fired: list[KobookError] = []

    def handler(signum: int, frame: object) -> None:
        fired.append(error)
        # Again later, should this one be swallowed: not sooner than the clean-up on the
        # way up takes (a layout process is given 5 s to end), or it would cut it short.
        signal.setitimer(signal.ITIMER_REAL, 30.0)
        raise error

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)
    if fired:
        raise fired[0]


class Interrupted(KeyboardInterrupt):
    """The build was stopped by a signal (Ctrl-C, ``kill``, a closed terminal, CI's timeout).

    A ``KeyboardInterrupt``, so that it unwinds like Ctrl-C: every ``finally``
    runs and the temporary outputs (``.book.pdf.*.tmp``, ``.html.*/``) are removed.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def stop_all() -> None:
    """Stop every program kobook runs now, and start no other (the build is ending)."""
    global _stopping
    with _lock:
        _stopping = True
        running = list(_running)
    for proc in running:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)


def stop_on_signals() -> None:
    """Make SIGINT, SIGTERM and SIGHUP end the build cleanly (call from the main thread).

    Without this SIGTERM kills Python on the spot: no ``finally`` runs and a
    killed build left a 970 MB ``.html.*`` folder behind.  The first signal
    stops the running programs and raises :class:`Interrupted` in the main
    thread; later ones are ignored so that the clean-up is not cut short.
    """

    def handler(signum: int, frame: object) -> None:
        global _stopped_by
        for other in SIGNALS:
            signal.signal(other, signal.SIG_IGN)
        _stopped_by = signum
        stop_all()
        raise Interrupted(signum)

    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may set handlers (kobook used as a library)
    for signum in SIGNALS:
        signal.signal(signum, handler)


def raise_if_stopped() -> None:
    """Raise :class:`Interrupted` again when a signal stopped the build.

    The handler's exception can be lost on its way up: WeasyPrint catches
    ``BaseException`` around drawing an SVG image (and logs it), fontTools turns any
    exception while it writes a cmap into a ``KeyError``.  A SIGTERM that lands there
    let the build finish and exit 0.  Every output is moved into place through this
    check (``write/shared/common.py``), and the command line checks it last, so such a
    build writes nothing and ends as interrupted.
    """
    if _stopped_by is not None:
        raise Interrupted(_stopped_by)


def accept_stop() -> None:
    """The command ends on the signal as it is meant to (``kobook preview`` stops on
    Ctrl-C and says "stopped"): the run is not reported as interrupted."""
    global _stopped_by
    _stopped_by = None


SIGNALS = [signal.SIGINT, signal.SIGTERM] + ([signal.SIGHUP] if sys.platform != "win32" else [])
