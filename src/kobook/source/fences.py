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
