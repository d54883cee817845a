"""The Typst writer's passes over a chapter's AST (on a copy): what pandoc's Typst writer
needs or gets wrong (callouts, numbered equations, labels and anchors, links to no
label, images inside the compiler's root, natural widths, tables, code tags), and raw
Typst from the book dropped."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ...boundary import within
from ...cache import Cache, digest
from ...errors import Diagnostic, Location
from ...model import Book, Doc
from ...parse.ast import (
    copy_tree,
    iter_nodes,
    raw_block,
    raw_inline,
    rewrite,
    rewrite_chain,
    stringify,
    walk,
)
from ...transform.links import is_attachment
from ..shared import passes, svgclean
from ..shared.imagefiles import convert_image
from ..shared.layout import points
from ..shared.sanitize import sanitize_blocks
from ..shared.setup import PrintSetup
from ..shared.svgfonts import with_book_fonts
from ..shared.svglinks import linked_files
from ..shared.tables import SCALE_KEY, TABCOLSEP, table_widths
from ..shared.workdir import Assets
from .values import LABEL, label, label_of, string
from .words import Blocks, box_blocks, boxed

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


# --- What Typst would print wrongly ----------------------------------------------------


def resolved_citations(blocks: Blocks) -> Blocks:
    """Cites are already rendered by citeproc (transform/citations.py): their text, not
    Typst's own ``#cite``, which needs a bibliography file."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] == "Cite":
            return {"t": "Span", "c": [["", [], []], walk(node["c"][1], action)]}
        return None

    return rewrite(blocks, action)


def foreign_raw(blocks: Blocks) -> Blocks:
    """Raw Typst from the book is dropped (it could read any file the compiler may); the
    build says so once per chapter (TYP003, ``transform/leaks/drawable.raw_leaks``: the
    registry declares that no writer draws raw Typst)."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] in ("RawBlock", "RawInline") and node["c"][0] == "typst":
            return []
        return None

    return rewrite(blocks, action)


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

    return rewrite(blocks, action)


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
        if node["t"] == "RawInline" and node["c"][0] == "typst":
            text = node["c"][1]
            if text.startswith(METADATA) and (ident := label_of(text.removeprefix(METADATA))):
                found.add(ident)  # an index mark or an anchor (:func:`index_marks`)
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

    return rewrite(blocks, action)


def listing_heads(blocks: Blocks) -> Blocks:
    """A listing's caption and file name (``transform/listings.py``) stay on the page of
    their code: a sticky block, as ``break-after: avoid`` keeps them in the other
    engines (left at a page's foot, the name was read as a line of the code)."""

    def action(node: dict[str, Any]) -> Any:
        classes = node["c"][0][1] if node["t"] == "Div" else []
        if "listing-caption" not in classes and "listing-file" not in classes:
            return None
        return [
            raw_block("typst", "#block(sticky: true, below: 0.3em)[#set par(justify: false)"),
            node,
            raw_block("typst", "]"),
        ]

    return rewrite(blocks, action)


METADATA = "#metadata(none)"  # an invisible element a label can be put on


def index_marks(blocks: Blocks) -> Blocks:
    """An index mark (``transform/index_terms.py``), and any empty span with an id (an
    ``<a id="…"></a>`` a translation keeps for the original's links), as an invisible
    ``metadata`` element with the label before its text: the index asks where a mark
    is.  pandoc would put the label on the text before it, or on nothing at a
    paragraph's start, and the compiler stops at a link to a label nothing carries."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Span" or not node["c"][0][0]:
            return None
        if "index" not in node["c"][0][1] and node["c"][1]:
            return None
        ident = node["c"][0][0]
        if not LABEL.fullmatch(ident):
            return walk(node["c"][1], action)
        return [raw_inline("typst", f"{METADATA}<{ident}>"), *walk(node["c"][1], action)]

    return rewrite(blocks, action)


def dangling_links(blocks: Blocks, labels: set[str]) -> Blocks:
    """A link to an id no element carries keeps its text, without the link: Typst stops
    at a link to a missing label (the HTML writer reports broken links)."""

    def action(node: dict[str, Any]) -> Any:
        target = node["c"][2][0] if node["t"] == "Link" else ""
        if target.startswith("#") and target[1:] not in labels:
            return {"t": "Span", "c": [node["c"][0], walk(node["c"][1], action)]}
        return None

    return rewrite(blocks, action)


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

    return rewrite(blocks, action)


def images(
    blocks: Blocks,
    root: Path,
    cache: Cache,
    assets: Assets,
    roots: list[Path],
    sources: list[Path] | None = None,
    fonts: dict[str, list[str]] | None = None,
    problems: list[Diagnostic] | None = None,
) -> Blocks:
    """Images by names inside the compiler's root (``assets/…``, links made before the
    run); only files inside ``roots`` (the folders a writer may read).  ``sources`` gets
    each of those named (present or not).  An SVG is made safe for Typst to read
    (:func:`typst_svg`); ``problems`` gets what it links and may not read (SEC002)."""
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
                elif path.suffix.lower() == ".svg":
                    svg = path
                    path, refused = typst_svg(svg, cache, fonts or {}, roots)
                    if problems is not None:
                        problems += [unread(link, svg) for link in refused]
                node["c"][2][0] = assets.name(path)
    return blocks


def attachments(blocks: Blocks, root: Path, assets: Assets, roots: list[Path]) -> Blocks:
    """A link with ``rel=attachment`` also attaches its file to the PDF (``pdf.attach``,
    under the file's own name), as WeasyPrint does.  ``transform/links.py`` refused one
    outside the book (SEC001); one that is not a file inside ``roots`` stays a link."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Link" or not is_attachment(node["c"][0][2]):
            return None
        url = unquote(node["c"][2][0].split("#")[0])
        path = root / url
        if not url or not any(within(path, top) for top in roots) or not path.is_file():
            return None
        name = assets.name(path)
        attach = f"#pdf.attach({string(path.name)}, read({string(name)}, encoding: none))"
        return [node, raw_inline("typst", attach)]

    return rewrite(blocks, action)


def unread(url: str, svg: Path) -> Diagnostic:
    """SEC002 for a file an SVG links that the PDF engine may not read (WeasyPrint's
    fetcher says the same)."""
    shown = url if len(url) <= 120 else url[:119] + "…"
    return Diagnostic(
        "SEC002",
        f"the PDF engine was not allowed to read {shown} (linked from {svg.name})",
        Location(svg),
        "the PDF uses only image files inside the book: copy the file into the book and "
        "link it by a path relative to the SVG",
        "warning",
    )


def typst_svg(
    path: Path, cache: Cache, fonts: dict[str, list[str]], roots: list[Path]
) -> tuple[Path, list[str]]:
    """A cached copy of the SVG at ``path`` that Typst may read, and the URLs it linked
    that it may not: its linked images inside ``roots`` written in
    (:func:`svglinks.linked_files`), then rebuilt from the allow-list every writer uses
    (:func:`svgclean.clean`: no other link), its text naming the book's ``fonts``
    (:func:`svgfonts.with_book_fonts`: Typst's renderer guesses a face otherwise)."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    text, refused = linked_files(text, path.parent, roots)
    data = text.encode("utf-8")
    key = digest("typst-svg", data, repr(sorted(fonts.items())).encode())
    found = cache.lookup("typst-svg", key, ".svg")
    if found is not None:
        return found, refused
    cleaned = svgclean.clean(data)
    if cleaned is None:  # not well-formed: Typst says so (TYP001), with the file
        return path, refused
    if fonts:
        cleaned = with_book_fonts(cleaned.decode("utf-8"), fonts).encode("utf-8")
    return cache.put("typst-svg", key, cleaned, ".svg") or path, refused


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

    return rewrite(blocks, action)


def prepare(
    doc: Doc,
    book: Book,
    cache: Cache,
    problems: list[Diagnostic],
    assets: Assets,
    setup: PrintSetup,
    part: str = "",
    sources: list[Path] | None = None,
) -> Blocks:
    """The Typst-specific passes over one chapter (on a copy); ``sources`` gets the image
    files it names."""
    blocks = copy_tree(doc.blocks)
    blocks, unsafe = sanitize_blocks(blocks, doc.chapter)
    problems += unsafe
    blocks = passes.read_html_blocks(blocks)  # pandoc's Typst writer drops them
    if book.config.print_master:
        blocks = passes.printed_urls(blocks)
    blocks = foreign_raw(blocks)
    blocks = passes.page_breaks(
        blocks, lambda _command: raw_block("typst", "#pagebreak(weak: true)")
    )
    blocks = resolved_citations(blocks)
    blocks = passes.heading_numbers(blocks, book.config)
    blocks = listing_heads(anchors(blocks))
    blocks = equations(blocks)
    blocks = callouts(blocks)
    blocks = code_tags(rewrite_chain(blocks, [passes.upright_emphasis, passes.code_language]))
    blocks = passes.wrap_code(blocks, setup.code_columns)
    layout = setup.layout
    text_width = layout.text_width
    # Every table gets widths (line=0): Typst shrinks auto columns below their longest word.
    blocks = table_widths(blocks, line=0, text_width=text_width, body_size=points(layout.font_size))
    blocks = cell_insets(blocks, text_width)
    blocks = tables(blocks)
    blocks = passes.table_cell_words(blocks, boxed)
    blocks = passes.natural_widths(blocks, list(setup.folders), text_width)
    fonts = {"serif": setup.fonts.serif, "sans": setup.fonts.sans, "mono": setup.fonts.mono}
    blocks = images(blocks, book.root, cache, assets, list(setup.folders), sources, fonts, problems)
    blocks = attachments(blocks, book.root, assets, list(setup.folders))
    if setup.keeps_words_whole(doc.chapter.lang):
        blocks = box_blocks(blocks)
    blocks = spans(
        blocks, setup.fonts.sans[0]
    )  # after the boxes: its raw markup would end their runs
    blocks = index_marks(blocks)  # after the boxes, as spans: a mark sits between words
    blocks = running_head(blocks)
    mark = raw_block("typst", f"{CHAPTER_MARK}{doc.chapter.id}")
    opening = [raw_block("typst", f"#kopart({string(part)})")] if part else []
    return [mark, *opening, *blocks]


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
