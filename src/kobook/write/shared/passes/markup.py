"""Passes that give an HTML-based output what pandoc does not: footnotes as the PDF floats
them, math as SVG, links between pages, details and embeds, callout boxes, every image
with a text alternative, TeX that texmath reads for MathML."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from ....cache import Cache
from ....errors import Diagnostic
from ....lang.script import untranslated
from ....model import Doc
from ....parse.ast import (
    Action,
    acts_on,
    attr,
    iter_nodes,
    keyval,
    raw_block,
    raw_inline,
    rewrite,
    stringify,
    walk,
)
from ....transform.math_macros import for_mathml
from ..mathsvg import MathError, img_tag, render_math
from .base import Blocks


def footnotes_inline(blocks: Blocks) -> Blocks:
    """``Note`` → ``Span.footnote`` holding its text, for CSS ``float: footnote``."""

    def flatten(note_blocks: Blocks) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for index, block in enumerate(note_blocks):
            if index:
                out.append({"t": "LineBreak"})
            if block["t"] in ("Para", "Plain"):
                out += block["c"]
            elif block["t"] == "CodeBlock":
                out.append({"t": "Code", "c": [attr(), block["c"][1]]})
            elif block["t"] in ("BulletList", "OrderedList"):
                items = block["c"] if block["t"] == "BulletList" else block["c"][1]
                for number, item in enumerate(items, 1):
                    bullet = "•" if block["t"] == "BulletList" else f"{number}."
                    if number > 1:
                        out.append({"t": "LineBreak"})
                    out += [{"t": "Str", "c": bullet}, {"t": "Space"}, *flatten(item)]
        return out

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Note":
            return None
        return {"t": "Span", "c": [attr("", ["footnote"]), walk(flatten(node["c"]), action)]}

    return rewrite(blocks, action)


def math_as_svg(
    blocks: Blocks,
    cache: Cache | None,
    on_error: Callable[[str, str], None],
    font: str | None = None,
) -> Blocks:
    """``Math`` → ``<img>`` of an SVG drawn by ziamath (WeasyPrint has no MathML), with the
    math font file ``font`` (None: the default, ``mathsvg.math_font``).

    An expression ziamath cannot draw is reported through ``on_error`` and shown
    as its TeX source in code style (never silently dropped).
    """

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Math":
            return None
        display = node["c"][0]["t"] == "DisplayMath"
        tex = node["c"][1]
        try:
            image = render_math(tex, display, cache, font)
        except MathError as exc:
            on_error(tex, str(exc))
            return {"t": "Code", "c": [attr("", ["math-error"]), tex.strip()]}
        return raw_inline("html", img_tag(image, tex, display))

    return rewrite(blocks, action)


def rewrite_links(blocks: Blocks, page_of: dict[str, str], current: str) -> Blocks:
    """``#id`` → ``other-chapter.html#id`` when the id lives on another page."""
    return rewrite(blocks, page_link(page_of, current))


def page_link(page_of: dict[str, str], current: str) -> Action:
    """:func:`rewrite_links` as one action, in place (it replaces nothing)."""

    @acts_on("Link")
    def action(node: dict[str, Any]) -> None:
        if node["t"] == "Link":
            url = node["c"][2][0]
            if url.startswith("#"):
                page = page_of.get(url[1:])
                if page and page != current:
                    node["c"][2][0] = f"{page}{url}"

    return action


def details_html(blocks: Blocks) -> Blocks:
    """``Div.callout-details`` → ``<details class="details"><summary>…</summary>…</details>``.

    Runs after the sanitizer: these tags are kobook's own.  The PDF engines keep
    the callout box (always open: the answers stay readable in print).
    """

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "callout-details" not in node["c"][0][1]:
            return None
        ident = node["c"][0][0]
        body = node["c"][1]
        title: list[dict[str, Any]] = []
        if body and body[0]["t"] == "Div" and "callout-title" in body[0]["c"][0][1]:
            title = [i for b in body[0]["c"][1] for i in b.get("c", [])]
            body = body[1:]
        id_attr = f' id="{html.escape(ident, quote=True)}"' if ident else ""
        if "open" in node["c"][0][1]:
            id_attr += " open"
        return [
            raw_block("html", f'<details class="details"{id_attr}>'),
            raw_block("html", "<summary>"),
            {"t": "Plain", "c": title},
            raw_block("html", "</summary>"),
            *walk(body, action),
            raw_block("html", "</details>"),
        ]

    return rewrite(blocks, action)


# An embedded page runs its scripts in an opaque origin: no allow-same-origin, so it
# cannot read the site's storage or reach into the page that frames it.
EMBED_SANDBOX = "allow-scripts"


def embeds_html(blocks: Blocks) -> Blocks:
    """``Div.embed[src]`` → the page in a sandboxed ``<iframe>`` (its copy in the site).

    The caption of its static figure, if any, stays under the frame, so the
    figure numbers are the same as in the PDF.  Runs after the sanitizer.
    """

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "embed" not in node["c"][0][1]:
            return None
        src = keyval(node["c"][0], "src")
        if not src:
            return None
        ident = node["c"][0][0]
        figure = next((b for b in node["c"][1] if b["t"] == "Figure"), None)
        caption = figure["c"][1][1] if figure is not None else []
        ident = ident or (figure["c"][0][0] if figure is not None else "")
        title = keyval(node["c"][0], "title") or stringify(caption) or src
        id_attr = f' id="{html.escape(ident, quote=True)}"' if ident else ""
        frame = (
            f'<iframe class="embed-frame" src="{html.escape(src, quote=True)}" '
            f'sandbox="{EMBED_SANDBOX}" loading="lazy" referrerpolicy="no-referrer" '
            f'title="{html.escape(title, quote=True)}"></iframe>'
        )
        out = [raw_block("html", f'<figure class="embed"{id_attr}>'), raw_block("html", frame)]
        if caption:
            out += [raw_block("html", "<figcaption>"), *caption, raw_block("html", "</figcaption>")]
        return [*out, raw_block("html", "</figure>")]

    return rewrite(blocks, action)


def boxed_callouts(
    blocks: Blocks, box: Callable[[str, list[dict[str, Any]]], list[dict[str, Any]]]
) -> Blocks:
    """``Div.callout`` (its kind from ``callout-<kind>``, ``note`` by default) → ``box(kind,
    blocks)``: the engine's box around a bold title line (the callout's ``callout-title``
    div) and the callout's own blocks, inner callouts first."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "callout" not in node["c"][0][1]:
            return None
        kind = next(
            (c.removeprefix("callout-") for c in node["c"][0][1] if c.startswith("callout-")),
            "note",
        )
        body = node["c"][1]
        title: list[dict[str, Any]] = []
        if body and body[0]["t"] == "Div" and "callout-title" in body[0]["c"][0][1]:
            title = [i for b in body[0]["c"][1] for i in b.get("c", [])]
            body = body[1:]
        heading = [{"t": "Para", "c": [{"t": "Strong", "c": title}]}] if title else []
        return box(kind, [*heading, *walk(body, action)])

    return rewrite(blocks, action)


def image_alts(blocks: Blocks, fallback: str) -> Blocks:
    """Every image gets a text alternative: its own, else its figure's caption, else
    ``fallback`` (the book's word for an image): the site and the EPUB.

    An alt text that was a file name (``![image.png](…)``) is gone by now
    (``transform/figures.py``, FIG002); without this pandoc writes ``<img>`` with no
    ``alt``, and a screen reader reads the file's path instead.
    """
    for node in iter_nodes(blocks):  # pre-order: a figure before the images in it
        if node["t"] == "Image" and (described := description(node)):
            node["c"][1] = [{"t": "Str", "c": described}]
        elif node["t"] == "Figure":
            caption = " ".join(stringify(node["c"][1][1]).split())
            for inner in iter_nodes(node["c"][2]):
                if inner["t"] == "Image" and not stringify(inner["c"][1]).strip():
                    inner["c"][1] = [{"t": "Str", "c": caption or fallback}]
        elif node["t"] == "Image" and not stringify(node["c"][1]).strip():
            node["c"][1] = [{"t": "Str", "c": fallback}]
    return blocks


DESCRIPTION_KEYS = ("fig-alt", "alt")


def description(image: dict[str, Any]) -> str:
    """An image's own description, taken off its attributes: Quarto's ``fig-alt`` (what
    an mdBook ``<img alt>`` under a caption becomes) or ``alt``.  It is the image's text
    alternative, so the caption below it is not read twice and the description is."""
    keyvals = image["c"][0][2]
    found = next((" ".join(v.split()) for k, v in keyvals if k in DESCRIPTION_KEYS), "")
    if found:
        keyvals[:] = [kv for kv in keyvals if kv[0] not in DESCRIPTION_KEYS]
    return found


def undescribed_images(blocks: Blocks, doc: Doc) -> list[Diagnostic]:
    """A11Y001 for each image with no text of its own and no caption: a reader who
    cannot see it learns nothing of it (a placeholder word is not a description)."""
    found: list[Diagnostic] = []
    captioned: set[int] = set()
    for node in iter_nodes(blocks):  # pre-order: a figure before the images in it
        if node["t"] == "Figure" and stringify(node["c"][1][1]).strip():
            captioned |= {id(n) for n in iter_nodes(node["c"][2]) if n["t"] == "Image"}
        elif (
            node["t"] == "Image"
            and id(node) not in captioned
            and not stringify(node["c"][1]).strip()
            and not any(k in DESCRIPTION_KEYS and v.strip() for k, v in node["c"][0][2])
        ):
            source = node["c"][2][0]
            where = doc.chapter.locate(source) or doc.chapter.where(1)
            found.append(
                Diagnostic(
                    "A11Y001",
                    f"image {source[:80]} has no text alternative: a screen reader says "
                    "nothing of it",
                    where,
                    hint="describe it: ![what the image shows](path), or give it a caption",
                    severity="warning",
                )
            )
    return found


def mathml_tex(blocks: Blocks) -> Blocks:
    """Math in the TeX texmath reads for MathML (``\\textcolor``, size switches: see
    ``for_mathml``): the site and the EPUB."""
    for node in iter_nodes(blocks):
        mathml_math(node)
    return blocks


@acts_on("Math")
def mathml_math(node: dict[str, Any]) -> None:
    """:func:`mathml_tex` of one node, in place (an action that replaces nothing)."""
    if node["t"] == "Math":
        node["c"][1] = for_mathml(node["c"][1])


def page_breaks(blocks: Blocks, raw: Callable[[str], Any]) -> Blocks:
    """Each page break (``transform/page_breaks.py``: an empty Div marked ``page-break``)
    as the engine's own block: ``raw(command)`` of the command it was (``newpage``, …)."""

    def action(node: dict[str, Any]) -> Any:
        if node.get("t") == "Div" and "page-break" in node["c"][0][1]:
            command = dict(node["c"][0][2]).get("command", "newpage")
            return raw(command)
        return None

    return rewrite(blocks, action)


# Blocks whose text is set apart in a language of its own: those that carry attributes
# take the language there, paragraphs hold it in a span, the others are wrapped.
ATTRIBUTED = {"Div": 0, "Table": 0, "Figure": 0}
WRAPPED = ("BulletList", "OrderedList", "BlockQuote", "DefinitionList", "LineBlock")
MARKED = (*ATTRIBUTED, *WRAPPED, "Para", "Plain")
CJK_BOOKS = ("ko", "ja", "zh")
NUMBER_LABELS = ("chapter-number", "section-number")


def words_of(value: Any) -> str:
    """The words a reader hears in ``value``: its text, not its code or formulas."""
    return " ".join(n["c"] for n in iter_nodes(value) if n["t"] == "Str")


def in_lang(inlines: list[Any], lang: str) -> list[Any]:
    return [{"t": "Span", "c": [attr(keyvals=[["lang", lang]]), inlines]}]


def foreign_heading(block: dict[str, Any], lang: str) -> dict[str, Any]:
    """A heading whose title is in ``lang``: its number label (``17장``, printed by
    :func:`heading_numbers`) stays in the book's language."""
    level, attrs, inlines = block["c"]
    labelled = (
        len(inlines) > 1
        and inlines[0]["t"] == "Span"
        and any(c in NUMBER_LABELS for c in inlines[0]["c"][0][1])
    )
    label, title = (inlines[:2], inlines[2:]) if labelled else ([], inlines)
    if not untranslated(words_of(title), 2):
        return block
    return {"t": "Header", "c": [level, attrs, [*label, *in_lang(title, lang)]]}


def foreign_blocks(blocks: Blocks, book_lang: str, original_lang: str) -> Blocks:
    """Mark blocks still in the original's language (an mdBook chapter not yet translated)
    with ``lang``, so a screen reader reads them in that language's voice and a browser
    hyphenates and breaks them by its rules (WCAG 3.1.2).  Only in a Korean, Japanese or
    Chinese book, where the script tells untranslated text apart; one block at a time
    (``blockprep`` runs site passes on single blocks)."""
    if book_lang.split("-")[0].lower() not in CJK_BOOKS:
        return blocks
    lang = original_lang or "en"
    out: Blocks = []
    for block in blocks:
        kind = block["t"]
        if kind == "Header":
            out.append(foreign_heading(block, lang))
        elif kind not in MARKED or not untranslated(words_of(block)):
            out.append(block)
        elif kind in ATTRIBUTED:
            keyvals = block["c"][ATTRIBUTED[kind]][2]
            if not any(key == "lang" for key, _ in keyvals):
                keyvals.append(["lang", lang])
            out.append(block)
        elif kind in ("Para", "Plain"):
            out.append({"t": kind, "c": in_lang(block["c"], lang)})
        else:
            out.append({"t": "Div", "c": [attr(keyvals=[["lang", lang]]), [block]]})
    return out


def printed_urls(blocks: Blocks) -> Blocks:
    """A print master's link to the web keeps its words and gains a footnote with its
    address: on paper a reader cannot follow a link (``print: true``).  A link that
    prints its address already, and links in headings (the contents would carry the
    note) or in a footnote (a note in a note) are left as they are."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] in ("Note", "Header"):
            return node  # not walked: no note inside a note or a heading
        if node["t"] != "Link":
            return None
        url = node["c"][2][0]
        if not url.startswith(("http://", "https://")):
            return None
        words = stringify(node["c"][1]).strip()
        if words in (url, url.split("://", 1)[1], url.rstrip("/")):
            return None
        note = {"t": "Note", "c": [{"t": "Para", "c": [{"t": "Code", "c": [attr(), url]}]}]}
        return [node, note]

    return rewrite(blocks, action)
