"""LEAK001/LEAK002: syntax of another dialect, or HTML a PDF cannot draw, left for the reader.

Books arrive written for Jekyll (Liquid, distill, kramdown), mdBook, Sphinx or
d2lbook.  pandoc's ``markdown`` reader does not know those dialects, so their
syntax reaches the page as literal text (``{% include figure.liquid … %}``) or
as raw HTML a PDF writer drops (``<d-footnote>``).  Nothing may be lost in
silence: after the transforms (the last pass, so a dialect stage that turned a
construct into a real figure or footnote leaves nothing to report) the text a
reader would see is searched for the patterns below.

What is searched: per block, a flattened text (``Str`` as is, spaces as " ",
``Quoted`` with its quote marks, link and image targets in parentheses, raw
HTML as written minus comments).  Code (``Code``, ``CodeBlock``) and math are
never searched -- a Liquid example in a code block is not a leak -- except the
two constructs that live in code blocks: d2lbook's ``#@tab`` first line and
mdBook's ``{{#include …}}`` lines.

One *occurrence* (what LEAK001 counts, one warning each):

==================  ======================================================
``liquid-tag``      one ``{% … %}`` tag (``{% details %}`` and
                    ``{% enddetails %}`` are two)
``liquid-output``   one ``{{ … }}`` (not ``{{#``)
``mdbook``          one ``{{#name …}}`` directive, in prose or in a code block
``distill``         one opening ``<d-name …>`` tag (closing tags not counted)
``kramdown-ial``    one ``{: …}`` / ``{::…}`` attribute list
``markdown-attr``   one HTML start tag carrying a ``markdown=`` attribute
                    (pandoc strips it from block tags, so those are found by
                    matching the tag that is left against the source)
``role``            one Sphinx/d2lbook role ``:name:`…``` (``:label:``,
                    ``:numref:``, ``:eqref:``, ``:cite:``, ``:width:``…)
``d2l-tab``         one ``:begin_tab:`` / ``:end_tab:``, or one code block
                    whose first line is ``#@tab …``
``div-fence``       one ``:::`` run pandoc did not take as a fenced div
``dollars``         one ``$$`` pandoc did not take as math (``\\$\\$`` is a
                    literal the author asked for, not one)
==================  ======================================================

Lines: the same patterns run over the chapter's source (outside code blocks,
inline code, comments and math) and the i-th finding of a kind and name is
placed at the i-th source occurrence (preferring one with the same text).
``kobook check`` reports those source occurrences directly (``check/leaks.py``).

LEAK002 is what a writer drops: raw HTML (:func:`undrawable_html`) and AST elements,
from what each writer's registry entry declares it draws (``Writer.draws``), reported
once per build and writer (:func:`html_leaks`).  ``<d-…>`` elements are LEAK001 only.
``--strict`` (:func:`fail_on_leaks`, LEAK003) is checked by ``api.build`` after
the transforms and before any writer runs, so no output is left in place.
"""

from __future__ import annotations

import re

from ...errors import Diagnostic, KobookError
from ...model import Doc
from ..context import Context
from .drawable import (
    html_leaks,
    raw_leaks,
    undrawable_html,
    undrawable_tags,
)
from .locate import Locator, needle
from .patterns import HINTS, LEAK_CODES, Found, message
from .source import source_leaks
from .tree import find_leaks

# What the build, ``kobook check`` and the writers' registry use from here; the rest is
# in the package's modules: patterns, tree (the AST), source (offsets), locate, drawable.
__all__ = [
    "HINTS",
    "LEAK_CODES",
    "fail_on_leaks",
    "html_leaks",
    "leak_diagnostics",
    "message",
    "raw_leaks",
    "report_leaks",
    "source_leaks",
    "undrawable_html",
    "undrawable_tags",
]


def leak_diagnostics(doc: Doc) -> list[Diagnostic]:
    """LEAK001 for every construct of :data:`KINDS` left in one chapter's AST."""
    finds = find_leaks(doc.blocks)
    maybe_markdown = re.search(r"\smarkdown\s*=", doc.chapter.text) is not None
    if not maybe_markdown and all(f.kind == "raw-tag" for f in finds):
        return []
    locator = Locator(doc.chapter)
    out = []
    for found in finds:
        if found.kind == "raw-tag":
            if not maybe_markdown:
                continue
            source = locator.take_markdown_tag(found)
            if source is None:
                continue
            found = Found("markdown-attr", found.name, source.text)
        else:
            source = locator.take(found)
        if source is not None and source.escaped:
            continue
        if locator.suppressed("LEAK001", source):
            continue
        shown = Found(found.kind, found.name, source.text if source else found.text)
        out.append(
            Diagnostic(
                "LEAK001",
                message(shown),
                locator.location(source, needle(found)),
                HINTS[found.kind],
                "warning",
            )
        )
    return out


def report_leaks(doc: Doc, ctx: Context) -> Doc:
    """The ``leaks`` pass (the last one): warn about LEAK001 constructs; change nothing."""
    ctx.diagnostics += leak_diagnostics(doc)
    return doc


def fail_on_leaks(diagnostics: list[Diagnostic]) -> None:
    """``--strict``: raise when any LEAK warning is among ``diagnostics``."""
    leaks = [d for d in diagnostics if d.code in LEAK_CODES]
    if leaks:
        raise KobookError.summarising(
            f"{len(leaks)} construct(s) the PDF or HTML would show wrongly or lose "
            "(LEAK001/LEAK002, --strict)",
            "LEAK003",
            leaks[:20],
            "rewrite them as pandoc Markdown (see each hint), or build without --strict",
        )
