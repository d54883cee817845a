"""The book as one Typst document: kobook's template (its values from the metadata and the
print setup) around pandoc's Typst of each chapter, cached chapter by chapter."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...cache import Cache
from ...errors import Diagnostic, KobookError
from ...model import Book, Doc
from ...parse import api_version
from ...parse.ast import iter_nodes, raw_block
from ...parse.pandoc import run_pandoc
from ..shared.common import part_titles, text_chars
from ..shared.fonts import resolve_fonts
from ..shared.latexmeta import sides
from ..shared.layout import page_layout, points
from ..shared.mathsvg import math_family
from ..shared.workdir import Assets
from . import bodies
from .formulas import failing_math, math_images
from .passes import TEMPLATES, dangling_links, labelled, prepare
from .values import Code, length, typst_environment
from .words import Blocks


def template_variables(book: Book) -> dict[str, Any]:
    """The template's values: data from the book as plain Python values (the template's
    ``finalize`` makes each a Typst literal, :mod:`.values`), lengths checked as Code."""
    config = book.config
    fonts = resolve_fonts(config)
    layout = page_layout(config)
    words = config.words
    size = points(layout.font_size)
    lang = str(config.lang or "ko")
    gap = max(0.2, layout.line_height - 1.0) * size
    return {
        "mathfont": math_family(config.get("mathfont"))[0],
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
        # Typst's leading is the gap between lines; CSS line-height is the whole line.
        "leading": length(f"{gap:.2f}pt"),
        "parspacing": length(f"{gap + 0.65 * size:.2f}pt"),
        "lang": lang.split("-")[0].lower(),
        "region": lang.split("-")[1] if "-" in lang and len(lang.split("-")[1]) == 2 else "",
        "accent": "#1F4E8C",
        "linkcolor": "#1F4E8C",
        **sides(config),
        "toc": bool(config.toc),
        "tocdepth": int(config.toc_depth),
        "title": config.title,
        "subtitle": str(config.get("subtitle") or ""),
        "authors": ", ".join(config.authors),
        "translators": ", ".join(config.translators),
        "date": config.date_text or "",
        "contents": words.word("contents"),
        "original": original_line(book),
        "byline": words.names("by", config.authors) if config.authors else "",
        "translatedby": words.names("translated-by", config.translators)
        if config.translators
        else "",
    }


def original_line(book: Book) -> str:
    """``원서: Title (Authors, 2025) · licence`` ("" without ``original``)."""
    original = book.config.original
    if not original or not original.get("title"):
        return ""
    words = book.config.words
    text = f"{words.word('original')}: {original['title']}"
    extra = ", ".join(str(original[k]) for k in ("authors", "year") if original.get(k))
    if extra:
        text += f" ({extra})"
    if original.get("licence"):
        text += f" · {original['licence']}"
    return text


@dataclass
class Rendered:
    """The book as one Typst document, with what the build needs beside it."""

    source: str
    problems: list[Diagnostic]
    chars: set[str]  # every character of the text (for GLYPH001)


def render_typst(
    book: Book, docs: list[Doc], cache: Cache, assets: Assets, workdir: Path
) -> Rendered:
    """The whole book as one Typst document: kobook's template around pandoc's body
    (``workdir``: the compiler's folder, where formulas are checked).

    A chapter's Typst comes from the cache when nothing it depends on changed
    (:mod:`.bodies`); the others are made by :func:`prepare`, then together: their
    formulas checked and pandoc's Typst writer run once for all of them.
    """
    sans = resolve_fonts(book.config).sans[0]
    parts = part_titles(docs, book.config.words)
    keys = [bodies.chapter_key(doc, book, parts.get(doc.chapter.id, "")) for doc in docs]
    entries = [bodies.load(cache, key) for key in keys]
    prepared: dict[int, tuple[Blocks, bodies.Entry]] = {}

    def prepared_chapter(index: int) -> tuple[Blocks, bodies.Entry]:
        if index not in prepared:
            doc = docs[index]
            prepared[index] = prepare_chapter(doc, book, cache, sans, parts.get(doc.chapter.id, ""))
        return prepared[index]

    for index, entry in enumerate(entries):
        if entry is None:  # its labels are needed before any chapter is made
            prepared_chapter(index)
    labels = set().union(
        *(set(e.labels) for e in entries if e is not None),
        *(set(entry.labels) for _, entry in prepared.values()),
    )
    made = [i for i, e in enumerate(entries) if e is None or not e.fresh(labels)]
    if made:
        make_chapters(book, [prepared_chapter(i) for i in made], labels, cache, workdir)
        for index in made:
            entries[index] = prepared[index][1]
            bodies.store(cache, keys[index], prepared[index][1])
    kept = [entry for entry in entries if entry is not None]
    for entry in kept:
        assets.files.update({name: Path(path) for name, path in entry.assets.items()})
    variables = template_variables(book)
    template = typst_environment(book.root, book.trusted).get_template(f"{TEMPLATES}/book.typ")
    return Rendered(
        template.render(body=Code("".join(entry.typst for entry in kept)), **variables),
        [problem for entry in kept for problem in entry.problems],
        set().union(*(set(entry.chars) for entry in kept)),
    )


def prepare_chapter(
    doc: Doc, book: Book, cache: Cache, sans: str, part: str
) -> tuple[Blocks, bodies.Entry]:
    """One chapter through :func:`prepare`, and its entry, without its Typst yet."""
    problems: list[Diagnostic] = []
    sources: list[Path] = []
    chapter_assets = Assets(cache.root, book.root)
    blocks = prepare(doc, book, cache, problems, chapter_assets, sans, part, sources)
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
    failing = failing_math(formulas, workdir) if formulas else set()
    ready: list[Blocks] = []
    for blocks, entry in chapters:
        entry.dangling = sorted(set(entry.targets) - labels)
        if failing:
            math_assets = Assets(cache.root, book.root)
            blocks, drawn = math_images(blocks, failing, book, cache, math_assets)
            entry.problems += drawn
            entry.assets.update({name: str(path) for name, path in math_assets.files.items()})
        ready.append(blocks)
    for (_, entry), text in zip(chapters, pandoc_typst(ready), strict=True):
        entry.typst = text


def pandoc_typst(chapters: list[Blocks]) -> list[str]:
    """pandoc's Typst of each chapter: one run for all (two side by side took as long), its
    output cut at a mark put before each chapter."""
    split = f"// kobook-split-{secrets.token_hex(12)}"
    everything: Blocks = []
    for blocks in chapters:
        everything += [raw_block("typst", split), *blocks]
    document = {"pandoc-api-version": api_version(), "meta": {}, "blocks": everything}
    body = run_pandoc(
        ["-f", "json", "-t", "typst", "--wrap=none", "--syntax-highlighting=idiomatic"],
        json.dumps(document),
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
