"""The index's marks (찾아보기): each place the text is indexed becomes a span of class
``index`` with an id every writer can point at.

What marks a place:

* ``[텐서 병렬화]{.index}`` (or ``{.idx}``): the span's text is the entry;
  ``{.index term="병렬화!텐서"}`` files it under another entry (``!``: a sub-entry),
  ``sort="…"`` gives its reading (a term that starts with a symbol or Han characters);
* ``\\index{…}``, as LaTeX and bookdown books write it (makeindex's ``sort@entry!sub``);
* with ``index: {glossary: true}``, each glossary term's first use in a chapter, with
  its source term beside it in the index.

The entries are gathered, sorted and grouped once (``model/bookindex.py``) for every
writer.  An ``\\index`` whose entry kobook cannot read, or a ``|see`` cross-reference
(which kobook does not print), is IDX001, at its line.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from ..model import Doc
from ..parse.ast import attr, keyval, rewrite, stringify
from .context import Context

CLASSES = ("index", "idx")
INDEX_KEYS = ("term", "sort", "original")
# An id every output writes as it is (LaTeX escapes other characters in its labels).
SAFE_ID = re.compile(r"[A-Za-z][A-Za-z0-9_:.-]*")
RAW_INDEX = re.compile(r"^\\index\{(.*)\}$", re.S)
# Where a glossary term may start: not inside a word (데이터 in 빅데이터 is not the term).
WORD_CHAR = re.compile(r"\w")


def mark_index(doc: Doc, ctx: Context) -> Doc:
    """Mark the chapter's index entries (spans, ``\\index{}``, glossary terms)."""
    counter = [0]
    prefix = id_prefix(doc.chapter.id)

    def next_id() -> str:
        counter[0] += 1
        return f"ix-{prefix}-{counter[0]}"

    def action(node: dict[str, Any]) -> Any:
        if node["t"] == "Span":
            return index_span(node, next_id, doc, ctx)
        if node["t"] == "RawInline" and node["c"][0] in ("tex", "latex"):
            found = RAW_INDEX.match(node["c"][1].strip())
            if found:
                return raw_index(found.group(1), node["c"][1], next_id, doc, ctx)
        return None

    doc.blocks = rewrite(doc.blocks, action)
    glossary = glossary_terms(ctx)
    if glossary:
        mark_glossary(doc.blocks, glossary, next_id)
    if counter[0]:  # every mark gets an id: a chapter without one has no empty mark
        hold_next_words(doc.blocks)
    return doc


HELD: dict[str, Any] = {"t": "Str", "c": ""}  # a word a mark took (this object, not its like)


def hold_next_words(value: Any) -> None:
    """An empty mark takes the word after it (``[]{.index}그래디언트를`` →
    ``[그래디언트를]{.index}``): an empty inline box left at a line's end keeps the space
    before it from being dropped there, and WeasyPrint's justified line came out loose."""
    if isinstance(value, dict):
        hold_next_words(value.get("c"))
        return
    if not isinstance(value, list):
        return
    for index, item in enumerate(value):
        after = value[index + 1] if index + 1 < len(value) else None
        if is_empty_mark(item) and isinstance(after, dict) and after.get("t") == "Str":
            item["c"][1] = [after]
            value[index + 1] = HELD
        else:
            hold_next_words(item)
    value[:] = [item for item in value if item is not HELD]


def is_empty_mark(node: Any) -> bool:
    return (
        isinstance(node, dict)
        and node.get("t") == "Span"
        and "index" in node["c"][0][1]
        and not node["c"][1]
    )


def id_prefix(chapter_id: str) -> str:
    """The chapter's part of its marks' ids: the chapter id when it is :data:`SAFE_ID`, else
    a digest of it (a LaTeX label and a Typst label then read the same id)."""
    if SAFE_ID.fullmatch(chapter_id):
        return chapter_id
    return hashlib.sha1(chapter_id.encode("utf-8")).hexdigest()[:8]


def index_span(node: dict[str, Any], next_id: Any, doc: Doc, ctx: Context) -> Any:
    """A span of class ``index``/``idx``: its classes made ``index``, an id, the term."""
    ident, classes, keyvals = node["c"][0]
    if not any(c in CLASSES for c in classes):
        return None
    term = (keyval(node["c"][0], "term") or stringify(node["c"][1])).strip()
    kept = [c for c in classes if c not in CLASSES]
    if not term:
        ctx.problem(
            doc.chapter,
            "IDX001",
            "an index mark with no term: it is left out of the index",
            needle="{.index",
            hint='write the term inside the brackets, or give it: []{.index term="용어"}',
            fatal=False,
        )
        node["c"][0] = [ident, kept, keyvals]
        return node
    keyvals = [kv for kv in keyvals if kv[0] != "term"] + [["term", term]]
    if not ident or SAFE_ID.fullmatch(ident):
        node["c"][0] = [ident or next_id(), ["index", *kept], keyvals]
        return node
    # The authors' id stays for their links; the index points at a mark just before it.
    node["c"][0] = [ident, kept, [kv for kv in keyvals if kv[0] not in INDEX_KEYS]]
    return [{"t": "Span", "c": [attr(next_id(), ["index"], keyvals), []]}, node]


def raw_index(entry: str, raw: str, next_id: Any, doc: Doc, ctx: Context) -> Any:
    """``\\index{sort@entry!sub|encap}`` as an empty index span; IDX001 for what is lost."""
    entry, _, encap = entry.partition("|")
    levels = [level.partition("@") for level in entry.split("!")]
    terms = [(text if sep else sort).strip() for sort, sep, text in levels]
    sort = levels[0][0].strip() if levels[0][1] else ""
    if encap.strip().startswith(("see", "seealso")) or not all(terms) or "{" in "".join(terms):
        ctx.problem(
            doc.chapter,
            "IDX001",
            f"kobook cannot read the index entry {raw.strip()}: it is left out of the index",
            needle=raw.strip(),
            hint="write \\index{용어} or \\index{용어!하위 용어}, or [용어]{.index}",
            fatal=False,
        )
        return []
    keyvals = [["term", "!".join(terms[:2])]] + ([["sort", sort]] if sort else [])
    return {"t": "Span", "c": [attr(next_id(), ["index"], keyvals), []]}


def glossary_terms(ctx: Context) -> list[tuple[str, str]]:
    """(Korean term, source term) of the book's glossary when ``index: {glossary: true}``,
    longest first (``액티베이션 재계산`` before ``액티베이션``); loaded once a build."""
    config = ctx.book.config
    if not config.index_glossary:
        return []
    key = ("index", "glossary")
    if key not in ctx.memo:
        from ..check.glossary import book_glossary

        found = book_glossary(ctx.book.root, config)
        terms = [(t.korean, t.source) for t in found[0]] if found else []
        ctx.memo[key] = sorted(terms, key=lambda t: -len(t[0]))
    return list(ctx.memo[key])


def mark_glossary(blocks: list[Any], terms: list[tuple[str, str]], next_id: Any) -> None:
    """Before each glossary term's first use in the chapter (a paragraph's own text, not a
    heading, code or a link), an empty index span with the term and its source term: the
    place a reader of the chapter meets it.  A use inside a longer term (그래디언트 in
    그래디언트 누적) is the longer term's."""
    used: set[str] = set()
    for block in blocks:
        if block["t"] in ("Para", "Plain"):
            block["c"] = marked_inlines(block["c"], terms, used, next_id)
        elif block["t"] in ("Div", "BlockQuote"):
            inner = block["c"][1] if block["t"] == "Div" else block["c"]
            for child in inner:
                if child["t"] in ("Para", "Plain"):
                    child["c"] = marked_inlines(child["c"], terms, used, next_id)


def marked_inlines(
    inlines: list[Any], terms: list[tuple[str, str]], used: set[str], next_id: Any
) -> list[Any]:
    """``inlines`` with a mark before the first use of each term not yet ``used``
    (``terms``: longest first)."""
    text, starts = "", []
    for inline in inlines:
        starts.append(len(text))
        if inline["t"] == "Str":
            text += inline["c"]
        elif inline["t"] in ("Space", "SoftBreak"):
            text += " "
        else:
            text += "\0"  # code, links, notes: no term starts or runs through them
    marks: dict[int, list[Any]] = {}
    covered: list[range] = []
    for korean, source in terms:
        places = uses(text, korean, covered)
        covered += [range(place, place + len(korean)) for place in places]
        if korean in used or not places:
            continue
        used.add(korean)
        where = max(i for i, start in enumerate(starts) if start <= places[0])
        keyvals = [["term", korean], ["original", source]]
        span = {"t": "Span", "c": [attr(next_id(), ["index"], keyvals), []]}
        marks.setdefault(where, []).append(span)
    if not marks:
        return inlines
    out: list[Any] = []
    for i, inline in enumerate(inlines):
        out += marks.get(i, [])
        out.append(inline)
    return out


def uses(text: str, term: str, covered: list[range]) -> list[int]:
    """Where ``term`` starts a word in ``text``, outside the longer terms found there."""
    found = []
    start = text.find(term)
    while start >= 0:
        before = text[start - 1] if start else " "
        if not WORD_CHAR.match(before) and not any(start in r for r in covered):
            found.append(start)
        start = text.find(term, start + 1)
    return found
