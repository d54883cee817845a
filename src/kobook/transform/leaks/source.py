"""Leaks in a chapter's source, with offsets (what ``kobook check`` reports): code, front
matter and comments masked first, pandoc's reading of ``:::`` fences followed."""

from __future__ import annotations

import bisect
import re

from ...source import SourceDoc
from ...source.inline import code_span, math_span
from .patterns import CHUNK_HEADER, MDBOOK_LINE, START_TAG, TAB_LINE, Found, scan

# ----------------------------------------------------------- the source side

FENCE_LINE = re.compile(r"^((?:[ \t]*>)*[ \t]{0,3})(:{3,})(.*)$")
ATX_LINE = re.compile(r"^(?:[ \t]*>)*[ \t]{0,3}#{1,6}(?:[ \t]|$)")
TAG_LINE = re.compile(r"^(?:[ \t]*>)*[ \t]*(?:</?[A-Za-z][^<>]*>[ \t]*)+$")


def blank(chars: list[str], start: int, end: int) -> None:
    for index in range(start, min(end, len(chars))):
        if chars[index] != "\n":
            chars[index] = " "


def mask_source(doc: SourceDoc) -> str:
    """``doc.text`` with code blocks, front matter, inline code (but its backticks),
    comments and math blanked out, same length and lines."""
    text = doc.text
    chars = list(text)
    for token in doc.tokens:
        if token.type in ("fence", "code_block", "front_matter") and token.map:
            blank(chars, doc.line_offset(token.map[0]), doc.line_offset(token.map[1]))
    masked = "".join(chars)
    paragraph_ends = [m.start() for m in re.finditer(r"\n[ \t]*\n", masked)] + [len(masked)]
    index = 0
    special = re.compile(r"[\\`$<]")
    while True:
        found = special.search(masked, index)
        if not found:
            break
        index = found.start()
        char = masked[index]
        end = paragraph_ends[bisect.bisect_right(paragraph_ends, index)]
        if char == "\\":
            index += 2
        elif char == "<":
            if masked.startswith("<!--", index):
                close = masked.find("-->", index + 4)
                after = close + 3 if close >= 0 else len(masked)
                blank(chars, index, after)
                index = after
            else:
                index += 1
        elif char == "`":
            run = index
            while run < len(masked) and masked[run] == "`":
                run += 1
            code_end = code_span(masked, index, end)
            if code_end is None:
                index = run
            else:
                blank(chars, run, code_end - (run - index))
                index = code_end
        else:  # "$"
            math_end = math_span(masked, index, end)
            if math_end is None:
                index += 2 if masked.startswith("$$", index) else 1
            else:
                blank(chars, index, math_end)
                index = math_end
    return "".join(chars)


def fence_leaks(masked: str, starts: list[int]) -> list[int]:
    """Offsets of ``:::`` fence lines pandoc reads as text (a sketch of its rules).

    A bare ``:::`` closes the innermost open div, else it is text; an opening
    ``::: name`` cannot interrupt a paragraph (then it is text).  An opening
    fence never closed is closed by pandoc at the end: not a leak.
    """
    out = []
    depth = 0
    paragraph = False
    for index, line in enumerate(masked.split("\n")):
        match = FENCE_LINE.match(line)
        if match:
            offset = starts[index] + match.start(2)
            rest = match.group(3).strip().strip(":").strip()
            if not rest and depth:
                depth -= 1
                paragraph = False
            elif rest and not paragraph:
                depth += 1
            else:
                out.append(offset)
                paragraph = True
            continue
        paragraph = bool(line.strip()) and not ATX_LINE.match(line) and not TAG_LINE.match(line)
    return out


def source_leaks(doc: SourceDoc, masked: str | None = None) -> list[Found]:
    """The leaked constructs in a source, with offsets, in order (what ``check`` reports)."""
    masked = mask_source(doc) if masked is None else masked
    text = doc.text
    out: list[Found] = []
    fence_starts = set(fence_leaks(masked, doc.line_starts))
    for found in scan(masked):
        found.text = text[found.start : found.end]
        if found.kind == "div-fence":
            line_start = masked.rfind("\n", 0, found.start) + 1
            at_line_start = FENCE_LINE.match(masked[line_start : found.end]) is not None
            if at_line_start and found.start not in fence_starts:
                continue  # a fenced div pandoc reads as one
            fence_starts.discard(found.start)
        out.append(found)
    for offset in fence_starts:
        match = re.match(r":+", text[offset:])
        out.append(Found("div-fence", "", match.group(0) if match else ":::", offset))
    for match in re.finditer(r"\\\$\\\$", masked):
        out.append(Found("dollars", "", match.group(0), match.start(), match.end(), escaped=True))
    for token in doc.tokens:
        if token.type not in ("fence", "code_block") or not token.map:
            continue
        first = token.map[0] + (1 if token.type == "fence" else 0)
        chunk = CHUNK_HEADER.match(token.info.strip()) if token.type == "fence" else None
        if chunk:  # ```{r label}: a fence to CommonMark, inline code to pandoc
            out.append(in_code(doc, token.map[0], token.markup, "chunk", chunk.group(1)))
        lines = token.content.split("\n")
        tab = TAB_LINE.match(token.content)
        if tab:
            out.append(in_code(doc, first, tab.group(0), "d2l-tab", tab.group("name").strip()))
        for number, line in enumerate(lines):
            for match in MDBOOK_LINE.finditer(line):
                out.append(
                    in_code(doc, first + number, match.group(0), "mdbook", match.group("n_mdbook"))
                )
    for found in out:
        if found.end < 0:
            found.end = found.start + len(found.text)
    out.sort(key=lambda f: f.start)
    return out


def in_code(doc: SourceDoc, line: int, text: str, kind: str, name: str) -> Found:
    """A construct on 0-based ``line`` of a code block, placed at its column there."""
    start = doc.line_offset(line)
    end = doc.line_offset(line + 1) if line + 1 < len(doc.line_starts) else len(doc.text)
    column = doc.text.find(text, start, end)
    offset = column if column >= 0 else start
    return Found(kind, name, text, offset, offset + len(text))


def source_tags(doc: SourceDoc, masked: str) -> list[Found]:
    """Every HTML start tag in the source outside code and comments (for LEAK002)."""
    return [
        Found("html", m.group("name").lower(), doc.text[m.start() : m.end()], m.start(), m.end())
        for m in START_TAG.finditer(masked)
    ]
