"""Embedded pages: ``::: {.embed src="assets/plotly/x.html" image="assets/plotly/x.png"}``.

Distill sites embed interactive plots (plotly) as ``<iframe>``s.  The site
keeps them: the page is copied into the site and shown in a sandboxed frame
(``write/html/writer.py``).  Paper cannot run a script, so the PDF shows the static
image the source keeps beside the page (a figure, numbered when it has a
``caption``), or else the block's own fallback text and a visible note with
the page's path.  This pass checks the files and leaves one shape for all
writers::

    Div.embed [src=path inside the book, only when the site may frame it]
      Figure (the static image)  |  the fallback blocks + Para.embed-note

- the page must be a file inside the book (SEC001 otherwise, like images),
  named by a relative path (a leading ``/`` is the book's root, as on a Jekyll
  site); a missing page is EMB001 (a warning: the note says what is missing);
- a remote ``http(s)`` page is never framed: a link to it;
- another scheme (``file:``, ``javascript:``, ``data:``) is EMB003 and dropped;
- an ``image`` that does not exist is EMB002: the note is used instead.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ..boundary import within
from ..model import Doc
from ..parse.ast import attr, keyval, rewrite
from .attr_text import attribute_inlines
from .context import Context

REMOTE = re.compile(r"^https?://", re.IGNORECASE)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def find_file(url: str, doc: Doc, ctx: Context) -> Path | None:
    """``url`` relative to the chapter file, then to the book; ``/x`` from the book's root."""
    name = unquote(url.split("#", 1)[0].split("?", 1)[0])
    bases = [ctx.root] if name.startswith("/") else [doc.chapter.path.parent, ctx.root]
    for base in bases:
        candidate = (base / name.lstrip("/")).resolve()
        if candidate.is_file():
            return candidate
    return None


def relative(path: Path, ctx: Context) -> str:
    return path.relative_to(ctx.root.resolve()).as_posix()


def make_embeds(doc: Doc, ctx: Context) -> Doc:
    """Check every ``Div.embed`` and give it the shape above."""
    seen: dict[str, int] = {}

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "embed" not in node["c"][0][1]:
            return None
        src = (keyval(node["c"][0], "src") or "").strip()
        occurrence = seen.get(src, 0)
        seen[src] = occurrence + 1
        return embed(node, src, occurrence, doc, ctx)

    doc.blocks = rewrite(doc.blocks, action)
    return doc


def embed(node: dict[str, Any], src: str, occurrence: int, doc: Doc, ctx: Context) -> Any:
    ident, classes, _ = node["c"][0]
    words = ctx.book.config.words
    body = node["c"][1]
    framed = ""
    available = True  # the page exists (or is remote): the static image may stand for it
    if REMOTE.match(src):
        target: dict[str, Any] = {"t": "Link", "c": [attr(), [{"t": "Str", "c": src}], [src, ""]]}
    elif not src or SCHEME.match(src):
        ctx.problem(
            doc.chapter,
            "EMB003",
            f"embedded page is not a file of the book: {src or '(no src)'}",
            needle=src or "embed",
            occurrence=occurrence,
            hint='write src="path/inside/the/book.html" (relative to the chapter or the book)',
            fatal=False,
        )
        return [*body] or None
    else:
        found = find_file(src, doc, ctx)
        target = {"t": "Code", "c": [attr(), src]}
        if found is not None and not within(found, ctx.root):
            ctx.problem(
                doc.chapter,
                "SEC001",
                f"embedded page resolves outside the book folder: {src} ({found})",
                needle=src,
                occurrence=occurrence,
                hint="copy the page into the book and name it by a relative path; "
                "--keep-going builds with a note",
            )
            found = None
            available = False
        elif found is None:
            ctx.problem(
                doc.chapter,
                "EMB001",
                f"embedded page not found: {src}",
                needle=src,
                occurrence=occurrence,
                hint="check the path (relative to the chapter file or the book folder); "
                "the outputs show a note in its place",
                fatal=False,
            )
            available = False
        else:
            framed = relative(found, ctx)
            target = {"t": "Code", "c": [attr(), framed]}  # the path in the book and the site
    image = static_image(node, doc, ctx) if available else None
    if image is not None:
        if ident.startswith("fig:"):  # ``@fig:`` points at the figure (numbered)
            image["c"][0][0], ident = ident, ""
        content = [image]
    else:
        word = words.word("embed" if available else "embed-missing")
        note = [{"t": "Str", "c": f"[{word}:"}, {"t": "Space"}, target, {"t": "Str", "c": "]"}]
        content = [
            *body,
            {"t": "Div", "c": [attr("", ["embed-note"]), [{"t": "Para", "c": note}]]},
        ]
    keyvals = [["src", framed]] if framed else []
    title = (keyval(node["c"][0], "title") or "").strip()
    if title:
        keyvals.append(["title", title])
    return {"t": "Div", "c": [attr(ident, classes, keyvals), content]}


def static_image(node: dict[str, Any], doc: Doc, ctx: Context) -> dict[str, Any] | None:
    """The figure of the ``image`` beside the page (its ``caption`` as the caption), or None."""
    url = (keyval(node["c"][0], "image") or "").strip()
    if not url:
        return None
    found = None if SCHEME.match(url) else find_file(url, doc, ctx)
    if found is None or not within(found, ctx.root):
        ctx.problem(
            doc.chapter,
            "EMB002",
            f"static image of an embedded page not found: {url}",
            needle=url,
            hint="check the image path; without it the PDF shows a note with the page's path",
            fatal=False,
        )
        return None
    caption_text = (keyval(node["c"][0], "caption") or "").strip()
    caption = attribute_inlines([caption_text], doc, ctx)[0] if caption_text else []
    image = {"t": "Image", "c": [attr(), list(caption), [relative(found, ctx), ""]]}
    return {
        "t": "Figure",
        "c": [
            attr("", ["embed-image"]),
            [None, [{"t": "Plain", "c": caption}] if caption else []],
            [{"t": "Plain", "c": [image]}],
        ],
    }
