"""The transform passes of the last build, kept so a rebuild reruns only what changed.

Two callers keep it: ``kobook preview`` in memory between saves, and ``kobook
build`` in its cache between runs (:func:`load`, :func:`store`), under the key of
what else the passes read (:mod:`.world`), so that a warm build after a
one-paragraph edit runs the passes of that chapter only.

A pass is a function of its inputs: the chapter's AST as the previous pass left
it, the chapter itself (id, number, title, text, ...), the book's layout, and
the shared :class:`~kobook.transform.Context` state the earlier calls left
(targets, ids seen, counters, ...).  For each (pass, chapter) the memo keeps a
key of those inputs and what the call produced: the AST (marshalled, so no
later pass can change it in place), the context state after it, the
diagnostics it added and what it changed on the chapter (``headings`` sets the
title).  A rebuild walks the passes in the same order as
:func:`kobook.transform.transform_book`; a call whose key matches is replayed
instead of run.

The keys are cheap: an AST is named by the key of the call that made it (a
chain back to the chapter's parsed text), never hashed itself; only the
context state is hashed, after each call that really ran.  So an edit in one
paragraph reruns that chapter's passes, and another chapter's pass runs again
only when the state it sees changed (a figure added in chapter 2 renumbers
the figures after it, and the references to them).  Files outside the
chapters (images, the bibliography) are not in the keys: the session clears
the memo when one of them changes.

The ASTs are kept by a full build only.  A rebuild runs the edited chapter's
passes and keeps their state, not their ASTs: the next save of the chapter
runs them all again anyway, and when a later rebuild needs one of them (an
edit elsewhere renumbers its figures, so one of its passes runs again on the
output of the pass before) that output is made again, from the chapter's
parse, by the passes that made it, each given the context state it saw.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import marshal
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cache import Cache
from ..errors import Diagnostic, Location
from ..model import Book, Chapter, Doc
from .context import Context

Pass = Callable[[Doc, Context], Doc]

# Context fields that are no state of the passes: inputs fixed for the build,
# write-only output (diagnostics), and a map made from the book's chapters
# (``chapter_links``; its inputs are in the layout key).
NOT_STATE = {"book", "keep_going", "cache", "offline", "remote_limits", "diagnostics"}
NOT_STATE |= {
    "chapter_files",
    "remote_budget",
    "outputs",
}  # the budget: this build's time, not state
# Chapter fields a pass may set (``headings`` sets ``title``); the text index is a cache.
CHAPTER_FIELDS = [f.name for f in dataclasses.fields(Chapter) if not f.name.startswith("_")]


def fingerprint(*parts: Any) -> str:
    """A short stable key of ``repr(parts)``."""
    return hashlib.blake2b(repr(parts).encode("utf-8"), digest_size=16).hexdigest()


@functools.lru_cache(maxsize=128)
def text_key(text: str) -> str:
    """:func:`fingerprint` of a chapter's text, made once per text.

    :func:`chapter_key` is asked for every (pass, chapter) of a rebuild, and
    ``repr`` of a whole chapter each time was a tenth of a second of a rebuild
    on the playbook; a ``str`` keeps its hash, so the look-up is cheap.
    """
    return fingerprint(text)


def chapter_key(chapter: Chapter) -> str:
    """What a pass may read of its own chapter (the text: for locating messages)."""
    return fingerprint(
        chapter.id,
        str(chapter.path),
        chapter.number,
        chapter.kind,
        chapter.part,
        chapter.shift,
        chapter.lang,
        chapter.title,
        chapter.meta,
        text_key(chapter.text),
    )


def layout_key(book: Book) -> str:
    """What a pass may read of the other chapters: which files make which chapter."""
    return fingerprint(
        [
            (c.id, str(c.path), c.number, c.kind, sorted({str(p) for p, _ in c.origins}))
            for c in book.chapters
        ]
    )


def snapshot(ctx: Context) -> dict[str, Any]:
    """The passes' state in ``ctx``, each field :func:`copied`."""
    return {name: copied(value) for name, value in vars(ctx).items() if name not in NOT_STATE}


CONTAINERS = (dict, list, set)


def copied(value: Any) -> Any:
    """A copy of a state field: the container, and the containers in it (``anchors`` holds
    a dict per chapter); what else it holds is shared, never changed in place (a
    :class:`~kobook.transform.context.Target` is frozen).  Copying each target of a
    600-page book after each of its calls was most of the memo's cost."""
    if isinstance(value, dict):
        return {k: copy.copy(v) if isinstance(v, CONTAINERS) else v for k, v in value.items()}
    return copy.copy(value)


def restore(ctx: Context, state: dict[str, Any]) -> None:
    """Put a snapshot's state into ``ctx`` (copied again: the memo keeps its own)."""
    for name, value in state.items():
        setattr(ctx, name, copied(value))


def field_key(value: Any) -> str:
    """A key of one state field: dict order counts (passes iterate targets), set order
    does not."""
    if isinstance(value, (set, frozenset)):
        value = sorted(map(repr, value))
    elif isinstance(value, dict):
        value = list(value.items())
    return fingerprint(value)


class StateKeys:
    """Keys of the successive snapshots of one run of the passes.

    A field equal to the last snapshot's keeps its key: most calls change one
    counter or none, and comparing a dict of the same targets is quick where
    hashing the ``repr`` of every target after every call is not.
    """

    def __init__(self) -> None:
        self.state: dict[str, Any] = {}
        self.keys: dict[str, str] = {}

    def key(self, state: dict[str, Any]) -> str:
        keys = {}
        for name, value in state.items():
            last = self.state.get(name, self)  # self: no such field yet
            same = last is not self and (
                list(value.items()) == list(last.items())  # in the same order
                if isinstance(value, dict) and isinstance(last, dict)
                else value == last
            )
            keys[name] = self.keys[name] if same else field_key(value)
        self.state, self.keys = state, keys
        return fingerprint(sorted(keys.items()))


class Lines:
    """Where the lines of one chapter's text are in its files, and back (for messages)."""

    def __init__(self, chapter: Chapter) -> None:
        self.chapter = chapter
        self._local: dict[tuple[Path, int], int] | None = None

    def local(self, location: Location) -> int | None:
        """The 1-based line of the chapter's text at ``location``; None when outside it."""
        chapter = self.chapter
        if location.file is None or not location.line:
            return None
        if not chapter.origins:
            if location.file != chapter.path:
                return None
            line = location.line - chapter.line_offset
            return line if line >= 1 else None
        if self._local is None:
            self._local = {}
            for index, (file, line) in enumerate(chapter.origins):
                place = file if isinstance(file, Path) else Path(file)
                self._local.setdefault((place, line), index + 1)
        return self._local.get((Path(location.file), location.line))


# A diagnostic and its line in the chapter's text (None: it is about another file).
Placed = tuple[Diagnostic, int | None]


def place(diagnostics: list[Diagnostic], lines: Lines) -> list[Placed]:
    return [(d, lines.local(d.location)) for d in diagnostics]


def replace_in(placed: list[Placed], chapter: Chapter) -> list[Diagnostic]:
    """The diagnostics at the same lines of ``chapter``'s text, which may sit elsewhere in
    its file now (a paragraph added to an earlier chapter of the same file)."""
    out = []
    for diagnostic, line in placed:
        if line is not None:
            where = chapter.where(line, diagnostic.location.col)
            diagnostic = dataclasses.replace(diagnostic, location=where)
        out.append(diagnostic)
    return out


@dataclass
class Entry:
    """One (pass, chapter) call of the last build."""

    key: str  # of its inputs
    # marshal of the (blocks, meta) it made; None when not kept (an incremental
    # rebuild's call): made again from the parse when asked for (:meth:`PassMemo._remade`).
    out: bytes | None
    state: dict[str, Any]  # the context state after it
    state_key: str
    diagnostics: list[Placed]
    chapter_changes: dict[str, Any]  # fields the pass set on the chapter
    before: dict[str, Any]  # the context state it was called with
    index: int  # of its pass in the list of passes


@dataclass
class Slot:
    """A chapter while the passes run: its AST key, and its AST when at hand."""

    chapter: Chapter
    key: str
    doc: Doc | None = None
    # Its calls so far (replayed, then run): when ``doc`` is None, the last was
    # replayed and its output is the chapter's AST.
    chain: list[Entry] = field(default_factory=list)


@dataclass
class PassMemo:
    """The (pass, chapter id) → :class:`Entry` of the last successful build."""

    entries: dict[tuple[str, str], Entry] = field(default_factory=dict)
    # chapter id → (key of its final AST, its blocks, its meta): reused as is when the key
    # matches.
    final: dict[str, tuple[str, list[Any], dict[str, Any]]] = field(default_factory=dict)
    # Keep each call's AST (the preview, in memory); else only the final ones (a memo the
    # build stores: marshalling every call's output would cost a cold build a tenth).
    keeps: bool = True
    ran: int = 0  # calls that ran in the last build (the rest were replayed)
    remade: int = 0  # replayed calls whose output was not kept, made again (last build)

    def clear(self) -> None:
        self.entries.clear()
        self.final.clear()

    def run(
        self,
        passes: list[tuple[str, Pass]],
        book: Book,
        ctx: Context,
        inputs: list[tuple[Chapter, str, Callable[[], Doc]]],
    ) -> tuple[list[Doc], list[str]]:
        """Run (or replay) ``passes`` over ``inputs`` in order; return the docs and their keys.

        ``inputs``: each chapter, the key of its parsed AST, and how to parse it
        (called only when one of its passes has to run).  The memo is replaced
        only when every pass succeeded: a failed rebuild leaves the last good one.

        A full build keeps what each call made; a rebuild does not (marshalling
        the edited chapter after each of its passes was a tenth of its
        rebuild): a later rebuild that needs such an AST makes it again.
        """
        layout = layout_key(book)
        loaders = {id(chapter): load for chapter, _key, load in inputs}
        slots = [Slot(chapter, key) for chapter, key, _load in inputs]
        lines = {id(chapter): Lines(chapter) for chapter, _key, _load in inputs}
        entries: dict[tuple[str, str], Entry] = {}
        keep = self.keeps and not self.entries  # a first (or full) build keeps every AST
        state = snapshot(ctx)
        state_keys = StateKeys()
        current = state_keys.key(state)
        # The state of the last replayed call, put into ``ctx`` only before a call that
        # runs (and at the end): each snapshot holds every state field, so restoring
        # only the last of a chain of replays is restoring them all in turn.
        replayed: dict[str, Any] | None = None
        self.ran = self.remade = 0
        for index, (name, run) in enumerate(passes):
            for slot in slots:
                chapter = slot.chapter
                key = fingerprint(name, slot.key, current, chapter_key(chapter), layout)
                old = self.entries.get((name, chapter.id))
                if old is not None and old.key == key:
                    replayed = state = old.state
                    ctx.diagnostics += replace_in(old.diagnostics, chapter)
                    for attribute, value in old.chapter_changes.items():
                        setattr(chapter, attribute, value)
                    current = old.state_key
                    slot.key, slot.doc = key, None
                    slot.chain.append(old)
                    entries[(name, chapter.id)] = old
                    continue
                if replayed is not None:
                    restore(ctx, replayed)
                    replayed = None
                doc = self._doc(slot, loaders[id(chapter)], passes, ctx)
                before = {a: getattr(chapter, a) for a in CHAPTER_FIELDS}
                found = len(ctx.diagnostics)
                called_with = state
                doc = run(doc, ctx)
                self.ran += 1
                state = snapshot(ctx)
                current = state_keys.key(state)
                changes = {
                    a: getattr(chapter, a)
                    for a in CHAPTER_FIELDS
                    if getattr(chapter, a) is not before[a] and getattr(chapter, a) != before[a]
                }
                entry = Entry(
                    key,
                    marshal.dumps((doc.blocks, doc.meta)) if keep else None,
                    state,
                    current,
                    place(ctx.diagnostics[found:], lines[id(chapter)]),
                    changes,
                    called_with,
                    index,
                )
                slot.key, slot.doc = key, doc
                slot.chain.append(entry)
                entries[(name, chapter.id)] = entry
        if replayed is not None:
            restore(ctx, replayed)
        docs = []
        final: dict[str, tuple[str, list[Any], dict[str, Any]]] = {}
        for slot in slots:
            kept = self.final.get(slot.chapter.id)
            if slot.doc is None and kept is not None and kept[0] == slot.key:
                doc = Doc(slot.chapter, kept[1], kept[2])
            else:
                doc = self._doc(slot, loaders[id(slot.chapter)], passes, ctx)
            final[slot.chapter.id] = (slot.key, doc.blocks, doc.meta)
            docs.append(doc)
        self.entries = entries
        self.final = final
        return docs, [slot.key for slot in slots]

    def _doc(
        self, slot: Slot, load: Callable[[], Doc], passes: list[tuple[str, Pass]], ctx: Context
    ) -> Doc:
        """The slot's AST: at hand, else the last replayed call's output, else parsed."""
        if slot.doc is None:
            slot.doc = self._remade(slot, load, passes, ctx) if slot.chain else load()
        return slot.doc

    def _remade(
        self, slot: Slot, load: Callable[[], Doc], passes: list[tuple[str, Pass]], ctx: Context
    ) -> Doc:
        """The output of the slot's last replayed call: kept, else made again.

        Made again from the latest kept output of the chapter's calls (else its
        parse) by running the passes after it, each with the context state it
        was called with (on a copy of ``ctx``: their diagnostics and state were
        replayed already); what is made is kept for the next time.
        """
        chain = slot.chain
        start = max((i for i, e in enumerate(chain) if e.out is not None), default=-1)
        if start >= 0:
            blocks, meta = marshal.loads(chain[start].out)  # type: ignore[arg-type]
            doc = Doc(slot.chapter, blocks, meta)
        else:
            doc = load()
        for entry in chain[start + 1 :]:
            scratch = dataclasses.replace(ctx, diagnostics=[])
            restore(scratch, entry.before)
            doc = passes[entry.index][1](doc, scratch)
            entry.out = marshal.dumps((doc.blocks, doc.meta))
            self.remade += 1
        return doc


# The build's memo in the cache: one entry per cache folder, replaced by each build
# (the key of its world is inside); the format's version is in the key.  It is read
# only through :meth:`Cache.get`, which checks the entry's tag under this machine's
# secret: no file a repository carries is ever unpickled.
STORED = ("passes", "last-build-1")


def load(cache: Cache | None, world: str | None) -> PassMemo:
    """The memo the last build stored, when it was made in the same world; else empty."""
    memo = PassMemo(keeps=False)
    data = cache.get(*STORED) if cache is not None and world is not None else None
    if data is None:
        return memo
    try:
        kept_world, entries, final = pickle.loads(data)
    except Exception:  # written by another kobook, or cut short: not a memo
        return memo
    if kept_world == world:
        memo.entries = entries
        memo.final = {k: (key, *marshal.loads(ast)) for k, (key, ast) in final.items()}
    return memo


def store(cache: Cache | None, world: str | None, memo: PassMemo) -> None:
    """Keep ``memo`` for the next build: each call's key, state and diagnostics, and each
    chapter's final AST; not the ASTs between passes (a call that must run again gets
    its input made again from the parse, :meth:`PassMemo._remade`)."""
    if cache is None or world is None:
        return
    states: dict[str, dict[str, Any]] = {}  # one copy of each state (most calls change none)
    by_id: dict[int, dict[str, Any]] = {}
    for entry in memo.entries.values():
        by_id[id(entry.state)] = states.setdefault(entry.state_key, entry.state)
    entries = {
        name: dataclasses.replace(
            entry,
            out=None,
            state=by_id[id(entry.state)],
            before=by_id.get(id(entry.before), entry.before),
        )
        for name, entry in memo.entries.items()
    }
    final = {
        k: (key, marshal.dumps((blocks, meta))) for k, (key, blocks, meta) in memo.final.items()
    }
    try:
        data = pickle.dumps((world, entries, final), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError):
        return  # state a pass keeps that cannot be stored: the next build runs every call
    cache.put(*STORED, data)
