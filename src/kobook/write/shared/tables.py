"""Column widths for engines that do not size table columns from their content.

pandoc gives a pipe table's columns the shares of its dash lines, or none; a
browser and WeasyPrint size columns themselves, XeLaTeX and Typst take the
widths they are given.  :func:`table_widths` computes widths no column's
longest word overflows.
"""

from __future__ import annotations

import re
from typing import Any

from ...parse.ast import iter_nodes, stringify

Blocks = list[dict[str, Any]]


def display_width(text: str) -> int:
    """Rough width in Latin-letter units (Hangul and other wide characters count 2)."""
    return sum(2 if ord(c) > 0x2E80 else 1 for c in text)


# Table cells: \footnotesize (0.8 × the body size), \tabcolsep 6pt on each side; a
# Latin-letter unit of display_width is about half an em.
CELL_SCALE = 0.8
TABCOLSEP = 6.0
UNIT_EM = 0.55
# A table whose words do not fit is set at most this much smaller (of its cells' size).
MIN_SCALE = 0.7
SCALE_KEY = "kobook-cell-scale"


def table_widths(
    blocks: Blocks, line: int = 64, text_width: float | None = None, body_size: float = 10.0
) -> Blocks:
    """Give wide tables relative column widths so LaTeX wraps cells (``p{}`` columns).

    pandoc keeps pipe tables at their natural width, which runs off the page
    when the cells are long; browsers and WeasyPrint shrink tables on their own.
    With ``text_width`` (points), no column of a table with widths (pandoc's,
    from a pipe table's dashes, or ours) is narrower than its longest word:
    ``그래디언트`` in a column of 5 % ran 12 pt into the next cell.  When the longest
    words alone are wider than the text, the table gets a ``kobook-cell-scale``
    attribute: the type size (at least :data:`MIN_SCALE` of the cells') at which they
    fit, for an engine that can set the table smaller (Typst).
    """
    for node in iter_nodes(blocks):
        if node["t"] != "Table":
            continue
        colspecs = node["c"][2]
        widths = [0] * len(colspecs)
        words = [0] * len(colspecs)
        rows = list(node["c"][3][1])
        for body in node["c"][4]:
            rows += body[3]
        for row in rows:
            for index, cell in enumerate(row[1][: len(widths)]):
                text = stringify(cell[4])
                widths[index] = max(widths[index], display_width(text))
                longest = max((display_width(w) for w in text.split()), default=0)
                words[index] = max(words[index], longest)
        if any(spec[1]["t"] != "ColWidthDefault" for spec in colspecs):
            shares = [
                float(spec[1]["c"]) if spec[1]["t"] == "ColWidth" else 1 / len(colspecs)
                for spec in colspecs
            ]
        elif sum(widths) + 3 * len(widths) <= line:
            continue  # natural widths: LaTeX sizes the columns to their content
        else:
            shares = [max(w, 8) for w in widths]
        fractions = [0.98 * share / sum(shares) for share in shares]
        if text_width:
            room = text_width - 2 * TABCOLSEP * len(colspecs)
            size = CELL_SCALE * body_size
            least = [(w * UNIT_EM * size + 1.0) / room for w in words] if room > 0 else []
            fractions = at_least(fractions, least) if least else fractions
            if least and sum(least) > sum(fractions):  # its longest words alone are too wide
                scale = max(MIN_SCALE, sum(fractions) / sum(least))
                node["c"][0][2] = [*node["c"][0][2], [SCALE_KEY, f"{scale:.3f}"]]
        for spec, fraction in zip(colspecs, fractions, strict=True):
            spec[1] = {"t": "ColWidth", "c": round(fraction, 4)}
    return blocks


def at_least(fractions: list[float], least: list[float]) -> list[float]:
    """``fractions`` (summing to ``total``) with each at least its ``least``, the others
    shrunk in proportion to make room.  When the minimums alone are more than the
    table's width, they share it in their proportions (the table stays on the page)."""
    total = sum(fractions)
    if sum(least) >= total:
        return [total * m / sum(least) for m in least]
    fixed: dict[int, float] = {}
    while True:
        free = [i for i in range(len(fractions)) if i not in fixed]
        room = total - sum(fixed.values())
        weight = sum(fractions[i] for i in free)
        scaled = {i: room * fractions[i] / weight for i in free} if weight else {}
        short = [i for i in free if scaled[i] < least[i]]
        if not short:
            return [fixed.get(i, scaled.get(i, 0.0)) for i in range(len(fractions))]
        for i in short:
            fixed[i] = least[i]


EMPTY_HEADER_CELL = re.compile(r"<th\b([^>]*)>\s*</th>")


def empty_header_cells(html: str) -> str:
    """An empty header cell (a table's top-left corner) written as a data cell: a header
    with no text announces nothing to a screen reader (axe and Ace's
    ``empty-table-header``), and pandoc's HTML writers have no other way to say it."""
    return EMPTY_HEADER_CELL.sub(r"<td\1></td>", html)
