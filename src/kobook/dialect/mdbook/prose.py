"""CommonMark's literal characters that pandoc's Markdown would read as TeX.

mdBook reads CommonMark: ``target\\debug\\app.exe`` is a path with backslashes,
``$5 and $10`` two prices.  pandoc's Markdown reads ``\\debug`` as a raw TeX
command (lost in HTML, an error in XeLaTeX) and ``$…$`` as math.  Outside
code (fenced blocks, code spans) and HTML tags, a backslash before a letter
is doubled, and ``$`` escaped unless the book turns on MathJax
(``[output.html] mathjax-support = true``, whose ``\\\\( … \\\\)`` and ``$$``
are then left as they are).
"""

from __future__ import annotations

import re

from ...model.origins import Lines
from ...source.fences import code_lines
from .. import Report

KEEP = re.compile(r"(`+)[^`].*?\1|<[^<>\n]*>|<!--.*?-->")
BACKSLASH = re.compile(r"\\(.)")


def literal_text(segment: str, math: bool) -> str:
    """One stretch of prose with CommonMark's literal ``\\x`` (and ``$``) kept literal."""

    def backslash(match: re.Match[str]) -> str:
        char = match.group(1)
        return "\\\\" + char if char.isascii() and char.isalpha() else match.group(0)

    segment = BACKSLASH.sub(backslash, segment)
    if not math:
        segment = re.sub(r"(?<!\\)\$", r"\\$", segment)
    return segment


def literal_line(line: str, math: bool) -> str:
    out: list[str] = []
    done = 0
    for match in KEEP.finditer(line):
        out.append(literal_text(line[done : match.start()], math))
        out.append(match.group(0))
        done = match.end()
    out.append(literal_text(line[done:], math))
    return "".join(out)


def keep_literal(lines: Lines, report: Report, math: bool) -> Lines:
    """Every prose line with CommonMark's literal backslashes (and dollars) escaped."""
    if "\\" not in lines.text and (math or "$" not in lines.text):
        return lines
    code = code_lines(lines.text.split("\n"))
    texts = lines.text.split("\n")
    changed = 0
    for index, text in enumerate(texts):
        if code[index] or ("\\" not in text and "$" not in text):
            continue
        new = literal_line(text, math)
        if new != text:
            texts[index] = new
            changed += 1
    if not changed:
        return lines
    report.count("literal-backslash-or-dollar", changed)
    return Lines("\n".join(texts), lines.origins)
