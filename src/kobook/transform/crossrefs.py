"""Cross-references: ``@fig:id``, ``@tbl:id``, ``@eq:id``, ``@sec:id`` → linked ``그림 3.2``.

pandoc reads ``@fig:memory를`` as one citation key (Hangul are letters to it), so
the particle is split off here, and re-chosen to agree with the number the
build assigned: a translator writes ``@fig:memory를`` without knowing the
number, the book prints ``그림 3을`` or ``그림 2를``.  ``[-@fig:x]`` prints the
number alone.  An id that names nothing is an error with file and line.
"""

from __future__ import annotations

import re
from typing import Any

from ..korean.hangul import has_hangul
from ..korean.particles import agree, split_particle
from ..model import Doc
from ..parse.ast import attr, rewrite, walk
from .context import REF_ID, Context, Target


def lookup(key: str, ctx: Context) -> Target | None:
    """The target ``key`` names; ``sec:intro`` also names a heading whose id is ``intro``
    (bookdown's ``\\@ref(intro)``, a heading ``{#intro}`` written for HTML anchors)."""
    found = ctx.targets.get(key)
    if found is None and key.startswith("sec:"):
        heading = ctx.targets.get(key[4:])
        found = heading if heading is not None and heading.kind == "sec" else None
    return found


def find_target(key: str, ctx: Context) -> tuple[Target | None, str]:
    """The target for ``key`` and the Hangul text glued after it (``fig:a를`` → a, 를)."""
    found = lookup(key, ctx)
    if found is not None:
        return found, ""
    for cut in range(len(key) - 1, 0, -1):
        rest = key[cut:]
        found = lookup(key[:cut], ctx)
        if found is not None and has_hangul(rest[0]):
            return found, rest
    return None, ""


def with_particle(number_text: str, rest: str, ctx: Context) -> str:
    """``rest`` with its leading particle agreeing with ``number_text``."""
    particle, tail = split_particle(rest)
    if particle is None:
        return rest
    extra = (ctx.book.config.get("particles") or {}).get("words")
    # A printed listing number ``1-1`` is read like ``1.1`` (일 다시 일): it ends in 일.
    form = agree(re.sub(r"(\d)-(?=\d)", r"\1.", number_text), particle, extra)
    return (form or particle.text) + tail


def ref_inlines(target: Target, suppress: bool) -> list[dict[str, Any]]:
    text = target.label if suppress else target.text
    words = text.split(" ")
    inlines: list[dict[str, Any]] = []
    for index, word in enumerate(words):
        if index:
            inlines.append({"t": "Str", "c": "\u00a0"})  # keep 그림 and 3.2 on one line
        inlines.append({"t": "Str", "c": word})
    return [{"t": "Link", "c": [attr("", ["xref"]), inlines, ["#" + target.id, ""]]}]


def resolve_crossrefs(doc: Doc, ctx: Context) -> Doc:
    seen: dict[str, int] = {}  # keys already met, to place messages on repeats

    def convert(node: dict[str, Any]) -> list[dict[str, Any]] | None:
        citations = node["c"][0]
        if not citations or not all(REF_ID.match(c["citationId"]) for c in citations):
            return None
        out: list[dict[str, Any]] = []
        trailing = ""
        for index, citation in enumerate(citations):
            key = citation["citationId"]
            occurrence = seen.get(key, 0)
            seen[key] = occurrence + 1
            target, rest = find_target(key, ctx)
            if target is None:
                ctx.problem(
                    doc.chapter,
                    "REF001",
                    f"cross-reference to unknown id '{key}'",
                    needle="@" + key,
                    occurrence=occurrence,
                    hint="check the spelling; figures need {#fig:id}, tables ': caption {#tbl:id}',"
                    " equations '$$...$$ {#eq:id}', sections '# title {#sec:id}'",
                )
                out.append({"t": "Str", "c": f"??{key}"})
                continue
            if index:
                out += [{"t": "Str", "c": ","}, {"t": "Space"}]
            suppress = citation["citationMode"]["t"] == "SuppressAuthor"
            out += ref_inlines(target, suppress)
            if rest:
                trailing = with_particle(target.label if suppress else target.text, rest, ctx)
        if trailing:
            out.append({"t": "Str", "c": trailing})
        return out

    def in_list(inlines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        index = 0
        while index < len(inlines):
            node = inlines[index]
            replaced = convert(node) if node["t"] == "Cite" else None
            if replaced is None:
                out.append(node)
                index += 1
                continue
            out += replaced
            index += 1
            # "[@fig:a]를": the particle is the next Str.
            nxt = inlines[index] if index < len(inlines) else None
            last_link = next((n for n in reversed(replaced) if n["t"] == "Link"), None)
            if nxt and nxt["t"] == "Str" and last_link is not None and replaced[-1] is last_link:
                number_text = "".join(i["c"] for i in last_link["c"][1] if i["t"] == "Str").replace(
                    "\u00a0", " "
                )
                out.append({"t": "Str", "c": with_particle(number_text, nxt["c"], ctx)})
                index += 1
        return out

    def action(node: dict[str, Any]) -> Any:
        """Any list of inlines (paragraphs, emphasis, captions, table cells) may hold Cites."""
        t = node["t"]
        if t in ("Para", "Plain", "Emph", "Strong", "Underline", "Strikeout", "SmallCaps"):
            return {"t": t, "c": walk(in_list(node["c"]), action)}
        if t in ("Span", "Quoted"):
            return {"t": t, "c": [node["c"][0], walk(in_list(node["c"][1]), action)]}
        return None

    doc.blocks = rewrite(doc.blocks, action)
    return doc
