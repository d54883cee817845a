"""The edited chapter's AST, foretold from its last one while pandoc parses the whole chapter.

A save in ``kobook preview`` usually changes one paragraph.  pandoc takes a
tenth of a second or more to parse a long chapter, and the transforms and
the page waited for it.  The paragraph alone (with the one it replaces) is
parsed in a few milliseconds, and spliced into the chapter's last AST in
place of the blocks the old paragraph made, it is what pandoc will give,
nearly always: not when the paragraph leans on the rest of the chapter (a
reference link, a footnote, a list it continues, a heading's identifier).
So the session builds the page from the foretold AST while pandoc parses,
and compares the two before anything is shown: only an AST equal to
pandoc's own is used, so the page is the one a full build makes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import KobookError
from ..parse.ast import iter_nodes
from ..parse.pandoc import markdown_to_ast

# Between the old paragraph and the new one in the one pandoc run that parses both.
SEPARATOR = "<!-- kobook: the paragraph before this one is the old one -->"
SEPARATOR_BLOCK = {"t": "RawBlock", "c": ["html", SEPARATOR]}
# A paragraph larger than this (characters, old and new) is not worth foretelling.
MAX_PARAGRAPHS = 20_000


def edited_paragraphs(old: str, new: str) -> tuple[str, str] | None:
    """The paragraphs around what changed from ``old`` to ``new``: their old and new text.

    The lines that differ, widened to the blank lines around them.  None
    when nothing changed, or the change reaches the chapter's first line
    (front matter).
    """
    old_lines, new_lines = old.split("\n"), new.split("\n")
    shortest = min(len(old_lines), len(new_lines))
    start = 0
    while start < shortest and old_lines[start] == new_lines[start]:
        start += 1
    if start == len(old_lines) == len(new_lines):
        return None
    same_end = 0
    while same_end < shortest - start and old_lines[-1 - same_end] == new_lines[-1 - same_end]:
        same_end += 1
    while start > 0 and old_lines[start - 1].strip():
        start -= 1
    old_end, new_end = len(old_lines) - same_end, len(new_lines) - same_end
    while old_end < len(old_lines) and old_lines[old_end].strip():  # the same lines in both
        old_end, new_end = old_end + 1, new_end + 1
    if start == 0:
        return None
    return "\n".join(old_lines[start:old_end]), "\n".join(new_lines[start:new_end])


@dataclass(frozen=True)
class Foretold:
    """A chapter's blocks as pandoc will most likely parse them."""

    blocks: list[Any]
    # The old or the new paragraph holds a heading: its automatic id depends on the others.
    headings: bool


def foretold(old_text: str, old_blocks: list[Any], new_text: str, reader: str) -> Foretold | None:
    """``new_text``'s blocks as pandoc will most likely parse them; None when not foretold.

    ``old_blocks`` is pandoc's AST of ``old_text``.  The old paragraph's
    blocks must occur exactly once in it.
    """
    found = edited_paragraphs(old_text, new_text)
    if found is None:
        return None
    old_par, new_par = found
    if not old_par.strip() or len(old_par) + len(new_par) > MAX_PARAGRAPHS:
        return None
    try:
        both = f"{old_par}\n\n{SEPARATOR}\n\n{new_par}\n"
        blocks = markdown_to_ast(both, reader=reader)["blocks"]
    except KobookError:
        return None
    if blocks.count(SEPARATOR_BLOCK) != 1:
        return None
    split = blocks.index(SEPARATOR_BLOCK)
    before, after = blocks[:split], blocks[split + 1 :]
    size = len(before)
    if not size:
        return None
    first = before[0]
    places = [
        i
        for i in range(len(old_blocks) - size + 1)
        if old_blocks[i] == first and old_blocks[i : i + size] == before
    ]
    if len(places) != 1:
        return None
    place = places[0]
    headings = any(node["t"] == "Header" for node in iter_nodes(blocks))
    return Foretold([*old_blocks[:place], *after, *old_blocks[place + size :]], headings)


def same_but_automatic_ids(made: Any, proof: Any) -> bool:
    """Is ``made`` (by the build's reader) what ``proof`` is (the same text by the proof's
    reader, which makes no automatic identifiers), but for what those ids make?

    Headings the proof left without an id may have any, and links the proof
    points at ``#`` (implicit references to headings) any heading's ``#id``.  Used for a
    foretold AST whose edited paragraphs hold no heading: its other headings
    are the last AST's, so are their ids, and so are the links to them.
    """
    ids: set[str] = set()

    def heading_ids() -> set[str]:
        if not ids:
            ids.update(n["c"][1][0] for n in iter_nodes(made) if n["t"] == "Header")
        return ids

    stack = [(made, proof)]
    while stack:
        ours, theirs = stack.pop()
        if ours == theirs:
            continue
        if type(ours) is not type(theirs):
            return False
        if isinstance(ours, list):
            if len(ours) != len(theirs):
                return False
            stack.extend(zip(ours, theirs, strict=True))
        elif isinstance(ours, dict):
            kind = ours.get("t")
            if ours.keys() != theirs.keys() or kind != theirs.get("t"):
                return False
            if kind == "Header":
                (level, (ident, classes, pairs), inlines) = ours["c"]
                (level2, (ident2, classes2, pairs2), inlines2) = theirs["c"]
                if (level, classes, pairs) != (level2, classes2, pairs2):
                    return False
                if ident2 and ident != ident2:
                    return False
                stack.append((inlines, inlines2))
            elif kind == "Link":
                (attributes, inlines, (url, title)) = ours["c"]
                (attributes2, inlines2, (url2, title2)) = theirs["c"]
                if attributes != attributes2 or title != title2:
                    return False
                if url != url2 and not (url2 == "#" and url[1:] in heading_ids()):
                    return False
                stack.append((inlines, inlines2))
            else:
                stack.extend((ours[key], theirs[key]) for key in ours)
        else:
            return False
    return True
