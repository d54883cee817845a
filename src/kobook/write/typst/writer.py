"""The Typst engine: pandoc's Typst writer, kobook's passes, and the ``typst`` compiler.

The route Quarto's ``typst`` format takes, from the same transformed chapters the
other engines get: kobook's passes rewrite what Typst would get wrong (Korean
words, callouts, equation numbers, captions that already carry their numbers,
resolved citations), pandoc writes Typst markup into kobook's template, and the
compiler from the ``typst`` wheel (no network, no ``@preview`` packages) writes the
PDF in a kept process with a time and a memory limit (:mod:`.compiler`).  Nothing
from the book is Typst code: values reach the source as literals (:mod:`.values`).
Pandoc's writer is used rather than one of our own: it knows Typst's escaping and
its math, which a second writer would have to relearn.

Typst breaks Korean between any two syllables (typst/typst#1164); every word
that holds Hangul goes into a ``box`` (:func:`word_boxes`), so lines break
between words and the text readers copy has no invisible characters.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import secrets
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...boundary import within
from ...cache import Cache
from ...errors import Diagnostic, KobookError, Location
from ...korean.hangul import has_hangul
from ...model import Book, Doc
from ...parse import api_version
from ...parse.ast import copy_tree, iter_nodes, raw_block, raw_inline, stringify, walk
from ...parse.pandoc import run_pandoc
from ..shared import passes
from ..shared.common import atomic_output, chapter_at, part_titles, text_chars
from ..shared.fontcoverage import covers, fallback_family
from ..shared.fonts import resolve_fonts
from ..shared.imagefiles import convert_image
from ..shared.latexmeta import sides
from ..shared.layout import page_layout, points
from ..shared.mathsvg import MathError, math_family, math_font, render_math, undrawn
from ..shared.sanitize import sanitize_blocks
from ..shared.seams import identifier_seams
from ..shared.tables import SCALE_KEY, TABCOLSEP, table_widths
from ..shared.workdir import Assets, compiler_workdir
from . import bodies, compiler
from .values import Code, label, label_of, length, string, typst_environment

Blocks = list[dict[str, Any]]
TEMPLATES = "typst"
CHAPTER_END = {"t": "RawBlock", "c": ["typst", "#metadata(none) <kobook-chapter-end>"]}
CHAPTER_MARK = "// kobook-chapter: "
# Image formats the compiler reads itself; others go through convert_image.
NATIVE_IMAGES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".pdf")
CALLOUT_COLOURS = {
    "note": "1F4E8C",
    "tip": "2E7D32",
    "warning": "B26A00",
    "caution": "B26A00",
    "important": "8E24AA",
    "takeaway": "00796B",
    "details": "8A94A3",
}


# --- Korean words ----------------------------------------------------------------------

SPACES = passes.SPACES
# A run with one of these in it is not boxed: a box would hold the footnote's text, the
# image, or a line break.
UNBOXED = frozenset(("Note", "Image", "LineBreak", "RawInline"))
# Nodes that hold inlines: where (None: the whole content; else an index into it).
CONTAINERS: dict[str, int | None] = {kind: None for kind in passes.WRAPPERS} | {
    "Span": 1,
    "Link": 1,
}


def inner(node: dict[str, Any]) -> list[Any] | None:
    """The inlines a container node holds (None: not a container)."""
    if node["t"] not in CONTAINERS:
        return None
    index = CONTAINERS[node["t"]]
    return node["c"] if index is None else node["c"][index]


def with_inner(node: dict[str, Any], content: list[Any], first: bool) -> dict[str, Any]:
    """A copy of container ``node`` holding ``content``; only the first piece keeps an id."""
    index = CONTAINERS[node["t"]]
    if index is None:
        return {"t": node["t"], "c": content}
    head = list(node["c"][:index])
    if not first and head and isinstance(head[0], list) and head[0] and head[0][0]:
        head[0] = ["", *head[0][1:]]
    return {"t": node["t"], "c": [*head, content, *node["c"][index + 1 :]]}


def distribute(items: list[Any]) -> list[Any]:
    """Containers split at their spaces: ``**액티베이션 재계산(…)**이다`` →
    ``**액티베이션** **재계산(…)**이다``, so that every word, even one that runs out of
    emphasis or a link into its particle, is a run of touching inlines a box can hold.
    A quote becomes its marks as text first (``“``, ``”``)."""
    out: list[Any] = []
    for item in items:
        if item["t"] == "Quoted":
            opening, closing = passes.QUOTE_MARKS.get(item["c"][0]["t"], ("\u201c", "\u201d"))
            out += distribute(
                [{"t": "Str", "c": opening}, *item["c"][1], {"t": "Str", "c": closing}]
            )
            continue
        content = inner(item)
        if content is None:
            out.append(item)
            continue
        flat = distribute(content)
        if not any(n["t"] in SPACES for n in flat):
            out.append(with_inner(item, flat, True))
            continue
        piece: list[Any] = []
        first = True
        for node in flat:
            if node["t"] in SPACES:
                if piece:
                    out.append(with_inner(item, piece, first))
                    first = False
                out.append(node)
                piece = []
            else:
                piece.append(node)
        if piece:
            out.append(with_inner(item, piece, first))
    return out


def box_words(items: list[Any]) -> list[Any]:
    """Every word (a run of touching inlines between spaces) that holds Hangul, in a
    ``#box[…]``: Typst then breaks lines only between words, particles stay with the
    Latin word, number, code or bracket before them (``GPU를``, ``(LLM)의``), and the
    text holds no invisible character.  Containers are split at their spaces first
    (:func:`distribute`); a footnote, an image or raw markup ends a run."""
    out: list[Any] = []
    run: list[Any] = []

    def flush() -> None:
        if run and has_hangul(stringify(run)):
            out.extend(boxed(run))
        else:
            out.extend(run)
        run.clear()

    for item in distribute(items):
        pieces = name_pieces(item)
        if pieces:  # a box ends after each piece but the last: Typst may break there
            run.append(pieces[0])
            out.extend(boxed(run))
            run.clear()
            out.extend(p for piece in pieces[1:-1] for p in boxed([piece]))
            run.append(pieces[-1])  # stays with what follows it (its particle)
            continue
        if item["t"] in SPACES or item["t"] in UNBOXED or is_chapter_number(item):
            flush()
            if item["t"] == "Note":
                item["c"] = box_blocks(item["c"])
            out.append(item)
        else:
            run.append(item)
    flush()
    return out


# A code name this long or longer may break at its seams (``DistributedData|Parallel``).
LONG_NAME = 16


def name_pieces(node: dict[str, Any]) -> list[dict[str, Any]] | None:
    """A long inline code name cut at its seams (:func:`identifier_seams`), or None.

    Typst may break a line between two boxes, so each piece in its own box lets the
    paragraph builder break a name that would leave its line loose, where WeasyPrint
    breaks it (``hyphenate-character: ""``); shorter names stay whole.
    """
    if node["t"] != "Code" or len(node["c"][1]) < LONG_NAME or " " in node["c"][1]:
        return None
    text = node["c"][1]
    bounds = [0, *identifier_seams(text), len(text)]
    if len(bounds) == 2:
        return None
    return [{"t": "Code", "c": [node["c"][0], text[a:b]]} for a, b in itertools.pairwise(bounds)]


def boxed(inlines: list[Any]) -> list[Any]:
    """``inlines`` in one ``#box[…]``: no line break inside."""
    return [raw_inline("typst", "#box["), *inlines, raw_inline("typst", "]")]


def is_chapter_number(node: dict[str, Any]) -> bool:
    return node["t"] == "Span" and "chapter-number" in node["c"][0][1]


def box_blocks(blocks: Blocks) -> Blocks:
    """:func:`box_words` on every paragraph, heading, caption and term of ``blocks``."""

    def action(node: dict[str, Any]) -> Any:
        kind = node["t"]
        if kind in ("Para", "Plain"):
            return {"t": kind, "c": box_words(node["c"])}
        if kind == "Header":
            level, attrs, inlines = node["c"]
            return {"t": kind, "c": [level, attrs, box_words(inlines)]}
        if kind in ("CodeBlock", "RawBlock"):
            return node
        return None

    return walk(blocks, action)


# --- What Typst would print wrongly ----------------------------------------------------


def resolved_citations(blocks: Blocks) -> Blocks:
    """Cites are already rendered by citeproc (transform/citations.py): their text, not
    Typst's own ``#cite``, which needs a bibliography file."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] == "Cite":
            return {"t": "Span", "c": [["", [], []], walk(node["c"][1], action)]}
        return None

    return walk(blocks, action)


def foreign_raw(blocks: Blocks, chapter: Any, problems: list[Diagnostic]) -> Blocks:
    """Raw Typst from the book is dropped (it could read any file the compiler may):
    TYP003, once per chapter.  Raw HTML and LaTeX are reported by LEAK002 elsewhere."""
    dropped = 0

    def action(node: dict[str, Any]) -> Any:
        nonlocal dropped
        if node["t"] in ("RawBlock", "RawInline") and node["c"][0] == "typst":
            dropped += 1
            return []
        return None

    blocks = walk(blocks, action)
    if dropped:
        problems.append(
            Diagnostic(
                "TYP003",
                f"{dropped} raw Typst block(s) left out: a book's own Typst is not run",
                Location(chapter.path),
                "write it in Markdown, or change templates/typst/book.typ",
                "warning",
            )
        )
    return blocks


def callouts(blocks: Blocks) -> Blocks:
    """``Div.callout`` → the template's ``kocallout`` box with a bold title line."""

    def box(kind: str, content: Blocks) -> Blocks:
        colour = CALLOUT_COLOURS.get(kind, CALLOUT_COLOURS["note"])
        return [
            raw_block("typst", f'#kocallout(rgb("#{colour}"))['),
            *content,
            raw_block("typst", "]"),
        ]

    return passes.boxed_callouts(blocks, box)


def equations(blocks: Blocks) -> Blocks:
    """``Div.equation`` → the template's ``koequation``: the formula centred, its number
    at the right margin."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "equation" not in node["c"][0][1]:
            return None
        number = dict(node["c"][0][2]).get("number", "")
        ident = node["c"][0][0]
        return [
            raw_block("typst", f"#koequation({string(number)})["),
            *node["c"][1],
            raw_block("typst", f"] {label(ident)}" if ident else "]"),  # labelled() reads it
        ]

    return walk(blocks, action)


def labelled(blocks: Blocks) -> set[str]:
    """The ids pandoc's Typst writer turns into labels (headings, divs, spans, figures,
    tables); a code block's id is moved to a div around it first (:func:`anchors`), and an
    equation's is on the raw Typst that ends it (:func:`equations`; the book's own raw
    Typst is gone by then)."""
    found = set()
    for node in iter_nodes(blocks):
        if node["t"] == "RawBlock" and node["c"][0] == "typst":
            if node["c"][1].startswith("] ") and (ident := label_of(node["c"][1][2:])):
                found.add(ident)
            continue
        if node["t"] in ("Header",):
            found.add(node["c"][1][0])
        elif node["t"] in ("Div", "Span", "Figure", "Table"):
            found.add(node["c"][0][0])
    return found - {""}


def anchors(blocks: Blocks) -> Blocks:
    """A code block with an id (a listing a link points at) goes into a div with that id:
    Typst labels a div, not a code block."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] == "CodeBlock" and node["c"][0][0]:
            ident = node["c"][0][0]
            code = {"t": "CodeBlock", "c": [["", *node["c"][0][1:]], node["c"][1]]}
            return {"t": "Div", "c": [[ident, [], []], [code]]}
        return None

    return walk(blocks, action)


def dangling_links(blocks: Blocks, labels: set[str]) -> Blocks:
    """A link to an id no element carries keeps its text, without the link: Typst stops
    at a link to a missing label (the HTML writer reports broken links)."""

    def action(node: dict[str, Any]) -> Any:
        target = node["c"][2][0] if node["t"] == "Link" else ""
        if target.startswith("#") and target[1:] not in labels:
            return {"t": "Span", "c": [node["c"][0], walk(node["c"][1], action)]}
        return None

    return walk(blocks, action)


def spans(blocks: Blocks, sans: str) -> Blocks:
    """Hangul in emphasis → upright sans; caption labels (``그림 1.1``) → bold."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Span":
            return None
        classes = node["c"][0][1]
        content = walk(node["c"][1], action)
        if "hangul" in classes:
            opening = f'#text(font: {string(sans)}, style: "normal")['
            return [raw_inline("typst", opening), *content, raw_inline("typst", "]")]
        if "caption-label" in classes:
            return [{"t": "Strong", "c": content}]
        if "chapter-number" in classes:  # ``3장`` over the chapter's title (the template's)
            return [raw_inline("typst", "#kochapternumber["), *content, raw_inline("typst", "]")]
        return None

    return walk(blocks, action)


def images(
    blocks: Blocks, root: Path, cache: Cache, assets: Assets, sources: list[Path] | None = None
) -> Blocks:
    """Images by names inside the compiler's root (``assets/…``, links made before the
    run); only files inside the book or the cache.  ``sources`` gets each of those named
    (present or not)."""
    roots = [root] + ([cache.root] if cache.root is not None else [])
    for node in iter_nodes(blocks):
        if node["t"] == "Image":
            url = node["c"][2][0]
            path = (root / url) if not Path(url).is_absolute() else Path(url)
            inside = any(within(path, top) for top in roots)
            if sources is not None and inside:
                sources.append(path)
            if inside and path.is_file():
                path = path.resolve()
                if path.suffix.lower() not in NATIVE_IMAGES:
                    path = convert_image(path, cache)
                node["c"][2][0] = assets.name(path)
    return blocks


RASTERS = (".png", ".jpg", ".jpeg", ".gif", ".webp")
PX = 0.75  # a CSS pixel in points: WeasyPrint and the HTML book show an image pixel as one


def natural_widths(blocks: Blocks, roots: list[Path], text_width: float) -> Blocks:
    """Raster images without a width get the width the other outputs give them: one CSS
    pixel per image pixel (Typst takes the file's DPI, else 72, so a 300-pixel screenshot
    was a third larger than in the WeasyPrint PDF), as a share of the text width at most
    the whole of it.  Images in tables keep Typst's own size: a share of the text width
    would be one of the cell's there.  Only files inside ``roots`` (the book, the cache)
    are read."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] == "Table":
            return node
        if node["t"] != "Image":
            return None
        attrs = dict(node["c"][0][2])
        path = roots[0] / node["c"][2][0]
        if "width" in attrs or "height" in attrs or path.suffix.lower() not in RASTERS:
            return None
        if not any(within(path, top) for top in roots):  # never read outside the book
            return None
        try:
            from PIL import Image

            with Image.open(path) as image:
                pixels = image.width
        except Exception:  # not an image Pillow reads: the compiler reports it
            return None
        share = min(100.0, pixels * PX / text_width * 100) if text_width > 0 else 100.0
        ident, classes, pairs = node["c"][0]
        attr = [ident, classes, [*pairs, ["width", f"{share:.2f}%"]]]
        return {"t": "Image", "c": [attr, *node["c"][1:]]}

    return walk(blocks, action)


def cell_insets(blocks: Blocks, text_width: float) -> Blocks:
    """Column widths as Typst reads them: :func:`table_widths` gives each column's text
    width as a share of the room left by LaTeX's ``\\tabcolsep`` on both sides; a Typst
    column's share of the text width includes its cells' inset (the template's
    ``TABCOLSEP`` on each side), or a word sized to fit would wrap inside its box."""
    for node in iter_nodes(blocks):
        if node["t"] != "Table":
            continue
        specs = node["c"][2]
        room = text_width - 2 * TABCOLSEP * len(specs)
        for spec in specs:
            if spec[1]["t"] == "ColWidth" and room > 0:
                share = (float(spec[1]["c"]) * room + 2 * TABCOLSEP) / text_width
                spec[1] = {"t": "ColWidth", "c": round(share, 4)}
    return blocks


CELL_MARKUP = ("+", "-", "=", "/", "#")


def tables(blocks: Blocks) -> Blocks:
    """Tables as pandoc's Typst writer gets them wrong: a cell starting with ``+ `` (the
    sample's ``+ 그래디언트``) would be a Typst list, so its mark is escaped; a table whose
    words are too wide for its columns (``kobook-cell-scale``) is set that much smaller."""

    def escape_start(cell_blocks: list[Any]) -> None:
        first = cell_blocks[0] if cell_blocks else None
        if not first or first["t"] not in ("Plain", "Para") or not first["c"]:
            return
        head = first["c"][0]
        if head["t"] == "Str" and head["c"][:1] in CELL_MARKUP:
            rest = [{"t": "Str", "c": head["c"][1:]}] if head["c"][1:] else []
            first["c"][:1] = [raw_inline("typst", "\\" + head["c"][0]), *rest]

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Table":
            return None
        rows = list(node["c"][3][1]) + [r for body in node["c"][4] for r in body[3]]
        rows += list(node["c"][5][1])
        for row in rows:
            for cell in row[1]:
                escape_start(cell[4])
        scale = dict(node["c"][0][2]).get(SCALE_KEY)
        if not scale:
            return None
        return [
            raw_block("typst", f"#[#set text(size: {float(scale):.3f}em)"),
            node,
            raw_block("typst", "]"),
        ]

    return walk(blocks, action)


def prepare(
    doc: Doc,
    book: Book,
    cache: Cache,
    problems: list[Diagnostic],
    assets: Assets,
    sans: str,
    part: str = "",
    sources: list[Path] | None = None,
) -> Blocks:
    """The Typst-specific passes over one chapter (on a copy); ``sources`` gets the image
    files it names."""
    blocks = copy_tree(doc.blocks)
    blocks, unsafe = sanitize_blocks(blocks, doc.chapter)
    problems += unsafe
    blocks = foreign_raw(blocks, doc.chapter, problems)
    blocks = resolved_citations(blocks)
    blocks = passes.heading_numbers(blocks, book.config)
    blocks = anchors(blocks)
    blocks = equations(blocks)
    blocks = callouts(blocks)
    blocks = passes.upright_hangul(blocks)
    blocks = code_tags(passes.code_languages(blocks))
    blocks = passes.wrap_code(blocks, code_columns(book))
    layout = page_layout(book.config)
    text_width = points(layout.width) - points(layout.inner) - points(layout.outer)
    # Every table gets widths (line=0): Typst shrinks auto columns below their longest word.
    blocks = table_widths(blocks, line=0, text_width=text_width, body_size=points(layout.font_size))
    blocks = cell_insets(blocks, text_width)
    blocks = tables(blocks)
    blocks = passes.table_cell_words(blocks, boxed)
    roots = [book.root] + ([cache.root] if cache.root is not None else [])
    blocks = natural_widths(blocks, roots, text_width)
    blocks = images(blocks, book.root, cache, assets, sources)
    if book.config.keeps_words_whole(doc.chapter.lang):
        blocks = box_blocks(blocks)
    blocks = spans(blocks, sans)  # after the boxes: its raw markup would end their runs
    blocks = running_head(blocks)
    mark = raw_block("typst", f"{CHAPTER_MARK}{doc.chapter.id}")
    opening = [raw_block("typst", f"#kopart({string(part)})")] if part else []
    return [mark, *opening, *blocks]


MATH_MARK = "KOBOOKMATH"


def typst_of_math(formulas: list[tuple[str, str]]) -> list[str]:
    """pandoc's Typst for each ``(kind, tex)`` formula, in one pandoc run."""
    blocks = [
        {
            "t": "Para",
            "c": [
                {"t": "Str", "c": f"{MATH_MARK}{index}"},
                {"t": "Space"},
                {"t": "Math", "c": [{"t": kind}, tex]},
            ],
        }
        for index, (kind, tex) in enumerate(formulas)
    ]
    document = {"pandoc-api-version": api_version(), "meta": {}, "blocks": blocks}
    out = run_pandoc(["-f", "json", "-t", "typst", "--wrap=none"], json.dumps(document))
    found = dict.fromkeys(range(len(formulas)), "")
    for match in re.finditer(
        rf"^{MATH_MARK}(\d+) (.*?)(?=\n+{MATH_MARK}\d+ |\Z)", out, re.M | re.S
    ):
        found[int(match.group(1))] = match.group(2).strip()
    return [found[i] for i in range(len(formulas))]


def failing_math(formulas: list[tuple[str, str]], workdir: Path) -> set[tuple[str, str]]:
    """The formulas whose Typst the compiler refuses (pandoc writes symbols Typst renamed,
    ``times.circle``, or ``frac(, )``) or that pandoc could not convert (it writes the
    TeX as text): each is checked alone, cheaply, with Typst's evaluator (in the
    compiler's process, under its limits)."""
    codes = typst_of_math(formulas)
    written = [i for i, code in enumerate(codes) if code.startswith("$")]
    refused = {written[i] for i in compiler.refused(workdir, [codes[i] for i in written])}
    return {f for i, f in enumerate(formulas) if i not in written or i in refused}


def math_images(
    blocks: Blocks, failing: set[tuple[str, str]], book: Book, cache: Cache, assets: Assets
) -> tuple[Blocks, list[Diagnostic]]:
    """Formulas Typst cannot set, drawn by ziamath as the WeasyPrint engine draws all of
    them (an SVG on the baseline); one ziamath cannot draw either is its TeX in code
    type, with MATH001 at its chapter's line (never dropped, never a failed build)."""
    problems: list[Diagnostic] = []
    chapter = None

    def action(node: dict[str, Any]) -> Any:
        nonlocal chapter
        if node["t"] == "RawBlock" and node["c"][1].startswith(CHAPTER_MARK):
            ident = node["c"][1][len(CHAPTER_MARK) :].strip()
            chapter = next((c for c in book.chapters if c.id == ident), chapter)
        if node["t"] != "Math" or (node["c"][0]["t"], node["c"][1]) not in failing:
            return None
        display = node["c"][0]["t"] == "DisplayMath"
        tex = node["c"][1]
        try:
            image = render_math(tex, display, cache, math_font(book.config.get("mathfont")))
        except MathError as exc:
            problems.append(undrawn(chapter, tex, str(exc), "in the PDF"))
            return {"t": "Code", "c": [["", [], []], tex.strip()]}
        key = hashlib.sha256(image.svg.encode()).hexdigest()[:24]
        path = cache.put("typst-math", key, image.svg.encode(), ".svg")
        if path is None:
            return {"t": "Code", "c": [["", [], []], tex.strip()]}
        name = assets.name(path)
        size = f"width: {image.width_em:.3f}em, height: {image.height_em:.3f}em"
        if display:
            return raw_inline("typst", f"#align(center, image({string(name)}, {size}))")
        lift = f"baseline: {image.depth_em:.3f}em"
        return raw_inline("typst", f"#box({lift}, image({string(name)}, {size}))")

    return walk(blocks, action), problems


LANGUAGE_TAG = re.compile(r"[A-Za-z0-9_+#-]+")


def code_tags(blocks: Blocks) -> Blocks:
    """A code block's language as a Typst raw block's tag: mdBook's ``rust,ignore`` is the
    language ``rust`` (Typst takes a tag up to the first character not in a name)."""
    for node in iter_nodes(blocks):
        if node["t"] in ("CodeBlock", "Code"):
            classes = [c.split(",")[0] for c in node["c"][0][1]]
            node["c"][0][1] = [c for c in classes if LANGUAGE_TAG.fullmatch(c)]
    return blocks


def running_head(blocks: Blocks) -> Blocks:
    """The chapter's title as plain text (``2장 데이터 병렬화와 ZeRO``) for the running
    heads, after its heading (on its opening page; the heading's own body sets the number
    on a line above), and a mark where the chapter ends: a page after it and before the
    next chapter's opening is blank, and has no running head."""
    for index, node in enumerate(blocks):
        if node["t"] == "Header" and node["c"][0] == 1:
            title = " ".join(stringify(node["c"][2]).split())
            head = raw_block("typst", f"#metadata({string(title)}) <kobook-running-head>")
            return [*blocks[: index + 1], head, *blocks[index + 1 :], CHAPTER_END]
    return [*blocks, CHAPTER_END]


def code_columns(book: Book) -> int:
    """How many monospace columns a code line gets before it wraps (text width / 0.6 em)."""
    layout = page_layout(book.config)
    width = points(layout.width) - points(layout.inner) - points(layout.outer)
    size = points(layout.font_size) * 0.88 * 0.9
    return max(40, int(width / (size * 0.6)) - 2)


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


# --- The compiler ----------------------------------------------------------------------

WHERE = re.compile(r"┌─ (?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+)")


def source_location(book: Book, source: str, line: int) -> Location:
    """Where line ``line`` of book.typ came from: its chapter's file and, as far as its
    text tells, the line there; before the first chapter, the template."""
    chapter_id = chapter_at(source, line, CHAPTER_MARK)
    chapter = next((c for c in book.chapters if c.id == chapter_id), None)
    if chapter is None:
        return Location(None)
    text = source.splitlines()[line - 1] if 0 < line <= len(source.splitlines()) else ""
    pieces = re.split(r"#[a-z.]+|[\[\]{}()\"\\*_`$<>#=]", text)
    for piece in sorted({p.strip() for p in pieces if len(p.strip()) >= 2}, key=len, reverse=True):
        found = chapter.locate(piece)
        if found is not None:
            return Location(found.file, found.line)
    return chapter.where(1)


def diagnostic_of(book: Book, source: str, text: str, code: str, severity: str) -> Diagnostic:
    """A Typst message (its first line, without Typst's ``error:`` prefix) as kobook's."""
    sections = re.split(r"\n(?=(?:error|warning): )", text.strip())
    wanted = "error: " if code == "TYP001" else "warning: "
    text = next((s for s in sections if s.startswith(wanted)), sections[0])
    message = text.strip().splitlines()[0] if text.strip() else "Typst failed"
    message = re.sub(r"^(error|warning):\s*", "", message)
    found = WHERE.search(text)
    location = source_location(book, source, int(found.group("line"))) if found else Location(None)
    return Diagnostic(
        code,
        f"Typst: {message}",
        location,
        "this comes from the Typst engine; --engine weasyprint builds the book too",
        severity,
    )


def limit_error(book: Book, error: KobookError) -> KobookError:
    """A Typst run stopped at a limit, placed where Typst code can come from: the book's
    own template when it has one (nothing of a chapter is Typst code), else the book."""
    own = book.root / "templates" / TEMPLATES / "book.typ"
    return KobookError(
        error.diagnostic.message,
        code=error.code,
        file=own if own.is_file() else book.config.path,
        hint=error.diagnostic.hint,
    )


def missing_glyphs(book: Book, chars: set[str]) -> list[Diagnostic]:
    """GLYPH001 for each character of the text no installed font has (Typst would draw
    tofu: it falls back through every font it knows, so only these are lost)."""
    fonts = resolve_fonts(book.config)
    stacks = [*fonts.serif, *fonts.sans, *fonts.mono, *fonts.emoji]
    problems = []
    for char in sorted(chars):
        if char.isspace() or ord(char) < 0x80 or unicodedata.category(char) in ("Cf", "Mn", "Cc"):
            continue
        if any(covers(f, char) for f in stacks) or fallback_family(char):
            continue
        problems.append(
            Diagnostic(
                "GLYPH001",
                f"Typst: no installed font has '{char}' (U+{ord(char):04X})",
                book.locate(char),
                "install a font that has it (kobook doctor), or replace the character",
            )
        )
    return problems


def write_pdf(
    book: Book, docs: list[Doc], out: Path, cache: Cache, *, keep_going: bool = False
) -> list[Diagnostic]:
    """Write ``out`` with the Typst compiler from the ``typst`` wheel; return warnings."""
    workdir = compiler_workdir(cache.root, out, "typst", "Typst working folder")
    assets = Assets(cache.root, book.root)
    rendered = render_typst(book, docs, cache, assets, workdir)
    missing = missing_glyphs(book, rendered.chars)
    if missing and not keep_going:
        raise KobookError.summarising(
            f"{len(missing)} character(s) have no glyph in any installed font; "
            "the PDF was not written",
            "GLYPH001",
            missing,
            "see the list below; --keep-going writes the PDF anyway",
        )
    source, problems = rendered.source, rendered.problems
    assets.link(workdir)
    main = workdir / "book.typ"
    main.write_text(source, encoding="utf-8")
    try:
        _, math_folder = math_family(book.config.get("mathfont"))
        pdf, warnings = compiler.compile_pdf(
            main, workdir, [math_folder] if math_folder else [], book.config.output_epoch
        )
    except KobookError as error:
        if not error.code.startswith("LIMIT"):
            raise
        raise limit_error(book, error) from None
    except compiler.TypstFailed as error:
        first = diagnostic_of(book, source, error.text, "TYP001", "error")
        raise KobookError(
            first.message,
            code="TYP001",
            file=first.location.file,
            line=first.location.line,
            hint=first.hint,
        ) from None
    for text in warnings:
        problems.append(diagnostic_of(book, source, text, "TYP002", "warning"))
    with atomic_output(out) as tmp:
        tmp.write_bytes(pdf)
    return problems + missing
