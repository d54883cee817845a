"""Korean words kept whole in Typst: each word that holds Hangul goes into a ``#box``
(no line break inside), emphasis and links split at their spaces first so a box never
holds a space; long code names are cut at their seams instead."""

from __future__ import annotations

from typing import Any

from ...korean.hangul import has_hangul
from ...parse.ast import raw_inline, rewrite, stringify
from ..shared import passes
from ..shared.seams import name_pieces as seam_pieces

Blocks = list[dict[str, Any]]


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


def name_pieces(node: dict[str, Any]) -> list[dict[str, Any]] | None:
    """A long inline code name cut at its seams (:func:`seams.name_pieces`), or None.

    Typst may break a line between two boxes, so each piece in its own box lets the
    paragraph builder break a name that would leave its line loose, where WeasyPrint
    breaks it; Typst has no discretionary break, so no continuation mark is drawn.
    """
    if node["t"] != "Code":
        return None
    pieces = seam_pieces(node["c"][1])
    if pieces is None:
        return None
    return [{"t": "Code", "c": [node["c"][0], piece]} for piece in pieces]


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

    return rewrite(blocks, action)
