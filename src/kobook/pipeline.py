"""The pipeline, run the same way by ``kobook build`` and ``kobook preview``:
load → dialect → guard → normalize → parse → transform, then the writers.

:class:`Pipeline` holds what a run is asked for (the project, ``--trust``,
``--keep-going``, offline) and runs each stage as one call.  What a caller keeps
between runs is given as :class:`Hooks`: the build passes the defaults, which keep
nothing; the preview passes its own (``preview/session.py``), which keep a chapter's
checked text, its fixed text and findings, its AST and every transform pass's result,
and foretell an edited chapter's AST.  The stages decide the same things either way
(which files are chapters, what the dialect converted, which templates are not used
without ``--trust``, which sources pandoc must not parse, the fixes, the passes and
their order), so the preview shows what the build would make.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import transform as transform_stage
from .cache import Cache
from .dialect import convert_book
from .errors import Diagnostic
from .load import load_book
from .model import Book, Chapter, Doc
from .normalize import NormalizeReport, Remaining, kept_normalize, normalize_book
from .normalize.prefetch import Made, prefetch_parses
from .parse import parse_book, reader_for
from .parse.guard import check_footnotes, check_source
from .transform import Context, Pass
from .transform.memo import fingerprint
from .transform.memo import load as memo_load
from .transform.memo import store as memo_store
from .transform.world import world_key
from .write.shared.templates import untrusted as untrusted_templates


@dataclass
class Memo:
    """What a caller that runs the stages again and again keeps between runs."""

    checked: set[tuple[str, str, int]] = field(default_factory=set)  # texts guard passed


@dataclass
class Front:
    """A loaded, converted and checked book, with what the stages said about it."""

    book: Book
    notes: list[str]  # what was chosen on the reader's behalf (which files are chapters)
    diagnostics: list[Diagnostic]  # the layout's notes, the dialect's report, SEC005


@dataclass
class Parsed:
    """A chapter ready for the transforms: the key of its AST and how to get the AST (a
    caller that keeps the passes' results may never need it)."""

    chapter: Chapter
    key: str
    load: Callable[[], Doc]


class Hooks:
    """The stages' memo hooks.  These defaults keep nothing between runs (the build's
    cache keeps a chapter's fixed text and AST on disk); a caller that runs the stages
    again and again overrides them."""

    memo: Memo | None = None  # the texts the guard passed
    made: Made | None = None  # the fixes :meth:`prefetch` made

    def prefetch(self, book: Book, cache: Cache) -> None:
        """Before the fixes: every text the proofs and the parse stage need, read in a
        few pandoc processes (:mod:`kobook.normalize.prefetch`)."""
        from .normalize import settings

        self.made = prefetch_parses(book, cache, settings(book))

    def normalize_chapter(
        self, chapter: Chapter, rules: Any, lang: str, cache: Cache | None
    ) -> tuple[str, list[Remaining]]:
        """One chapter's fixed text and the findings left in it."""
        made = self.made.take(chapter) if self.made is not None else None
        return kept_normalize(chapter, rules, lang, cache, made)

    def parse(self, book: Book, cache: Cache) -> list[Parsed]:
        """Every chapter's AST (two pandoc runs at a time)."""
        return [
            Parsed(doc.chapter, parsed_key(doc.chapter), functools.partial(given, doc))
            for doc in parse_book(book, cache)
        ]

    def run_passes(
        self, passes: list[tuple[str, Pass]], book: Book, ctx: Context, parsed: list[Parsed]
    ) -> tuple[list[Doc], list[str]]:
        """The passes in order, each over every chapter; the docs and their keys.

        A (pass, chapter) call whose inputs are those of the last build's is replayed
        from the cache (:mod:`kobook.transform.memo`), so an unchanged chapter costs
        next to nothing; the keys name the world too (:mod:`kobook.transform.world`).
        """
        world = world_key(book, ctx, ctx.outputs)
        memo = memo_load(ctx.cache, world)
        inputs = [(item.chapter, item.key, item.load) for item in parsed]
        docs, keys = memo.run(passes, book, ctx, inputs)
        if not any(isinstance(reason, str) for reason in ctx.remote.values()):
            memo_store(ctx.cache, world, memo)  # a failed download is tried again next time
        keys = [fingerprint(world, key) if world else "" for key in keys]
        for doc, key in zip(docs, keys, strict=True):
            doc.key = key
        return docs, keys


@dataclass
class Pipeline:
    """One project's stages, each one call; ``hooks``: what a caller keeps between runs."""

    root: Path
    trust: bool = False
    keep_going: bool = False
    offline: bool = False
    hooks: Hooks = field(default_factory=Hooks)

    def front(self) -> Front:
        """load → dialect → guard."""
        return front(self.root, trust=self.trust, memo=self.hooks.memo)

    def normalize(self, book: Book, cache: Cache) -> NormalizeReport:
        """The build-time fixes of every chapter, in place; what is left (per chapter too)."""
        self.hooks.prefetch(book, cache)
        return normalize_book(book, cache, self.hooks.normalize_chapter)

    def parse(self, book: Book, cache: Cache) -> list[Parsed]:
        """Every chapter's AST, or how to get it."""
        return self.hooks.parse(book, cache)

    def transform(
        self, book: Book, parsed: list[Parsed], cache: Cache, outputs: tuple[Path, ...] = ()
    ) -> tuple[list[Doc], Context, list[str]]:
        """:data:`~kobook.transform.PASSES` in order; the docs, the context, the docs' keys.

        ``outputs``: the folders the build writes into (no pass reads them).
        """
        ctx = Context(
            book=book,
            keep_going=self.keep_going,
            cache=cache,
            offline=self.offline,
            outputs=outputs,
        )
        # The stage's list, read when the stage runs (it owns the passes and their order).
        docs, keys = self.hooks.run_passes(transform_stage.PASSES, book, ctx, parsed)
        return docs, ctx, keys


def front(root: Path, *, trust: bool = False, memo: Memo | None = None) -> Front:
    """load → dialect → guard for the project ``root``."""
    book = load_book(root)
    book.trusted = trust
    notes = [f"chapters: {book.discovery}: " + ", ".join(chapter_names(book))]
    diagnostics = list(book.notes)
    diagnostics += untrusted_templates(book.root, trust)  # SEC005: not used, said once
    report = convert_book(book)  # the dialect stage: distill / mdBook → pandoc Markdown
    if report.converted:
        done = ", ".join(f"{name} ×{n}" for name, n in sorted(report.converted.items()))
        notes.append(f"dialect {book.config.get('dialect')}: converted {done}")
    diagnostics += report.problems + report.notes
    guard(book.chapters, memo)
    return Front(book, notes, diagnostics)


def guard(chapters: list[Chapter], memo: Memo | None = None) -> None:
    """LIMIT001/002/005 before any stage reads the text (the build-time fixes parse it
    too); with ``memo``, a text checked by an earlier run is not checked again."""
    checked = set()
    for chapter in chapters:
        key = (chapter.text, str(chapter.path), chapter.line_offset)
        if memo is None or key not in memo.checked:
            check_source(chapter)
        checked.add(key)
    if memo is not None:
        memo.checked = checked
    check_footnotes(chapters)


def chapter_names(book: Book) -> list[str]:
    """The chapter files relative to the project, each once, in reading order."""
    names: list[str] = []
    for chapter in book.chapters:
        try:
            name = chapter.path.relative_to(book.root).as_posix()
        except ValueError:
            name = str(chapter.path)
        if name not in names:
            names.append(name)
    return names


def parsed_key(chapter: Chapter) -> str:
    """The key of a chapter's AST: pandoc's reader and the text it reads."""
    return fingerprint("parsed", reader_for(chapter), chapter.text)


def given(doc: Doc) -> Doc:
    """``doc`` (a :class:`Parsed` of a chapter already parsed)."""
    return doc
