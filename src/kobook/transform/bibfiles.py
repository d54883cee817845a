"""Bibliography and citation-style files, checked before pandoc's citeproc reads them.

pandoc reads a ``.bib`` file whole and expands it without bounds: a 1 MB title kept
the PDF busy for 15 minutes, a ``crossref`` loop or nested ``@string`` macros took
4.6 GB before pandoc's heap limit stopped it (naming no file), and a CSL style
with an external entity failed with an XML exception naming none.  So every file
is read here first, in one linear pass: its size
(:data:`~kobook.limits.MAX_BIBLIOGRAPHY_BYTES`), each field's expanded size with its
``@string`` macros (:data:`~kobook.limits.MAX_BIB_FIELD`), macro cycles and
``crossref`` cycles; a style must be well-formed XML without a document type
declaration.  Each problem is LIMIT011 or CITE003 at the file and line.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .. import limits
from ..errors import KobookError

ENTRY = re.compile(r"@\s*(\w+)\s*([{(])")
FIELD_NAME = re.compile(r"\s*([\w:.+-]+)\s*=\s*")
PIECE = re.compile(r"\s*(\{|\"|\d+|[A-Za-z_][\w:.+-]*)")
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
STANDARD_MONTHS = dict.fromkeys(MONTHS, 3)  # BibTeX's own macros


@dataclass
class Field:
    """One ``name = value`` of an entry: its pieces (literal lengths and macro names)."""

    name: str
    line: int
    literal: int  # characters of the braced, quoted and numeric pieces
    macros: list[str]
    text: str  # the value's first piece as written (a crossref's key)


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def closing(text: str, start: int, opener: str) -> int:
    """The index just past the delimiter that closes the one at ``start``."""
    if opener == '"':
        depth, index = 0, start + 1
        while index < len(text):
            char = text[index]
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
            elif char == '"' and depth <= 0:
                return index + 1
            index += 1
        return len(text)
    close = "}" if opener == "{" else ")"
    depth, index = 0, start
    while index < len(text):
        char = text[index]
        if char == opener or (opener == "(" and char == "{"):
            depth += 1
        elif char == close or (opener == "(" and char == "}"):
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return len(text)


def fields(text: str, start: int, end: int) -> Iterator[Field]:
    """The fields of the entry body ``text[start:end]`` (after its key, for entries)."""
    index = start
    while index < end:
        named = FIELD_NAME.match(text, index)
        if named is None:
            comma = text.find(",", index, end)
            if comma < 0:
                return
            index = comma + 1
            continue
        field = Field(named.group(1).lower(), line_of(text, named.start(1)), 0, [], "")
        index = named.end()
        while index < end:
            piece = PIECE.match(text, index)
            if piece is None:
                break
            token = piece.group(1)
            if token in ("{", '"'):
                stop = closing(text, piece.start(1), token)
                field.literal += stop - piece.start(1) - 2
                field.text = field.text or text[piece.start(1) + 1 : stop - 1]
                index = stop
            else:
                if token.isdigit():
                    field.literal += len(token)
                else:
                    field.macros.append(token.lower())
                field.text = field.text or token
                index = piece.end()
            hash_sign = re.compile(r"\s*#").match(text, index)
            if hash_sign is None:
                break
            index = hash_sign.end()
        yield field
        comma = text.find(",", index, end)
        index = end if comma < 0 else comma + 1


def fail(path: Path, line: int, message: str, hint: str) -> KobookError:
    return KobookError(message, code="LIMIT011", file=path, line=line, hint=hint)


@functools.cache
def checked_bibliography(path: Path, size: int, mtime: float) -> None:
    """Raise LIMIT011 (or LIMIT003) for a BibTeX file pandoc would expand without bound."""
    if size > limits.MAX_BIBLIOGRAPHY_BYTES:
        raise KobookError(
            f"bibliography file is {size:,} bytes, more than the "
            f"{limits.MAX_BIBLIOGRAPHY_BYTES // 2**20} MiB limit",
            code="LIMIT003",
            file=path,
            hint="keep only the entries the book cites, or split the file",
        )
    if path.suffix.lower() not in (".bib", ".bibtex"):
        return
    text = path.read_text(encoding="utf-8", errors="replace")
    strings: dict[str, Field] = {}
    crossrefs: dict[str, tuple[str, int]] = {}
    entries: list[Field] = []
    for match in ENTRY.finditer(text):
        kind = match.group(1).lower()
        end = closing(text, match.start(2), match.group(2))
        if kind == "string":
            for field in fields(text, match.end(), end - 1):
                strings[field.name] = field
        elif kind not in ("comment", "preamble"):
            comma = text.find(",", match.end(), end)
            key = text[match.end() : comma].strip() if comma > 0 else ""
            for field in fields(text, comma + 1 if comma > 0 else end, end - 1):
                entries.append(field)
                if field.name == "crossref" and key:
                    crossrefs[key.lower()] = (field.text.strip().lower(), field.line)
    sizes: dict[str, int] = dict(STANDARD_MONTHS)

    def expanded(name: str, stack: tuple[str, ...]) -> int:
        if name in sizes:
            return sizes[name]
        macro = strings.get(name)
        if macro is None:
            return 0  # pandoc leaves an unknown macro as it is
        if name in stack:
            raise fail(
                path,
                macro.line,
                f"@string {name} uses itself ({' → '.join((*stack, name))})",
                "a @string macro may use others, never itself",
            )
        total = macro.literal + sum(expanded(m, (*stack, name)) for m in macro.macros)
        if total > limits.MAX_BIB_FIELD:
            raise fail(
                path,
                macro.line,
                f"@string {name} expands to more than {limits.MAX_BIB_FIELD:,} characters",
                "write the value out; a field of a reference is a few words",
            )
        sizes[name] = total
        return total

    for name in strings:
        expanded(name, ())
    for field in entries:
        total = field.literal + sum(expanded(m, ()) for m in field.macros)
        if total > limits.MAX_BIB_FIELD:
            raise fail(
                path,
                field.line,
                f"field '{field.name}' holds {total:,} characters, more than "
                f"{limits.MAX_BIB_FIELD:,}",
                "shorten it: a field of a reference is a few words",
            )
    for key in crossrefs:
        seen = [key]
        current = key
        while current in crossrefs:
            current, line = crossrefs[current]
            if current in seen:
                raise fail(
                    path,
                    line,
                    f"crossref loop: {' → '.join([*seen, current])}",
                    "an entry's crossref names its parent, which names no child of its own",
                )
            seen.append(current)


@functools.cache
def checked_style(path: Path, size: int, mtime: float) -> None:
    """Raise CITE003 for a CSL style that is not plain, well-formed XML."""
    from xml.etree import ElementTree

    if size > limits.MAX_BIBLIOGRAPHY_BYTES:
        raise KobookError(
            f"citation style is {size:,} bytes: not a CSL style", code="LIMIT003", file=path
        )
    data = path.read_bytes()
    declaration = re.search(rb"<!DOCTYPE|<!ENTITY", data)
    problem = "it declares a document type or entities" if declaration else ""
    if not problem:
        try:
            ElementTree.fromstring(data)
        except ElementTree.ParseError as exc:
            problem = f"it is not well-formed XML ({exc})"
    if problem:
        line = data.count(b"\n", 0, declaration.start()) + 1 if declaration else 0
        raise KobookError(
            f"citation style cannot be used: {problem}",
            code="CITE003",
            file=path,
            line=line,
            hint="use a CSL file from the Zotero style repository, saved as it is",
        )


def check_bibliography(path: Path) -> None:
    info = path.stat()
    checked_bibliography(path, info.st_size, info.st_mtime)


def check_style(path: Path) -> None:
    info = path.stat()
    checked_style(path, info.st_size, info.st_mtime)
