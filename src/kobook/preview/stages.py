"""The preview's memo hooks for the pipeline's stages (:class:`kobook.pipeline.Hooks`).

The build runs normalize → parse → transform with hooks that keep nothing; the
preview runs the same stages through the same :class:`~kobook.pipeline.Pipeline`
with these, which keep what the last good build made:

* a chapter whose text did not change keeps its normalized text and findings
  and is not parsed again (both are functions of the text);
* the edited chapter's fixed text is parsed and transformed while pandoc
  proves its fixes (:class:`kobook.check.proof.PendingFix`): :meth:`proven`
  says whether the proof accepted what was built;
* while pandoc parses the edited chapter, its AST is foretold from the last
  one and the edited paragraph alone (:mod:`.predict`); :meth:`confirmed`
  compares pandoc's AST with it before anything is shown;
* the transform passes run in the build's order, but a (pass, chapter) call
  whose inputs are those of the last build is replayed (:mod:`kobook.transform.memo`).

The session (:mod:`.session`) adds what to rebuild when a file changes, the
site's pages, and the server.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import marshal
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..cache import Cache
from ..check.proof import PendingFix
from ..errors import KobookError
from ..model import Book, Chapter, Doc
from ..normalize import NormalizingChapter, Remaining
from ..parse import reader_for
from ..pipeline import Hooks, Memo, Parsed
from ..transform import Context, Pass
from ..transform.memo import PassMemo, fingerprint
from .predict import Foretold, foretold, same_but_automatic_ids


@dataclass
class Normalized:
    """A chapter's text after the build-time fixes, and the findings left in it."""

    text: str
    remaining: list[Remaining]


@dataclass
class Proving:
    """A chapter's fixed text built before pandoc's proof of it is in."""

    key: tuple[Any, ...]  # of the kept Normalized
    guess: str  # the text the build uses meanwhile
    pending: NormalizingChapter


class PreviewStages(Hooks):
    """What the preview keeps of each stage between rebuilds, and how it uses it."""

    def __init__(self) -> None:
        self.memo = Memo()  # the texts the guard passed
        self.passes = PassMemo()
        self.foretelling = False  # this transform's chapters may be foretold
        self.foretold = (0, 0)  # the last rebuild's foretold ASTs, and how many were pandoc's
        self._normalized: dict[tuple[Any, ...], Normalized] = {}
        self._kept: dict[tuple[Any, ...], Normalized] = {}  # this rebuild's (normalize)
        self._proving: list[Proving] = []  # this rebuild's (normalize)
        self._parsed: dict[tuple[str, str], bytes] = {}  # (reader, text) → marshal of the AST
        self._built: dict[str, tuple[str, str]] = {}  # chapter id → (reader, text) last built
        # (reader, text) → marshal of its foretold AST and the proof whose parse of the text
        # it is compared with (None: pandoc's own parse); one rebuild.
        self._foretold: dict[tuple[str, str], tuple[bytes, PendingFix | None]] = {}
        self._proofs: dict[str, PendingFix] = {}  # fixed text → its proof (one rebuild)
        # (reader, text) → the AST being made by pandoc while the proof runs (one rebuild).
        self._pending: dict[tuple[str, str], Future[Doc]] = {}
        # (reader, text) → its AST being foretold while the checks run (one rebuild).
        self._ahead: dict[tuple[str, str], Future[tuple[Foretold | None, Any]]] = {}
        self._pool: ThreadPoolExecutor | None = None

    # ------------------------------------------------------------------ one rebuild

    def begin(self) -> None:
        """A rebuild starts: a thread for pandoc's parses beside the build."""
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kobook-parse")

    def end(self) -> None:
        """No thread outlives the rebuild; parses not started (a failed build) are dropped."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = None
        self._pending.clear()
        self._ahead.clear()

    def forget(self) -> None:
        """Drop the kept passes (they look at the files: images, embeds, links).  The kept
        fixed texts stay: each is kept by its text and the check's settings, all it depends
        on (an edit of the title keeps every chapter's)."""
        self.passes.clear()

    def built(self, book: Book) -> None:
        """The rebuild succeeded with these chapters' texts: the next one foretells from them."""
        self._built = {c.id: (reader_for(c), c.text) for c in book.chapters}

    # ------------------------------------------------------------------ normalize

    def start_normalize(self) -> None:
        self._proofs = {}
        self._kept = {}
        self._proving = []

    def prefetch(self, book: Book, cache: Cache) -> None:
        """Nothing: the preview has pandoc read each chapter as its fixes are proven, beside
        the checks, and keeps what it read (:meth:`parse`)."""

    def normalize_chapter(
        self, chapter: Chapter, rules: Any, lang: str, cache: Cache | None
    ) -> tuple[str, list[Remaining]]:
        """A chapter's fixes, kept per text.  The first chapter whose text is new (the one
        being edited) gets its fixed text at once, as the proof will accept it, and its
        proof is waited for by :meth:`proven`; the other new ones (a first build) wait for
        theirs here, so their pandoc runs do not all start at once."""
        key = (chapter.text, str(chapter.path), chapter.lang, lang, settings_key(rules))
        done = self._normalized.get(key)
        if done is None:
            speculate = functools.partial(self._speculate, chapter, cache or Cache(None))
            pending = NormalizingChapter(chapter, rules, lang, cache, on_candidate=speculate)
            if not self._proving:  # built while its proof runs; kept by proven()
                done = Normalized(*pending.guess())
                self._proving.append(Proving(key, done.text, pending))
                if pending.pending is not None:
                    self._proofs = {done.text: pending.pending}
            else:  # one chapter's proof at a time runs behind the build
                done = self._kept[key] = Normalized(*pending.result())
        else:
            self._kept[key] = done
        return done.text, done.remaining

    def end_normalize(self) -> list[Proving]:
        """Keep this rebuild's fixes; the proofs still to wait for."""
        self._normalized = self._kept
        return self._proving

    def proven(self, proving: list[Proving]) -> bool:
        """Wait for the proofs of the fixes; keep their results; did each accept its guess?"""
        accepted = True
        for item in proving:
            done = Normalized(*item.pending.result())
            self._normalized[item.key] = done
            accepted = accepted and done.text == item.guess
        return accepted

    # ------------------------------------------------------------------ parse, transform

    def parse(self, book: Book, cache: Cache) -> list[Parsed]:
        """Each chapter's AST key and how to get it (kept, foretold, or pandoc's)."""
        from ..parse.guard import check_footnotes

        check_footnotes(book.chapters)
        parsed = []
        for chapter in book.chapters:
            reader = reader_for(chapter)
            key = (reader, chapter.text)
            load = functools.partial(self._parse, chapter, key, cache)
            told = self._foretell(chapter, key, cache) if self.foretelling else None
            if told is not None:
                load = functools.partial(unmarshalled, chapter, told)
            parsed.append(Parsed(chapter, fingerprint("parsed", reader, chapter.text), load))
        return parsed

    def run_passes(
        self, passes: list[tuple[str, Pass]], book: Book, ctx: Context, parsed: list[Parsed]
    ) -> tuple[list[Doc], list[str]]:
        """The passes; a call whose inputs did not change is replayed (transform/memo.py)."""
        inputs = [(item.chapter, item.key, item.load) for item in parsed]
        docs, keys = self.passes.run(passes, book, ctx, inputs)
        texts = {(reader_for(c), c.text) for c in book.chapters}
        self._parsed = {k: v for k, v in self._parsed.items() if k in texts}
        return docs, keys

    def waiting(self) -> bool:
        """Is an AST foretold in this rebuild still being made by pandoc?"""
        return bool(self._foretold) and not self.parsed_by_now()

    def parsed_by_now(self) -> bool:
        """Has pandoc made every AST the foretold ones are compared with?"""
        for key, (_data, proof) in self._foretold.items():
            pending = self._pending.get(key)
            if proof is not None and not proof.parsed_by_now(key[1]):
                return False
            if proof is None and pending is not None and not pending.done():
                return False
        return True

    def _foretell(self, chapter: Chapter, key: tuple[str, str], cache: Cache) -> bytes | None:
        """A new text's AST foretold from the chapter's last (:mod:`.predict`); None: not.

        What it is compared with (:meth:`confirmed`): the AST the proof of the
        fixes has pandoc make of the same text, when the edited paragraphs hold
        no heading (the proof's reader makes no automatic ids); else pandoc's
        own parse, started here.
        """
        from ..parse.guard import check_depth

        last = self._built.get(chapter.id)
        data = self._parsed.get(last) if last is not None else None
        if key in self._parsed or last is None or data is None or last[0] != key[0]:
            return None
        ahead = self._ahead.pop(key, None)
        if ahead is not None:
            told, meta = ahead.result()
        else:
            blocks, meta = marshal.loads(data)
            told = foretold(last[1], blocks, key[1], key[0])
        if told is None or self._pool is None:
            return None
        try:
            check_depth(told.blocks, chapter)
        except KobookError:
            return None
        proof = self._proofs.get(key[1])
        if proof is None or told.headings or not proof.parses(key[1]):
            proof = None
            self._start_parse(chapter, key, cache)
        data = marshal.dumps((told.blocks, meta))
        self._foretold[key] = (data, proof)
        return data

    def confirmed(self) -> bool:
        """Is every AST foretold in this rebuild pandoc's own? (Waits for pandoc.)

        Each one that is becomes the chapter's kept parse, and so does pandoc's
        own where they differ; a text pandoc failed on is parsed again when
        asked for, by :meth:`_parse`, which reports pandoc's error.
        """
        told, self._foretold = self._foretold, {}
        same = 0
        for key, (data, proof) in told.items():
            blocks, meta = marshal.loads(data)
            if proof is not None:
                made = proof.pandoc_ast(key[1])  # None: not at hand, parsed again by _parse
                if made is None or not same_but_automatic_ids(
                    {"blocks": blocks, "meta": meta}, made
                ):
                    continue
            else:
                doc = self._pending_doc(key)
                if doc is None:
                    continue
                if (blocks, meta) != (doc.blocks, doc.meta):  # made again from pandoc's
                    self._parsed[key] = marshal.dumps((doc.blocks, doc.meta))
                    continue
            self._parsed[key] = data
            same += 1
        self.foretold = (len(told), same)
        return same == len(told)

    def _speculate(self, chapter: Chapter, cache: Cache, candidate: str) -> None:
        """Start parsing a fixed text the proof is about to check (it is usually the result).

        The chapter's own parse would otherwise wait for the proof's two pandoc
        runs; this one runs beside them.  A text that turns out not to be the
        result is not used; an error is not reported here (the chapter's parse
        of its real text reports it, with the chapter's file and line).
        """
        from ..normalize import normalize_text

        key = (reader_for(chapter), normalize_text(candidate))
        if key in self._parsed:
            return  # kept
        last = self._built.get(chapter.id)
        if last is not None and last in self._parsed:
            self._foretell_ahead(key, last)  # compared with the proof's parse, usually
            return
        self._start_parse(chapter, key, cache)

    def _foretell_ahead(self, key: tuple[str, str], last: tuple[str, str]) -> None:
        """Foretell ``key``'s AST from ``last``'s in the rebuild's pool: pandoc reads the
        edited paragraphs while the checks go on (:meth:`_foretell` takes the result)."""
        if self._pool is None or key in self._ahead or last[0] != key[0]:
            return
        data = self._parsed[last]

        def foretell() -> tuple[Foretold | None, Any]:
            blocks, meta = marshal.loads(data)
            return foretold(last[1], blocks, key[1], key[0]), meta

        self._ahead[key] = self._pool.submit(foretell)

    def _start_parse(self, chapter: Chapter, key: tuple[str, str], cache: Cache) -> None:
        """Have pandoc parse ``key``'s text for ``chapter`` in the rebuild's pool (once)."""
        from ..parse import parse_chapter

        if self._pool is not None and key not in self._pending:
            copy = dataclasses.replace(chapter, text=key[1])
            self._pending[key] = self._pool.submit(parse_chapter, copy, cache)

    def _pending_doc(self, key: tuple[str, str]) -> Doc | None:
        """pandoc's AST of a text parsed in the pool (waited for); None: not started, or
        pandoc failed on it (the chapter's own parse reports that, with its file and line)."""
        pending = self._pending.pop(key, None)
        if pending is None:
            return None
        with contextlib.suppress(KobookError):
            return pending.result()
        return None

    def _parse(self, chapter: Chapter, key: tuple[str, str], cache: Cache) -> Doc:
        """A chapter's AST: kept from an earlier build of the same text, else pandoc's."""
        from ..parse import parse_chapter

        data = self._parsed.get(key)
        if data is None:
            pending = self._pending_doc(key)
            if pending is not None:
                doc = Doc(chapter, *astuple(pending))
            else:
                doc = parse_chapter(chapter, cache)
            self._parsed[key] = marshal.dumps((doc.blocks, doc.meta))
            return doc
        blocks, meta = marshal.loads(data)
        return Doc(chapter, blocks, meta)


def settings_key(rules: Any) -> str:
    """The check's settings (``check.model.Settings``) as a key: equal settings give the
    same key (sets sorted, paths as text)."""
    is_settings = dataclasses.is_dataclass(rules) and not isinstance(rules, type)
    data = dataclasses.asdict(rules) if is_settings else rules

    def plain(value: Any) -> Any:
        return sorted(value) if isinstance(value, (set, frozenset)) else str(value)

    return json.dumps(data, sort_keys=True, default=plain, ensure_ascii=False)


def unmarshalled(chapter: Chapter, data: bytes) -> Doc:
    """A chapter's Doc from the marshal of its (blocks, meta): a copy of its own."""
    blocks, meta = marshal.loads(data)
    return Doc(chapter, blocks, meta)


def astuple(doc: Doc) -> tuple[list[Any], dict[str, Any]]:
    """A parsed doc's blocks and metadata (to put them on another Chapter object)."""
    return doc.blocks, doc.meta
