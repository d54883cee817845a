"""The Typst compiler's process: run by path (``python -I worker.py MEMORY``), not as a module.

Typst is a language: a template loop or a string multiplied by 10⁹ runs as
long and takes as much memory as it says, and the wheel has no limit of its
own.  So the compiler runs here, in a process whose address space is capped
(``RLIMIT_AS``) and which :mod:`.compiler` kills when it runs out of time.  It
imports nothing of kobook (run by path, the package's ``__init__`` files are
not imported either) and keeps its compiler between jobs, so that a rebuild
keeps Typst's memoized layout.

Jobs and answers are pickled over standard input and output, one per line of
length-prefixed bytes: ``("compile", main, root, font_paths, timestamp)`` →
``("pdf", bytes, [warnings])`` or ``("error", text)``; ``("eval", root,
[code…])`` → ``("failed", [index…])``.
"""

from __future__ import annotations

import os
import pickle
import resource
import struct
import sys
from typing import Any, BinaryIO

HEADER = struct.Struct("!Q")


def read_message(stream: BinaryIO) -> Any:
    """The next pickled message (None at the end of the stream)."""
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    return pickle.loads(stream.read(size))


def write_message(stream: BinaryIO, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEADER.pack(len(data)) + data)
    stream.flush()


def text_of(problem: Any) -> str:
    """What Typst says of an error or warning, with its place."""
    return str(getattr(problem, "diagnostic", "") or problem)


class Worker:
    def __init__(self) -> None:
        self.key: tuple[Any, ...] | None = None
        self.compiler: Any = None

    def compile(self, main: str, root: str, fonts: list[str], timestamp: Any) -> Any:
        import typst

        key = (main, root, tuple(fonts))
        if self.key != key:
            self.compiler = None  # one kept compiler: drop the last one's memory first
            self.compiler = typst.Compiler(input=main, root=root, font_paths=fonts)
            self.key = key
        try:
            pdf, warnings = self.compiler.compile_with_warnings(timestamp=timestamp)
        except typst.TypstError as error:
            return ("error", text_of(error))
        except MemoryError:
            raise
        except BaseException as error:  # a panic in the compiler (pyo3's PanicException)
            if isinstance(error, (KeyboardInterrupt, SystemExit)):
                raise
            self.key = self.compiler = None  # not kept: its state is unknown
            return ("error", f"the Typst compiler failed: {error}")
        return ("pdf", pdf, [text_of(w) for w in warnings])

    def evaluate(self, root: str, codes: list[str]) -> Any:
        """The indexes of the markup pieces Typst's evaluator refuses (pandoc's formulas)."""
        import pathlib

        import typst

        empty = pathlib.Path(root) / "empty.typ"
        empty.write_text("", encoding="utf-8")
        compiler = typst.Compiler(input=str(empty), root=root)
        failed = []
        for index, code in enumerate(codes):
            try:
                compiler.eval(f"[{code}]")
            except Exception:  # typst.TypstError and what its evaluator raises
                failed.append(index)
        return ("failed", failed)


def main() -> None:
    memory = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    worker = Worker()
    # Answers go out on a copy of standard output; what the compiler itself might print
    # goes to standard error and cannot break a message.  The build gives standard error
    # a file of its own (:mod:`.compiler`): a compiler that runs out of memory prints
    # Rust's message, and its backtrace where ``RUST_BACKTRACE`` is set, before it aborts.
    stdin, stdout = sys.stdin.buffer, os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    while (job := read_message(stdin)) is not None:
        try:
            run = worker.compile if job[0] == "compile" else worker.evaluate
            answer = run(*job[1:])
        except MemoryError:
            worker = Worker()
            answer = ("memory",)
        write_message(stdout, answer)


if __name__ == "__main__":
    main()
