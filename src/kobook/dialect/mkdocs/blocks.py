"""Material for MkDocs' indented blocks: admonitions, collapsible blocks, content tabs.

pymdownx writes a block as a marker line and a body indented four spaces::

    !!! note "참고"          → ::: {.callout-note title="참고"}
        본문                     본문
                               :::
    ??? tip "접기"           → ::: {.details summary="접기"}  (``???+``: open)
    === "Python"             → one tab of a tab set (consecutive ``===`` blocks)

pandoc's Markdown reads the indented body as a code block (and the marker as a
paragraph), so each block becomes the fenced div every writer already draws: a
callout of the kind the type maps to (MkDocs' ``abstract``, ``info``, ``bug``…
onto kobook's note, tip, warning, danger, important), a details box, or a tab set
whose tabs carry their label as a bold first line (``::: tab-title``): the
site makes tabs of them, the PDF and the EPUB print each tab under its label.
Bodies are converted again (blocks nest), and code fences are never looked
into.  Every line keeps its origin; the lines kobook adds take the marker's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...model.origins import Lines, Origin
from ...source.fences import code_lines
from .. import Report

MARKER = re.compile(
    r"^(?P<indent>[ \t]*)(?P<mark>!!!|\?\?\?\+?)[ \t]+(?P<kinds>[\w-]+(?:[ \t]+[\w-]+)*)"
    r"(?:[ \t]+\"(?P<title>[^\"]*)\")?[ \t]*$"
)
TAB = re.compile(r"^(?P<indent>[ \t]*)===(?P<open>!?\+?)[ \t]+\"(?P<title>[^\"]*)\"[ \t]*$")
TABSIZE = 4
# MkDocs Material's admonition types → kobook's callout kinds.
KIND = {
    "note": "note",
    "abstract": "note",
    "summary": "note",
    "tldr": "note",
    "info": "note",
    "todo": "note",
    "question": "note",
    "help": "note",
    "faq": "note",
    "example": "note",
    "quote": "note",
    "cite": "note",
    "success": "tip",
    "check": "tip",
    "done": "tip",
    "tip": "tip",
    "hint": "tip",
    "important": "important",
    "warning": "warning",
    "caution": "caution",
    "attention": "warning",
    "failure": "danger",
    "fail": "danger",
    "missing": "danger",
    "danger": "danger",
    "error": "danger",
    "bug": "danger",
}


@dataclass
class Block:
    """One indented block: its marker line's index and match, and its body's extent."""

    start: int
    end: int  # one past the last body line (trailing blank lines excluded)
    indent: str
    match: re.Match[str]


def width(prefix: str) -> int:
    return len(prefix.expandtabs(TABSIZE))


def dedent(line: str, columns: int) -> str:
    """``line`` without its first ``columns`` columns of indentation."""
    expanded = line.expandtabs(TABSIZE)
    cut = len(expanded) - len(expanded.lstrip(" "))
    return expanded[min(cut, columns) :]


def body_end(texts: list[str], start: int, columns: int) -> int:
    """One past the last line indented at least ``columns`` after the marker at ``start``."""
    end = start + 1
    last = start
    while end < len(texts):
        line = texts[end]
        if line.strip():
            if width(line[: len(line) - len(line.lstrip())]) < columns:
                break
            last = end
        end += 1
    return last + 1


def quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def attr_title(kind: str, title: str | None) -> str:
    """The fenced div's opening attributes for an admonition of MkDocs type ``kind``."""
    if title is None or not title.strip():
        return f"{{.callout-{KIND.get(kind, 'note')}}}"
    return f'{{.callout-{KIND.get(kind, "note")} title="{quote(title)}"}}'


class Blocks:
    """Converts one text's blocks; counts what it converted in ``report``."""

    def __init__(self, report: Report, word: Callable[[str], str]) -> None:
        self.report = report
        self.word = word  # the book's language's word for a callout kind

    def convert(self, lines: Lines) -> Lines:
        if not re.search(r"^[ \t]*(?:!!!|\?\?\?|===)", lines.text, re.M):
            return lines
        texts, origins = self.lines(lines.text.split("\n"), list(lines.origins))
        return Lines("\n".join(texts), tuple(origins))

    def lines(self, texts: list[str], origins: list[Origin]) -> tuple[list[str], list[Origin]]:
        """``texts`` with every block at any depth made a fenced div."""
        code = code_lines(texts)
        out: list[str] = []
        where: list[Origin] = []
        index = 0
        while index < len(texts):
            line = texts[index]
            admonition = None if code[index] else MARKER.match(line)
            tab = None if code[index] or admonition else TAB.match(line)
            if admonition is None and tab is None:
                out.append(line)
                where.append(origins[index])
                index += 1
                continue
            if admonition is not None:
                index = self.admonition(texts, origins, index, admonition, out, where)
            else:
                index = self.tabs(texts, origins, index, out, where)
        return out, where

    def body(
        self, texts: list[str], origins: list[Origin], index: int, indent: str
    ) -> tuple[list[str], list[Origin], int]:
        """The converted body of the block whose marker is at ``index``, and its end."""
        columns = width(indent) + TABSIZE
        end = body_end(texts, index, columns)
        inner = [dedent(t, columns) if t.strip() else "" for t in texts[index + 1 : end]]
        converted, where = self.lines(inner, origins[index + 1 : end])
        return converted, where, end

    def emit(
        self,
        out: list[str],
        where: list[Origin],
        origin: Origin,
        indent: str,
        opening: str,
        body: tuple[list[str], list[Origin]],
    ) -> None:
        """A fenced div: blank line, opening fence, body (indented like the marker), closing."""
        out += ["", f"{indent}{opening}", ""]
        where += [origin] * 3
        out += [f"{indent}{t}" if t else "" for t in body[0]]
        where += body[1]
        out += ["", f"{indent}:::", ""]
        where += [origin] * 3

    def admonition(
        self,
        texts: list[str],
        origins: list[Origin],
        index: int,
        match: re.Match[str],
        out: list[str],
        where: list[Origin],
    ) -> int:
        kind = match.group("kinds").split()[0].lower()
        indent = match.group("indent")
        inner, inner_where, end = self.body(texts, origins, index, indent)
        title = match.group("title")
        if match.group("mark").startswith("???"):
            summary = title if title and title.strip() else self.word(KIND.get(kind, "note"))
            shown = " .open" if match.group("mark") == "???+" else ""
            opening = f'::: {{.details{shown} summary="{quote(summary)}"}}'
            self.report.count("collapsible block")
        else:
            opening = "::: " + attr_title(kind, title)
            self.report.count("admonition")
        self.emit(out, where, origins[index], indent, opening, (inner, inner_where))
        return end

    def tabs(
        self,
        texts: list[str],
        origins: list[Origin],
        index: int,
        out: list[str],
        where: list[Origin],
    ) -> int:
        """A run of ``===`` blocks at one indentation: one tab set."""
        first = TAB.match(texts[index])
        assert first is not None
        indent = first.group("indent")
        tabs: list[tuple[str, Origin, list[str], list[Origin]]] = []
        while index < len(texts):
            match = TAB.match(texts[index])
            if match is None or match.group("indent") != indent:
                break
            if tabs and match.group("open").startswith("!"):
                break  # ``===!`` starts a new tab set
            inner, inner_where, end = self.body(texts, origins, index, indent)
            tabs.append((match.group("title"), origins[index], inner, inner_where))
            index = end
            while index < len(texts) and not texts[index].strip():
                index += 1
            if index < len(texts) and not TAB.match(texts[index]):
                break
        body: list[str] = []
        body_where: list[Origin] = []
        for title, origin, inner, inner_where in tabs:
            label = title.replace("*", "\\*").replace("_", "\\_") or " "
            body += [":::: tab", "", "::::: tab-title", f"**{label}**", ":::::", ""]
            body_where += [origin] * 6
            body += [*inner, "", "::::", ""]
            body_where += inner_where + [origin] * 3
        self.report.count("content tab", len(tabs))
        self.emit(out, where, tabs[0][1], indent, "::: tabset", (body, body_where))
        return index
