"""Callouts: ``::: note`` fenced divs and the ``> 📝 참고`` blockquotes translations use.

Both become ``Div.callout.callout-KIND`` whose first child is a
``Div.callout-title``; writers style that one shape (a box in the PDF, an aside
in HTML).  Titles come from the book's language (참고, 팁, 주의, 중요, 경고 in
Korean; see ``kobook.lang.words``) and a ``title="..."`` attribute or the
blockquote's own label overrides them.
"""

from __future__ import annotations

import re
from typing import Any

from ..model import Doc
from ..parse.ast import attr, iter_nodes, keyval, rewrite, stringify, text_inlines, walk
from .attr_text import attribute_inlines
from .context import Context

# The callout kinds; their titles come from the language table (``callout-KIND``).
TITLES = ("note", "tip", "warning", "caution", "important", "danger", "takeaway")
ALIASES = {f"callout-{k}": k for k in TITLES} | {"info": "note", "hint": "tip"}
EMOJI_KIND = {
    "📝": "note",
    "ℹ️": "note",
    "ℹ": "note",
    "📌": "note",
    "💡": "tip",
    "⚠️": "warning",
    "⚠": "warning",
    "❗": "important",
    "❗️": "important",
    "🚨": "danger",
}
LABEL_KIND = {
    "참고": "note",
    "노트": "note",
    "note": "note",
    "팁": "tip",
    "tip": "tip",
    "주의": "warning",
    "warning": "warning",
    "경고": "danger",
    "중요": "important",
    "important": "important",
    # Chinese and Japanese labels
    "注": "note",
    "註": "note",
    "提示": "tip",
    "メモ": "note",
    "ヒント": "tip",
    "注意": "caution",
    "警告": "warning",
    "重要": "important",
}
LEAD = re.compile(
    r"^(" + "|".join(re.escape(e) for e in sorted(EMOJI_KIND, key=len, reverse=True)) + r")"
)


def callout(
    kind: str, title: list[dict[str, Any]], body: list[dict[str, Any]], ident: str = ""
) -> dict[str, Any]:
    title_div = {"t": "Div", "c": [attr("", ["callout-title"]), [{"t": "Plain", "c": title}]]}
    return {
        "t": "Div",
        "c": [attr(ident, ["callout", f"callout-{kind}"]), [title_div, *body]],
    }


def from_div(node: dict[str, Any], titles: dict[str, str]) -> dict[str, Any] | None:
    ident, classes, _keyvals = node["c"][0]
    if "details" in classes and "callout" not in classes:
        return from_details(node, titles)
    kind = next((ALIASES.get(c, c) for c in classes if ALIASES.get(c, c) in TITLES), None)
    if kind is None or "callout" in classes:
        return None
    body = node["c"][1]
    title_text = keyval(node["c"][0], "title")
    if title_text:
        title = text_inlines(title_text)
    elif body and body[0]["t"] == "Header":
        title = body[0]["c"][2]
        body = body[1:]
    else:
        title = text_inlines(titles[kind])
    return callout(kind, title, body, ident)


def from_details(node: dict[str, Any], titles: dict[str, str]) -> dict[str, Any]:
    """``::: {.details summary="답"}`` → a callout of kind ``details`` titled by the summary.

    One shape for every writer: the PDF engines draw it as a box, always open
    (the answers stay readable in print); the site makes it a ``<details>``.
    The summary may carry Markdown; it is parsed in :func:`make_callouts`.
    """
    summary = keyval(node["c"][0], "summary") or titles["details"]
    made = callout("details", text_inlines(summary), node["c"][1], node["c"][0][0])
    made["c"][1][0]["c"][0][2] = [["summary", summary]]  # the text, for parsing later
    if "open" in node["c"][0][1]:  # shown open on the site (MkDocs ``???+``)
        made["c"][0][1].append("open")
    return made


def from_blockquote(node: dict[str, Any], titles: dict[str, str]) -> dict[str, Any] | None:
    """``> 📝 참고`` / ``> 💡 text`` / ``> **참고:** text`` → a callout; other quotes stay."""
    blocks = node["c"]
    if not blocks or blocks[0]["t"] not in ("Para", "Plain"):
        return None
    first = blocks[0]["c"]
    text = stringify(first).strip()
    emoji = LEAD.match(text)
    kind = None
    label = ""
    if emoji:
        kind = EMOJI_KIND[emoji.group(1)]
        rest = text[emoji.end() :].strip()
        words = rest.split()
        if words and words[0].rstrip(":：").lower() in LABEL_KIND and len(words) <= 3:
            label = rest.rstrip(":：")
            kind = LABEL_KIND[words[0].rstrip(":：").lower()]
            title = text_inlines(f"{emoji.group(1)} {label}")
            body = blocks[1:]
        else:
            title = text_inlines(f"{emoji.group(1)} {titles[kind]}")
            body = [
                {"t": blocks[0]["t"], "c": drop_leading_text(first, emoji.group(1))},
                *blocks[1:],
            ]
        return callout(kind, title, body)
    if first and first[0]["t"] == "Strong":
        word = stringify(first[0]).strip().rstrip(":：").lower()
        if word in LABEL_KIND:
            kind = LABEL_KIND[word]
            rest = first[1:]
            while rest and (
                rest[0]["t"] in ("Space", "SoftBreak")
                or (rest[0]["t"] == "Str" and rest[0]["c"] in (":", "："))
            ):
                rest = rest[1:]
            body = ([{"t": blocks[0]["t"], "c": rest}] if rest else []) + blocks[1:]
            return callout(kind, text_inlines(stringify(first[0]).strip().rstrip(":：")), body)
    return None


def drop_leading_text(inlines: list[dict[str, Any]], prefix: str) -> list[dict[str, Any]]:
    """Remove ``prefix`` (an emoji) and the space after it from the start of ``inlines``."""
    out = list(inlines)
    while out and out[0]["t"] == "Str" and prefix:
        value = out[0]["c"]
        if value.startswith(prefix):
            value = value[len(prefix) :]
            prefix = ""
        elif prefix.startswith(value):
            prefix = prefix[len(value) :]
            value = ""
        else:
            break
        if value:
            out[0] = {"t": "Str", "c": value}
        else:
            out.pop(0)
    while out and out[0]["t"] in ("Space", "SoftBreak"):
        out.pop(0)
    return out


def make_callouts(doc: Doc, ctx: Context) -> Doc:
    words = ctx.book.config.words
    titles = {kind: words.word(f"callout-{kind}") for kind in (*TITLES, "details")}

    def action(node: dict[str, Any]) -> Any:
        if node["t"] == "Div":
            made = from_div(node, titles)
        elif node["t"] == "BlockQuote":
            made = from_blockquote(node, titles)
        else:
            return None
        if made is not None:
            made["c"][1] = walk(made["c"][1], action)  # callouts inside callouts
        return made

    doc.blocks = rewrite(doc.blocks, action)
    markdown_summaries(doc, ctx)
    return doc


def markdown_summaries(doc: Doc, ctx: Context) -> None:
    """Details summaries with Markdown in them (``**답**``) as formatted inlines."""
    titles = [
        node
        for node in iter_nodes(doc.blocks)
        if node["t"] == "Div"
        and "callout-title" in node["c"][0][1]
        and keyval(node["c"][0], "summary") is not None
    ]
    if not titles:
        return
    texts = [keyval(node["c"][0], "summary") or "" for node in titles]
    for node, inlines in zip(titles, attribute_inlines(texts, doc, ctx), strict=True):
        node["c"][0][2] = []
        node["c"][1] = [{"t": "Plain", "c": inlines}]
