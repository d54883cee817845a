"""``kobook check`` on a distill or mdBook book: LEAK001 only for what its dialect leaves.

Such a book's files are full of their own syntax (``{% include figure.liquid
%}``, ``<d-cite>``, ``{{#include}}``), which the dialect stage converts at
every build; reporting each as LEAK001 would bury the real leaks.  So the book
is loaded and converted as the build does it, every leak still in a converted
chapter is traced back to the file and line it was written at (the chapters'
line origins), and a LEAK001 found in a source file is kept only when a leak
of the same kind is left at its place.  A file the dialect does not read (one
named on the command line, outside the book) keeps all its findings.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from ..dialect import convert_book
from ..load import load_book
from ..model import Config
from ..source import parse_source
from ..transform.leaks import source_leaks
from .model import Finding

LeakKey = tuple[Path, str, str]  # file, kind, name


@dataclass
class LeftLeaks:
    """Leaks the dialect leaves, by file, kind and name: the lines they came from."""

    files: set[Path] = field(default_factory=set)  # every file the converted book reads
    lines: dict[LeakKey, list[int]] = field(default_factory=lambda: defaultdict(list))


def leaks_left(root: Path, config: Config) -> LeftLeaks | None:
    """What LEAK001 may still report in a dialect book; None for a pandoc book (all of it)."""
    if str(config.get("dialect") or "pandoc") == "pandoc":
        return None
    book = load_book(root)
    convert_book(book)
    left = LeftLeaks()
    for chapter in book.chapters:
        left.files.update(path.resolve() for path, _line in chapter.origins)
        left.files.add(chapter.path.resolve())
        doc = parse_source(chapter.text, chapter.path)
        for found in source_leaks(doc):
            if found.escaped:
                continue
            where = chapter.where(doc.position(found.start)[0])
            if where.file is not None:
                left.lines[(where.file.resolve(), found.kind, found.name)].append(where.line)
    return left


def kept_leaks(
    findings: list[Finding], path: Path, text: str, left: LeftLeaks | None
) -> list[Finding]:
    """``findings`` without the LEAK001 ones the dialect converts (see the module docstring).

    Each leak left is matched to the source occurrence of its kind on the
    same line, else to the nearest one not yet matched (a rewrite that changes
    the number of lines gives its lines the first line's origin).
    """
    file = path.resolve()
    if left is None or file not in left.files or not any(f.rule == "LEAK001" for f in findings):
        return findings
    doc = parse_source(text, path)
    groups: dict[LeakKey, list[tuple[int, int]]] = defaultdict(list)  # (line, offset)
    for found in source_leaks(doc):
        if not found.escaped:
            groups[(file, found.kind, found.name)].append(
                (doc.position(found.start)[0], found.start)
            )
    kept: set[int] = set()
    for key, places in groups.items():
        wanted = list(left.lines.get(key, []))
        free = list(places)
        for line in list(wanted):
            same = next((p for p in free if p[0] == line), None)
            if same is not None:
                kept.add(same[1])
                free.remove(same)
                wanted.remove(line)
        for line in wanted:
            if not free:
                break
            nearest = min(free, key=lambda p: (abs(p[0] - line), p[0]))
            kept.add(nearest[1])
            free.remove(nearest)
    return [f for f in findings if f.rule != "LEAK001" or f.start in kept]
