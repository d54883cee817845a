"""The preview's build state: build once, then rebuild what a save changed.

The stages are the build's own, run through the same
:class:`~kobook.pipeline.Pipeline` (load → dialect → guard → normalize → parse →
transform), with memo hooks that keep the last good build's results
(:mod:`.stages`: fixed texts, ASTs, foretold ASTs, transform passes); then the
HTML writer's pages, from the site's own functions.  The session adds what the
build has no use for:

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

import gc
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..boundary import inside
from ..cache import Cache
from ..errors import Diagnostic, KobookError
from ..load import select_chapter
from ..model import Book, Doc
from ..model.bookindex import Mark
from ..pipeline import Pipeline
from ..transform.memo import (
    CHAPTER_FIELDS,
    Lines,
    Placed,
    chapter_key,
    fingerprint,
    place,
    replace_in,
)
from ..write import registry
from ..write.html.blockprep import KeptPrepare
from ..write.shared.blockhtml import BlockHtml
from ..write.shared.common import blocks_to_html
from .folder import PreviewFolder
from .searchindex import SearchIndex
from .stages import PreviewStages, Proving
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
        self._config = ""  # key of the metadata the last pages were made with
        self._made_from = ""  # … of what the kept chapters were made from (no title)
        # The build's stages, with hooks that keep what the last good build made.
        self.stages = PreviewStages()
        self._pipeline = Pipeline(self.root, offline=offline, hooks=self.stages)
        self._ids: dict[str, tuple[list[str], set[str]]] = {}  # AST key → ids, #links
        # AST key → the images (and framed pages) it shows: site path → file.
        self._copies: dict[str, dict[str, Path | bytes]] = {}
        self._bodies: dict[str, Body] = {}  # chapter id → its last body
        self._marks: dict[str, list[Mark]] = {}  # doc key → its index marks
        # The HTML of every block written so far: an edit writes only its own blocks.
        self._blocks = BlockHtml(blocks_to_html)
        self._prepared = KeptPrepare()  # and every block as prepared for the site
        self.folder = PreviewFolder(self.root, self.out)  # written only where bytes changed
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
        self.stages.begin()
        try:
            self._rebuild({Path(p).resolve() for p in changed}, update)
        except KobookError as error:
            update.error = error.diagnostic
            update.pages = []
        finally:
            self.stages.end()
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
        if any(self._site_asset(path) for path in changed):
            self._env = None  # the templates' folder may be new
        if full or any(self._is_image(p) for p in changed):
            self.stages.forget()  # the passes look at the files (images, links)
            self._copies.clear()
            self._bodies.clear()  # a body holds each image's pixel size
        if full:
            self._bodies.clear()
            self._marks.clear()
            self._prepared.clear()
            self._env = None
        loaded = self._pipeline.front()  # as `kobook build` runs it
        book = loaded.book
        config = fingerprint(book.config.raw, book.config.path)
        made_from = fingerprint(book.config.beyond_shown(), book.config.path)
        # metadata.yaml, or a one-file book's front matter; a title (what is only shown)
        # makes the pages again, and nothing of the chapters (the site's step does).
        if made_from != self._made_from:
            full = True
            self.stages.forget()
            self._copies.clear()
            self._bodies.clear()
            self._marks.clear()
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
        if not self.stages.confirmed():
            # A foretold AST was not pandoc's: all made again from pandoc's.
            self._restore_state(kept, book)
            made, failed = self._make(book, cache, foretell=False)
        if not self.stages.proven(proving):
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
        update.pages = self.folder.write(files)
        warnings += self._search(book, docs, update.pages, full)
        update.warnings = [d for d in dict.fromkeys(warnings) if d.severity != "info"]
        self.good = good
        self._config = config
        self._made_from = made_from
        self.edited = edited
        self.stages.built(book)

    def _search(
        self, book: Book, docs: list[Doc], written: list[str], full: bool
    ) -> list[Diagnostic]:
        """The site's search index: made before the first build is served, else asked for
        in the background when a page changed (a full rebuild too: an edit of the title
        rewrites every page, and the last index serves meanwhile)."""
        from ..write.html.search import SEARCH_DIR, index_pages, search_wanted
        from ..write.html.writer import page_name

        if not search_wanted(book.config):
            return []
        pages = [page_name(doc) for doc in docs]
        if not (self.out / SEARCH_DIR).is_dir():
            self._search_index.wait()
            return index_pages(self.out, pages, book.config.lang)
        if full or any(name.endswith(".html") for name in written):
            self._search_index.refresh(self.out, pages, book.config.lang)
        return []

    def _setup_changed(self, changed: set[Path]) -> bool:
        """True when a changed file is neither a chapter nor an image (metadata, templates, ...).
        The site's own style sheets and script (``templates/html/extra.css``, …) are not
        (:meth:`_site_asset`)."""
        assert self.good is not None
        metadata = {(self.root / "metadata.yaml").resolve()}
        if self.good.book.config.path is not None:
            metadata.add(self.good.book.config.path.resolve())
        for path in changed:
            if path in self.good.files or self._is_image(path) or self._site_asset(path):
                continue
            if path.resolve() in metadata:
                continue  # what it changed is judged once it is read (_rebuild)
            if path.suffix.lower() in (".md", ".markdown") and not path.exists():
                continue  # a chapter file removed: the reloaded book no longer has it
            markdown = path.suffix.lower() in (".md", ".markdown")
            if markdown and "templates" not in path.parts and path.name != "SUMMARY.md":
                continue  # a new chapter file: the reloaded book finds it
            return True
        return False

    def _site_asset(self, path: Path) -> bool:
        """Is ``path`` one of the site's style sheets, script or icon a book may replace
        (``templates/html/extra.css``, …)?  They change only themselves: the site's files
        are gathered again from the templates (a new templates environment, which finds a
        folder made since), and nothing is checked, parsed or transformed again."""
        from ..write.html.writer import ASSETS, TEMPLATES

        own = (self.root / "templates" / TEMPLATES).resolve()
        return path.parent.resolve() == own and path.name in ASSETS

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

    def _make(self, book: Book, cache: Cache, *, foretell: bool) -> tuple[Made | None, Failed]:
        """The chapters transformed, and the site's files when an AST was foretold and pandoc
        is still parsing (made meanwhile; else after the chapter PDF is asked for); or the
        error that stopped them."""
        try:
            docs, keys, ctx = self._transform(book, cache, foretell=foretell)
            waiting = self.stages.waiting()
            site = self._site(book, docs, keys) if waiting else None
        except KobookError as error:
            return None, error
        return (docs, keys, ctx, site), None

    def _kept_state(self, book: Book) -> KeptState:
        """What :meth:`_make` changes of the kept results (and of the chapters), to undo it."""
        chapters = [{a: getattr(c, a) for a in CHAPTER_FIELDS} for c in book.chapters]
        memo = (self.stages.passes.entries, self.stages.passes.final)
        return memo, self._ids, dict(self._copies), self._bodies, chapters

    def _restore_state(self, kept: KeptState, book: Book) -> None:
        (self.stages.passes.entries, self.stages.passes.final), self._ids, copies = kept[:3]
        self._bodies, chapters = kept[3:]
        self._copies = copies
        for chapter, fields in zip(book.chapters, chapters, strict=True):
            for name, value in fields.items():
                setattr(chapter, name, value)

    def _normalize(
        self, book: Book, cache: Cache
    ) -> tuple[dict[str, list[Diagnostic]], list[Proving]]:
        """The build-time fixes (the pipeline's stage, kept per text by the hooks); the
        findings left per page, and the edited chapter's proof still to wait for."""
        self.stages.start_normalize()
        report = self._pipeline.normalize(book, cache)
        proving = self.stages.end_normalize()
        findings = {f"{c.id}.html": list(report.by_chapter.get(c.id, [])) for c in book.chapters}
        return findings, proving

    def _transform(
        self, book: Book, cache: Cache, *, foretell: bool = False
    ) -> tuple[list[Doc], list[str], Any]:
        """parse → transform, the pipeline's stages (the hooks keep and foretell)."""
        self.stages.foretelling = foretell
        parsed = self._pipeline.parse(book, cache)
        docs, ctx, keys = self._pipeline.transform(book, parsed, cache)
        return docs, keys, ctx

    def _site(
        self, book: Book, docs: list[Doc], keys: list[str]
    ) -> tuple[dict[str, bytes | Path], list[Diagnostic]]:
        """Every file of the HTML site: path → bytes (pages, style sheets) or a file to copy."""
        from ..parse.ast import iter_nodes
        from ..write.html.writer import doc_ids, page_name, plan_site, site_copies, site_files
        from ..write.shared.bookindex import marks_of
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
        words = book.config.words
        self._marks = {
            key: self._marks[key] if key in self._marks else marks_of(doc, words)
            for doc, key in zip(docs, keys, strict=True)
        }
        plan = plan_site(book, docs, self._env, marks=[self._marks[key] for key in keys])
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
        engine = registry.engine_for(book.config, book.root)
        key = fingerprint(good.keys[index], chapter_key(chapter), config, engine)
        name = f"{chapter.id}.pdf"
        self.folder.check()
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
