"""Fixing a heading keeps its address: a heading whose identifier a fix would change gets
its old identifier written out (``# H100은 빠르다 {#h100는-빠르다}``).

pandoc derives a heading's identifier from its text, so a correct prose fix in a
heading (KO009 ``H100는`` → ``H100은``, KO004's full-width letters) moved the
identifier, and every link to it broke: ``[앞 절](#h100는-빠르다)`` in the same file,
``[…](02-x.md#…)`` from another chapter, the HTML site's section address a reader
bookmarked.  Rewriting every link in the book instead would still break the
addresses outside it; writing the old identifier keeps them all.  The proof
(:mod:`.proof`) compares every heading's identifier, and :func:`pin_identifiers`
writes the old ones into the fixed text before it is proven again.
"""

from __future__ import annotations

import re

from ..source.document import parser

CLOSING = re.compile(r"[ \t]+#+[ \t]*$")
ATTRIBUTES = re.compile(r"\{([^{}]*)\}[ \t]*$")


def heading_lines(text: str) -> list[int]:
    """The 0-based line of each heading's text, in document order (a setext heading's
    last text line, where pandoc reads its attributes)."""
    lines = []
    for token in parser().parse(text):
        if token.type == "heading_open" and token.map:
            setext = token.markup.startswith(("=", "-"))
            lines.append(token.map[1] - 2 if setext else token.map[0])
    return lines


def pinned(line: str, ident: str) -> str:
    """``line`` (a heading's) with ``{#ident}``, merged into an attribute block it has; an
    ATX heading's optional closing ``#``s go (pandoc reads attributes at the line's end)."""
    body = line.rstrip()
    if body.lstrip().startswith("#"):
        body = CLOSING.sub("", body)
    block = ATTRIBUTES.search(body)
    if block is None:
        return f"{body} {{#{ident}}}"
    inner = block.group(1).strip()
    return body[: block.start()] + "{#" + ident + (" " + inner if inner else "") + "}"


def pin_identifiers(text: str, changed: dict[int, str]) -> str | None:
    """``text`` with heading number ``i`` (in document order) given identifier
    ``changed[i]``; None when the headings cannot be told apart here (then the fix that
    moved the identifier is not written)."""
    lines = text.split("\n")
    found = heading_lines(text)
    if not changed or max(changed) >= len(found):
        return None
    for index, ident in changed.items():
        number = found[index]
        lines[number] = pinned(lines[number], ident)
    return "\n".join(lines)
