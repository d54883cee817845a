"""The Python API: :func:`build` runs load → dialect → normalize → parse → transform → write.

The CLI calls this, and so can tests and other tools::

    import kobook
    result = kobook.build("path/to/book", formats=["pdf", "html"])
    print(result.outputs)
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import ledger
from .boundary import inside
from .cache import Cache
from .collector import few_collections
from .errors import Diagnostic, KobookError
from .forked import ahead, worth_it
from .load import select_chapter
from .model import Book
from .pipeline import Pipeline
from .progress import Progress, Silent
from .reproducible import source_date_epoch
from .write import registry
from .write.shared.common import sweep_scratch
from .write.shared.pdfx import press_ready_in_place
from .write.shared.resolution import coarse_images
from .write.shared.setup import PrintSetup, print_setup
from .write.shared.trim import finish_in_place


@dataclass
class BuildResult:
    """What a build produced and what it noticed."""

    outputs: dict[str, Path] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # What ``kobook check`` would still report after the build-time fixes.
    check_findings: list[Diagnostic] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    # What the build chose on the reader's behalf (which files are chapters, and why).
    notes: list[str] = field(default_factory=list)


@few_collections()
def build(
    project: str | Path = ".",
    formats: list[str] | tuple[str, ...] | None = None,
    *,
    engine: str | None = None,
    chapter: str | None = None,
    out: str | Path | None = None,
    keep_going: bool = False,
    strict: bool = False,
    cache_dir: str | Path | None = None,
    progress: Progress | None = None,
    offline: bool = False,
    trust: bool = False,
    review: bool = False,
) -> BuildResult:
    """Build ``project`` into ``out`` (default ``PROJECT/dist``).

    ``formats``: any of ``pdf``, ``html``, ``epub`` (``all`` means the three); none: what
    ``formats:`` in metadata.yaml lists (default ``pdf``).  ``chapter``
    builds one chapter (numbered as in the whole book).  ``keep_going`` turns
    recoverable errors (a missing image) into warnings with a visible
    placeholder.  ``offline`` downloads no remote image (each one is IMG002;
    by default they are downloaded once into the cache).  ``strict`` fails
    the build when typography findings remain after the build-time fixes, or
    when syntax of another dialect (LEAK001) or raw HTML the PDF engine cannot
    draw (LEAK002) is left (LEAK003, raised before any output is written), or
    when the ledger finds a construct an output lost (LOST004, once they are written).
    ``trust`` passes the book's raw LaTeX (chapters, math, header-includes, a
    LaTeX template) to XeLaTeX unscreened: only for sources you trust (never
    for pull requests from strangers); see :mod:`kobook.write.latex.screen`.
    ``review`` also writes the bilingual review pages (``kobook upstream``), read-only,
    into ``out/review/``.
    Every path the book names stays inside the project, outputs inside
    ``out`` (SEC001, :mod:`kobook.boundary`).
    Raises :class:`KobookError` for mistakes in the book.
    """
    progress = progress or Silent()
    source_date_epoch()  # ENV002 before any work: a malformed one would be ignored quietly
    root = Path(project).resolve()
    wanted = expand_formats(formats) if formats else []
    result = BuildResult()
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        result.timings[name] = result.timings.get(name, 0.0) + now - clock
        clock = now

    progress.step("loading the book")
    sweep_scratch()  # what a killed build left in the temporary folder
    # The stages, as the preview runs them (it passes hooks that keep their results).
    pipeline = Pipeline(root, trust=trust, keep_going=keep_going, offline=offline)
    loaded = pipeline.front()  # load → dialect → guard
    book = loaded.book
    wanted = wanted or expand_formats(book.config.formats)
    result.notes += loaded.notes
    result.diagnostics += loaded.diagnostics
    lap("load")  # with the dialect and the guard
    chosen = bool(engine or book.config.get("engine"))
    engine = engine or registry.engine_for(book.config, root)
    if not chosen and engine != registry.pdf_engines()[0]:
        result.notes.append(
            f"engine: {engine}, for the book's own templates/"
            f"{registry.get(engine).templates}/ (engine: in metadata.yaml chooses another)"
        )
    pdf_writer = registry.get(engine, output="pdf")  # CFG005 for an engine kobook lacks
    # --out and --cache-dir are the user's own choice; the defaults stay inside the book
    # (a committed dist/ or .kobook-cache/ symlink must not lead elsewhere).
    out_dir = Path(out).resolve() if out else inside(root / "dist", root, what="output folder")
    cache = Cache(
        Path(cache_dir).resolve()
        if cache_dir
        else inside(root / ".kobook-cache", root, what="cache folder")
    )
    lap("setup")
    normalized = pipeline.normalize(book, cache)
    result.check_findings = normalized.remaining
    if strict:
        serious = [d for d in normalized.remaining if d.severity in ("error", "warning")]
        if serious:
            raise KobookError.summarising(
                f"{len(serious)} typography finding(s) remain (--strict)",
                "CHK003",
                serious[:20],
                "fix them (kobook check --fix fixes the safe ones) or build without --strict",
            )
    lap("normalize")
    progress.step(f"parsing {len(book.chapters)} chapters")
    parsed = pipeline.parse(book, cache)
    lap("parse")
    progress.step("numbering figures, tables, equations and references")
    docs, ctx, _keys = pipeline.transform(book, parsed, cache, outputs=(out_dir,))
    result.diagnostics += ctx.diagnostics
    lap("transform")
    selected = docs
    if chapter is not None:
        wanted_chapter = select_chapter(book, chapter)
        selected = [d for d in docs if d.chapter is wanted_chapter]
    pdf_settings = book.config.get("pdf") or {}
    name = str(pdf_settings.get("filename", "book")).removesuffix(".pdf")
    if chapter is not None:
        name = f"{name}-{selected[0].chapter.id}"
    target = output_file(book, out_dir, f"{name}.pdf") if "pdf" in wanted else out_dir
    # What the writers leave out, from what their registry entries declare they draw
    # (Writer.draws); once, here (the writers do not decide it): LEAK002 for the raw HTML and
    # the elements a writer drops, TYP003/RAW001 for raw formats no writer of this build draws.
    from .transform.leaks import fail_on_leaks, html_leaks, raw_leaks

    writing = [pdf_writer] if "pdf" in wanted else []
    writing += [registry.get(kind) for kind in ("html", "epub") if kind in wanted]
    lost = [d for writer in writing for d in html_leaks(selected, writer.draws, writer.label)]
    lost += raw_leaks(selected, frozenset().union(*(writer.raw for writer in writing)))
    if strict:
        # LEAK001 (transforms) and LEAK002 fail before anything is written, so --strict
        # never leaves an output with leaked syntax in place.
        fail_on_leaks(ctx.diagnostics + lost)
    result.diagnostics += lost
    # What every writer draws by (page, type, code box, fonts, math font, word breaking,
    # the folders it may read), decided once for the build and handed to each.
    # The ledger's count of what the book holds, made by a forked process while the
    # writers work (:mod:`.forked`); read back when every output is written.
    size = sum(len(doc.chapter.text) for doc in selected)
    with ahead(ledger.expected, selected, cache, worth=worth_it(size)) as counted:
        setup = print_setup(book, cache)
        job = registry.Job(
            book,
            selected,
            target,
            cache,
            all_docs=docs,
            keep_going=keep_going,
            trusted=trust,
            setup=setup,
        )
        used: list[registry.Writer] = []
        epub_name = f"{name}.epub"
        offered = tuple(
            (kind, file)
            for kind, file in (("pdf", target.name), ("epub", epub_name))
            if kind in wanted
        )
        if "html" in wanted:
            site_writer = registry.get("html")
            progress.step(site_writer.summary)
            site = inside(out_dir / "html", out_dir, what="HTML folder", folder="the output folder")
            written = site_writer.run(replace(job, out=site, downloads=offered))
            result.outputs["html"] = written.path
            result.diagnostics += written.problems
            used.append(site_writer)
            lap("html")
        if "pdf" in wanted:
            result.diagnostics += font_problems(setup, strict)
            press = setup.press  # PDF002/PDF003 before the layout, not after it
            advice = "" if chosen or not pdf_writer.draft else f" ({pdf_writer.draft})"
            progress.step(pdf_writer.summary + advice)
            written = pdf_writer.run(job)
            result.diagnostics += written.problems
            if setup.trim is not None:  # bleed and marks: the same for every engine
                finish_in_place(written.path, setup.trim)
            if press is not None:  # PDF/X: the same for every engine
                config = book.config
                press_ready_in_place(
                    written.path, press, config.title, config.lang, config.output_epoch
                )
            if setup.goes_to_print:
                result.diagnostics += coarse_images(written.path, selected, book.root)
            result.outputs["pdf"] = written.path
            used.append(pdf_writer)
            lap("pdf")
        if "epub" in wanted:
            epub_writer = registry.get("epub")
            progress.step(epub_writer.summary)
            epub = output_file(book, out_dir, epub_name)
            written = epub_writer.run(replace(job, out=epub))
            result.diagnostics += written.problems
            result.outputs["epub"] = written.path
            used.append(epub_writer)
            lap("epub")
        if "html" in result.outputs and offered:
            offer_downloads(
                result.outputs["html"].parent, [result.outputs[kind] for kind, _ in offered]
            )
        # The ledger: each output read back and compared with the transformed book.
        progress.step("checking every output holds the whole book")
        made = [(writer.output, result.outputs[writer.output], writer.label) for writer in used]
        result.diagnostics += ledger.verify(
            selected, made, result.diagnostics, cache, counted.result()
        )
        lap("ledger")
    if strict:
        ledger.fail_on_losses(result.diagnostics)
    from .write.shared.latexmeta import ignored_latex  # raw LaTeX only XeLaTeX uses: note it once

    ignoring = [writer.label for writer in used if not writer.raw_latex]
    result.diagnostics += ignored_latex(book.config.get("header-includes"), selected, ignoring)
    # The site and the WeasyPrint PDF sanitize the same chapters: each HTML001 once.
    result.diagnostics = list(dict.fromkeys(result.diagnostics))
    if review:
        progress.step("drawing the review pages (the original beside the translation)")
        result.outputs["review"] = review_pages(root, out_dir, cache, offline)
    progress.step("done")
    return result


def offer_downloads(site: Path, files: list[Path]) -> None:
    """Copy the build's PDF and EPUB into the site's ``downloads/``, which its pages link:
    a site published alone (a release zip, a Pages branch) still offers them."""
    from .write.html.writer import DOWNLOADS_DIR
    from .write.shared.common import PUBLIC_FOLDER, atomic_output

    folder = inside(site / DOWNLOADS_DIR, site, what="downloads folder", folder="the site")
    folder.mkdir(exist_ok=True)
    folder.chmod(PUBLIC_FOLDER)  # published as the site's other folders are, whatever the umask
    for file in files:
        with atomic_output(folder / file.name) as tmp:
            shutil.copyfile(file, tmp)


def review_pages(root: Path, out_dir: Path, cache: Cache, offline: bool) -> Path:
    """The read-only review pages in ``out_dir/review/``; the index page."""
    from .upstream import open_project
    from .upstream.review import write_pages

    folder = inside(out_dir / "review", out_dir, what="review folder", folder="the output folder")
    project = open_project(root, offline=offline, cache_dir=cache.root)
    write_pages(project, folder, live=False)
    return folder / "index.html"


def output_file(book: Book, out_dir: Path, name: str) -> Path:
    """``out_dir/name`` when it stays inside ``out_dir``; else SEC001 at ``pdf.filename``.

    ``pdf: {filename: ../../x/pwned}`` or an absolute name would write anywhere.
    """
    path = book.config.path
    return inside(
        out_dir / name,
        out_dir,
        what="PDF file name (pdf.filename)",
        written=name,
        file=path,
        line=book.config.line("pdf", "filename"),
        folder="the output folder",
        hint=f"name a file inside the output folder ({out_dir}), e.g. pdf: {{filename: book}}; "
        "--out chooses the folder",
    )


def font_problems(setup: PrintSetup, strict: bool) -> list[Diagnostic]:
    """FONT002 for fonts metadata names that are not installed (an error with --strict)."""
    problems = list(setup.fonts.problems)
    if strict and problems:
        raise KobookError.summarising(
            f"{len(problems)} font(s) named in metadata are not installed (--strict)",
            "FONT002",
            problems,
            "install them or name installed fonts (kobook doctor lists them)",
        )
    return problems


def expand_formats(formats: list[str] | tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for name in formats:
        names = list(registry.formats()) if name == "all" else [name]
        for item in names:
            if item not in registry.formats():
                raise KobookError(
                    f"unknown format '{item}'", code="CLI001", hint="use pdf, html, epub or all"
                )
            if item not in out:
                out.append(item)
    return out
