"""YAML front matter (``---`` … ``---`` or ``...``) at the top of a Markdown file.

Jekyll posts, Quarto and pandoc documents open with it.  It is read before
anything else looks at the file, so its lines are never printed and never
split into chapters (``# Add a table of contents`` is a YAML comment there,
not a heading).  The same fences are allowed around ``metadata.yaml``, as
pandoc's ``--metadata-file`` allows them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import KobookError
from .yamlread import parse_yaml

OPEN = re.compile(r"^---[ \t]*$")
CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$")


@dataclass(frozen=True)
class FrontMatter:
    """What a file's front matter says, and where the body starts."""

    meta: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    body_line: int = 0  # 0-based line of the file where ``body`` starts


def fence_end(lines: list[str]) -> int | None:
    """Index of the closing fence when ``lines`` open with a front matter fence."""
    if not lines or not OPEN.match(lines[0]):
        return None
    if len(lines) < 2 or not lines[1].strip():
        return None  # "---" then a blank line: a thematic break, as pandoc reads it
    for index in range(1, len(lines)):
        if CLOSE.match(lines[index]):
            return index
    return None


def split_front_matter(text: str, path: Path | None) -> FrontMatter:
    """Separate front matter from the body; a file without it is all body.

    A fenced block that is YAML but not a mapping (a ``---`` rule between two
    paragraphs) is not front matter.  Broken YAML in one is an error with the
    file and line, since guessing would print the metadata as text.
    """
    lines = text.split("\n")
    end = fence_end(lines)
    if end is None:
        return FrontMatter({}, text, 0)
    inner = "\n".join(lines[1:end])
    try:
        data = parse_yaml(inner, path, "front matter", "FM001", line_offset=1)
    except KobookError:
        if not re.search(r"^[\w-]+\s*:", inner, re.M):
            return FrontMatter({}, text, 0)  # not YAML at all: leave it to Markdown
        raise
    if not isinstance(data, dict):
        return FrontMatter({}, text, 0)
    return FrontMatter(data, "\n".join(lines[end + 1 :]), end + 1)


def unfence(text: str, path: Path | None) -> str:
    """``metadata.yaml`` without pandoc's ``---``/``...`` fences, line numbers kept.

    Text after the closing fence would be silently ignored, so it is an error.
    """
    lines = text.split("\n")
    if not lines or not OPEN.match(lines[0]):
        return text
    for index in range(1, len(lines)):
        if CLOSE.match(lines[index]):
            rest = [n for n, line in enumerate(lines[index + 1 :], index + 2) if line.strip()]
            if rest:
                raise KobookError(
                    "metadata file has text after its closing '---'",
                    code="CFG001",
                    file=path,
                    line=rest[0],
                    hint="a metadata file holds one YAML mapping: remove the text "
                    "or the fence line above it",
                )
            return "\n".join(["", *lines[1:index], "", *lines[index + 1 :]])
    return "\n".join(["", *lines[1:]])  # opened but never closed: the rest is YAML
