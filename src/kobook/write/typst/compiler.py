"""The Typst compiler, in a process of its own with a time and a memory limit, kept warm.

Typst is a programming language: a book's Typst (its template, or anything that
slipped into the source) can loop for minutes or allocate gigabytes, and the
``typst`` wheel bounds neither.  So the compiler runs in :mod:`.worker`, a child
process whose address space is capped at :data:`~kobook.limits.TYPST_MEMORY` and
which is killed after :data:`~kobook.limits.TYPST_TIMEOUT` seconds: either is a
LIMIT error, never a hang.

The process is kept between builds of one process, with its compiler: a
``typst.Compiler`` keeps the fonts it loaded, the files it read and, through
Typst's memoization, the layout of what did not change (compiling the playbook
again after a one-paragraph edit costs a fraction of a first compile).
``kobook preview --pdf`` typesets in a process kept warm
(:mod:`kobook.preview.typesetter`), which keeps this one.  The PDF does not
depend on it: the same source gives the same bytes either way
(tests/e2e/test_typst.py).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

from ... import limits, tools
from ...errors import KobookError
from . import worker as protocol

_LOCK = threading.Lock()
_KEPT: list[subprocess.Popen[bytes]] = []
_PRINTED: dict[int, Any] = {}  # a worker's pid → the file its standard error goes to


class TypstFailed(Exception):
    """The compiler refused the document; ``text`` is its diagnostic."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _process() -> subprocess.Popen[bytes]:
    """The kept worker, started when there is none (or it died).  What it prints goes to a
    file of its own (:data:`_PRINTED`), read only when it dies: never to the terminal."""
    if _KEPT and _KEPT[0].poll() is None:
        return _KEPT[0]
    _KEPT.clear()
    printed = tempfile.TemporaryFile()  # noqa: SIM115 (kept with the worker, closed in _end)
    proc = tools.start(
        [sys.executable, "-I", protocol.__file__, str(limits.TYPST_MEMORY)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=printed,
    )
    _PRINTED[proc.pid] = printed
    _KEPT.append(proc)
    return proc


def _last_words(proc: subprocess.Popen[bytes]) -> str:
    """The end of what the worker printed (Rust's message when the compiler aborted)."""
    printed = _PRINTED.get(proc.pid)
    if printed is None:
        return ""
    printed.seek(0, os.SEEK_END)
    printed.seek(max(0, printed.tell() - 4000))
    return printed.read().decode("utf-8", "replace")


def _ran_out_of_memory(proc: subprocess.Popen[bytes], reply: Any) -> bool:
    """Did the worker stop for want of memory?  Its own MemoryError answers so; Rust's
    allocator aborts the process after saying ``memory allocation of N bytes failed``,
    and the kernel's OOM killer sends SIGKILL."""
    if reply == ("memory",):
        return True
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)
    if proc.returncode in (-signal.SIGABRT, -signal.SIGKILL):
        return True
    return "memory allocation of" in _last_words(proc)


def _ask(job: tuple[Any, ...], what: str, file: Path | str | None) -> Any:
    """Send ``job`` to the worker and wait for its answer, within the time limit."""
    with _LOCK:
        proc = _process()
        answer: list[Any] = []

        def talk() -> None:
            assert proc.stdin is not None and proc.stdout is not None
            with contextlib.suppress(OSError, EOFError, ValueError):
                protocol.write_message(proc.stdin, job)  # type: ignore[arg-type]
                answer.append(protocol.read_message(proc.stdout))  # type: ignore[arg-type]

        thread = threading.Thread(target=talk, daemon=True)
        thread.start()
        thread.join(limits.TYPST_TIMEOUT)
        if thread.is_alive():
            _end(proc)
            thread.join()
            raise KobookError(
                f"Typst ({what}) took longer than {limits.TYPST_TIMEOUT:g} s and was stopped",
                code="LIMIT006",
                file=file,
                hint="a loop or a very long computation in Typst code: look at the book's "
                "Typst template (templates/typst/) and what this chapter gives Typst",
            )
        reply = answer[0] if answer else None
        if reply is None and not _ran_out_of_memory(proc, reply):
            words = " ".join(_last_words(proc).split())[-300:]
            _end(proc)
            raise KobookError(
                f"the Typst compiler stopped ({what}) with exit status {proc.returncode}"
                + (f": {words}" if words else ""),
                code="TYP001",
                file=file,
                hint="build with --engine weasyprint meanwhile, and report the book that "
                "stops it to kobook",
            )
        if reply is None or reply == ("memory",):
            _end(proc)
            raise KobookError(
                f"Typst ({what}) needed more than {limits.TYPST_MEMORY / 2**30:g} GiB "
                "of memory and was stopped",
                code="LIMIT007",
                file=file,
                hint="a huge value or a very deep document in Typst code: look at the book's "
                "Typst template (templates/typst/) and what this chapter gives Typst",
            )
        return reply


def _end(proc: subprocess.Popen[bytes]) -> None:
    tools.stop(proc)
    tools.forget(proc)
    printed = _PRINTED.pop(proc.pid, None)
    if printed is not None:
        printed.close()
    if _KEPT and _KEPT[0] is proc:
        _KEPT.clear()


def compile_pdf(
    main: Path, root: Path, font_paths: list[str], timestamp: datetime | int | None
) -> tuple[bytes, list[str]]:
    """``main``'s PDF and Typst's warnings (raises :class:`TypstFailed`, or a LIMIT error)."""
    reply = _ask(("compile", str(main), str(root), list(font_paths), timestamp), "the book", main)
    if reply[0] == "error":
        raise TypstFailed(reply[1])
    return reply[1], list(reply[2])


def refused(root: Path, codes: list[str]) -> set[int]:
    """The indexes of ``codes`` (Typst markup) that Typst's evaluator refuses."""
    if not codes:
        return set()
    return set(_ask(("eval", str(root), list(codes)), "checking formulas", None)[1])


def forget() -> None:
    """End the kept worker (and what its compiler holds)."""
    with _LOCK:
        for proc in list(_KEPT):
            _end(proc)


# At exit too: a kept worker left to end by itself once this process has gone is waited
# for by no one, and what it cost (the whole compile, the route's largest process) would
# be counted to no one, not to ``kobook build`` nor to what measures it
# (``scripts/bench.py``'s wait4, a CI job's limits).  Without a worker it does nothing.
atexit.register(forget)
