"""The two corpus repositories of other dialects, imported and built in place: what
``tests/e2e/test_corpus_distill.py`` (``scaling-book-en``, a Jekyll al-folio distill
site) and ``tests/e2e/test_corpus_mdbook.py`` (``rust-book-ko``, an mdBook book) share.

Each book is copied (the corpus is read-only), ``kobook import``ed, and built once per
module as HTML, a WeasyPrint PDF and an EPUB; every test reads those outputs.  The
expected counts are counted from the sources on their own terms, never copied from
kobook's report.  The two books are two modules so that two test workers build them at
the same time.
"""

from __future__ import annotations

import html as htmllib
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kobook import build, import_repository
from kobook.api import BuildResult
from kobook.errors import Diagnostic

FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*\n", re.S)
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?^ {0,3}\1[ \t]*$", re.M | re.S)
TAG = re.compile(r"<[^>]+>")
LEFTOVERS = ("{%", "<d-", "markdown=1", "$$", "{{#")


@dataclass
class Built:
    """One corpus book built as HTML and PDF."""

    root: Path
    result: BuildResult
    imported: list[str]
    html_dir: Path
    pdf: Path
    pdf_text: str
    pages: list[str]
    # pages whose block-by-block HTML (kobook preview's) differed from pandoc's whole one
    pieced_differing: list[str]
    pieced: int
    # chapters whose block-by-block preparation (write/html/blockprep.py) differed from prepare()
    prepared_differing: list[str]
    prepared: int

    def codes(self, code: str) -> list[Diagnostic]:
        return [d for d in self.result.diagnostics if d.code == code]

    def html_pages(self) -> Iterator[tuple[Path, str]]:
        for page in sorted(self.html_dir.glob("*.html")):
            yield page, page.read_text(encoding="utf-8")

    def chapter_html(self) -> str:
        return "\n".join(text for page, text in self.html_pages() if page.name != "index.html")


def visible_text(page: str) -> str:
    """The text a reader sees: no tags, no scripts, entities decoded."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return htmllib.unescape(TAG.sub(" ", page))


def build_corpus(source: Path, tmp: Path) -> Built:
    root = tmp / "repo"
    shutil.copytree(source, root)
    imported = import_repository(root)
    out, cache = tmp / "out", tmp / "cache"
    with pytest.MonkeyPatch.context() as patch:
        witness = BlockHtmlWitness(patch)
        result = build(
            root, ["html", "pdf", "epub"], out=out, cache_dir=cache, keep_going=True, offline=True
        )
    pdf = result.outputs["pdf"]
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return Built(
        root,
        result,
        imported.chapters,
        result.outputs["html"].parent,
        pdf,
        text,
        text.split("\f"),
        witness.differing,
        witness.pieced,
        witness.prepared_differing,
        witness.prepared,
    )


class BlockHtmlWitness:
    """While a build runs, every pandoc HTML of a site page is also made
    block by block (``write/shared/blockhtml.py``, as ``kobook preview`` makes it), from
    pieces kept from earlier pages and from a differently ordered copy of the same
    page; the build keeps pandoc's own, the witness notes where the two differ.
    Each page's preparation (sanitizer, site passes) is also made block by block
    (``write/html/blockprep.py``), the same way."""

    def __init__(self, patch: pytest.MonkeyPatch) -> None:
        from kobook.model import Doc
        from kobook.write.html import blockprep
        from kobook.write.html import writer as html
        from kobook.write.shared import blockhtml, common

        self.kept = blockhtml.BlockHtml(common.blocks_to_html)
        self.differing: list[str] = []
        self.pieced = 0  # pages made from pieces (not written whole for their footnotes)
        whole = html.chapters_to_html  # every page's pandoc HTML, as the build writes it
        kept_prepare = blockprep.KeptPrepare()
        self.prepared_differing: list[str] = []
        self.prepared = 0
        whole_prepare = html.prepare

        def shown(result: tuple[list[Any], list[Diagnostic]]) -> Any:
            return result[0], [(d.code, d.message, d.location) for d in result[1]]

        def both_prepare(doc: Doc, book: Any, pages: dict[str, str]) -> Any:
            result = whole_prepare(doc, book, pages)
            kept_prepare.prepare(Doc(doc.chapter, doc.blocks[::-1], doc.meta), book, pages)
            if shown(kept_prepare.prepare(doc, book, pages)) != shown(result):
                self.prepared_differing.append(doc.chapter.id)
            self.prepared += 1
            return result

        patch.setattr(html, "prepare", both_prepare)

        def both(chapters: list[list[Any]], cache: Any) -> list[str]:
            texts = whole(chapters, cache)
            for blocks, text in zip(chapters, texts, strict=True):
                self.kept.html(blocks[::-1])  # the same blocks, other code-block counts
                if self.kept.html(blocks) != text:
                    self.differing.append(text[:200])
                self.pieced += not blockhtml.has_notes(blocks)
            return texts

        # The site's pages only: the print HTML goes through the same BlockHtml, and a
        # second witness of every page doubled the corpora's build time.
        patch.setattr(html, "chapters_to_html", both)


def build_chapter(
    built: Built, chapter: str, formats: list[str], out: Path, engine: str | None = None
) -> BuildResult:
    """One chapter of a built corpus book (numbered as in the whole book), through the
    cache of the book's own build."""
    return build(
        built.root,
        formats,
        engine=engine,
        chapter=chapter,
        keep_going=True,
        offline=True,
        out=out,
        cache_dir=built.root.parent / "cache",
    )


def same_through_another_engine(built: Built, chapter: str, engine: str, out: Path) -> None:
    """One chapter of a built corpus book through another PDF engine: nothing the ledger
    counts is missing from that PDF."""
    result = build_chapter(built, chapter, ["pdf"], out, engine)
    assert [d.format() for d in result.diagnostics if d.code.startswith("LOST")] == []
    assert result.outputs["pdf"].stat().st_size > 20_000


def assert_pieced_as_pandoc(built: Built, pieced: int, prepared: int) -> None:
    """What ``kobook preview`` writes from kept pieces is byte for byte pandoc's HTML
    (code blocks numbered or not, the ones pandoc cannot highlight counted too), and so
    is its preparation (sanitized raw HTML, the site's passes, the warnings)."""
    assert built.pieced_differing == [] and built.pieced >= pieced  # pages without notes
    assert built.prepared_differing == [] and built.prepared >= prepared


def no_loss(built: Built) -> list[str]:
    """The ledger's LOST findings of the build (every construct reaches the PDF, the site
    and the EPUB)."""
    return [d.format() for d in built.result.diagnostics if d.code.startswith("LOST")]
