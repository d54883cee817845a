"""distill's ``<d-…>`` elements as pandoc Markdown.

- ``<d-footnote>…</d-footnote>`` → ``^[…]`` (a note of several paragraphs →
  ``[^dN]`` with its definition after the paragraph);
- ``<d-cite key="a,b"></d-cite>`` → ``[@a; @b]`` (the keys of the site's
  ``assets/bibliography/*.bib``, which the dialect's metadata names);
- ``<d-math>x</d-math>`` → ``$x$`` (``block`` → display math);
- ``<d-code language="py">`` → a fenced code block;
- wrappers the page layout needs and a book does not (``<d-article>``,
  ``<d-byline>``, ``<d-appendix>``, ``<d-bibliography>``, ``<d-figure>``,
  ``<d-title>``, ``<d-contents>``, ``<d-toc>``, ``<d-front-matter>``) →
  dropped, their contents kept (the front matter's JSON script dropped too),
  with an info line (DIA120);
- any other ``<d-name>`` is left and named (DIA121).
"""

from __future__ import annotations

import html
import re

from ...model.origins import Lines
from .. import Report
from .edits import Edit, apply_edits, as_block, where
from .html_inline import attributes, html_to_markdown
from .liquid import balanced, cite_key

FOOTNOTE = re.compile(r"<d-footnote\b[^>]*>(?P<body>.*?)</d-footnote\s*>", re.S)
CITE = re.compile(r"<d-cite\b(?P<attrs>[^>]*?)/?>(?:\s*</d-cite\s*>)?", re.S)
MATH = re.compile(r"<d-math\b(?P<attrs>[^>]*)>(?P<body>.*?)</d-math\s*>", re.S)
CODE = re.compile(r"<d-code\b(?P<attrs>[^>]*)>\n?(?P<body>.*?)\n?[ \t]*</d-code\s*>", re.S)
DROPPED_WHOLE = re.compile(r"<d-front-matter\b[^>]*>.*?</d-front-matter\s*>", re.S)
WRAPPERS = (
    "article|byline|appendix|bibliography|figure|title|contents|toc|abstract|slider|hover-box"
)
WRAPPER = re.compile(rf"</?d-(?P<name>{WRAPPERS})\b[^>]*>")
ANY = re.compile(r"<d-(?P<name>[a-z][a-z0-9-]*)\b[^>]*>")


def footnotes(lines: Lines, report: Report) -> Lines:
    """Footnotes inline (``^[…]``); several paragraphs: a ``[^dN]`` note after its paragraph."""
    text = lines.text
    edits = []
    for index, match in enumerate(FOOTNOTE.finditer(text), 1):
        body = html_to_markdown(match.group("body").strip())
        report.count("footnote")
        if not re.search(r"\n[ \t]*\n", body):
            edits.append(Edit(match.start(), match.end(), f"^[{balanced(body)}]"))
            continue
        label = f"d{index}"
        paragraph_end = text.find("\n\n", match.end())
        paragraph_end = len(text) if paragraph_end < 0 else paragraph_end
        note = "\n".join("    " + line if line.strip() else "" for line in body.split("\n"))
        edits.append(Edit(match.start(), match.end(), f"[^{label}]"))
        edits.append(Edit(paragraph_end, paragraph_end, f"\n\n[^{label}]: {note.lstrip()}"))
    return apply_edits(lines, edits)


def cites(lines: Lines, report: Report) -> Lines:
    """``<d-cite key="a,b">`` → ``[@a; @b]`` (DIA122 when it names no key)."""

    def cite(match: re.Match[str]) -> str:
        keys = [k.strip() for k in attributes(match.group("attrs")).get("key", "").split(",")]
        keys = [k for k in keys if k]
        if not keys:
            report.cannot(
                "DIA122",
                "<d-cite> without a key= is dropped",
                where(lines, match.start()),
                'write <d-cite key="entry"></d-cite> with a key of the .bib file',
            )
            return ""
        report.count("citation", len(keys))
        return "[" + "; ".join(cite_key(k) for k in keys) + "]"

    return lines.sub(CITE, cite)


def maths(lines: Lines, report: Report) -> Lines:
    """``<d-math>`` → ``$…$``; ``<d-math block>`` → ``$$…$$`` on lines of its own."""

    def math(match: re.Match[str]) -> str:
        body = html.unescape(match.group("body").strip())
        if re.search(r"\bblock\b", match.group("attrs")):
            report.count("math-display")
            return as_block(lines.text, *match.span(), f"$${body}$$")
        report.count("math-inline")
        return f"${body}$"

    return lines.sub(MATH, math)


def codes(lines: Lines, report: Report) -> Lines:
    """``<d-code language="python">`` → a fenced code block of that language."""

    def code(match: re.Match[str]) -> str:
        language = attributes(match.group("attrs")).get("language", "")
        report.count("code")
        block = f"```{language}\n{html.unescape(match.group('body'))}\n```"
        return as_block(lines.text, *match.span(), block)

    return lines.sub(CODE, code)


def wrappers(lines: Lines, report: Report) -> Lines:
    """Layout wrappers dropped, contents kept (info DIA120); unknown ``<d-…>`` named (DIA121)."""

    def whole(match: re.Match[str]) -> str:
        report.info("DIA120", "<d-front-matter> dropped", where(lines, match.start()))
        return ""

    def drop(match: re.Match[str]) -> str:
        if not match.group(0).startswith("</"):
            report.info(
                "DIA120",
                f"<d-{match.group('name')}> dropped (its contents kept): kobook lays out the book",
                where(lines, match.start()),
            )
            report.count("d-wrapper")
        return ""

    lines = lines.sub(DROPPED_WHOLE, whole).sub(WRAPPER, drop)
    for match in ANY.finditer(lines.text):
        report.cannot(
            "DIA121",
            f"distill element <d-{match.group('name')}> is not converted (left as it is)",
            where(lines, match.start()),
            "rewrite it as Markdown",
        )
    return lines


def convert(lines: Lines, report: Report) -> Lines:
    """Every ``<d-…>`` construct of one chapter but ``<d-code>`` (see module doc).

    ``<d-code>`` is converted before code is masked (:func:`codes`), so its text
    is never rewritten.
    """
    lines = maths(lines, report)
    lines = footnotes(lines, report)
    lines = cites(lines, report)
    return wrappers(lines, report)
