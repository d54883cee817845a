"""The site's search: a Pagefind index of the chapter pages, in ``search/``.

Why Pagefind (PyPI ``pagefind[bin]``, a maintained static search): it runs
offline, and a query loads only the index chunks its words need, where Quarto's
search loads the whole index and mdBook's cannot find Korean at all.  It has
no Korean stemmer, so ``모델을`` is indexed as it is written; but it matches each
word of a query as the start of indexed words, so ``모델`` already finds
``모델을``, ``모델의`` and ``모델이``.  The other way round (``모델을`` → pages with
``모델``) needs the particles taken off the query: ``assets/book.js`` does it
with ``search/particles.json``, the table :func:`..korean.particles.search_endings`
writes for a Korean book.  Adding stripped forms to the index instead would
double it and show them in the excerpts.

Only the chapter pages kobook wrote are indexed: they are copied into a folder
of their own first, so no other HTML file of the site (a book's embedded
pages) can add results.  In each page only the ``data-pagefind-body`` article
counts, without what is not text to find (heading ``#`` links, the TeX kept
beside MathML, a formula drawing's TeX alt text, footnote back-links).

A page opened from disk cannot run Pagefind; ``diskindex.py`` writes the same
words as plain scripts beside it (``search/disk/``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ... import limits, tools
from ...errors import Diagnostic, Location
from ...korean.particles import search_endings
from ...lang import language_of
from ...model import Config
from ..shared.common import scratch as scratch_folder
from .diskindex import DISK_DIR, UNSEARCHED_CLASSES, UNSEARCHED_TAGS, write_disk_index

SEARCH_DIR = "search"

# What a page shows but nobody searches for (diskindex's list), and a formula drawing's
# TeX alt text.
EXCLUDE = ", ".join([*(f".{name}" for name in UNSEARCHED_CLASSES), *UNSEARCHED_TAGS, "img.math"])

# Pagefind's ready-made interfaces: the site has its own few lines (assets/book.js).
UNUSED = (
    "pagefind-ui.*",
    "pagefind-component-ui.*",
    "pagefind-modular-ui.*",
    "pagefind-highlight.js",
)


def search_wanted(config: Config) -> bool:
    """``html: {search: false}`` turns the search off; it is on by default."""
    return bool((config.get("html") or {}).get("search", True))


def pagefind() -> Path | None:
    """Pagefind's program (from the ``pagefind_bin`` wheel), or None when it is missing."""
    try:
        from pagefind_bin import get_executable
    except ImportError:
        return None
    try:
        return get_executable()
    except (FileNotFoundError, OSError):
        return None


def missing_search() -> Diagnostic:
    return Diagnostic(
        "SEARCH001",
        "the site has no search: Pagefind is not installed",
        Location(),
        "pip install 'pagefind[bin]' (a dependency of kobook), or html: {search: false}",
        "warning",
    )


def index_pages(site: Path, pages: list[str], lang: str) -> list[Diagnostic]:
    """Index ``pages`` (names of pages in ``site``) into ``site/search/``.

    A failed or missing Pagefind leaves the site without search and says so
    (SEARCH001): the book itself is still good.
    """
    program = pagefind()
    if program is None:
        return [missing_search()]
    out = site / SEARCH_DIR
    with scratch_folder("search") as scratch:
        pages_dir = Path(scratch) / "pages"
        pages_dir.mkdir()
        for name in pages:
            shutil.copyfile(site / name, pages_dir / name)
        bundle = Path(scratch) / "bundle"
        args = [str(program), "--site", str(pages_dir), "--output-path", str(bundle)]
        args += ["--force-language", lang, "--exclude-selectors", EXCLUDE, "--silent"]
        done = tools.run(
            args,
            timeout=limits.SEARCH_TIMEOUT,
            what="indexing the site for search (Pagefind)",
            text=True,
            errors="replace",
        )
        if done.returncode != 0 or not (bundle / "pagefind.js").is_file():
            last = (done.stderr or done.stdout or "").strip().splitlines()[-1:] or ["no output"]
            return [
                Diagnostic(
                    "SEARCH001",
                    f"the site has no search: Pagefind failed ({last[0][:200]})",
                    Location(),
                    "report it with the book's pages; html: {search: false} builds without",
                    "warning",
                )
            ]
        for pattern in UNUSED:
            for unused in bundle.glob(pattern):
                unused.unlink()
        endings = search_endings() if language_of(lang) == "ko" else []
        (bundle / "particles.json").write_text(
            json.dumps(endings, ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
        )
        write_disk_index(site, pages, bundle / DISK_DIR, endings)
        swap_in(bundle, out)
    return []


def swap_in(bundle: Path, out: Path) -> None:
    """Put ``bundle`` at ``out`` whole: a page open in a browser (``--chapter``, the
    preview) never loads half of an old index and half of a new one."""
    new = out.with_name(f".{out.name}.new")
    old = out.with_name(f".{out.name}.old")
    for stale in (new, old):
        if stale.exists():
            shutil.rmtree(stale)
    shutil.copytree(bundle, new)
    if out.exists():
        out.rename(old)
    new.rename(out)
    if old.exists():
        shutil.rmtree(old)
