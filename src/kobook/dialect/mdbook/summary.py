"""``SUMMARY.md`` → a :class:`~kobook.dialect.Layout`: mdBook's table of contents is the book's.

mdBook's grammar (https://rust-lang.github.io/mdBook/format/summary.html):

- an optional ``# Title`` first: the summary's title, not a part;
- *prefix* chapters, plain links before the first list item → unnumbered
  front matter (``kind="preface"``: title page, foreword);
- ``# Part`` heading lines (any level after the title) → the part the next
  chapter opens;
- top-level list items → chapters; *nested* list items are sections of
  their top-level ancestor: their files join that chapter, headings shifted
  down so a nested file's top heading sits one level per depth below ``#``
  (the Rust book already writes its sections with ``##``: they stay);
- *suffix* chapters, plain links after the list → appendices;
- ``[Title]()`` is a draft: skipped, with an info line (DIA203);
- ``---`` separators are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from ...boundary import inside
from ...errors import Diagnostic, Location
from .. import Layout, Unit, top_heading_level

HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
LIST_ITEM = re.compile(r"^(?P<indent>[ \t]*)(?:[-*+]|\d+\.)[ \t]+")
SEPARATOR = re.compile(r"^ {0,3}(?:-{3,}|\*{3,}|_{3,})[ \t]*$")
TAB = 4  # columns a tab stands for in list indentation


@dataclass
class Entry:
    """One link line of ``SUMMARY.md``."""

    title: str
    target: str  # "" for a draft
    line: int
    depth: int  # -1: a plain link (prefix or suffix chapter); 0: top-level item; 1+: nested


SUMMARY_LINK = re.compile(r"^\s*(?:[-*+]|\d+\.)?\s*\[(?P<title>[^\]]*)\]\((?P<target>[^)]*)\)")


def summary_link(line: str) -> tuple[str, str] | None:
    """``(title, target)`` of an mdBook ``SUMMARY.md`` link line (``- [Title](a.md)``), or None.

    The target is unquoted, without its ``#fragment``; it is empty for a draft
    chapter (``[Title]()``).  ``load/discover.py`` finds an mdBook's chapter files with it.
    """
    match = SUMMARY_LINK.match(line)
    if not match:
        return None
    return match.group("title"), unquote(match.group("target").split("#", 1)[0].strip())


def summary_entries(text: str) -> tuple[str, list[tuple[str, Entry | str]]]:
    """The summary's title and its items in order: ``("part", title)`` or ``("link", Entry)``."""
    title = ""
    items: list[tuple[str, Entry | str]] = []
    indents: list[int] = []  # indentation of the open list levels
    seen_anything = False
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip() or SEPARATOR.match(line):
            continue
        heading = HEADING.match(line)
        if heading:
            if not seen_anything and not title and len(heading.group(1)) == 1:
                title = heading.group(2).strip()
            else:
                items.append(("part", heading.group(2).strip()))
            seen_anything = True
            continue
        link = summary_link(line)
        if link is None:
            continue
        seen_anything = True
        item = LIST_ITEM.match(line)
        if item is None:
            depth = -1
            indents = []
        else:
            indent = len(item.group("indent").expandtabs(TAB))
            while indents and indents[-1] > indent:
                indents.pop()
            if not indents or indents[-1] < indent:
                indents.append(indent)
            depth = len(indents) - 1
        items.append(("link", Entry(link[0].strip(), link[1], number, depth)))
    return title, items


def summary_layout(root: Path, summary: Path) -> Layout:
    """The layout ``summary`` gives: units in order, drafts and missing files noted."""
    text = summary.read_text(encoding="utf-8", errors="replace")
    _title, items = summary_entries(text)
    shown = summary.relative_to(root) if summary.is_relative_to(root) else summary
    units: list[Unit] = []
    notes: list[Diagnostic] = []
    part = ""
    parts = sections = 0
    in_list = after_list = False
    current: Unit | None = None  # the chapter nested items join
    for _kind, item in items:
        if isinstance(item, str):
            part = item
            parts += 1
            continue
        where = Location(summary, item.line)
        if item.depth >= 0:
            in_list = True
        elif in_list:
            after_list = True
        if not item.target:
            notes.append(
                Diagnostic(
                    "DIA203",
                    f"draft chapter '{item.title}' skipped (it has no file yet)",
                    where,
                    severity="info",
                )
            )
            if item.depth == 0:  # its sections still form a chapter under its title
                current = Unit(files=[], title=item.title, part=part)
                part = ""
                units.append(current)
            continue
        path = inside(
            summary.parent / item.target,
            root,
            what="chapter",
            file=summary,
            line=item.line,
            written=item.target,
        )
        if not path.is_file():
            notes.append(
                Diagnostic(
                    "DIA202",
                    f"{shown} links a file that does not exist: {item.target}",
                    where,
                    "create the file or fix the link (mdBook would create an empty one)",
                    "warning",
                )
            )
            continue
        if item.depth > 0 and current is not None:
            shift = max(0, item.depth + 1 - top_heading_level(path))
            current.files.append((path, shift))
            current.section_titles.setdefault(path, item.title)
            sections += 1
            continue
        kind_of = "chapter" if item.depth >= 0 else "appendix" if after_list else "preface"
        current = Unit(files=[(path, 0)], kind=kind_of, title=item.title, part=part)
        part = ""
        units.append(current)
    units = kept_units(units)
    chapters = len(units)
    reason = f"{shown}: {chapters} chapters, {parts} parts, {sections} sections"
    return Layout(
        units=units, reason=reason, notes=notes, table=shown.as_posix(), numbers_in_page=False
    )


def kept_units(units: list[Unit]) -> list[Unit]:
    """The units with files; a dropped draft's part passes to the next chapter."""
    kept: list[Unit] = []
    part = ""
    for unit in units:
        if not unit.files:
            part = part or unit.part
            continue
        if part and not unit.part:
            unit.part = part
        part = ""
        kept.append(unit)
    return kept
