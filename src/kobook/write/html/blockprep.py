"""The site's preparation of a chapter, block by block, for a process that prepares it again
and again.

``kobook preview`` makes the edited chapter's page on every save, and
:func:`~kobook.write.html.writer.prepare` (the sanitizer, then the site's passes)
went over the whole chapter each time, for the one paragraph that changed.
Each of those steps looks at one node at a time, with one exception: the
sanitizer, after an unclosed ``<script>`` (or another element dropped with
its content), drops what follows until its end tag, in later blocks too.  So
:class:`KeptPrepare` keeps each top-level block's prepared blocks under its
content and what it was prepared for (the pages the ids live on, the page, its language),
with the sanitizer's notes; a block that leaves the sanitizer dropping sends
the chapter back to :func:`~kobook.write.html.writer.prepare`.  The notes are replayed
in the whole chapter's order (first every block's attribute notes, then the
rebuild's), so the warnings are the same too.
"""

from __future__ import annotations

import hashlib
import marshal
from dataclasses import dataclass
from typing import Any

from ...errors import Diagnostic
from ...model import Book, Doc
from ...parse.ast import copy_tree, walk
from ..shared.sanitize import Note, Sanitizer, clean_attributes
from .writer import is_korean, page_name, prepare, site_passes

LIMIT = 50_000  # blocks kept (a prepared block: a few hundred bytes)


@dataclass(frozen=True)
class Prepared:
    """One top-level block, prepared: its blocks (marshalled: never shared) and the
    sanitizer's notes, those of the attributes and those of the rebuild."""

    out: bytes
    attribute_notes: list[Note]
    rebuild_notes: list[Note]


def prepare_alone(block: Any, doc: Doc, book: Book, pages: dict[str, str]) -> Prepared | None:
    """``block`` prepared on its own; None when it leaves the sanitizer dropping what follows."""
    notes: list[Note] = []
    sanitizer = Sanitizer(doc.chapter, notes=notes)
    blocks = [copy_tree(block)]
    rebuild = clean_attributes(sanitizer, blocks)
    attribute_notes = list(notes)
    cleaned = walk(blocks, sanitizer.node) if rebuild else blocks
    if sanitizer.dropping:
        return None
    out = site_passes(cleaned, book, pages, page_name(doc), korean=is_korean(doc, book))
    return Prepared(marshal.dumps(out), attribute_notes, notes[len(attribute_notes) :])


class KeptPrepare:
    """The prepared blocks met before, kept; a chapter prepared as :func:`prepare` does.

    Safe to share between threads (the preview makes two pages at once): at
    worst two of them prepare the same new block.
    """

    def __init__(self) -> None:
        self._kept: dict[bytes, Prepared] = {}

    def clear(self) -> None:
        """Forget every block (the book's settings changed: the headings' words)."""
        self._kept.clear()

    def prepare(
        self, doc: Doc, book: Book, pages: dict[str, str]
    ) -> tuple[list[Any], list[Diagnostic]]:
        """:func:`prepare`'s blocks and warnings for ``doc``, from the blocks kept."""
        what = marshal.dumps((sorted(pages.items()), page_name(doc), is_korean(doc, book)))
        context = hashlib.blake2b(what, digest_size=16).digest()
        pieces: list[Prepared] = []
        for block in doc.blocks:
            key = hashlib.blake2b(marshal.dumps(block) + context, digest_size=16).digest()
            piece = self._kept.get(key)
            if piece is None:
                piece = prepare_alone(block, doc, book, pages)
                if piece is None:  # it drops what follows: the chapter as a whole
                    return prepare(doc, book, pages)
                if len(self._kept) >= LIMIT:
                    self._kept.clear()
                self._kept[key] = piece
            pieces.append(piece)
        sanitizer = Sanitizer(doc.chapter)
        for piece in pieces:
            for note in piece.attribute_notes:
                sanitizer.note(*note)
        for piece in pieces:
            for note in piece.rebuild_notes:
                sanitizer.note(*note)
        blocks = [block for piece in pieces for block in marshal.loads(piece.out)]
        return blocks, sanitizer.diagnostics()
