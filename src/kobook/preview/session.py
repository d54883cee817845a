"""The preview's build state: build once, then rebuild what a save changed.

The stages are the build's own (load → dialect → normalize → parse →
transform → the HTML writer's pages), run by :meth:`Session.rebuild` with the
last good build's results at hand:

* a chapter whose text did not change keeps its normalized text and findings
  and is not parsed again (both are functions of the text);
* the edited chapter's fixed text is parsed and transformed while pandoc
  proves its fixes (:class:`kobook.check.proof.PendingFix`), and nothing is
  shown or typeset before the proof is in: a refused fix builds again;
* while pandoc parses the edited chapter, its AST is foretold from the last
  one and the edited paragraph alone (:mod:`.predict`), and the transforms
  and the page are made from it; pandoc's AST is compared with it before
  anything is shown or typeset, and when the two differ everything is made
  again from pandoc's;
* the transform passes run in the build's order, but a (pass, chapter) call
  whose inputs are those of the last build is replayed (:mod:`.passmemo`): an
  edit reruns its chapter's passes, and another chapter's only where what it
  sees changed (a new figure renumbers the later ones and their references);
* a page's body (pandoc's HTML) is made again only when its chapter's AST or
  the pages its links point to changed; every page is then put together from
  the site's plan (TOC, sidebar, prev/next) and written only when its bytes
  changed.

A change to the book's set-up (``metadata.yaml``, the bibliography, the
glossary, ``templates/``, a dialect's ``book.toml``/``SUMMARY.md``, or the
metadata in a one-file book's front matter) rebuilds everything; a changed
image clears the kept transform passes (they look at the files) and is copied.

The pages are written into ``dist/preview/`` (the folder the server serves)
file by file, each atomically, and only when its bytes changed: a page being
read is never half written, and :attr:`Update.pages` names exactly the pages a
browser showing them should reload.  A failed rebuild writes nothing, so the
last good pages stay served while the error is shown over them; what was kept
stays kept, so the next good save is again incremental.  The pages are
byte-identical to ``kobook build html``'s site of the same sources.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import hashlib
import marshal
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..boundary import inside, real_folders
from ..cache import Cache, atomic_write
from ..check.proof import PendingFix
from ..errors import Diagnostic, KobookError
from ..load import select_chapter
from ..model import Book, Chapter, Doc
from ..normalize import NormalizingChapter
from ..parse import reader_for
from ..pipeline import Memo, front
from ..write import registry
from ..write.html.blockprep import KeptPrepare
from ..write.shared.blockhtml import BlockHtml
from ..write.shared.common import blocks_to_html
from .passmemo import (
    CHAPTER_FIELDS,
    Lines,
    PassMemo,
    Placed,
    chapter_key,
    fingerprint,
    place,
    replace_in,
)
from .predict import foretold, same_but_automatic_ids
from .searchindex import SearchIndex
from .typesetter import Typesetter, pages_laid, typeset

# Files whose change is no change of the book's set-up: the pictures the pages show.
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".bmp", ".pdf"}
# Editors' scratch files beside a chapter (``.ch1.md.swp``, ``ch1.md~``, vim's ``4913``).
SCRATCH_SUFFIXES = ("~", ".swp", ".swx", ".tmp", ".bak")
# What no book reads but a terminal may be writing beside it: ``kobook preview >
# preview.log`` in the book's folder would otherwise rebuild on each line it logs.
LOG_SUFFIXES = (".log", ".pid", "nohup.out")


@dataclass
class Update:
    """What one (re)build did: the pages that changed, or the error that stopped it."""

    pages: list[str] = field(default_factory=list)  # site paths ("index.html", "ch-1.html")
    error: Diagnostic | None = None  # None when the build succeeded
    # Typography findings (kobook check) per page, for the preview's panel: every chapter's
    # page is a key (an empty list: no findings left).
    findings: dict[str, list[Diagnostic]] = field(default_factory=dict)
    warnings: list[Diagnostic] = field(default_factory=list)
    pdf: str | None = None  # the chapter PDF's site path when it was (re)written
    # Its pages laid out, and reused from the last chapter PDF (write/weasyprint/relayout.py).
    pages_laid: tuple[int, int] | None = None
    seconds: float = 0.0
    # How the rebuild went: "full" or "incremental" (for the bench and the tests).
    mode: str = ""
    # The chapter ids whose text changed (the first one is the chapter being edited).
    chapters: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class Normalized:
    """A chapter's text after the build-time fixes, and the findings left in it."""

    text: str
    remaining: list[tuple[str, str, int, int, str]]


@dataclass
class Proving:
    """A chapter's fixed text built before pandoc's proof of it is in."""

    key: tuple[Any, ...]  # of the kept Normalized
    guess: str  # the text the build uses meanwhile
    pending: NormalizingChapter


# The transformed chapters, their keys, the transform's context and the site's files and
# warnings when made with them; a stage's error.
Made = tuple[list[Doc], list[str], Any, "tuple[dict[str, bytes | Path], list[Diagnostic]] | None"]
Failed = KobookError | None
# The kept results :meth:`Session._make` replaces, and the chapters' fields it sets.
KeptState = tuple[tuple[Any, Any], Any, Any, Any, list[dict[str, Any]]]


@dataclass
class Body:
    """A chapter page's body and the warnings met making it, for one AST and its links."""

    key: str
    html: str
    problems: list[Placed]


@dataclass
class Good:
    """The last good build: what ``rebuild_pdf`` typesets and the next rebuild compares to."""

    book: Book
    docs: list[Doc]
    keys: list[str]  # of each doc's AST
    texts: dict[str, str]  # chapter id → source text (before the fixes)
    files: set[Path]  # the files the chapters are made of


class Session:
    """One book being previewed: its sources, its preview folder, its last good build."""

    def __init__(
        self,
        project: str | Path,
        *,
        out: str | Path | None = None,
        chapter: str | None = None,
        pdf: bool = False,
        cache_dir: str | Path | None = None,
        offline: bool = True,
        typesetter: bool = True,
    ) -> None:
        self.root = Path(project).resolve()
        self.out = Path(out).resolve() if out else self.root / "dist" / "preview"
        self.chapter = chapter
        self.pdf = pdf
        self.cache_dir = Path(cache_dir).resolve() if cache_dir else None
        self.offline = offline
        self.last: Update | None = None
        self.good: Good | None = None
        self.edited: str | None = None  # id of the chapter of the most recent change
        # Told each rebuild's Update once its chapters are transformed, before its pages
        # are made (the watcher starts the chapter PDF then); the Update is filled later.
        self.on_transformed: Callable[[Update], None] | None = None
        # The newest transformed build, its metadata key and edited chapter: what
        # ``rebuild_pdf`` typesets (newer than ``good`` while the pages are being made).
        self._typesettable: tuple[Good, str, str | None] | None = None
        self._config = ""  # key of the metadata the kept results were made with
        self._normalized: dict[tuple[Any, ...], Normalized] = {}
        self._parsed: dict[tuple[str, str], bytes] = {}  # (reader, text) → marshal of the AST
        self._built: dict[str, tuple[str, str]] = {}  # chapter id → (reader, text) last built
        # (reader, text) → marshal of its foretold AST and the proof whose parse of the text
        # it is compared with (None: pandoc's own parse); one rebuild.
        self._foretold: dict[tuple[str, str], tuple[bytes, PendingFix | None]] = {}
        self._proofs: dict[str, PendingFix] = {}  # fixed text → its proof (one rebuild)
        self.foretold = (0, 0)  # the last rebuild's foretold ASTs, and how many were pandoc's
        # (reader, text) → the AST being made by pandoc while the proof runs (one rebuild).
        self._pending: dict[tuple[str, str], Future[Doc]] = {}
        self._pool: ThreadPoolExecutor | None = None
        self._guarded = Memo()  # the texts the guard passed
        self._memo = PassMemo()
        self._ids: dict[str, tuple[list[str], set[str]]] = {}  # AST key → ids, #links
        # AST key → the images (and framed pages) it shows: site path → file.
        self._copies: dict[str, dict[str, Path | bytes]] = {}
        self._bodies: dict[str, Body] = {}  # chapter id → its last body
        # The HTML of every block written so far: an edit writes only its own blocks.
        self._blocks = BlockHtml(blocks_to_html)
        self._prepared = KeptPrepare()  # and every block as prepared for the site
        self._written: dict[str, str] = {}  # site path → digest of the bytes in the folder
        self._copied: dict[str, tuple[Path, int, int]] = {}  # site path → source, size, mtime
        self._pdf_key = ""
        # With ``pdf``, chapter PDFs are typeset in a process of their own (kept warm):
        # see :mod:`.typesetter`.  ``close()`` stops it.
        self._typesetter = Typesetter().start() if pdf and typesetter else None
        # The templates' Jinja environment (its compiled templates), made again on a full
        # rebuild: a change in templates/ is one.
        self._env: Any = None
        self._search_index = SearchIndex()  # remade in the background after an edit

    # ------------------------------------------------------------------ the interface

    def build(self) -> Update:
        """The first build (everything)."""
        return self.rebuild(set())

    def rebuild(self, changed: set[Path]) -> Update:
        """Rebuild after the files in ``changed`` were saved (an empty set: everything)."""
        start = time.perf_counter()
        update = Update()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kobook-parse")
        try:
            self._rebuild({Path(p).resolve() for p in changed}, update)
        except KobookError as error:
            update.error = error.diagnostic
            update.pages = []
        finally:
            # No thread outlives the rebuild; parses not started (a failed build) are dropped.
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
            self._pending.clear()
        update.seconds = time.perf_counter() - start
        self.last = update
        return update

    def rebuild_pdf(self) -> Update:
        """Typeset the edited chapter's PDF (``CHAPTER.pdf`` beside the pages) if it changed.

        The chapter is the one named by ``chapter=``, else that of the most
        recent change, numbered as in the whole book (the newest transformed
        chapters are reused: those of the rebuild under way once its chapters
        are transformed, see :attr:`on_transformed`).  Sets :attr:`Update.pdf`
        when the file was written; a PDF that would not change is not typeset
        again.
        """
        start = time.perf_counter()
        update = Update(mode="pdf")
        try:
            self._write_pdf(update)
        except KobookError as error:
            update.error = error.diagnostic
        update.seconds = time.perf_counter() - start
        return update

    @staticmethod
    def settle() -> None:
        """Leave what is alive now out of Python's cyclic garbage collector.

        Called by a long-running preview after its first build: the modules
        and the kept build are tens of thousands of objects that every full
        collection walked again during each rebuild (25 ms of a 0.62 s rebuild of
        a playbook chapter).  Not done by the library on its own: what is
        frozen is never collected if it later becomes a cycle of garbage.
        """
        gc.collect()
        gc.freeze()

    def close(self) -> None:
        """Stop what the session started (the PDF process, the search index's thread)."""
        if self._typesetter is not None:
            self._typesetter.close()
        self._search_index.wait(timeout=30)

    def is_source(self, path: Path) -> bool:
        """Whether a change to ``path`` can change the book (not the outputs or the cache)."""
        path = Path(path).resolve()
        try:
            relative = path.relative_to(self.root)
        except ValueError:
            return self.good is not None and path in self.good.files
        if self.out == path or self.out in path.parents:
            return False
        first = relative.parts[0] if relative.parts else ""
        if first in ("dist", ".kobook-cache", ".git") or any(
            part.startswith(".") for part in relative.parts
        ):
            return False
        name = relative.name
        return not (name.endswith(SCRATCH_SUFFIXES + LOG_SUFFIXES) or name.isdigit())

    # ------------------------------------------------------------------ the stages

    def _rebuild(self, changed: set[Path], update: Update) -> None:
        full = not changed or self.good is None or self._setup_changed(changed)
        if full or any(self._is_image(p) for p in changed):
            self._memo.clear()  # the passes look at the files (images, embeds, links)
            self._copies.clear()
        if full:
            self._normalized.clear()
            self._bodies.clear()
            self._prepared.clear()
            self._env = None
        loaded = front(self.root, memo=self._guarded)  # as `kobook build` runs them
        book = loaded.book
        config = fingerprint(book.config.raw, book.config.path)
        if config != self._config:  # metadata.yaml, or a one-file book's front matter
            full = True
            self._memo.clear()
            self._copies.clear()
            self._normalized.clear()
            self._bodies.clear()
            self._prepared.clear()
            self._env = None
        update.mode = "full" if full else "incremental"
        texts = {c.id: c.text for c in book.chapters}
        previous = self.good.texts if self.good else {}
        update.chapters = [i for i, text in texts.items() if previous.get(i) != text]
        cache = self._cache()
        update.findings, proving = self._normalize(book, cache)
        kept = self._kept_state(book)
        made, failed = self._make(book, cache, foretell=True)  # failed: maybe a refused fix's
        if not self._confirmed():
            # A foretold AST was not pandoc's: all made again from pandoc's.
            self._restore_state(kept, book)
            made, failed = self._make(book, cache, foretell=False)
        if not self._proven(proving):
            # What was built has a fix the proof refuses (rare): build the proven texts
            # (kept now), which have no proof to wait for.
            self._rebuild(changed, update)
            return
        if failed is not None:
            raise failed
        assert made is not None
        docs, keys, ctx, site = made
        warnings = loaded.diagnostics + ctx.diagnostics
        chapter_files = {c.path.resolve() for c in book.chapters}
        chapter_files |= {
            Path(p).resolve() for p in {p for c in book.chapters for p, _ in c.origins}
        }
        good = Good(book, docs, keys, texts, chapter_files)
        edited = self._edited(book, changed, update.chapters) or self.edited
        # What the chapter PDF is typeset from: ready now, so ``--pdf`` starts while the
        # pages are made (the PDF process runs on the other core).
        self._typesettable = (good, config, edited)
        if self.on_transformed is not None:
            self.on_transformed(update)
        files, problems = site if site is not None else self._site(book, docs, keys)
        warnings += problems
        # Everything is made: now write (nothing is written when a stage failed).
        update.pages = self._write(files)
        warnings += self._search(book, docs, update.pages, full)
        update.warnings = [d for d in dict.fromkeys(warnings) if d.severity != "info"]
        self.good = good
        self._config = config
        self.edited = edited
        self._built = {c.id: (reader_for(c), c.text) for c in book.chapters}

    def _search(
        self, book: Book, docs: list[Doc], written: list[str], full: bool
    ) -> list[Diagnostic]:
        """The site's search index: made before the first build is served (and on a full
        rebuild), else asked for in the background when a page changed."""
        from ..write.html.search import SEARCH_DIR, index_pages, search_wanted
        from ..write.html.writer import page_name

        if not search_wanted(book.config):
            return []
        pages = [page_name(doc) for doc in docs]
        if full or not (self.out / SEARCH_DIR).is_dir():
            self._search_index.wait()
            return index_pages(self.out, pages, book.config.lang)
        if any(name.endswith(".html") for name in written):
            self._search_index.refresh(self.out, pages, book.config.lang)
        return []

    def _setup_changed(self, changed: set[Path]) -> bool:
        """True when a changed file is neither a chapter nor an image (metadata, templates, ...)."""
        assert self.good is not None
        for path in changed:
            if path in self.good.files or self._is_image(path):
                continue
            if path.suffix.lower() in (".md", ".markdown") and not path.exists():
                continue  # a chapter file removed: the reloaded book no longer has it
            markdown = path.suffix.lower() in (".md", ".markdown")
            if markdown and "templates" not in path.parts and path.name != "SUMMARY.md":
                continue  # a new chapter file: the reloaded book finds it
            return True
        return False

    @staticmethod
    def _is_image(path: Path) -> bool:
        return path.suffix.lower() in IMAGE_SUFFIXES

    def _cache(self) -> Cache:
        folder = (
            self.cache_dir
            if self.cache_dir
            else inside(self.root / ".kobook-cache", self.root, what="cache folder")
        )
        return Cache(folder)

    def _normalize(
        self, book: Book, cache: Cache
    ) -> tuple[dict[str, list[Diagnostic]], list[Proving]]:
        """The build-time fixes of each chapter (kept per text); its findings per page.

        The first chapter whose text is new (the one being edited) gets its
        fixed text at once, as the proof will accept it, and its proof (returned)
        is waited for by :meth:`_proven`; the other new ones (a first build) wait
        for theirs here, so their pandoc runs do not all start at once.
        """
        from ..normalize import settings

        rules = settings(book)
        self._proofs = {}
        kept: dict[tuple[Any, ...], Normalized] = {}
        proving: list[Proving] = []
        findings: dict[str, list[Diagnostic]] = {}
        for chapter in book.chapters:
            key = (chapter.text, str(chapter.path), chapter.lang, book.config.lang)
            done = self._normalized.get(key)
            if done is None:
                speculate = functools.partial(self._speculate, chapter, cache)
                pending = NormalizingChapter(
                    chapter, rules, book.config.lang, cache, on_candidate=speculate
                )
                if not proving:  # built while its proof runs; kept by _proven
                    done = Normalized(*pending.guess())
                    proving.append(Proving(key, done.text, pending))
                    if pending.pending is not None:
                        self._proofs = {done.text: pending.pending}
                else:  # one chapter's proof at a time runs behind the build
                    done = kept[key] = Normalized(*pending.result())
            else:
                kept[key] = done
            chapter.text = done.text
            findings[f"{chapter.id}.html"] = [
                Diagnostic(rule, message, chapter.where(line, col), "", severity)
                for rule, message, line, col, severity in done.remaining
            ]
        self._normalized = kept
        return findings, proving

    def _proven(self, proving: list[Proving]) -> bool:
        """Wait for the proofs of the fixes; keep their results; did each accept its guess?"""
        accepted = True
        for item in proving:
            done = Normalized(*item.pending.result())
            self._normalized[item.key] = done
            accepted = accepted and done.text == item.guess
        return accepted

    def _make(self, book: Book, cache: Cache, *, foretell: bool) -> tuple[Made | None, Failed]:
        """The chapters transformed, and the site's files when an AST was foretold and pandoc
        is still parsing (made meanwhile; else after the chapter PDF is asked for); or the
        error that stopped them."""
        try:
            docs, keys, ctx = self._transform(book, cache, foretell=foretell)
            waiting = self._foretold and not self._parsed_by_now()
            site = self._site(book, docs, keys) if waiting else None
        except KobookError as error:
            return None, error
        return (docs, keys, ctx, site), None

    def _parsed_by_now(self) -> bool:
        """Has pandoc made every AST the foretold ones are compared with?"""
        for key, (_data, proof) in self._foretold.items():
            pending = self._pending.get(key)
            if proof is not None and not proof.parsed_by_now(key[1]):
                return False
            if proof is None and pending is not None and not pending.done():
                return False
        return True

    def _kept_state(self, book: Book) -> KeptState:
        """What :meth:`_make` changes of the kept results (and of the chapters), to undo it."""
        chapters = [{a: getattr(c, a) for a in CHAPTER_FIELDS} for c in book.chapters]
        memo = (self._memo.entries, self._memo.final)
        return memo, self._ids, dict(self._copies), self._bodies, chapters

    def _restore_state(self, kept: KeptState, book: Book) -> None:
        (self._memo.entries, self._memo.final), self._ids, copies, self._bodies, chapters = kept
        self._copies = copies
        for chapter, fields in zip(book.chapters, chapters, strict=True):
            for name, value in fields.items():
                setattr(chapter, name, value)

    def _transform(
        self, book: Book, cache: Cache, *, foretell: bool = False
    ) -> tuple[list[Doc], list[str], Any]:
        from ..parse.guard import check_footnotes
        from ..transform import PASSES, Context

        check_footnotes(book.chapters)
        inputs: list[tuple[Chapter, str, Callable[[], Doc]]] = []
        for chapter in book.chapters:
            reader = reader_for(chapter)
            key = (reader, chapter.text)
            load = functools.partial(self._parse, chapter, key, cache)
            told = self._foretell(chapter, key, cache) if foretell else None
            if told is not None:
                load = functools.partial(unmarshalled, chapter, told)
            inputs.append((chapter, fingerprint("parsed", reader, chapter.text), load))
        ctx = Context(book=book, keep_going=False, cache=cache, offline=self.offline)
        docs, keys = self._memo.run(PASSES, book, ctx, inputs)
        texts = {(reader_for(c), c.text) for c in book.chapters}
        self._parsed = {k: v for k, v in self._parsed.items() if k in texts}
        return docs, keys, ctx

    def _foretell(self, chapter: Chapter, key: tuple[str, str], cache: Cache) -> bytes | None:
        """A new text's AST foretold from the chapter's last (:mod:`.predict`); None: not.

        What it is compared with (:meth:`_confirmed`): the AST the proof of the
        fixes has pandoc make of the same text, when the edited paragraphs hold
        no heading (the proof's reader makes no automatic ids); else pandoc's
        own parse, started here.
        """
        from ..parse.guard import check_depth

        last = self._built.get(chapter.id)
        data = self._parsed.get(last) if last is not None else None
        if key in self._parsed or last is None or data is None or last[0] != key[0]:
            return None
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

    def _confirmed(self) -> bool:
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
        if key in self._parsed or self._built.get(chapter.id) in self._parsed:
            return  # kept, or foretold instead (and compared with the proof's parse, usually)
        self._start_parse(chapter, key, cache)

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

    def _site(
        self, book: Book, docs: list[Doc], keys: list[str]
    ) -> tuple[dict[str, bytes | Path], list[Diagnostic]]:
        """Every file of the HTML site: path → bytes (pages, style sheets) or a file to copy."""
        from ..parse.ast import iter_nodes
        from ..write.html.writer import doc_ids, page_name, plan_site, site_copies, site_files
        from ..write.shared.templates import environment

        ids: dict[str, tuple[list[str], set[str]]] = {}
        pages: dict[str, str] = {}
        for doc, key in zip(docs, keys, strict=True):
            found = self._ids.get(key)
            if found is None:
                links = {
                    n["c"][2][0][1:]
                    for n in iter_nodes(doc.blocks)
                    if n["t"] == "Link" and n["c"][2][0].startswith("#")
                }
                found = (doc_ids(doc), links)
            ids[key] = found
            for ident in found[0]:
                pages.setdefault(ident, page_name(doc))
        self._ids = ids
        if self._env is None:
            self._env = environment(book.root)
        plan = plan_site(book, docs, self._env)
        wanted: list[tuple[Doc, str]] = []
        for doc, key in zip(docs, keys, strict=True):
            targets = sorted((link, pages.get(link)) for link in ids[key][1])
            body_key = fingerprint(key, chapter_key(doc.chapter), targets)
            body = self._bodies.get(doc.chapter.id)
            if body is None or body.key != body_key:
                wanted.append((doc, body_key))
        made = self._bodies_of(wanted, book, pages)
        bodies = {doc.chapter.id: body for doc, body in made}
        copies: dict[str, bytes | Path] = {}
        for doc, key in zip(docs, keys, strict=True):
            if key not in self._copies:
                self._copies[key] = site_copies(book, [doc])
            copies.update(self._copies[key])
        self._copies = {key: self._copies[key] for key in keys}
        self._bodies = {
            doc.chapter.id: bodies.get(doc.chapter.id) or self._bodies[doc.chapter.id]
            for doc in docs
        }
        kept = [self._bodies[doc.chapter.id] for doc in docs]
        problems = [
            p
            for doc, body in zip(docs, kept, strict=True)
            for p in replace_in(body.problems, doc.chapter)
        ]
        files = site_files(plan, book, docs, [body.html for body in kept], copies)
        return files, problems

    def _bodies_of(
        self, wanted: list[tuple[Doc, str]], book: Book, pages: dict[str, str]
    ) -> list[tuple[Doc, Body]]:
        from ..write.html.writer import page_body

        def make(item: tuple[Doc, str]) -> tuple[Doc, Body]:
            doc, key = item
            html, problems = page_body(doc, book, pages, self._blocks, self._prepared.prepare)
            return doc, Body(key, html, place(problems, Lines(doc.chapter)))

        if len(wanted) < 2:
            return [make(item) for item in wanted]
        with ThreadPoolExecutor(max_workers=2) as pool:
            return list(pool.map(make, wanted))

    def _real_out(self) -> None:
        """The preview's folder, checked as a build's ``dist`` is: no symbolic link from the
        book's folder down (``dist`` or ``dist/preview`` leading elsewhere), SEC001."""
        top = self.root if self.out.is_relative_to(self.root) else self.out
        real_folders(top, self.out)

    def _write(self, files: dict[str, bytes | Path]) -> list[str]:
        """Write the files whose bytes changed; remove the ones the site no longer has."""
        changed: list[str] = []
        self._real_out()
        for name, data in files.items():
            target = self.out / name
            if isinstance(data, Path):
                stat = data.stat()
                stamp = (data, stat.st_size, stat.st_mtime_ns)
                if self._copied.get(name) == stamp and target.is_file():
                    continue
                content = data.read_bytes()
                self._copied[name] = stamp
            else:
                content = data
            digest = digest_of(content)
            if self._written.get(name) is None and target.is_file():
                with contextlib.suppress(OSError):
                    self._written[name] = digest_of(target.read_bytes())
            if self._written.get(name) == digest:
                continue
            atomic_write(target, content, self.out)
            target.chmod(0o644)
            self._written[name] = digest
            changed.append(name)
        for name in sorted(set(self._written) - set(files)):
            real_folders(self.out, (self.out / name).parent)  # never unlink through a link
            (self.out / name).unlink(missing_ok=True)
            del self._written[name]
            self._copied.pop(name, None)
            changed.append(name)
        for folder, _subfolders, _files in os.walk(self.out):
            os.chmod(folder, 0o755)
        return changed

    def _edited(self, book: Book, changed: set[Path], texts_changed: list[str]) -> str | None:
        """The chapter being edited: the first whose text changed, else the first of a file."""
        if texts_changed:
            return texts_changed[0]
        for chapter in book.chapters:
            if chapter.path.resolve() in changed:
                return chapter.id
        return None

    # ------------------------------------------------------------------ the chapter PDF

    def _write_pdf(self, update: Update) -> None:
        from ..api import font_problems
        from ..parse.ast import copy_tree
        from ..write.shared.setup import print_setup

        if self._typesettable is None:
            return
        good, config, edited = self._typesettable
        book = good.book
        wanted = self.chapter or edited
        chapter = select_chapter(book, wanted) if wanted else book.chapters[0]
        index = book.chapters.index(chapter)
        doc = good.docs[index]
        engine = registry.engine_for(book.config)
        key = fingerprint(good.keys[index], chapter_key(chapter), config, engine)
        name = f"{chapter.id}.pdf"
        self._real_out()
        target = self.out / name
        if key == self._pdf_key and target.is_file():
            return
        cache = self._cache()
        setup = print_setup(book, cache)  # as a build hands it to its writers
        update.warnings += font_problems(setup, False)
        if self._typesetter is not None:  # the AST is pickled: the writer's passes change a copy
            selected = [Doc(chapter, doc.blocks, doc.meta)]
            typesetter = self._typesetter
            update.warnings += typesetter.typeset(engine, book, selected, target, cache, setup)
            update.pages_laid = self._typesetter.pages_laid
        else:
            selected = [Doc(chapter, copy_tree(doc.blocks), copy_tree(doc.meta))]
            update.warnings += typeset(engine, book, selected, target, cache, setup)
            update.pages_laid = pages_laid()
        update.warnings = [d for d in dict.fromkeys(update.warnings) if d.severity != "info"]
        self._pdf_key = key
        update.pdf = name
        update.chapters = [chapter.id]


def unmarshalled(chapter: Chapter, data: bytes) -> Doc:
    """A chapter's Doc from the marshal of its (blocks, meta): a copy of its own."""
    blocks, meta = marshal.loads(data)
    return Doc(chapter, blocks, meta)


def astuple(doc: Doc) -> tuple[list[Any], dict[str, Any]]:
    """A parsed doc's blocks and metadata (to put them on another Chapter object)."""
    return doc.blocks, doc.meta


def digest_of(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()
