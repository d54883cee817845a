"""``{{#include}}``, ``{{#rustdoc_include}}``, ``{{#playground}}`` and ``{{#title}}``.

mdBook's ``links`` preprocessor, with its semantics
(https://rust-lang.github.io/mdBook/format/mdbook.html):

- ``{{#include path}}`` the whole file; ``path:10`` line 10 only;
  ``path:10:20`` lines 10 to 20; ``path:10:`` from line 10; ``path::20`` up to
  line 20; ``path:name`` the lines between ``ANCHOR: name`` and
  ``ANCHOR_END: name``.  Lines holding an anchor marker are never shown;
- ``{{#rustdoc_include …}}`` the whole file with the lines outside the range
  or anchor hidden (``# ``) for rustdoc; a printed book cannot unfold them,
  so they are dropped here and only the selection remains (every section of
  the anchor, as mdBook does);
- ``{{#playground path}}`` the file as a ``rust`` code block;
- ``{{#title …}}`` sets the HTML page's ``<title>``: dropped (DIA207, info);
- ``\\{{#include …}}`` is written literally, without the backslash.

Paths are relative to the file the directive is written in (an included
file's own directives to it), and never lead outside the book (SEC001).
Included lines keep their own file and line as origin, so a diagnostic in a
listing names ``listings/…/main.rs:12``.  A missing file or anchor leaves a
visible ``[include not found: …]`` and a warning (DIA204, DIA205); nesting
deeper than :data:`~kobook.limits.MAX_INCLUDE_DEPTH`, or a file including itself,
is DIA206.  What includes add is charged to the book's expansion budget
(:mod:`kobook.model.expansion`, LIMIT010 naming the chain of includes), and each
file is read once per build however often it is included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ...boundary import inside
from ...errors import Location
from ...files.reading import read_bytes, unify_newlines
from ...model.expansion import Expansion
from ...model.origins import Lines, Origin
from .. import Report, refuse_cycle

DIRECTIVE = re.compile(
    r"\\\{\{#[^}]*\}\}|\{\{\s*#(?P<name>[A-Za-z0-9_]+)\s*(?P<args>[^}]*?)\s*\}\}"
)
ANCHOR_START = re.compile(r"ANCHOR:\s*(?P<name>[\w-]+)")
ANCHOR_END = re.compile(r"ANCHOR_END:\s*(?P<name>[\w-]+)")
INCLUDING = ("include", "rustdoc_include", "playground")


@dataclass(frozen=True)
class Selection:
    """Which lines of a file a directive takes: 0-based ``start``..``end`` or an anchor."""

    start: int = 0
    end: int | None = None
    anchor: str = ""


def parse_selection(spec: str | None) -> Selection:
    """mdBook's ``parse_range_or_anchor``: ``10`` is line 10 alone, ``10:`` from it on."""
    if spec is None:
        return Selection()
    first, _, rest = spec.partition(":")
    has_end = ":" in spec
    if first and not first.isdigit():
        return Selection(anchor=first)
    start = max(int(first) - 1, 0) if first else None
    end_text = rest.split(":", 1)[0]
    end = int(end_text) if has_end and end_text.isdigit() else None
    if start is None:
        return Selection(0, end)
    if not has_end:
        return Selection(start, start + 1)
    return Selection(start, end)


def is_marker(line: str) -> bool:
    return bool(ANCHOR_START.search(line) or ANCHOR_END.search(line))


def select(lines: list[str], selection: Selection, every_section: bool) -> list[int] | None:
    """Indexes of the lines taken (anchor markers never), or None for an unknown anchor.

    ``every_section``: rustdoc_include shows every stretch marked with the
    anchor; include stops at the first ``ANCHOR_END``.
    """
    if not selection.anchor:
        last = len(lines) if selection.end is None else min(selection.end, len(lines))
        return [i for i in range(selection.start, last) if not is_marker(lines[i])]
    taken: list[int] = []
    found = inside_anchor = False
    for index, line in enumerate(lines):
        end = ANCHOR_END.search(line)
        start = ANCHOR_START.search(line)
        if inside_anchor:
            if end and end.group("name") == selection.anchor:
                inside_anchor = False
                if not every_section:
                    break
            elif not start and not end:
                taken.append(index)
        elif start and start.group("name") == selection.anchor:
            inside_anchor = found = True
    return taken if found else None


class Includer:
    """Resolves the directives of one chapter (and of the files it includes)."""

    def __init__(self, root: Path, report: Report, budget: Expansion | None = None) -> None:
        self.root = root
        self.report = report
        self.budget = budget or Expansion()
        self.files: dict[tuple[Path, str, int, str], tuple[Path, list[str]]] = {}

    def resolve(self, lines: Lines, depth: int = 0, stack: tuple[Origin, ...] = ()) -> Lines:
        """``lines`` with every directive replaced by what it stands for (``stack``: the
        directives that included them, outermost first)."""
        if "{{" not in lines.text:
            return lines
        out: list[Lines] = []
        for text, origin in zip(lines.text.split("\n"), lines.origins, strict=True):
            if "{{" not in text:
                out.append(Lines(text, (origin,)))
            else:
                out.append(self.resolve_line(text, origin, depth, stack))
        return Lines.join(out, "\n")

    def read(self, written: str, origin: Origin, name: str) -> tuple[Path, list[str]]:
        """The file a directive names (checked inside the book) and its lines, read once."""
        key = (origin[0], written, origin[1], name)
        if key not in self.files:
            path = inside(
                origin[0].parent / written,
                self.root,
                what=f"{{{{#{name}}}}} file",
                file=origin[0],
                line=origin[1],
                written=written,
            )
            lines: list[str] = []
            if path.is_file():
                text = read_bytes(path).decode("utf-8", errors="replace")
                lines = unify_newlines(text).split("\n")
                if lines and lines[-1] == "":
                    lines.pop()  # Rust's str::lines(): a final newline ends the last line
            self.files[key] = (path, lines)
        return self.files[key]

    def resolve_line(
        self, text: str, origin: Origin, depth: int, stack: tuple[Origin, ...]
    ) -> Lines:
        pieces: list[Lines] = []
        done = 0
        for match in DIRECTIVE.finditer(text):
            before = text[done : match.start()]
            if before or not pieces:
                pieces.append(Lines(before, (origin,)))
            done = match.end()
            if match.group("name") is None:  # \{{#include x}}: literally, without the "\"
                pieces.append(Lines(match.group(0)[1:], (origin,)))
                continue
            pieces.append(self.directive(match, origin, depth, stack))
        pieces.append(Lines(text[done:], (origin,)))
        if len(pieces) > 1 and pieces[0].text == "":
            pieces = pieces[1:]  # an included text starting the line keeps its own origin
        return Lines.join(pieces, "")

    def directive(
        self, match: re.Match[str], origin: Origin, depth: int, stack: tuple[Origin, ...]
    ) -> Lines:
        name, args = match.group("name"), match.group("args").strip()
        where = Location(origin[0], origin[1])
        if name == "title":
            self.report.count("title")
            self.report.info(
                "DIA207", f"{{{{#title {args}}}}} dropped (it names the HTML page)", where
            )
            return Lines("", (origin,))
        if name not in INCLUDING:
            self.report.cannot(
                "DIA208",
                f"unknown mdBook directive {{{{#{name}}}}} left as it is",
                where,
                "mdBook knows include, rustdoc_include, playground and title",
            )
            return Lines(match.group(0), (origin,))
        words = args.split()
        if not words:
            self.report.cannot("DIA204", f"{{{{#{name}}}}} names no file", where)
            return Lines(f"[{name}: no file named]", (origin,))
        written, sep, spec = words[0].partition(":")
        if "\0" in written:
            self.report.cannot("DIA204", f"{{{{#{name}}}}} names no file a path can hold", where)
            return Lines(f"[{name}: no such file]", (origin,))
        path, file_lines = self.read(written, origin, name)
        if not path.is_file():
            self.report.cannot(
                "DIA204",
                f"{{{{#{name}}}}} file not found: {written}",
                where,
                "paths are relative to the file the directive is written in",
            )
            return Lines(f"[include not found: {written}]", (origin,))
        chain = (*stack, origin)
        refuse_cycle(path, chain, depth, f"{{{{#{name} {written}}}}}")
        selection = parse_selection(spec if sep else None)
        taken = select(file_lines, selection, every_section=name == "rustdoc_include")
        if taken is None:
            self.report.cannot(
                "DIA205",
                f"{{{{#{name}}}}}: no 'ANCHOR: {selection.anchor}' in {written}",
                where,
                f"mark the lines with ANCHOR: {selection.anchor} … ANCHOR_END: {selection.anchor}",
            )
            return Lines(f"[include not found: {written}:{selection.anchor}]", (origin,))
        self.report.count(name)
        text = "\n".join(file_lines[i] for i in taken)
        self.budget.spend(len(text.encode("utf-8")), "includes", chain)
        content = Lines(text, tuple((path, i + 1) for i in taken) or (origin,))
        content = self.resolve(content, depth + 1, chain)
        if name == "playground":
            fence = Lines("```rust", (origin,))
            return Lines.join([fence, content, Lines("```", (origin,))], "\n")
        return content
