"""ATX headings of a Markdown text found line by line, without parsing it: how ``load``
splits a file into chapters, mdBook's ``SUMMARY.md`` reads a chapter's title and
``import`` shifts heading levels, all with the same idea of a fence and a comment."""

from __future__ import annotations

import re

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*(?:#+[ \t]*)?$")


def heading_levels(text: str) -> list[tuple[int, int, str]]:
    """``(line_index, level, raw_title)`` of ATX headings outside fenced code and comments.

    A ``# note`` line inside an HTML comment that opens a line (the Rust book's
    ``<!-- manual-regeneration … -->`` blocks) is no heading to pandoc either.
    """
    found = []
    fence: str | None = None
    comment = False
    for index, line in enumerate(text.split("\n")):
        if comment:
            comment = "-->" not in line
            continue
        match = FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
            elif marker.startswith(fence) and not line.strip()[len(marker) :].strip():
                fence = None
            continue
        if fence is not None:
            continue
        if line.lstrip(" ").startswith("<!--") and "-->" not in line.split("<!--", 1)[1]:
            comment = True
            continue
        heading = ATX.match(line)
        if heading:
            found.append((index, len(heading.group(1)), heading.group(2)))
    return found
