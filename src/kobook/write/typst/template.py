"""The book as one Typst document: kobook's template (its values from the metadata and the
print setup) around pandoc's Typst of each chapter, cached chapter by chapter."""

from __future__ import annotations

import bisect
import itertools
import json
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...cache import Cache
from ...errors import Diagnostic, KobookError
from ...forked import ahead, worth_it
from ...model import Book, Doc
from ...model.bookindex import Entry, Group
from ...model.colophon import colophon
from ...parse import api_version
from ...parse.ast import iter_nodes, raw_block
from ...parse.pandoc import run_pandoc
from ..shared.bookindex import book_index
from ..shared.common import part_titles, text_chars
from ..shared.highlight import tmtheme
from ..shared.latexmeta import sides
from ..shared.layout import PageLayout, points
from ..shared.mathsvg import math_family
from ..shared.setup import PrintSetup
from ..shared.workdir import Assets
from . import bodies
from .formulas import failing_math, math_images, spoken_math, typst_formulas, typst_of_math
from .passes import TEMPLATES, dangling_links, labelled, prepare
from .values import LABEL, Code, length, typst_environment
from .words import Blocks


def template_variables(book: Book, setup: PrintSetup) -> dict[str, Any]:
    """The template's values: data from the book as plain Python values (the template's
    ``finalize`` makes each a Typst literal, :mod:`.values`), lengths checked as Code."""
    config = book.config
    fonts = setup.fonts
    layout = setup.layout
    words = config.words
    size = points(layout.font_size)
    lang = str(config.lang or "ko")
    gap = max(0.2, layout.line_height - 1.0) * size
    page = colophon(config)
    return {
        # The copyright page (model/colophon.py): its title, its label and value cells
        # in reading order, its notes.
        "halftitle": config.half_title,
        "colophon": page is not None,
        "colophontitle": page.title if page else "",
        "colophoncells": [cell for line in page.lines for cell in line] if page else [],
        "colophonnotes": page.notes if page else [],
        "mathfont": math_family(setup.math_name)[0],
        "serif": list(fonts.serif),
        "sans": list(fonts.sans),
        "mono": list(fonts.mono),
        "plaintitle": config.title,
        "plainauthors": ", ".join(config.authors),
        "shorttitle": config.title,
        "paperwidth": length(layout.width),
        "paperheight": length(layout.height),
        "top": length(layout.top),
        "bottom": length(layout.bottom),
        "inner": length(layout.inner),
        "outer": length(layout.outer),
        "fontsize": length(layout.font_size),
        "headings": [length(f"{layout.heading_points(level)}pt") for level in (1, 2, 3)],
        "headingspace": [heading_space(layout, level) for level in (1, 2, 3, 4)],
        "headingleading": length(f"{layout.heading_line_height - 1:.2f}em"),
        "labelsize": length(f"{layout.chapter_label_points}pt"),
        "chaptersink": length(f"{layout.chapter_sink - 0.8 * layout.chapter_label_points:.2f}pt"),
        "captionsize": length(f"{layout.caption_points}pt"),
        "rawscale": length(f"{layout.inline_code_scale / 0.8:.3f}em"),
        # The code palette every engine shares (write/shared/highlight.py), as the theme
        # Typst's own highlighting reads.
        "codetheme": tmtheme(),
        # Typst's leading is the gap between lines; CSS line-height is the whole line.
        "leading": length(f"{gap:.2f}pt"),
        "parspacing": length(f"{gap + layout.paragraph_space:.2f}pt"),
        # The code box (shared/layout.py): its type size, the gap between its lines, insets.
        "codesize": length(f"{layout.code_points}pt"),
        "codeleading": length(f"{layout.code_pitch - layout.code_points:.2f}pt"),
        "codeinset": length(f"{layout.code_inset}pt"),
        "codepadding": length(f"{layout.code_padding}pt"),
        "codekept": int(layout.code_kept),
        "lang": lang.split("-")[0].lower(),
        "region": lang.split("-")[1] if "-" in lang and len(lang.split("-")[1]) == 2 else "",
        "accent": "#1F4E8C",
        # hyphenate: latin (PrintSetup.hyphenates_latin): English words may take a hyphen.
        "hyphenatelatin": setup.hyphenates_latin(),
        # Links' colour, or none: the text's (colorlinks: false, print: true).
        "linkcolor": f"#{setup.link_colours[0]}" if setup.link_colours else "",
        **sides(config),
        "toc": bool(config.toc),
        "tocdepth": int(config.toc_depth),
        "title": config.title,
        "subtitle": str(config.get("subtitle") or ""),
        "authors": ", ".join(config.authors),
        "translators": ", ".join(config.translators),
        "date": config.date_text or "",
        # No date the sources give (kobook.reproducible): no build time in the PDF either.
        "undated": config.output_epoch is None,
        "contents": words.word("contents"),
        "indextitle": words.word("index"),
        "original": original_line(book),
        "byline": words.names("by", config.authors) if config.authors else "",
        "translatedby": words.names("translated-by", config.translators)
        if config.translators
        else "",
    }


def heading_space(layout: PageLayout, level: int) -> list[Code]:
    """A title's block ``above`` and ``below``: the layout's baseline distances
    (:meth:`PageLayout.heading_baselines`) less the letters' edges Typst measures from
    (``top-edge: 0.8em``, ``bottom-edge: -0.2em``)."""
    size, body = layout.heading_points(level), layout.body_points
    before, after = layout.heading_baselines(level)
    above = max(before - 0.2 * body - 0.8 * size, 0.0)
    below = max(after - 0.2 * size - 0.8 * body, 0.0)
    return [length(f"{above:.2f}pt"), length(f"{below:.2f}pt")]


def original_line(book: Book) -> str:
    """``원서: Title (Authors, 2025) · 라이선스: MIT`` ("" without ``original``): the
    licence under its label, as on the WeasyPrint and XeLaTeX title pages."""
    original = book.config.original
    if not original or not original.get("title"):
        return ""
    words = book.config.words
    text = f"{words.word('original')}: {original['title']}"
    extra = ", ".join(str(original[k]) for k in ("authors", "year") if original.get(k))
    if extra:
        text += f" ({extra})"
    if original.get("licence"):
        text += f" · {words.word('licence')}: {original['licence']}"
    return text


@dataclass
class Rendered:
    """The book as one Typst document, with what the build needs beside it."""

    source: str
    problems: list[Diagnostic]
    chars: set[str]  # every character of the text (for GLYPH001)


def render_typst(
    book: Book, docs: list[Doc], cache: Cache, assets: Assets, workdir: Path, setup: PrintSetup
) -> Rendered:
    """The whole book as one Typst document: kobook's template around pandoc's body
    (``workdir``: the compiler's folder, where formulas are checked).

    A chapter's Typst comes from the cache when nothing it depends on changed
    (:mod:`.bodies`); the others are made by :func:`prepare`, then together: their
    formulas checked and pandoc's Typst writer run once for all of them.
    """
    parts = part_titles(docs, book.config.words)
    keys = [bodies.chapter_key(doc, book, parts.get(doc.chapter.id, "")) for doc in docs]
    entries = [bodies.load(cache, key) for key in keys]
    prepared: dict[int, tuple[Blocks, bodies.Entry]] = {}

    def prepared_chapter(index: int) -> tuple[Blocks, bodies.Entry]:
        if index not in prepared:
            doc = docs[index]
            part = parts.get(doc.chapter.id, "")
            prepared[index] = prepare_chapter(doc, book, cache, setup, part)
        return prepared[index]

    # Its labels are needed before any chapter is made.
    missing = [index for index, entry in enumerate(entries) if entry is None]
    prepared.update(prepare_chapters(missing, docs, book, cache, setup, parts))
    labels = set().union(
        *(set(e.labels) for e in entries if e is not None),
        *(set(entry.labels) for _, entry in prepared.values()),
    )
    made = [i for i, e in enumerate(entries) if e is None or not e.fresh(labels)]
    if made:
        chapters = [prepared_chapter(i) for i in made]
        make_chapters(book, chapters, labels, cache, workdir, setup.math_font)
        for index in made:
            entries[index] = prepared[index][1]
            bodies.store(cache, keys[index], prepared[index][1])
    kept = [entry for entry in entries if entry is not None]
    for entry in kept:
        assets.files.update({name: Path(path) for name, path in entry.assets.items()})
    variables = template_variables(book, setup)
    variables["index"] = index_value(book_index(book, docs))
    template = typst_environment(book.root, book.trusted).get_template(f"{TEMPLATES}/book.typ")
    front = [e.typst for d, e in zip(docs, entries, strict=True) if e and d.chapter.kind == "front"]
    body = [e.typst for d, e in zip(docs, entries, strict=True) if e and d.chapter.kind != "front"]
    return Rendered(
        # front-matter: chapters (옮긴이의 말) after the contents, in its folios i, ii, …
        template.render(front=Code("".join(front)), body=Code("".join(body)), **variables),
        [problem for entry in kept for problem in entry.problems],
        set().union(*(set(entry.chars) for entry in kept)),
    )


def index_value(groups: list[Group]) -> list[dict[str, Any]]:
    """The index (``write/shared/bookindex.py``) as the template reads it: groups of
    entries, each with its term, source term, marks' labels and sub-entries."""

    def entry(item: Entry) -> dict[str, Any]:
        return {
            "term": item.term,
            "original": item.original,
            "marks": [mark.anchor for mark in item.marks if LABEL.fullmatch(mark.anchor)],
            "subs": [entry(sub) for sub in item.subs],
        }

    return [{"label": g.label, "entries": [entry(e) for e in g.entries]} for g in groups]


SHARED_FROM = 8  # chapters to prepare from which a forked process prepares half of them


def prepare_chapters(
    indices: list[int],
    docs: list[Doc],
    book: Book,
    cache: Cache,
    setup: PrintSetup,
    parts: dict[str, str],
) -> dict[int, tuple[Blocks, bodies.Entry]]:
    """:func:`prepare_chapter` of ``docs[i]`` for each of ``indices``: from
    :data:`SHARED_FROM` chapters on, a forked process prepares the later ones (about half
    the text) meanwhile (:mod:`kobook.forked`: the same chapters either way)."""

    def prepared(chosen: list[int]) -> dict[int, tuple[Blocks, bodies.Entry]]:
        return {
            index: prepare_chapter(
                docs[index], book, cache, setup, parts.get(docs[index].chapter.id, "")
            )
            for index in chosen
        }

    if len(indices) < SHARED_FROM:
        return prepared(indices)
    sizes = list(itertools.accumulate(len(docs[index].chapter.text) for index in indices))
    half = max(1, bisect.bisect_left(sizes, sizes[-1] / 2))
    with ahead(prepared, indices[half:], worth=worth_it(sizes[-1])) as later:
        first = prepared(indices[:half])
        return first | later.result()


def prepare_chapter(
    doc: Doc, book: Book, cache: Cache, setup: PrintSetup, part: str
) -> tuple[Blocks, bodies.Entry]:
    """One chapter through :func:`prepare`, and its entry, without its Typst yet."""
    problems: list[Diagnostic] = []
    sources: list[Path] = []
    chapter_assets = Assets(cache.root, book.root)
    blocks = prepare(doc, book, cache, problems, chapter_assets, setup, part, sources)
    entry = bodies.Entry(
        typst="",
        labels=sorted(labelled(blocks)),
        targets=sorted(link_targets(blocks)),
        dangling=[],
        chars="".join(sorted(text_chars(doc.blocks))),
        problems=problems,
        assets={name: str(path) for name, path in chapter_assets.files.items()},
        sources=[bodies.stamp(path) for path in dict.fromkeys(sources)],
    )
    return blocks, entry


def make_chapters(
    book: Book,
    chapters: list[tuple[Blocks, bodies.Entry]],
    labels: set[str],
    cache: Cache,
    workdir: Path,
    math_font: str | None,
) -> None:
    """Fill in each prepared chapter's entry: its links to no label dropped, the formulas
    Typst refuses drawn, and pandoc's Typst (:func:`pandoc_typst`)."""
    chapters = [(dangling_links(blocks, labels), entry) for blocks, entry in chapters]
    formulas = list(
        dict.fromkeys(
            (n["c"][0]["t"], n["c"][1])
            for blocks, _ in chapters
            for n in iter_nodes(blocks)
            if n["t"] == "Math"
        )
    )
    codes = typst_of_math(formulas) if formulas else []
    failing = failing_math(formulas, codes, workdir) if formulas else set()
    written = {f: code for f, code in zip(formulas, codes, strict=True) if f not in failing}
    ready: list[Blocks] = []
    for blocks, entry in chapters:
        entry.dangling = sorted(set(entry.targets) - labels)
        if failing:
            math_assets = Assets(cache.root, book.root)
            blocks, drawn = math_images(blocks, failing, book, cache, math_assets, math_font)
            entry.problems += drawn
            entry.assets.update({name: str(path) for name, path in math_assets.files.items()})
        ready.append(typst_formulas(spoken_math(blocks), written) if formulas else blocks)
    for (_, entry), text in zip(chapters, pandoc_typst(ready), strict=True):
        entry.typst = text


SPLIT_FROM = 2_000_000  # bytes of pandoc's JSON from which two pandoc runs share the book


def pandoc_typst(chapters: list[Blocks]) -> list[str]:
    """pandoc's Typst of each chapter.  pandoc's writer runs on one core: a long book's
    chapters go to two runs side by side (each a run of :func:`typst_of`, its half of the
    JSON), a short book's to one (a second run would cost more than it saves)."""
    texts = [json.dumps(blocks)[1:-1] for blocks in chapters]  # each chapter's blocks, once
    sizes = list(itertools.accumulate(map(len, texts)))
    if len(chapters) < 2 or sizes[-1] < SPLIT_FROM:
        return typst_of(texts)
    half = max(1, bisect.bisect_left(sizes, sizes[-1] / 2))
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="kobook-typst") as pool:
        first, rest = pool.map(typst_of, [texts[:half], texts[half:]])
    return first + rest


def typst_of(chapters: list[str]) -> list[str]:
    """pandoc's Typst of each chapter (``chapters``: the JSON of each one's blocks, without
    the brackets): one run for all, its output cut at a mark put before each chapter."""
    split = f"// kobook-split-{secrets.token_hex(12)}"
    mark = json.dumps(raw_block("typst", split))
    blocks = ",".join(f"{mark},{text}" if text else mark for text in chapters)
    version = json.dumps(api_version())
    document = f'{{"pandoc-api-version":{version},"meta":{{}},"blocks":[{blocks}]}}'
    body = run_pandoc(
        ["-f", "json", "-t", "typst", "--wrap=none", "--syntax-highlighting=idiomatic"],
        document,
        what="Typst writer",
    )
    pieces = bodies.split_output(body, split, len(chapters))
    if pieces is None:
        raise KobookError(
            "pandoc's Typst writer did not keep the chapters apart",
            code="TYP001",
            hint="report this as a kobook bug; --engine weasyprint builds the book",
        )
    return pieces


def link_targets(blocks: Blocks) -> set[str]:
    """The ids the chapter's internal links (``#id``) point to."""
    return {
        node["c"][2][0][1:]
        for node in iter_nodes(blocks)
        if node["t"] == "Link" and node["c"][2][0].startswith("#")
    }
