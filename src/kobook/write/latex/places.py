"""Where things are in the book, for messages: its LaTeX template, a metadata key (in
metadata.yaml or a one-file book's front matter), a line of its header-includes."""

from __future__ import annotations

from pathlib import Path

from ...boundary import inside
from ...errors import Location
from ...model import Book
from ...model.config import key_line
from ..shared.templates import BUILTIN

# This writer's folder of templates: under kobook's own templates/, and the book's.
TEMPLATES = "latex"
OWN_TEMPLATE = BUILTIN / TEMPLATES / "book.latex"  # kobook's, when the book has none


def meta_location(book: Book, key: str) -> Location:
    """Where ``key`` is written: metadata.yaml, or a one-file book's front matter."""
    files = [book.config.path] if book.config.path else []
    files += [c.path for c in book.chapters if c.path not in files]
    for path in files:
        if path is None or not path.is_file():
            continue
        line = key_line(path.read_text(encoding="utf-8", errors="replace"), key)
        if line:
            return Location(path, line)
    return Location(book.config.path)


def template_path(book: Book) -> Path:
    """The book's ``templates/latex/book.latex`` (inside the book: SEC001), else kobook's."""
    own = book.root / "templates" / TEMPLATES / "book.latex"
    if own.is_file():
        return inside(own, book.root, what="LaTeX template", file=own)
    return OWN_TEMPLATE


def includes_location(book: Book, needle: str) -> Location:
    """The line of ``header-includes`` that holds ``needle`` (else the key's line)."""
    where = meta_location(book, "header-includes")
    if where.file is None or not needle:
        return where
    source = where.file.read_text(encoding="utf-8", errors="replace")
    found = source.find(needle, max(0, len("\n".join(source.splitlines()[: where.line - 1]))))
    if found < 0:
        return where
    return Location(where.file, source.count("\n", 0, found) + 1)
