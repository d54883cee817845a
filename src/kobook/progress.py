"""Progress: a rich bar on a terminal, plain lines in CI and pipes, silence in tests."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol, TextIO

from .errors import printable


class Progress(Protocol):
    def step(self, message: str) -> None: ...


class Silent:
    def step(self, message: str) -> None:
        return None


class Lines:
    """One line per step with elapsed seconds (good for CI logs)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.start = time.perf_counter()

    def step(self, message: str) -> None:
        elapsed = time.perf_counter() - self.start
        print(f"[{elapsed:6.1f}s] {printable(message)}", file=self.stream, flush=True)


class Spinner:
    """A rich status line that is replaced as the build moves on."""

    def __init__(self, status: object) -> None:
        self.status = status
        self.start = time.perf_counter()

    def step(self, message: str) -> None:
        from rich.markup import escape

        text = escape(printable(message))  # a chapter's name is no markup
        self.status.update(f"[bold]kobook[/] {text}")  # type: ignore[attr-defined]


@contextmanager
def progress_for_terminal(quiet: bool = False) -> Iterator[Progress]:
    """Rich when stderr is a terminal (and not CI), plain lines otherwise."""
    import os

    if quiet:
        yield Silent()
        return
    if sys.stderr.isatty() and not os.environ.get("CI"):
        from rich.console import Console

        console = Console(stderr=True)
        with console.status("kobook") as status:
            yield Spinner(status)
        return
    yield Lines()
