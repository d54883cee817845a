"""The ledger's differences: each construct of the transformed book an output does not
hold, as a warning at the construct's source line (LOST001 text, LOST002 an element,
LOST003 a script drawn as plain text).

A construct already reported at its line by the build (LEAK002 for raw HTML an
engine drops, an image that could not be read, a formula that could not be drawn)
is explained, and not reported twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from ..errors import Diagnostic, Location
from .expected import Element, Expected, Passage
from .found import Found

SHOWN = 60  # characters of a lost passage in the message


def differences(
    book: Expected,
    output: Found,
    explained: set[tuple[str, int]],
    boxes: set[str] | frozenset[str] = frozenset(),
) -> list[Diagnostic]:
    """Every construct of ``book`` that ``output`` lacks, unless ``explained`` (a file and
    line already reported) or drawn with a character no font has (``boxes``)."""
    passages = [p for p in book.passages if not boxes.intersection(p.text)]
    found = [*lost_passages(passages, output, explained), *lost_scripts(book, output)]
    found += lost_elements(book.elements, output)
    return [d for d in found if (str(d.location.file), d.location.line) not in explained]


def lost_passages(
    passages: list[Passage], output: Found, explained: set[tuple[str, int]]
) -> Iterator[Diagnostic]:
    search = Search(output.text)
    for passage in passages:
        file, line = str(passage.where.file), passage.where.line
        if any((file, line + n) in explained for n in range(1, passage.lines)):
            continue  # a raw HTML block reported at one of its lines
        if passage.probes and not any(search.finds(probe) for probe in passage.probes):
            shown = passage.text if len(passage.text) <= SHOWN else passage.text[:SHOWN] + "…"
            yield warning(
                "LOST001",
                f"{passage.what} {shown!r} is not in {output.label}",
                passage.where,
                "a writer dropped it: report it to kobook with the file and line; "
                "--strict fails the build until it is fixed",
            )


class Search:
    """Probes looked for in an output's text, in the book's order.

    An output keeps the book's order but for what floats (figures, notes at the foot
    of a page or the end of a chapter), so each probe is looked for near the last one
    found: first just after it, then just before it; and only then in the rest of the
    text, after it and before it.  The cursor moves to wherever the probe was found,
    so a probe that also stands further on (a line of code a chapter repeats) costs
    one search of the text, not a search of the text for every probe after it: a
    book's check stays close to linear in its length.
    """

    WINDOW = 20_000  # letters either side of the last find that are searched first

    def __init__(self, text: str) -> None:
        self.text = text
        self.cursor = 0
        self.far = 0  # searches that left the window (for tests)

    def finds(self, probe: str) -> bool:
        text, cursor, size = self.text, self.cursor, len(probe)
        at = text.find(probe, cursor, cursor + self.WINDOW + size)
        if at < 0:
            at = text.rfind(probe, max(cursor - self.WINDOW, 0), cursor + size)
        if at < 0:
            self.far += 1
            at = text.find(probe, cursor)
            if at < 0:
                at = text.rfind(probe, 0, cursor + size)
        if at < 0:
            return False
        self.cursor = at
        return True


def lost_scripts(book: Expected, output: Found) -> Iterator[Diagnostic]:
    lists = {"superscript": output.superscripts, "subscript": output.subscripts}
    left = {kind: Counter(found) for kind, found in lists.items() if found is not None}
    for script in book.scripts:
        if script.kind in left:
            if left[script.kind][script.text] > 0:
                left[script.kind][script.text] -= 1
                continue
            yield warning(
                "LOST002",
                f"{script.kind} {script.text!r} is not in {output.label}",
                script.where,
                "a writer dropped the element: report it to kobook with the file and line",
            )
        elif output.script_check is not None and (
            output.script_check(script.before, script.text, script.kind) is False
        ):
            yield warning(
                "LOST003",
                f"{script.kind} {script.text!r} is printed as plain text in {output.label}"
                f" ({script.before}{script.text})",
                script.where,
                "a writer drew it on the line: report it to kobook with the file and line",
            )


def lost_elements(elements: list[Element], output: Found) -> Iterator[Diagnostic]:
    """Headings by identifier and links by address; images, tables, footnotes and display
    math by count (when an output holds fewer, the last ones of the book are named)."""
    counts = {"table": output.tables, "footnote": output.footnotes}
    counts["display math"] = output.display_math
    counts["image"] = None if output.images is None else len(output.images)
    for kind, have in counts.items():
        mine = [e for e in elements if e.kind == kind]
        if have is not None and have < len(mine):
            for element in mine[have:]:
                yield missing(kind, "", element.where, output, len(mine) - have)
    for element in elements:
        kept = {"heading": output.ids, "link": output.links}.get(element.kind)
        if kept is not None and element.key not in kept:
            key = f"#{element.key}" if element.kind == "heading" else element.key
            yield missing(element.kind, key, element.where, output)


def missing(kind: str, key: str, where: Location, output: Found, many: int = 1) -> Diagnostic:
    what = f"{kind} {key}".strip()
    extra = f" ({many} of them)" if many > 1 else ""
    return warning(
        "LOST002",
        f"{what} is not in {output.label}{extra}",
        where,
        "a writer dropped it: report it to kobook with the file and line",
    )


def warning(code: str, message: str, where: Location, hint: str) -> Diagnostic:
    return Diagnostic(code, message, where, hint, severity="warning")
