"""Reading a book's files: bytes within the size limit, UTF-8 text with an error that
fits the bytes, YAML with its line numbers, a chapter file split from its front matter.

The toolkit every stage and command reads through, below the model: it knows
files, not books.
"""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import limits
from ..errors import KobookError
from .encoding import decode_utf8
from .frontmatter import split_front_matter, unfence
from .yamlread import parse_yaml

NEWLINE = re.compile(r"\r\n|\r|\n")


def unify_newlines(text: str) -> str:
    """``text`` with every CRLF and lone CR turned into LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read_bytes(path: Path) -> bytes:
    """A book file's bytes, refused (LIMIT003) past ``limits.MAX_FILE_BYTES``.

    The size is checked with ``stat`` before anything is read, and the read
    itself stops one byte past the limit, so neither a 50 MB chapter nor a
    file that never ends (a FIFO, a device) is read into memory or waited for.
    """
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise KobookError(
            "not a regular file",
            code="LIMIT003",
            file=path,
            hint="chapters, metadata and glossaries must be ordinary files",
        )
    most = limits.MAX_FILE_BYTES
    data = b""
    if info.st_size <= most:
        with path.open("rb") as handle:
            data = handle.read(most + 1)  # it may have grown since
    if info.st_size > most or len(data) > most:
        size = max(info.st_size, len(data))
        raise KobookError(
            f"file is too large: {size / 2**20:.1f} MiB (at most {most / 2**20:g} MiB per file)",
            code="LIMIT003",
            file=path,
            hint="split it into several chapter files (list them under 'chapters:')",
        )
    return data


def read_text(path: Path, data: bytes | None = None) -> str:
    """Read a UTF-8 text file; other bytes get an error that fits them (``encoding.py``).

    ``data``: the file's bytes, when the caller has read them already (``--fix``
    keeps them to see whether the file changed before it writes).
    """
    return decode_utf8(path, read_bytes(path) if data is None else data)


def read_yaml(path: Path, what: str, code: str) -> tuple[Any, str]:
    """Parse a YAML file (UTF-8 checked); a syntax error names the file, line and column.

    pandoc's ``---``/``...`` fences around the YAML are allowed (line numbers kept).
    """
    text = unfence(read_text(path), path)
    return parse_yaml(text, path, what, code), text


@dataclass(frozen=True)
class Source:
    """One chapter file: its front matter, and the body after it."""

    path: Path
    text: str
    meta: dict[str, Any]
    body: str
    body_line: int  # 0-based line of the file where the body starts


def read_source(path: Path) -> Source:
    # LF line ends for every stage: a CR-only file is not one long line (textfile.py).
    text = unify_newlines(read_text(path))
    front = split_front_matter(text, path)
    return Source(path, text, front.meta, front.body, front.body_line)
