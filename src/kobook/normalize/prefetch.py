"""What pandoc reads for the fixes and the parse, read for the whole book in one go.

A cold build has pandoc read each chapter at least once: the proof of the fixes
reads the original and each fixed text (:mod:`kobook.check.proof`), and the
parse stage reads a chapter that needed no fix.  One pandoc process per text
costs about twice what pandoc needs for it (each process builds its heap anew),
so here every chapter's fixes are made first (the checks, in Python), then every
text those proofs and parses need is read at once
(:func:`~kobook.parse.pandoc.markdown_to_json`, two processes for two cores), and
each AST is put where the later stage looks first: the proof's masked AST, and
the parse stage's AST of a text that may be the chapter's in the end.  The fixes
made here are handed to the normalize stage (:class:`Made`), so nothing is
checked twice.  What this could not read is read by that stage on its own, which
reports pandoc's error with the chapter's file and line.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..cache import Cache
from ..errors import KobookError
from ..model import Book, Chapter
from ..parse import ast_key, keep_parse, reader_for
from ..parse.pandoc import READER, decoded, markdown_to_json

if TYPE_CHECKING:
    from . import NormalizingChapter


@dataclass
class Wanted:
    """A text a later stage would have pandoc read alone."""

    chapter: Chapter
    text: str
    proof: bool  # the proof reads it (its body: the text without front matter)
    parse: bool  # it may be the chapter's text in the end: the parse stage reads it


@dataclass
class Made:
    """The chapters whose fixes :func:`prefetch_parses` made, by chapter id and text."""

    chapters: dict[tuple[str, str], NormalizingChapter] = field(default_factory=dict)

    def take(self, chapter: Chapter) -> NormalizingChapter | None:
        return self.chapters.pop((chapter.id, chapter.text), None)


def wanted(book: Book, cache: Cache, rules: Any, made: Made) -> list[Wanted]:
    """The texts the proofs and the parse stage would read, not in ``cache``; the chapters
    whose fixes are not kept get them made (into ``made``) to know which."""
    from . import NormalizingChapter, normalized_key

    found: list[Wanted] = []
    for chapter in book.chapters:
        if reader_for(chapter) != READER:  # the proof reads with READER, this chapter not
            continue
        if rules is None:
            found.append(Wanted(chapter, chapter.text, False, True))
            continue
        if cache.get("normalized", normalized_key(chapter, rules, book.config.lang), ".json"):
            continue  # fixed before: neither the proof nor (usually) the parse needs it
        fixing = NormalizingChapter(chapter, rules, book.config.lang, cache, later=True)
        made.chapters[(chapter.id, chapter.text)] = fixing
        texts = fixing.pending.to_parse if fixing.pending is not None else []
        if not texts:  # no fix: the parse stage reads the text as it is
            found.append(Wanted(chapter, chapter.text, False, True))
        for n, text in enumerate(texts):  # the original first, then each fixed text
            found.append(Wanted(chapter, text, True, n > 0))
    return [item for item in found if needed(item, cache)]


def needed(item: Wanted, cache: Cache) -> bool:
    """Does a later stage still need ``item`` read (its AST not in the cache)?"""
    from ..check.proof import apart, masked_name

    _front, body = apart(item.text)
    kept = unicodedata.is_normalized("NFC", item.text) and body == item.text
    item.parse = item.parse and kept and cache.get("ast", ast_key(READER, body), ".json") is None
    item.proof = item.proof and cache.get("proof", masked_name(body), ".json") is None
    return item.proof or item.parse


def halves(items: list[Wanted]) -> list[list[Wanted]]:
    """Two batches of about the same size of text (two pandoc processes, two cores)."""
    batches: list[list[Wanted]] = [[], []]
    sizes = [0, 0]
    for item in sorted(items, key=lambda w: -len(w.text)):
        lighter = sizes.index(min(sizes))
        batches[lighter].append(item)
        sizes[lighter] += len(item.text)
    return [batch for batch in batches if batch]


def prefetch_parses(book: Book, cache: Cache, rules: Any) -> Made:
    """Make the fixes, read what :func:`wanted` finds in one go and keep it; the fixes
    made, for the normalize stage.

    The texts have passed the pipeline's guard (LIMIT001/002) before this runs; a
    fixed text is checked here as the proof would check it.
    """
    from ..check.proof import apart, keep_masked
    from ..parse import guard

    made = Made()
    items = []
    for item in wanted(book, cache, rules, made):
        try:
            guard.check_text(apart(item.text)[1], None)  # what the proof refuses so
        except KobookError:  # the stage that reads it says why, with the file and line
            continue
        items.append(item)
    if len(items) < 2:  # one text: the stage's own run costs the same
        return made
    with ThreadPoolExecutor(max_workers=2) as pool:
        batches = halves(items)
        read = pool.map(lambda batch: markdown_to_json([apart(w.text)[1] for w in batch]), batches)
        for batch, found in zip(batches, read, strict=True):
            for item, data in zip(batch, found, strict=True):
                ast = decoded(data)  # one AST at a time: a book's at once is hundreds of MB
                if ast is None:
                    continue
                if item.parse:  # first: keep_masked changes the AST
                    chapter = dataclasses.replace(item.chapter, text=item.text)
                    keep_parse(chapter, READER, ast, cache)
                if item.proof:
                    keep_masked(apart(item.text)[1], ast, cache)
    return made
