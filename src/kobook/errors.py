"""One error type for every user mistake, so the CLI can print it without a traceback.

A :class:`KobookError` carries where the problem is (file, line, column), a short
rule or error id, the message and, where we know it, what to do about it.  The
same shape is used for warnings (:class:`Diagnostic`), which a build collects and
prints instead of raising.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Location:
    """A place in a source file; ``line`` and ``col`` are 1-based, 0 means unknown."""

    file: Path | None = None
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        if self.file is None:
            return ""
        text = printable(str(self.file))
        if self.line:
            text += f":{self.line}"
            if self.col:
                text += f":{self.col}"
        return text


NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
LINE_BREAKS = {"\x85", "\u2028", "\u2029", "\x0b", "\x0c"}


def printable(text: str) -> str:
    """``text`` on one line, every control character and line break written as an escape
    (``\\n``): a file name or title from the book printed raw could start a line of a CI
    log with ``::error`` (a GitHub Actions command) or forge a message."""
    if text.isprintable():
        return text
    out = []
    for char in text:
        if char in NAMED_ESCAPES:
            out.append(NAMED_ESCAPES[char])
        elif char in LINE_BREAKS or (ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0):
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out)


@dataclass(frozen=True)
class Diagnostic:
    """A problem found in a book: printed as ``file:line:col: CODE message``."""

    code: str
    message: str
    location: Location = field(default_factory=Location)
    hint: str = ""
    severity: str = "error"  # "error" | "warning" | "info"

    def format(self) -> str:
        where = str(self.location)
        head = f"{where}: " if where else ""
        text = f"{head}{self.code} {printable(self.message)}"
        if self.hint:
            text += f"\n  → {printable(self.hint)}"
        return text


class KobookError(Exception):
    """A mistake in the book or its set-up (never a bug in kobook itself)."""

    def __init__(
        self,
        message: str,
        *,
        code: str = "E000",
        file: Path | str | None = None,
        line: int = 0,
        col: int = 0,
        hint: str = "",
        diagnostics: list[Diagnostic] | None = None,
    ) -> None:
        super().__init__(message)
        self.diagnostic = Diagnostic(
            code=code,
            message=message,
            location=Location(Path(file) if file is not None else None, line, col),
            hint=hint,
        )
        self.diagnostics = diagnostics or []

    @classmethod
    def summarising(
        cls, message: str, code: str, diagnostics: list[Diagnostic], hint: str = ""
    ) -> KobookError:
        """An error standing for several diagnostics: located at the first, listing them."""
        first = diagnostics[0].location if diagnostics else Location()
        return cls(
            message,
            code=code,
            file=first.file,
            line=first.line,
            hint=hint,
            diagnostics=diagnostics,
        )

    @property
    def code(self) -> str:
        return self.diagnostic.code

    @property
    def location(self) -> Location:
        return self.diagnostic.location

    def __str__(self) -> str:
        lines = [self.diagnostic.format()]
        lines += [d.format() for d in self.diagnostics]
        return "\n".join(lines)


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in ``text``."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col
