"""A text file's bytes ↔ the text kobook works on: line endings and the BOM.

Every stage parses text with ``\\n`` line ends: markdown-it reads a lone
``\\r`` as a line break while pandoc drops it (a CR-only chapter became one
``<h1>``), so line numbers and what is prose would disagree.  ``--fix`` must
still write the file back the way it came: each line keeps its own ending
(CRLF, CR or LF) and a UTF-8 byte order mark stays.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .reading import NEWLINE, read_bytes, read_text, unify_newlines

BOM = b"\xef\xbb\xbf"


def line_endings(text: str) -> tuple[str, ...]:
    """The ending of each line of ``text`` (``\\r\\n``, ``\\r`` or ``\\n``), in order."""
    return tuple(match.group(0) for match in NEWLINE.finditer(text))


def restore_newlines(text: str, endings: tuple[str, ...]) -> str:
    """LF-only ``text`` with the original ``endings`` put back.

    When a fix kept the number of lines, each line gets its own ending back
    (a file with mixed endings stays byte for byte the same outside the fix);
    otherwise every line gets the file's most common ending.
    """
    if not endings or set(endings) == {"\n"}:
        return text
    lines = text.split("\n")
    if len(lines) - 1 != len(endings):
        style = Counter(endings).most_common(1)[0][0]
        return style.join(lines)
    out = [lines[0]]
    for ending, line in zip(endings, lines[1:], strict=True):
        out += [ending, line]
    return "".join(out)


@dataclass(frozen=True)
class TextFile:
    """A Markdown file as read: its bytes, and its text with LF line ends."""

    path: Path
    data: bytes
    text: str
    bom: bool = False
    endings: tuple[str, ...] = ()

    def encode(self, text: str) -> bytes:
        """The bytes to write for LF-only ``text``: original line endings and BOM."""
        data = restore_newlines(text, self.endings).encode("utf-8")
        return BOM + data if self.bom else data


def read_text_file(path: Path) -> TextFile:
    """Read ``path`` once (UTF-8, see :func:`kobook.files.reading.read_text`)."""
    data = read_bytes(path)  # at most limits.MAX_FILE_BYTES
    raw = read_text(path, data)
    return TextFile(path, data, unify_newlines(raw), data.startswith(BOM), line_endings(raw))
