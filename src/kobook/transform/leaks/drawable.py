"""What the writers leave out of the book, from what each writer's registry entry declares
it draws (:class:`~kobook.model.draws.Draws`); once per build, never by a writer: LEAK002
for raw HTML and AST elements a writer drops, TYP003 for raw Typst (no writer runs the
book's own), RAW001 for a raw format no writer knows."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...errors import Diagnostic, Location
from ...model import Doc
from ...model.draws import Draws
from .locate import Locator
from .patterns import END_TAG, START_TAG, Found, Node, strip_comments

# ------------------------------------------------------------------ LEAK002


def names(text: str) -> frozenset[str]:
    return frozenset(text.split())


HTML_ELEMENTS = names(
    """a abbr acronym address area article aside audio b base bdi bdo big blockquote body br
    button canvas caption center cite code col colgroup data datalist dd del details dfn dialog
    div dl dt em embed fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header
    hgroup hr html i iframe img input ins kbd label legend li link main map mark math menu meta
    meter nav nobr noscript object ol optgroup option output p param picture pre progress q rp rt
    ruby s samp script search section select slot small source span strike strong style sub
    summary sup svg table tbody td template textarea tfoot th thead time title tr track tt u ul
    var video wbr"""
)
# Content of these is not markup (skipped), of these is drawn by their parent.
OPAQUE = re.compile(r"<(script|style)\b.*?</\1\s*>", re.S | re.I)
FOREIGN = ("svg", "math")


def undrawable_tags(blocks: list[Node], draws: Draws) -> list[tuple[str, str, Node]]:
    """``(name as written, start tag, node)`` of raw HTML a writer drops (``draws``: its
    declaration), and of tags that are no HTML element (no writer draws those)."""
    out: list[tuple[str, str, Node]] = []
    depth = 0  # inside <svg> or <math>: their children are drawn by them
    for node in iter_raw_html(blocks):
        html = OPAQUE.sub(lambda m: m.group(0)[: m.group(0).find(">") + 1], node["c"][1])
        html = strip_comments(html)
        events = [(m.start(), "end", m) for m in END_TAG.finditer(html)]
        events += [(m.start(), "start", m) for m in START_TAG.finditer(html)]
        for _, kind, match in sorted(events, key=lambda e: e[0]):
            name = match.group("name")
            lower = name.lower()
            if kind == "end":
                if lower in FOREIGN and depth:
                    depth -= 1
                continue
            if depth:
                continue
            if lower in FOREIGN and not match.group(0).endswith("/>"):
                depth += 1
            if lower.startswith("d-"):
                continue  # LEAK001 already
            if draws.tag(lower, lower in HTML_ELEMENTS) == "dropped":
                out.append((name, match.group(0), node))
    return out


def undrawable_html(blocks: list[Node], draws: Draws) -> list[tuple[str, Node]]:
    """``(tag name, node)`` of each raw HTML element a writer cannot draw (LEAK002)."""
    return [(name, node) for name, _, node in undrawable_tags(blocks, draws)]


def iter_raw_html(blocks: list[Node]) -> Iterator[Node]:
    from ...parse.ast import iter_nodes

    for node in iter_nodes(blocks):
        if node["t"] in ("RawBlock", "RawInline") and node["c"][0] == "html":
            yield node


def html_leaks(docs: list[Doc], draws: Draws, label: str) -> list[Diagnostic]:
    """LEAK002 warnings for what a writer (its ``label``, and its declaration ``draws``)
    drops of the chapters it is about to write: raw HTML elements, raw HTML blocks with
    text, AST elements.  Made once per build, before the writer runs, never by the writer."""
    out = []
    lays_out = draws.format("html") == "drawn"
    for doc in docs:
        found = undrawable_tags(doc.blocks, draws)
        if draws.html_blocks == "dropped":
            out += dropped_blocks(doc, {id(node) for _, _, node in found}, label)
        out += dropped_elements(doc, draws, label)
        if not found:
            continue
        locator = Locator(doc.chapter)
        for name, tag, _node in found:
            source = locator.take(Found("html", name.lower(), tag), "tags")
            if locator.suppressed("LEAK002", source):
                continue
            if name.lower() not in HTML_ELEMENTS:
                text = (
                    f"raw HTML <{name}> is not an HTML element: the {label} shows its text at most"
                )
            elif lays_out:
                text = f"raw HTML <{name}> cannot be drawn in the {label} (it leaves it out)"
            else:
                text = f"raw HTML <{name}> is left out of the {label} (pandoc drops raw HTML)"
            out.append(
                Diagnostic(
                    "LEAK002",
                    text,
                    locator.location(source, f"<{name}"),
                    "rewrite it as Markdown (an image is ![caption](file), a link [text](url)); "
                    "the HTML site keeps it unless it is unsafe to publish (then HTML001)",
                    "warning",
                )
            )
    return out


def dropped_elements(doc: Doc, draws: Draws, label: str) -> list[Diagnostic]:
    """LEAK002 once per element of the chapter that the writer declares it drops, at the
    line of its text (the chapter's file when it has none)."""
    from ...parse.ast import iter_nodes, stringify

    dropped = {name for name, how in draws.elements.items() if how == "dropped"}
    if not dropped:
        return []
    out = []
    for node in iter_nodes(doc.blocks):
        if node.get("t") not in dropped:
            continue
        text = " ".join(stringify([node]).split())
        where = (doc.chapter.locate(text[:40]) if text else None) or Location(doc.chapter.path)
        short = text if len(text) <= 40 else text[:40] + "…"
        out.append(
            Diagnostic(
                "LEAK002",
                f"{node['t']} {short!r} is left out of the {label}".replace(" ''", ""),
                where,
                "write it another way (kobook's README lists what each output draws)",
                "warning",
            )
        )
    return out


# Markup in raw HTML that shows no text: comments, scripts, styles, templates, the tags.
HIDDEN = re.compile(r"<!--.*?-->|<(script|style|template)\b.*?</\1\s*>", re.S | re.I)
TAG = re.compile(r"<[^>]*>")


def shown_text(markup: str) -> str:
    """The text a reader sees of raw HTML, its spaces collapsed ("" for markup alone):
    what a writer that drops the block loses (here, and in the ledger's count)."""
    import html as entities

    return " ".join(entities.unescape(TAG.sub(" ", HIDDEN.sub(" ", markup))).split())


def dropped_blocks(doc: Doc, reported: set[int], label: str) -> list[Diagnostic]:
    """LEAK002 for each raw HTML *block* with text of its own (a ``{=html}`` fence, a
    ``<pre>``): pandoc's LaTeX and Typst writers drop the block, text and all, where they
    keep the text between the tags of raw HTML in a paragraph."""
    out = []
    for node in iter_raw_html(doc.blocks):
        if node["t"] != "RawBlock" or id(node) in reported:
            continue
        shown = shown_text(node["c"][1])
        if not shown:
            continue
        first = node["c"][1].strip().split("\n", 1)[0][:40]
        where = doc.chapter.locate(first) or Location(doc.chapter.path)
        short = shown if len(shown) <= 40 else shown[:40] + "…"
        out.append(
            Diagnostic(
                "LEAK002",
                f"raw HTML block with text ({short!r}) is left out of the {label} "
                "(pandoc drops raw HTML blocks)",
                where,
                "write it as Markdown; the HTML site keeps it",
                "warning",
            )
        )
    return out


# Raw formats drawn or noted elsewhere: HTML (LEAK002 above), LaTeX (TEX005, a note).
NOTED = frozenset({"html", "html4", "html5", "latex", "tex", "beamer"})


def raw_leaks(docs: list[Doc], drawn: frozenset[str]) -> list[Diagnostic]:
    """Per chapter, the raw blocks of a format no writer of this build draws (``drawn``:
    the union of the writers' declared formats): TYP003 for Typst, RAW001 for the rest."""
    from ...parse.ast import iter_nodes

    out = []
    for doc in docs:
        counts: dict[str, int] = {}
        for node in iter_nodes(doc.blocks):
            if node["t"] in ("RawBlock", "RawInline"):
                fmt = str(node["c"][0]).lower()
                if fmt not in NOTED and fmt not in drawn:
                    counts[fmt] = counts.get(fmt, 0) + 1
        for fmt, count in sorted(counts.items()):
            where = doc.chapter.locate(f"{{={fmt}}}") or Location(doc.chapter.path)
            if fmt == "typst":
                message = f"{count} raw Typst block(s) left out: a book's own Typst is not run"
                out.append(
                    Diagnostic(
                        "TYP003",
                        message,
                        where,
                        "write it in Markdown, or change templates/typst/book.typ",
                        "warning",
                    )
                )
            else:
                out.append(
                    Diagnostic(
                        "RAW001",
                        f"{count} raw {fmt} block(s) left out: no kobook output draws {fmt}",
                        where,
                        "write it in Markdown (raw html and latex are drawn where they can be)",
                        "warning",
                    )
                )
    return out
