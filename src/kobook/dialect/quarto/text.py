"""Quarto's Markdown as kobook's: cross-reference labels, shortcodes, tab panels.

- labels ``{#fig-x}``, ``{#tbl-x}``, ``{#sec-x}``, ``{#eq-x}``, ``{#lst-x}`` and
  references ``@fig-x`` (``[-@fig-x]``, ``@Fig-x``) become kobook's ``fig:x`` and
  ``@fig:x``, which print "그림 3.2" with the particle after them agreeing;
- shortcodes: ``{{< include f.qmd >}}`` is the file (relative to the page, ``/``
  the project; inside the book, within the include budget), ``{{< pagebreak >}}``
  a page break, ``{{< meta k >}}`` and ``{{< var k >}}`` the value from
  ``_quarto.yml`` / the page / ``_variables.yml``, ``{{< kbd K >}}`` a key;
  ``{{< video u >}}`` a link.  Any other is left out with a warning (DIA403);
- ``::: {.panel-tabset}`` whose headings name the tabs: a tab set (``::: tabset``,
  as MkDocs' ``===``).

Code is never rewritten (fences and inline code are skipped).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...boundary import inside
from ...errors import Location
from ...files.reading import read_bytes, unify_newlines
from ...model.expansion import Expansion
from ...model.origins import Lines, Origin
from ...source.fences import code_lines
from .. import Report, refuse_cycle

KINDS = "fig|tbl|sec|eq|lst"
LABEL = re.compile(rf"(\{{[^{{}}\n]*?#)({KINDS})-(?=[\w-])")
REFERENCE = re.compile(r"(?<![\w@`])(-?@)([Ff]ig|[Tt]bl|[Ss]ec|[Ee]q|[Ll]st)-(?=[\w])")
SHORTCODE = re.compile(r"\{\{<\s*(?P<name>[\w-]+)(?P<args>(?:(?!>\}\}).)*?)\s*>\}\}")
INLINE_CODE = re.compile(r"(`+)[^`].*?\1")
TABSET = re.compile(r"^(?P<colons>:{3,})\s*\{[^{}]*\.panel-tabset\b[^{}]*\}\s*$")
FENCE_DIV = re.compile(r"^(:{3,})(.*)$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{[^{}]*\})?\s*$")


def lookup(values: dict[str, Any], key: str) -> str | None:
    """``a.b.c`` in nested mappings, as text (None when absent or not a plain value)."""
    value: Any = values
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return str(value) if isinstance(value, str | int | float | bool) else None


class QuartoText:
    """The rewrites of one chapter (``meta``: the project's and the page's metadata)."""

    def __init__(
        self,
        root: Path,
        report: Report,
        budget: Expansion,
        meta: dict[str, Any],
        variables: dict[str, Any],
    ) -> None:
        self.root = root
        self.report = report
        self.budget = budget
        self.meta = meta
        self.variables = variables
        self.renamed: dict[str, str] = {}

    def rewrite(self, lines: Lines, renamed: dict[str, str]) -> Lines:
        """Labels, references, shortcodes and tab panels of a chapter whose includes are
        resolved; ``renamed``: cell labels that became listing ids (``..chunks``)."""
        self.renamed = renamed
        texts = lines.text.split("\n")
        code = code_lines(texts)
        for index, text in enumerate(texts):
            if not code[index]:
                texts[index] = self.line(text, lines.origins[index])
        return self.tabsets(Lines("\n".join(texts), lines.origins))

    # ------------------------------------------------------------ per line

    def line(self, text: str, origin: Origin) -> str:
        pieces = []
        done = 0
        for match in INLINE_CODE.finditer(text):
            pieces.append(self.prose(text[done : match.start()], origin))
            pieces.append(match.group(0))
            done = match.end()
        pieces.append(self.prose(text[done:], origin))
        return "".join(pieces)

    def prose(self, text: str, origin: Origin) -> str:
        if "#" in text:
            text, count = LABEL.subn(r"\1\2:", text)
            self.report.count("label", count)
        if "@" in text:
            for label, ident in self.renamed.items():
                # a Korean particle may follow the label (@fig-plot는)
                pattern = rf"(?<![\w@`])(-?@){re.escape(label)}(?![A-Za-z0-9_-])"
                text = re.sub(pattern, rf"\g<1>{ident}", text)
            text, count = REFERENCE.subn(lambda m: m.group(1) + m.group(2).lower() + ":", text)
            self.report.count("cross-reference", count)
        if "{{<" in text:
            text = SHORTCODE.sub(lambda m: self.shortcode(m, origin), text)
        return text

    def shortcode(self, match: re.Match[str], origin: Origin) -> str:
        name, args = match.group("name"), match.group("args").strip()
        where = Location(origin[0], origin[1])
        value: str | None = None
        if name == "pagebreak":
            value = "\\newpage"
        elif name in ("meta", "var"):
            source = self.meta if name == "meta" else self.variables
            value = lookup(source, args.strip("\"'"))
            if value is None:
                self.report.cannot("DIA403", f"{{{{< {name} {args} >}}}}: no such value", where)
                return ""
        elif name == "kbd":
            value = f"<kbd>{args}</kbd>"
        elif name == "video" and args:
            url = args.split()[0].strip("\"'")
            value = f"<{url}>"
        if value is None:
            self.report.cannot(
                "DIA403",
                f"shortcode {{{{< {name} >}}}} left out: kobook runs no shortcodes but "
                "include, pagebreak, meta, var, kbd and video",
                where,
            )
            return ""
        self.report.count(f"{{{{< {name} >}}}}")
        return value

    # ------------------------------------------------------------ includes

    def includes(self, lines: Lines, depth: int, chain: tuple[Origin, ...]) -> Lines:
        if "include" not in lines.text:
            return lines
        texts = lines.text.split("\n")
        code = code_lines(texts)
        out: list[str] = []
        where: list[Origin] = []
        for index, text in enumerate(texts):
            origin = lines.origins[index]
            match = SHORTCODE.fullmatch(text.strip()) if not code[index] else None
            if match is None or match.group("name") != "include":
                out.append(text)
                where.append(origin)
                continue
            content = self.include(match.group("args").strip().strip("\"'"), origin, depth, chain)
            out += content.text.split("\n")
            where += content.origins
        return Lines("\n".join(out), tuple(where))

    def include(self, written: str, origin: Origin, depth: int, chain: tuple[Origin, ...]) -> Lines:
        base = self.root if written.startswith("/") else origin[0].parent
        path = inside(
            base / written.lstrip("/"),
            self.root,
            what="{{< include >}} file",
            file=origin[0],
            line=origin[1],
            written=written,
        )
        if not path.is_file():
            self.report.cannot(
                "DIA404",
                f"{{{{< include >}}}} file not found: {written}",
                Location(origin[0], origin[1]),
                "paths are relative to the page (a leading / is the project folder)",
            )
            return Lines(f"[include not found: {written}]", (origin,))
        here = (*chain, origin)
        refuse_cycle(path, here, depth, f"{{{{< include {written} >}}}}")
        text = unify_newlines(read_bytes(path).decode("utf-8", errors="replace")).rstrip("\n")
        self.budget.spend(len(text.encode("utf-8")), "includes", here)
        self.report.count("{{< include >}}")
        return self.includes(Lines.of(text, path), depth + 1, here)

    # ------------------------------------------------------------ tab panels

    def tabsets(self, lines: Lines) -> Lines:
        if "panel-tabset" not in lines.text:
            return lines
        texts = lines.text.split("\n")
        code = code_lines(texts)
        index = 0
        while index < len(texts):
            match = None if code[index] else TABSET.match(texts[index])
            if match is None:
                index += 1
                continue
            end = closing(texts, index, code)
            if end is None:
                index += 1
                continue
            body = texts[index + 1 : end]
            levels = [len(h.group(1)) for t in body if (h := HEADING.match(t))]
            if not levels:
                index = end + 1
                continue
            level = min(levels)
            fence = lines.origins[index]
            new: list[str] = ["::: tabset", ""]
            where: list[Origin] = [fence, fence]
            opened = False
            tabs = 0
            for offset, text in enumerate(body):
                origin = lines.origins[index + 1 + offset]
                heading = HEADING.match(text)
                if heading and len(heading.group(1)) == level:
                    if opened:
                        new += ["", "::::", ""]
                        where += [origin] * 3
                    label = heading.group(2).replace("*", "\\*")
                    new += [":::: tab", "", "::::: tab-title", f"**{label}**", ":::::", ""]
                    where += [origin] * 6
                    opened = True
                    tabs += 1
                else:
                    new.append(text)
                    where.append(origin)
            if opened:
                new += ["", "::::"]
                where += [fence] * 2
            new += ["", ":::"]
            where += [lines.origins[end]] * 2
            self.report.count("tab", tabs)
            texts[index : end + 1] = new
            origins = list(lines.origins)
            origins[index : end + 1] = where
            lines = Lines("\n".join(texts), tuple(origins))
            code = code_lines(texts)
            index += len(new)
        return lines


def closing(texts: list[str], start: int, code: list[bool]) -> int | None:
    """The line closing the fenced div opened at ``start`` (nested divs skipped)."""
    depth = 0
    for index in range(start + 1, len(texts)):
        if code[index]:
            continue
        match = FENCE_DIV.match(texts[index].strip())
        if match is None:
            continue
        if match.group(2).strip():
            depth += 1
        elif depth:
            depth -= 1
        else:
            return index
    return None
