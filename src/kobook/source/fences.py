"""Fenced code blocks as CommonMark writes them (mdBook, MkDocs): where, and what their
info string says.

mdBook books put code blocks inside lists and block quotes too, so a fence
may be indented or follow ``>`` markers; its closing fence uses the same
character, at least as many times, and nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

OPEN = re.compile(r"^(?P<prefix>[ \t]*(?:>[ \t]?)*[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


@dataclass(frozen=True)
class Fence:
    """An opening fence line: its prefix (indentation, ``>``), marker and info string."""

    prefix: str
    marker: str
    info: str

    def closes(self, line: str) -> bool:
        stripped = line.strip().lstrip(">").strip()
        return (
            stripped.startswith(self.marker[0] * len(self.marker))
            and not stripped.strip(self.marker[0]).strip()
        )


def opening(line: str) -> Fence | None:
    match = OPEN.match(line)
    if match is None:
        return None
    marker, info = match.group("fence"), match.group("info")
    if marker[0] == "`" and "`" in info and not info.lstrip().startswith("{"):
        return None  # a code span, not a fence
    return Fence(match.group("prefix"), marker, info.strip())


def as_commonmark(text: str) -> str:
    """``text`` with each backtick fence that pandoc reads but CommonMark does not made one
    CommonMark reads: the same length, so every offset stays.

    pandoc reads ```` ```{.rust caption="`let...else`로"} ```` as a code block with
    attributes; CommonMark refuses a backtick in a backtick fence's info string and
    reads a paragraph, its code as prose, and then takes the closing fence for an
    opening one that runs to the end of the file.  The backticks inside the braces
    become ``'``.
    """
    lines = text.split("\n")
    fence: Fence | None = None
    changed = False
    for index, line in enumerate(lines):
        if fence is None:
            fence = opening(line)
            match = OPEN.match(line) if fence is not None else None
            if match is not None and fence is not None and "`" in fence.info:
                start = match.start("info")
                lines[index] = line[:start] + line[start:].replace("`", "'")
                changed = True
        elif fence.closes(line):
            fence = None
    return "\n".join(lines) if changed else text


def code_lines(lines: list[str]) -> list[bool]:
    """For each line, whether it belongs to a fenced code block (its fences included)."""
    inside: list[bool] = []
    fence: Fence | None = None
    for line in lines:
        if fence is None:
            fence = opening(line)
            inside.append(fence is not None)
        else:
            inside.append(True)
            if fence.closes(line):
                fence = None
    return inside


def language(info: str) -> str:
    """The language of an mdBook info string: ``rust,ignore,does_not_compile`` → ``rust``."""
    if info.startswith("{"):
        classes = re.findall(r"(?:^|\s)\.([\w+-]+)", info.strip("{}"))
        return classes[0] if classes else ""
    words = re.split(r"[,\s]+", info.strip())
    return words[0] if words else ""


def fence_line(fence: Fence, lang: str, attrs: dict[str, str]) -> str:
    """The opening fence pandoc reads: ``` ```rust ``` or ``` ```{.rust filename="…"} ```."""
    if not attrs:
        return f"{fence.prefix}{fence.marker}{lang}"
    values = " ".join(f'{key}="{quote_attr(value)}"' for key, value in attrs.items())
    if fence.info.startswith("{"):  # pandoc attributes already: add ours
        return f"{fence.prefix}{fence.marker}{{{fence.info.strip()[1:-1].strip()} {values}}}"
    head = f".{lang} " if lang else ""
    return f"{fence.prefix}{fence.marker}{{{head}{values}}}"


def quote_attr(value: str) -> str:
    """A value inside ``"…"`` of a pandoc attribute (pandoc decodes ``\\"`` and entities)."""
    return " ".join(value.split()).replace("\\", "\\\\").replace('"', '\\"').replace("&", "&amp;")
