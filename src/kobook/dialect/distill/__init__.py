"""The ``distill`` dialect: a Jekyll al-folio site of distill posts, built in place.

The Korean "How to Scale Your Model" is such a site: one post per part
(``layout: distill``, ordered by ``section_number``), figures as Liquid
includes, answers in ``{% details %}``, footnotes and citations as ``<d-…>``
elements, kramdown's ``$$`` math and ``markdown=1`` HTML.  The translators
keep the site live, so kobook reads it as it is:

- ``layout.py``: which posts are chapters, in which order; the book's metadata;
  ``description`` as each chapter's abstract;
- ``masking.py``: code (and ``{% raw %}`` text) hidden from every rewrite;
- ``liquid.py``: figure includes, ``{% details %}``, decorations, other Liquid named;
- ``html_blocks.py``: ``markdown=1`` elements, iframe/``l-page`` embeds;
- ``dtags.py``: ``<d-footnote>``, ``<d-cite>``, distill's wrappers;
- ``kramdown_math.py``: ``$$`` inline or display, by kramdown's rule.

Every rewrite goes through :class:`~kobook.model.origins.Lines`, so each
diagnostic names the line the translator wrote.  Codes: DIA101 Liquid left,
DIA102 unbalanced ``{% details %}``, DIA106 figure include without a path,
DIA110-113 Liquid decorations (info), DIA120 wrappers dropped (info), DIA121
``<d-…>`` left, DIA122 ``<d-cite>`` without a key, DIA130 ``markdown=1``
element never closed, DIA131 layout div dropped (info), DIA140 ``$$`` never
closed.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...model.origins import Lines
from .. import Dialect, Layout, Report
from . import dtags, html_blocks, kramdown_math, liquid
from . import layout as site_layout
from .masking import Masked, highlight_blocks, mask_code, mask_raw, unmask

if TYPE_CHECKING:
    from ...model import Book, Chapter, Config


class DistillDialect(Dialect):
    """Jekyll al-folio distill posts → pandoc Markdown (see the module doc)."""

    name = "distill"

    def detect(self, root: Path) -> str | None:
        return site_layout.detect(root)

    metadata_file = site_layout.CONFIG

    def metadata(self, root: Path) -> dict[str, Any]:
        return site_layout.metadata(root)

    def layout(self, root: Path, config: Config) -> Layout | None:
        return site_layout.layout(root)

    def convert(self, chapter: Chapter, lines: Lines, report: Report, book: Book) -> Lines:
        site = liquid.Site(site_layout.config_of(book.root), dict(chapter.meta))
        masked = Masked()
        lines = hide_code(lines, masked, report)
        lines = liquid.comments(lines, report)
        lines, abstract = site_layout.with_abstract(lines, chapter.meta, chapter.path)
        if abstract:
            report.count("abstract")
        lines = html_blocks.embeds(lines, report, site, book.root)
        ids = figure_ids(book).get(chapter.path, [])
        lines = liquid.figures(lines, report, site, ids, set(ids))
        lines = liquid.details(lines, report)
        lines = liquid.citations(lines, report)
        lines = liquid.outputs(lines, report, site)
        lines = html_blocks.markdown_elements(lines, report)
        lines = html_blocks.headings(lines, report)
        lines = dtags.convert(lines, report)
        lines = kramdown_math.convert(lines, report)
        liquid.leftover_tags(lines, report)
        return unmask(lines, masked)


def hide_code(lines: Lines, masked: Masked, report: Report) -> Lines:
    """``{% raw %}`` text and code (``{% highlight %}``, ``<d-code>``, fences, spans) as tokens."""
    lines = mask_raw(lines, masked, report)
    lines = highlight_blocks(lines, report)
    lines = dtags.codes(lines, report)
    return mask_code(lines, masked)


def figure_ids(book: Book) -> dict[Path, list[str]]:
    """Each chapter's figure ids in order, unique in the book (the first use keeps the stem).

    Found from the chapter files themselves, so a chapter built alone
    (``--chapter``) gets the ids it has in the whole book.
    """
    files = []
    for chapter in book.chapters:
        try:
            files.append((chapter.path, chapter.path.stat().st_mtime_ns))
        except OSError:
            continue
    return figure_ids_of(tuple(files), book.root)


@functools.cache
def figure_ids_of(files: tuple[tuple[Path, int], ...], root: Path) -> dict[Path, list[str]]:
    from ...files.reading import read_source

    site = liquid.Site(site_layout.config_of(root), {})
    taken: set[str] = set()
    out: dict[Path, list[str]] = {}
    for path, _mtime in files:
        body = read_source(path).body
        text = hide_code(Lines.of(body, path), Masked(), Report()).text
        ids = out.setdefault(path, [])
        for match in liquid.FIGURE.finditer(text):
            values = liquid.params(match.group("params"))
            target = liquid.site_path(values.get("path") or values.get("src") or "", site)
            if target:
                ids.append(liquid.unique(liquid.figure_id(Path(target).stem), taken))
    return out


DIALECT = DistillDialect()
