"""XeLaTeX's log in the book's terms: an error or a missing character traced from the
line of the generated .tex back to the chapter file and line (or to header-includes)."""

from __future__ import annotations

import re
from pathlib import Path

from ...errors import Diagnostic, KobookError, Location
from ...model import Book, Chapter
from ..shared.common import chapter_at
from ..shared.latexmeta import (
    BEGIN_INCLUDES,
    END_INCLUDES,
    first_error,
    include_items,
    log_tail,
)
from .places import OWN_TEMPLATE, TEMPLATES, includes_location, template_path
from .run import MISSING
from .values import CHAPTER_MARK


def latex_error(log: str, latex: str, book: Book, log_path: Path | None = None) -> KobookError:
    """The first LaTeX error: its message, the ``l.NNN`` line, and where it came from.

    Errors in ``header-includes`` point at the metadata, errors in a chapter at
    the chapter's file and (when the failing text can be found) its line.  A
    failure with no error line still quotes the end of the log.
    """
    hint = f"the full log is {log_path}" if log_path else "the full log is in .kobook-cache/latex/"
    hint += "; try --engine weasyprint to compare"
    error = first_error(log)
    if error is None:
        tail = log_tail(log) or "(no log was written)"
        return KobookError(
            f"XeLaTeX stopped without an error line; the log ends: {tail}", code="TEX001", hint=hint
        )
    lines = latex.splitlines()
    in_book = error.file in ("", "book.tex") or error.file.endswith("/book.tex")
    line = error.line if in_book and 0 < error.line <= len(lines) else 0
    context = error.context
    package = "" if in_book else error.file
    missing = re.search(r"File `([^']+)' not found", error.message)
    if missing:  # the context is where TeX gave up (\begin{document}), not the cause
        package, line, context = missing.group(1), 0, ""
        stem = Path(package).stem
        hint = f"{stem} is not installed (tlmgr install {stem}) or is misspelt; " + hint
    if not context and line:
        context = f"LaTeX line {line}: {lines[line - 1].strip()}"
    origin, location = error_origin(lines, line, package, book)
    message = f"XeLaTeX: {error.message[:240]}"
    if context:
        message += f" -- {context[:160]}"
    if origin:
        message += f" ({origin})"
    return KobookError(message, code="TEX001", file=location.file, line=location.line, hint=hint)


def error_origin(lines: list[str], line: int, package: str, book: Book) -> tuple[str, Location]:
    """Where the LaTeX at ``line`` of book.tex (or a ``package`` file being loaded) came from."""
    config = book.config
    own = template_path(book) != OWN_TEMPLATE
    template = Location(template_path(book)) if own else Location()
    template_name = f"templates/{TEMPLATES}/book.latex" if own else "kobook's LaTeX template"
    if package:
        name = Path(package).name
        stem = Path(package).stem
        loads = re.compile(
            r"\\(?:usepackage|RequirePackage)\s*(?:\[[^\]]*\])?\s*\{[^}]*\b"
            + re.escape(stem)
            + r"\b"
        )
        if loads.search("\n".join(include_items(config.get("header-includes")))):
            where = includes_location(book, stem)
            return f"loading {name}, from header-includes in {where_name(where)}", where
        return f"loading {name}, in the preamble of {template_name}", template
    if not line:
        return "", Location()
    begin = next((i for i, t in enumerate(lines, 1) if t.startswith("\\begin{document}")), 0)
    marks = [i for i, t in enumerate(lines, 1) if t in (BEGIN_INCLUDES, END_INCLUDES)]
    if len(marks) == 2 and marks[0] < line < marks[1]:
        where = includes_location(book, lines[line - 1].strip())
        return f"from header-includes in {where_name(where)}", where
    if begin and line < begin:
        return f"in the preamble of {template_name}", template
    chapter_id = chapter_at("\n".join(lines), line, CHAPTER_MARK)
    chapter = next((c for c in book.chapters if c.id == chapter_id), None)
    if chapter is None:
        where = Location(config.path)
        return f"on the title page: title, author or date in {where_name(where)}", where
    return "", chapter_location(chapter, lines[line - 1])


def chapter_location(chapter: Chapter, tex_line: str) -> Location:
    """The chapter's line that ``tex_line`` of book.tex came from, as far as its text tells.

    The longest run of text between LaTeX commands and braces that the chapter
    contains wins; with none, the chapter's first line.
    """
    pieces = re.split(r"\\[A-Za-z@]+\*?|\\.|[{}$%&#^_~\[\]]", tex_line)
    for piece in sorted({p.strip() for p in pieces if len(p.strip()) >= 2}, key=len, reverse=True):
        found = chapter.locate(piece)
        if found is not None:
            return Location(found.file, found.line)
    for word in re.findall(r"[A-Za-z]{3,}", tex_line):  # a command name in a raw block
        found = chapter.locate(word)
        if found is not None:
            return Location(found.file, found.line)
    return chapter.where(1)


def where_name(location: Location) -> str:
    return location.file.name if location.file is not None else "metadata.yaml"


def missing_characters(log: str, book: Book, latex: str) -> list[Diagnostic]:
    found: dict[str, tuple[str, int]] = {}
    for match in MISSING.finditer(log):
        char = chr(int(match.group(2), 16))
        font = match.group(3).strip()
        previous = found.get(char, (font, 0))
        found[char] = (previous[0], previous[1] + 1)
    problems = []
    for char, (font, count) in sorted(found.items()):
        location = book.locate(char)
        problems.append(
            Diagnostic(
                "GLYPH001",
                f"XeLaTeX: no glyph for '{char}' (U+{ord(char):04X}) in font {font} ({count}×)",
                location,
                "install a font that has it (kobook doctor), or replace the character",
            )
        )
    return problems
