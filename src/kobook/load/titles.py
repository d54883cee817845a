"""The repository's table of contents names its chapters: its titles win over the files'.

A translation's ``SUMMARY.md`` (or ``mkdocs.yml``'s ``nav``, ``_quarto.yml``)
is often translated before the chapters are: the Korean Rust book's table of
contents says "일반 컬렉션" over a file still headed "Common Collections".  The
repository's tool shows its own table of contents in its sidebar; a book has one
title per chapter, in its table of contents, its bookmarks and its opening page,
so the table of contents' title becomes the file's top heading.  The heading
keeps the id its own text gave it, so links written to it still land, and the
replaced title is reported (info) where the file has it.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from ..errors import Diagnostic, Location
from ..model.origins import Lines
from ..source.headings import heading_levels
from .splitting import ATTRS, clean_title, strip_markup

INLINE_MARKUP = re.compile(r"[*`~]+|(?<!\w)_+|_+(?!\w)|\\(?=.)")
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")


def plain(title: str) -> str:
    """A title's words without Markdown markup (for comparing two spellings of one title)."""
    return " ".join(INLINE_MARKUP.sub("", LINK.sub(r"\1", title)).split())


def pandoc_id(title: str) -> str:
    """The identifier pandoc's ``auto_identifiers`` gives a heading titled ``title``.

    Letters, digits, ``_``, ``-`` and ``.`` are kept, spaces become ``-``, letters
    are lower-cased and everything before the first letter goes ("section" if
    nothing is left).
    """
    text = plain(title).lower()
    kept = "".join(
        c if c.isalnum() or c in "_-." else "-" if c.isspace() else ""
        for c in unicodedata.normalize("NFC", text)
    )
    first = next((i for i, c in enumerate(kept) if c.isalpha()), None)
    return kept[first:] if first is not None else "section"


def with_id(raw: str, ident: str) -> str:
    """Heading text ``raw`` with the id ``ident`` added (its own ``{#id}`` wins)."""
    match = ATTRS.search(raw)
    if match is None:
        return f"{raw} {{#{ident}}}"
    attrs = match.group(1).split()
    if any(a.startswith("#") for a in attrs):
        return raw
    return f"{raw[: match.start()].rstrip()} {{#{ident} {' '.join(attrs)}}}"


def with_class(raw: str, name: str) -> str:
    """Heading text ``raw`` with the class ``name`` added to its attributes."""
    match = ATTRS.search(raw)
    if match is None:
        return f"{raw} {{.{name}}}"
    attrs = match.group(1).split()
    if f".{name}" in attrs:
        return raw
    return f"{raw[: match.start()].rstrip()} {{{' '.join([*attrs, '.' + name])}}}"


def unnumbered_below_top(lines: Lines) -> Lines:
    """``lines`` (one file) with every heading after its first marked unnumbered.

    mdBook numbers what ``SUMMARY.md`` lists (chapters, their section files),
    never the headings inside a page; a book built from one keeps that shape.
    """
    found = heading_levels(lines.text)
    if len(found) < 2:
        return lines
    texts = lines.text.split("\n")
    for index, level, raw in found[1:]:
        texts[index] = f"{'#' * level} {with_class(raw, 'unnumbered')}"
    return Lines("\n".join(texts), lines.origins)


def retitle(lines: Lines, title: str, table: str) -> tuple[Lines, Diagnostic | None]:
    """``lines`` (one file) with its top heading titled ``title`` when its own title differs.

    The top heading is the first heading with nothing but blank lines before it;
    a file without one is left alone (its chapter gets the title elsewhere).
    ``table`` names the file the title comes from, for the note.
    """
    title = " ".join(title.split())
    found = heading_levels(lines.text)
    if not title or not found:
        return lines, None
    index, level, raw = found[0]
    texts = lines.text.split("\n")
    if any(line.strip() for line in texts[:index]):
        return lines, None
    own, _unnumbered = clean_title(raw)
    if plain(own) == plain(title):
        return lines, None
    match = ATTRS.search(raw)
    attributes = match.group(0).strip() if match else ""
    new = with_id(f"{title} {attributes}".rstrip(), pandoc_id(own))
    texts[index] = f"{'#' * level} {new}"
    path, line = lines.origins[index]
    note = Diagnostic(
        "LOAD005",
        f"{table} titles this '{strip_markup(title)}': used instead of the file's heading "
        f"'{strip_markup(own)}'",
        Location(Path(path), line),
        "translate the heading, or give both the same title",
        "info",
    )
    return Lines("\n".join(texts), lines.origins), note
