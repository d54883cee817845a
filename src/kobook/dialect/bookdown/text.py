"""bookdown's references and labels as kobook's.

- ``\\@ref(fig:x)``, ``\\@ref(tab:x)``, ``\\@ref(eq:x)`` print a number alone in
  bookdown (the text around says "그림"): ``[-@fig:x]``, ``[-@tbl:x]``,
  ``[-@eq:x]``; ``\\@ref(intro)`` names a section by its id: ``[-@sec:intro]``;
- a table caption's label ``Table: (\\#tab:x) 캡션`` → ``Table: 캡션 {#tbl:x}``, a
  figure caption's ``(\\#fig:x)`` → the figure's id;
- an ``equation`` (or ``align``) environment with ``(\\#eq:x)`` → display math
  ``$$ … $$ {#eq:x}`` (pandoc reads the bare environment as raw TeX, which only
  the LaTeX writer prints).

Code and inline code are left alone.
"""

from __future__ import annotations

import re

from ...model.origins import Lines, Origin
from ...source.fences import code_lines
from .. import Report

KIND = {"fig": "fig", "tab": "tbl", "eq": "eq", "lst": "lst"}
REF = re.compile(r"\\@ref\((?:(?P<kind>fig|tab|eq|lst):)?(?P<label>[\w.:-]+)\)")
TABLE_LABEL = re.compile(
    r"^(?P<lead>(?:Table)?:\s*)\(\\#tab:(?P<label>[\w.-]+)\)\s*(?P<caption>.*)$"
)
FIGURE_LABEL = re.compile(
    r"!\[(?P<before>[^\]]*?)\(\\#fig:(?P<label>[\w.-]+)\)\s*(?P<after>[^\]]*)\]\((?P<target>[^)]*)\)"
)
EQ_LABEL = re.compile(r"\(\\#eq:(?P<label>[\w.-]+)\)")
BEGIN = re.compile(r"^\s*\\begin\{(?P<env>equation\*?|align\*?|gather\*?)\}\s*$")
INLINE_CODE = re.compile(r"(`+)[^`].*?\1")


def reference(match: re.Match[str], renamed: dict[str, str]) -> str:
    """``[-@kind:label]``; a chunk's figure or table shown as its code names the listing."""
    label = match.group("label")
    if match.group("kind") in ("fig", "tab") and label in renamed:
        return f"[-@{renamed[label]}]"
    kind = KIND.get(match.group("kind") or "", "sec")
    return f"[-@{kind}:{label}]"


def prose(text: str, report: Report, renamed: dict[str, str]) -> str:
    pieces: list[str] = []
    done = 0
    for match in INLINE_CODE.finditer(text):
        pieces.append(text[done : match.start()])
        pieces.append(match.group(0))
        done = match.end()
    pieces.append(text[done:])
    for index in range(0, len(pieces), 2):
        piece, count = REF.subn(lambda m: reference(m, renamed), pieces[index])
        report.count("\\@ref", count)
        piece, count = FIGURE_LABEL.subn(
            lambda m: (
                f"![{(m.group('before') + m.group('after')).strip()}]({m.group('target')})"
                f"{{#fig:{m.group('label')}}}"
            ),
            piece,
        )
        report.count("figure label", count)
        pieces[index] = piece
    return "".join(pieces)


def convert_text(lines: Lines, report: Report, renamed: dict[str, str] | None = None) -> Lines:
    """``lines`` with bookdown's references, labels and labelled equations converted;
    ``renamed``: chunk labels whose figure is shown as its code (``..chunks``)."""
    if "\\@ref" not in lines.text and "(\\#" not in lines.text:
        return lines
    texts = lines.text.split("\n")
    origins = list(lines.origins)
    code = code_lines(texts)
    for index, text in enumerate(texts):
        if code[index]:
            continue
        table = TABLE_LABEL.match(text)
        if table:
            texts[index] = (
                f"{table.group('lead')}{table.group('caption')} {{#tbl:{table.group('label')}}}"
            )
            report.count("table label")
            continue
        texts[index] = prose(text, report, renamed or {})
    texts, origins = equations(texts, origins, code, report)
    return Lines("\n".join(texts), tuple(origins))


def equations(
    texts: list[str], origins: list[Origin], code: list[bool], report: Report
) -> tuple[list[str], list[Origin]]:
    """Labelled math environments as ``$$ … $$ {#eq:x}``, each line keeping its origin."""
    index = 0
    while index < len(texts):
        begin = None if code[index] else BEGIN.match(texts[index])
        if begin is None:
            index += 1
            continue
        env = begin.group("env")
        end = next(
            (i for i in range(index + 1, len(texts)) if texts[i].strip() == f"\\end{{{env}}}"), None
        )
        if end is None:
            break
        body = "\n".join(texts[index + 1 : end])
        label = EQ_LABEL.search(body)
        if label is None:
            index = end + 1
            continue
        # pandoc's display math may hold no blank line: the label's own line goes.
        kept = [
            (EQ_LABEL.sub("", line).rstrip(), origins[index + 1 + offset])
            for offset, line in enumerate(texts[index + 1 : end])
            if EQ_LABEL.sub("", line).strip()
        ]
        inner = [line for line, _ in kept] or [""]
        if env.startswith(("align", "gather")):  # inside $$, pandoc wants aligned/gathered
            kind = "aligned" if env.startswith("align") else "gathered"
            inner[0] = f"\\begin{{{kind}}}" + inner[0]
            inner[-1] = inner[-1] + f"\\end{{{kind}}}"
        texts[index : end + 1] = ["$$", *inner, f"$$ {{#eq:{label.group('label')}}}"]
        origins[index : end + 1] = [
            origins[index],
            *([o for _, o in kept] or [origins[index]]),
            origins[end],
        ]
        code[index : end + 1] = [False] * (len(inner) + 2)
        end = index + len(inner) + 1
        report.count("labelled equation")
        index = end + 1
    return texts, origins
