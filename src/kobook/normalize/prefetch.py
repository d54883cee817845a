"""The chapters' parses made before the fixes, a few pandoc processes for the whole book.

A cold build has pandoc read each chapter's text at least once: the proof of the
fixes reads the original (:mod:`kobook.check.proof`), and a chapter with no fix is
read by the parse stage as it is.  One pandoc process per chapter costs about twice
what pandoc needs for the text (each process builds its heap anew), so those
originals are read here, all at once (:func:`~kobook.parse.pandoc.markdown_to_asts`,
two processes for two cores), and each AST is put where the later stage looks
first: the proof's masked AST, and the parse stage's AST of the text.  What this
could not read is read again by that stage on its own, which reports pandoc's error
with the chapter's file and line.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..cache import Cache
from ..model import Book, Chapter
from ..parse import ast_key, keep_parse, reader_for
from ..parse.pandoc import READER, markdown_to_asts


@dataclass
class Wanted:
    """A chapter whose original text a later stage would have pandoc read alone."""

    chapter: Chapter
    body: str  # what the proof reads (the text without its front matter)
    proof: bool  # the proof's masked AST is not in the cache
    parse: bool  # the parse stage's AST of the text is not in the cache


def wanted(book: Book, cache: Cache, rules: Any) -> list[Wanted]:
    """The chapters read with the build's reader whose parses are not in ``cache``: their
    fixes not kept (so the proof will read the original), or no fixes at all."""
    from ..check.proof import apart, masked_name
    from . import normalized_key

    found = []
    for chapter in book.chapters:
        if reader_for(chapter) != READER:  # the proof reads with READER, this chapter not
            continue
        if rules is not None and cache.get(
            "normalized", normalized_key(chapter, rules, book.config.lang), ".json"
        ):
            continue  # fixed before: neither the proof nor (usually) the parse needs it
        _front, body = apart(chapter.text)
        proof = rules is not None and cache.get("proof", masked_name(body), ".json") is None
        parse = body == chapter.text and cache.get("ast", ast_key(READER, body), ".json") is None
        if proof or parse:
            found.append(Wanted(chapter, body, proof, parse))
    return found


def halves(items: list[Wanted]) -> list[list[Wanted]]:
    """Two batches of about the same size of text (two pandoc processes, two cores)."""
    batches: list[list[Wanted]] = [[], []]
    sizes = [0, 0]
    for item in sorted(items, key=lambda w: -len(w.body)):
        lighter = sizes.index(min(sizes))
        batches[lighter].append(item)
        sizes[lighter] += len(item.body)
    return [batch for batch in batches if batch]


def prefetch_parses(book: Book, cache: Cache, rules: Any) -> int:
    """Parse what :func:`wanted` finds in one go and keep it; how many were kept.

    The texts have passed the pipeline's guard (LIMIT001/002) before this runs.
    """
    from ..check.proof import keep_masked

    items = wanted(book, cache, rules)
    if len(items) < 2:  # one text: the stage's own run costs the same
        return 0
    with ThreadPoolExecutor(max_workers=2) as pool:
        batches = halves(items)
        results = pool.map(lambda batch: markdown_to_asts([w.body for w in batch]), batches)
        kept = 0
        for batch, asts in zip(batches, results, strict=True):
            for item, ast in zip(batch, asts, strict=True):
                if ast is None:
                    continue
                if item.parse:  # first: keep_masked changes the AST
                    keep_parse(item.chapter, READER, ast, cache)
                if item.proof:
                    keep_masked(item.body, ast, cache)
                kept += 1
    return kept
