"""Executable code cells (knitr's and Quarto's) as what a book can show without running them.

```` ```{r label, fig.cap="…", echo=FALSE} ```` and ```` ```{python} ```` with
``#| key: value`` option lines are code *cells*: R Markdown and Quarto run them
and print their output.  pandoc's Markdown reads neither header (the cell
became inline code and swallowed the prose after it).  kobook runs no code:

- a cell is shown as a code block in its language, its ``#|`` lines taken out;
- a labelled cell with a caption (``fig-cap``, ``lst-cap``: its output is referred
  to) is a numbered listing with that caption, whatever ``echo`` says, and
  references to its label name the listing (``@fig-plot`` → ``@lst:plot``,
  :attr:`Cells.renamed`): the book shows the code that draws the figure;
- other ``include: false`` / ``echo: false`` cells (setup code) are left out;
- a cell that only calls ``knitr::include_graphics("a.png")`` is the figure it
  draws: ``![fig.cap](a.png){#fig:label width=…}``, numbered like any figure;
- an escaped ```` ```{{python}} ```` is a code block showing the cell as written.

One note per book says how many cells were shown and hidden (``CELL001``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import Location
from ..model.origins import Lines, Origin
from ..source.fences import opening, quote_attr
from . import Report

HEADER = re.compile(r"^\{(?P<engine>[A-Za-z][\w.]*)(?P<rest>[^{}]*)\}\s*$")
ESCAPED = re.compile(r"^\{\{(?P<engine>[A-Za-z][\w.]*)(?P<rest>[^{}]*)\}\}\s*$")
OPTION_LINE = re.compile(r"^\s*#\|\s*(?P<key>[\w.-]+)\s*:\s*(?P<value>.*?)\s*$")
GRAPHICS = re.compile(
    r"^\s*(?:knitr::)?include_graphics\(\s*(?:c\((?P<many>[^()]*)\)|(?P<one>\"[^\"]*\"|'[^']*'))"
)
STRING = re.compile(r"\"([^\"]*)\"|'([^']*)'")
CAPTIONS = ("fig-cap", "lst-cap", "tbl-cap")
KABLE_CAPTION = re.compile(
    r"\b(?:kable|kbl|gt|tab_header)\((?:[^()]|\([^()]*\))*?\bcaption\s*=\s*(?:\"([^\"]*)\"|'([^']*)')",
    re.S,
)
LABEL_KIND = re.compile(r"^(?:fig|lst|tbl)[-:]")
LANGUAGES = {"r": "r", "python": "python", "julia": "julia", "ojs": "javascript", "bash": "bash"}


@dataclass
class Cell:
    """One cell: its engine, label and options (knitr's and ``#|`` lines alike)."""

    engine: str
    options: dict[str, str] = field(default_factory=dict)
    label: str = ""


def split_options(text: str) -> list[str]:
    """``a, b="x, y", c=list(1, 2)`` → its comma-separated parts (quotes and brackets kept)."""
    parts: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    parts.append("".join(current).strip())
    return [p for p in parts if p]


def unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def parse_header(info: str) -> Cell | None:
    """The cell an opening fence's info string starts (None: not a cell)."""
    match = HEADER.match(info.strip())
    if match is None:
        return None
    cell = Cell(match.group("engine").lower())
    for index, part in enumerate(split_options(match.group("rest").strip().lstrip(","))):
        key, eq, value = part.partition("=")
        if not eq and index == 0:
            cell.label = unquote(part)
        elif eq:
            cell.options[key.strip().replace(".", "-")] = unquote(value)
    cell.label = cell.options.pop("label", cell.label)
    return cell


def table_caption(code: list[str]) -> str:
    """The caption a table cell gives its table in code: ``knitr::kable(x, caption = '…')``
    (bookdown refers to it as ``\\@ref(tab:label)``)."""
    match = KABLE_CAPTION.search("\n".join(code))
    return (match.group(1) or match.group(2)) if match else ""


def false(value: str | None) -> bool:
    return value is not None and value.strip().lower() in ("false", "no")


def figure_lines(cell: Cell, code: list[str]) -> list[str] | None:
    """The figure(s) a ``knitr::include_graphics`` cell draws, as pandoc Markdown."""
    body = [line for line in code if line.strip() and not line.strip().startswith("#")]
    if len(body) != 1:
        return None
    match = GRAPHICS.match(body[0])
    if match is None:
        return None
    written = match.group("many") or match.group("one") or ""
    paths = [a or b for a, b in STRING.findall(written)]
    if not paths:
        return None
    caption = cell.options.get("fig-cap", "")
    width = cell.options.get("out-width", "")
    attrs = []
    if cell.label:
        attrs.append("#fig:" + re.sub(r"^fig[-:]", "", cell.label))
    if width:
        attrs.append(f"width={width}")
    out = []
    for index, path in enumerate(paths):
        shown = f"{{{' '.join(attrs)}}}" if attrs and index == 0 else ""
        out += [f"![{caption if index == 0 else ''}]({path}){shown}", ""]
    return out


class Cells:
    """Rewrites the cells of a book's chapters; counts them for one note per book."""

    def __init__(self, report: Report) -> None:
        self.report = report
        # A captioned cell's label → the listing id it became (``fig-plot`` → ``lst:plot``):
        # references to the figure it would draw name the code that draws it.
        self.renamed: dict[str, str] = {}

    def convert(self, lines: Lines) -> Lines:
        if "```" not in lines.text and "~~~" not in lines.text:
            return lines
        texts = lines.text.split("\n")
        out: list[str] = []
        where: list[Origin] = []
        index = 0
        while index < len(texts):
            fence = opening(texts[index])
            if fence is None:
                out.append(texts[index])
                where.append(lines.origins[index])
                index += 1
                continue
            end = index + 1
            while end < len(texts) and not fence.closes(texts[end]):
                end += 1
            block = texts[index : min(end + 1, len(texts))]
            origins = list(lines.origins[index : min(end + 1, len(texts))])
            new = self.cell(fence.prefix, fence.marker, fence.info, block, lines.origins[index])
            if new is None:
                out += block
                where += origins
            else:
                out += new
                where += [lines.origins[index]] * len(new)
                if len(new) == len(block):
                    where[-len(new) :] = origins
            index = end + 1
        return Lines("\n".join(out), tuple(where))

    def cell(
        self, prefix: str, marker: str, info: str, block: list[str], origin: Origin
    ) -> list[str] | None:
        escaped = ESCAPED.match(info.strip())
        if escaped:  # ```{{python}}: the cell shown as written, its header included
            self.report.count("escaped cell")
            outer = marker + marker[0]
            header = "{" + escaped.group("engine") + escaped.group("rest") + "}"
            body = block[1:-1] if len(block) > 1 else []
            return [
                f"{prefix}{outer}",
                f"{prefix}{marker}{header}",
                *body,
                f"{prefix}{marker}",
                f"{prefix}{outer}",
            ]
        cell = parse_header(info)
        if cell is None:
            return None
        code = block[1:-1] if len(block) > 1 else []
        kept: list[str] = []
        for line in code:
            option = OPTION_LINE.match(line)
            if option is not None and not kept:
                cell.options[option.group("key").replace(".", "-")] = unquote(option.group("value"))
                continue
            kept.append(line)
        cell.label = cell.options.pop("label", cell.label)
        figure = figure_lines(cell, kept)
        if figure is not None:
            self.report.count("include_graphics figure")
            return [f"{prefix}{line}" if line else "" for line in figure]
        self.note(Location(origin[0], origin[1]))
        language = LANGUAGES.get(cell.engine, cell.engine)
        closing = block[-1] if len(block) > 1 and block[-1].strip().startswith(marker[0]) else ""
        caption = next((cell.options[k] for k in CAPTIONS if cell.options.get(k)), "")
        caption = caption or table_caption(kept)
        if cell.label and caption:  # its output is referred to: the code, as a listing
            name = LABEL_KIND.sub("", cell.label)
            self.renamed[cell.label] = f"lst:{name}"
            self.report.count("captioned cell shown as a listing")
            attrs = f'.{language} #lst:{name} caption="{quote_attr(caption)}"'
            return [f"{prefix}{marker}{{{attrs}}}", *kept, closing or f"{prefix}{marker}"]
        if false(cell.options.get("include")) or false(cell.options.get("echo")):
            self.report.count("code cell hidden")
            return []
        self.report.count("code cell shown")
        return [f"{prefix}{marker}{language}", *kept, closing or f"{prefix}{marker}"]

    def note(self, where: Location) -> None:
        if any(n.code == "CELL001" for n in self.report.notes):
            return
        self.report.info(
            "CELL001",
            "code cells are shown as code, not run: their output (figures, tables, printed "
            "values) is not in the book; cells with include or echo false are left out",
            where,
        )
