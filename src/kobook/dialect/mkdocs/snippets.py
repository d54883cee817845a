"""pymdownx.snippets: ``--8<-- "file"`` lines replaced by the file (inside the book only).

The forms (https://facelessuser.github.io/pymdown-extensions/extensions/snippets/):

- ``--8<-- "path"`` on a line of its own (in prose or inside a code block, the
  common way to show a source file), the file's text indented like the line;
- a block: a ``--8<--`` line, one path per line, a closing ``--8<--`` line;
- ``path:3:5`` lines 3 to 5 (``path:3`` from line 3), ``path:name`` the lines
  between ``--8<-- [start:name]`` and ``--8<-- [end:name]``; marker lines are
  never shown;
- ``;--8<--`` is the syntax written literally (the ``;`` dropped);
- ``auto_append`` files follow every page (MkDocs Material keeps its
  abbreviations so).

Paths are relative to the extension's ``base_path`` (default: the folder of
``mkdocs.yml``), tried in order; none may lead outside the book (SEC001) and
URLs are never fetched.  A missing file is a warning (DIA307) where pymdownx
would skip it in silence.  Snippets may hold snippets: nesting is bounded
(DIA206) and what they add is charged to the book's expansion budget.
"""

from __future__ import annotations

import re
from pathlib import Path

from ...boundary import inside
from ...errors import Location
from ...files.reading import read_bytes, unify_newlines
from ...model.expansion import Expansion
from ...model.origins import Lines, Origin
from .. import Report, refuse_cycle

LINE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<escape>;?)-{1,}8<-{1,}[ \t]+(?P<q>[\"'])(?P<path>.+?)(?P=q)[ \t]*$"
)
BLOCK = re.compile(r"^(?P<indent>[ \t]*)-{1,}8<-{1,}[ \t]*$")
SECTION = re.compile(r"-{1,}8<-{1,}[ \t]+\[(?P<edge>start|end):(?P<name>[\w-]+)\]")
SPEC = re.compile(r"^(?P<path>.*?)(?::(?P<a>-?\d*)(?::(?P<b>-?\d*))?)?$")


class Snippets:
    """Resolves the snippets of one chapter against ``bases`` (folders inside ``root``)."""

    def __init__(self, root: Path, bases: list[Path], report: Report, budget: Expansion) -> None:
        self.root = root
        self.bases = bases or [root]
        self.report = report
        self.budget = budget

    def resolve(self, lines: Lines, depth: int = 0, chain: tuple[Origin, ...] = ()) -> Lines:
        if "8<-" not in lines.text:
            return lines
        texts = lines.text.split("\n")
        out: list[str] = []
        where: list[Origin] = []
        index = 0
        while index < len(texts):
            text, origin = texts[index], lines.origins[index]
            one = LINE.match(text)
            block = BLOCK.match(text)
            if one is not None and one.group("escape"):
                out.append(text.replace(";", "", 1))
                where.append(origin)
            elif one is not None:
                self.splice(
                    one.group("path"), one.group("indent"), origin, depth, chain, out, where
                )
            elif block is not None and self.closes(texts, index):
                index += 1
                while not BLOCK.match(texts[index]):
                    name = texts[index].strip()
                    if name and not name.startswith(";"):
                        origin = lines.origins[index]
                        self.splice(name, block.group("indent"), origin, depth, chain, out, where)
                    index += 1
            elif SECTION.search(text) is None:
                out.append(text)
                where.append(origin)
            index += 1
        return Lines("\n".join(out), tuple(where))

    def append(self, lines: Lines, names: list[str]) -> Lines:
        """``lines`` with each ``auto_append`` file after them (their lines keep their own
        origins); resolved like the page's own snippets."""
        if not names:
            return lines
        origin = lines.origins[-1]
        block = "\n".join(f'--8<-- "{name}"' for name in names)
        return Lines.join([lines, Lines(block, (origin,) * len(names))])

    @staticmethod
    def closes(texts: list[str], index: int) -> bool:
        """True when the ``--8<--`` line at ``index`` opens a block that a later one closes."""
        return any(BLOCK.match(t) for t in texts[index + 1 :])

    def splice(
        self,
        written: str,
        indent: str,
        origin: Origin,
        depth: int,
        chain: tuple[Origin, ...],
        out: list[str],
        where: list[Origin],
    ) -> None:
        """The snippet ``written`` names, resolved and indented, appended to ``out``."""
        content = self.snippet(written, origin, depth, chain)
        for text, line_origin in zip(content.text.split("\n"), content.origins, strict=True):
            out.append(f"{indent}{text}" if text else "")
            where.append(line_origin)

    def find(self, name: str, origin: Origin) -> Path | None:
        for base in self.bases:
            path = inside(
                base / name,
                self.root,
                what="snippet",
                file=origin[0],
                line=origin[1],
                written=name,
            )
            if path.is_file():
                return path
        return None

    def snippet(self, written: str, origin: Origin, depth: int, chain: tuple[Origin, ...]) -> Lines:
        where = Location(origin[0], origin[1])
        if "://" in written:
            self.report.cannot(
                "DIA307", f"snippet from the web is not fetched: {written[:80]}", where
            )
            return Lines(f"[snippet not fetched: {written}]", (origin,))
        spec = SPEC.match(written)
        assert spec is not None
        name = spec.group("path") if spec.group("a") is not None else written
        path = self.find(name, origin)
        section = ""
        if path is None and ":" in written:  # path:section
            name, _, section = written.rpartition(":")
            path = self.find(name, origin)
        if path is None:
            self.report.cannot(
                "DIA307",
                f"snippet file not found: {written}",
                where,
                "paths are relative to the folder of mkdocs.yml (or the base_path it sets)",
            )
            return Lines(f"[snippet not found: {written}]", (origin,))
        here = (*chain, origin)
        refuse_cycle(path, here, depth, f"snippet {written}")
        lines = unify_newlines(read_bytes(path).decode("utf-8", errors="replace")).split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        taken = self.select(lines, spec, section)
        if taken is None:
            self.report.cannot(
                "DIA307",
                f"no section '{section}' in snippet {name}",
                where,
                f"mark it with --8<-- [start:{section}] … --8<-- [end:{section}]",
            )
            return Lines(f"[snippet not found: {written}]", (origin,))
        text = "\n".join(lines[i] for i in taken)
        self.budget.spend(len(text.encode("utf-8")), "snippets", here)
        self.report.count("snippet")
        content = Lines(text, tuple((path, i + 1) for i in taken) or (origin,))
        return self.resolve(content, depth + 1, here)

    @staticmethod
    def select(lines: list[str], spec: re.Match[str], section: str) -> list[int] | None:
        """Indexes of the lines a snippet takes (section markers never), None: no such section."""
        if section:
            start = next(
                (
                    i
                    for i, t in enumerate(lines)
                    if (m := SECTION.search(t))
                    and m.group("edge") == "start"
                    and m.group("name") == section
                ),
                None,
            )
            if start is None:
                return None
            end = next(
                (
                    i
                    for i in range(start + 1, len(lines))
                    if (m := SECTION.search(lines[i]))
                    and m.group("edge") == "end"
                    and m.group("name") == section
                ),
                len(lines),
            )
            return [i for i in range(start + 1, end) if not SECTION.search(lines[i])]
        first, last = spec.group("a"), spec.group("b")
        start = int(first) - 1 if first and first.lstrip("-").isdigit() and int(first) > 0 else 0
        end = int(last) if last and last.isdigit() else len(lines)
        if first is not None and last is None and first.isdigit():
            end = len(lines)
        return [i for i in range(start, min(end, len(lines))) if not SECTION.search(lines[i])]
