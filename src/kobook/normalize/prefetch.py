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
import functools
import unicodedata
from collections.abc import Callable
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
    from . import NormalizingChapter, normalize_text, normalized_key

    found: list[Wanted] = []
    for chapter in book.chapters:
        if reader_for(chapter) != READER:  # the proof reads with READER, this chapter not
            continue
        if rules is None:
            found.append(Wanted(chapter, normalize_text(chapter.text), False, True))
            continue
        if cache.get("normalized", normalized_key(chapter, rules, book.config.lang), ".json"):
            continue  # fixed before: neither the proof nor (usually) the parse needs it
        fixing = NormalizingChapter(chapter, rules, book.config.lang, cache, later=True)
        made.chapters[(chapter.id, chapter.text)] = fixing
        texts = fixing.pending.to_parse if fixing.pending is not None else []
        for n, text in enumerate(texts):  # the original first, then each fixed text
            found.append(Wanted(chapter, text, True, n > 0))
        # The parse stage reads the last one (the fixes the proof nearly always accepts), in
        # NFC, which the fixes leave for last: a chapter saved with decomposed Hangul (as
        # macOS names files) would otherwise be read again, by a pandoc of its own.
        final = normalize_text(texts[-1] if texts else chapter.text)
        if final not in texts:
            found.append(Wanted(chapter, final, False, True))
    return [item for item in found if needed(item, cache)]


def needed(item: Wanted, cache: Cache) -> bool:
    """Does a later stage still need ``item`` read (its AST not in the cache)?"""
    from ..check.proof import apart, masked_name

    _front, body = apart(item.text)
    kept = unicodedata.is_normalized("NFC", item.text) and body == item.text
    item.parse = item.parse and kept and cache.get("ast", ast_key(READER, body), ".json") is None
    item.proof = item.proof and cache.get("proof", masked_name(body), ".json") is None
    return item.proof or item.parse


# Characters of text from which two pandoc processes read it side by side, and from
# which the chapters' own texts are read while their checks run.  A pandoc process costs
# about 0.05 CPU s to start whatever it reads, and reads some 2,000 characters of Korean
# in a millisecond: below this, a second process (or an early one) saves a few
# hundredths of a second of wall time for more CPU than it saves (a rebuild of one
# edited chapter, a short book).
SPLIT_FROM = 50_000


def halves(texts: list[str]) -> list[list[str]]:
    """Two batches of about the same size of text (two pandoc processes, two cores); one
    below :data:`SPLIT_FROM` characters."""
    if sum(map(len, texts)) < SPLIT_FROM:
        return [texts] if texts else []
    batches: list[list[str]] = [[], []]
    sizes = [0, 0]
    for text in sorted(texts, key=lambda t: -len(t)):
        lighter = sizes.index(min(sizes))
        batches[lighter].append(text)
        sizes[lighter] += len(text)
    return [batch for batch in batches if batch]


Reading = Callable[[], "str | None"]


def read_in_halves(pool: ThreadPoolExecutor, texts: list[str]) -> dict[str, Reading]:
    """Start pandoc on ``texts`` (:func:`halves`, one process each); for each text, what
    waits for its JSON."""
    found: dict[str, Reading] = {}
    for batch in halves(texts):
        future = pool.submit(markdown_to_json, [body(text) for text in batch])
        for n, text in enumerate(batch):
            found[text] = functools.partial(lambda done, at: done.result()[at], future, n)
    return found


def prefetch_parses(book: Book, cache: Cache, rules: Any) -> Made:
    """Make the fixes, read what :func:`wanted` finds in one go and keep it; the fixes
    made, for the normalize stage.

    Every chapter's own text is wanted whatever its fixes turn out to be (the proof
    reads it first, or the parse reads it when there is none), so pandoc starts on those
    before the checks and reads while they run; the fixed texts are read after.  Below
    :data:`SPLIT_FROM` characters (an edited chapter, a short book) the checks come
    first and every text is read by one process.
    The texts have passed the pipeline's guard (LIMIT001/002) before this runs; a
    text is checked here as the proof would check it.
    """
    made = Made()
    with ThreadPoolExecutor(max_workers=2) as pool:
        first = [text for text in dict.fromkeys(originals(book, cache, rules)) if readable(text)]
        ahead = sum(map(len, first)) >= SPLIT_FROM  # else read with the fixed texts
        read = read_in_halves(pool, first) if ahead else {}
        items = wanted(book, cache, rules, made)  # the checks, while pandoc reads
        rest = dict.fromkeys(item.text for item in items if item.text not in read)
        if len(rest) >= 2 or read:  # one text alone: the stage's own run costs the same
            read.update(read_in_halves(pool, [text for text in rest if readable(text)]))
            for item in items:
                reading = read.get(item.text)
                keep(item, reading() if reading is not None else None, cache)
    return made


def originals(book: Book, cache: Cache, rules: Any) -> list[str]:
    """The chapters' own texts :func:`wanted` will find, known before their checks."""
    from . import normalized_key

    found = []
    for chapter in book.chapters:
        if reader_for(chapter) != READER:
            continue
        if rules is not None and cache.get(
            "normalized", normalized_key(chapter, rules, book.config.lang), ".json"
        ):
            continue
        if needed(Wanted(chapter, chapter.text, rules is not None, True), cache):
            found.append(chapter.text)
    return found


def body(text: str) -> str:
    """What pandoc reads of a chapter's text for the proof and the parse."""
    from ..check.proof import apart

    return apart(text)[1]


def readable(text: str) -> bool:
    """Does ``text`` pass what the proof refuses (else the stage that reads it says why,
    with the file and line)?"""
    from ..parse import guard

    try:
        guard.check_text(body(text), None)
    except KobookError:
        return False
    return True


def keep(item: Wanted, data: str | None, cache: Cache) -> None:
    """``item``'s AST (pandoc's JSON) where the later stage looks first."""
    from ..check.proof import keep_masked

    ast = decoded(data)  # one AST at a time: a book's at once is hundreds of MB
    if ast is None:
        return
    if item.parse:  # first: keep_masked changes the AST
        chapter = dataclasses.replace(item.chapter, text=item.text)
        keep_parse(chapter, READER, ast, cache)
    if item.proof:
        keep_masked(body(item.text), ast, cache)
