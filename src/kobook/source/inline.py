"""Mask inline syntax inside prose lines: what is left is text a rule may change.

Masked (never touched by any fixer): code spans, ``$``/``$$`` math, HTML
comments, tags and autolinks, link and image targets (``](...)``), bare URLs
and e-mail addresses, ``{#id .class}`` attributes, ``@key`` citations and
cross-references (with a particle glued to them, which the build fixes),
footnote labels, backslash escapes, entities and raw TeX commands, Liquid
``{% … %}`` and ``{{ … }}`` and mdBook ``{{#…}}`` (a dialect's syntax).
"""

from __future__ import annotations

import re

CANDIDATE = re.compile(r"[`$<\]{@\\&\[]|https?://|www\.|[\w.+-]+@[\w-]+\.")
URL = re.compile(r"(?:https?://|www\.)[^\s<>\"'`]+")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
HTML = re.compile(
    r"<!--.*?-->|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<[a-z][a-z0-9+.-]*:[^\s<>]*>", re.S
)
ATTRS = re.compile(r"\{(?:-|[#.][^{}\n]*|[^{}\n=]*=[^{}\n]*)\}")
CITE = re.compile(r"-?@[\w][\w:.#$%&+?<>~/-]*")
FOOTNOTE = re.compile(r"\[\^[^\]\s]+\]:?")
ESCAPE = re.compile(r"\\(?:[A-Za-z]+|[^\sA-Za-z])")
ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z]+);")


def closing_paren(text: str, start: int, end: int) -> int:
    """Index after the ``)`` matching the ``(`` at ``start`` (or ``end``)."""
    depth = 0
    index = start
    while index < end:
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index + 1
        elif char == "\n" and text[index + 1 : index + 2] == "\n":
            break
        index += 1
    return end


def code_span(text: str, start: int, end: int) -> int | None:
    """End of a code span opening at ``start`` (a backtick run), or None."""
    run = start
    while run < end and text[run] == "`":
        run += 1
    ticks = run - start
    search = run
    while True:
        found = text.find("`" * ticks, search, end)
        if found < 0:
            return None
        after = found + ticks
        if (after >= end or text[after] != "`") and text[found - 1] != "`":
            return after
        search = found + 1
        while search < end and text[search] == "`":
            search += 1


def math_span(text: str, start: int, end: int) -> int | None:
    """End of ``$...$`` or ``$$...$$`` math opening at ``start`` (pandoc's rules)."""
    if text.startswith("$$", start):
        close = text.find("$$", start + 2, end)
        return close + 2 if close > start else None
    if start + 1 >= end or text[start + 1].isspace():
        return None
    index = start + 1
    while index < end:
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "\n" and text[index + 1 : index + 2] == "\n":
            return None
        if char == "$":
            # pandoc: a U+00A0 before the closing $ is not a space (math), one after
            # the opening $ is (not math).
            if text[index - 1] in " \t\n\r":
                return None
            if index + 1 < end and text[index + 1].isdigit():
                return None
            return index + 1
        index += 1
    return None


def masked_end(text: str, index: int, end: int) -> int | None:
    """If a masked construct starts at ``index``, where it ends."""
    char = text[index]
    if char == "`":
        return code_span(text, index, end)
    if char == "$" and (index == 0 or text[index - 1] != "\\"):
        return math_span(text, index, end)
    if char == "<":
        match = HTML.match(text, index, end)
        return match.end() if match else None
    if char == "]" and text.startswith("](", index):
        return closing_paren(text, index + 1, end)
    if char == "]" and text.startswith("][", index):
        close = text.find("]", index + 2, end)
        return close + 1 if close > 0 else None
    if char == "{":
        if text.startswith(("{%", "{{"), index):
            # Liquid ``{% tag %}`` / ``{{ output }}`` and mdBook ``{{#include}}``: syntax a
            # dialect reads (its arguments, quotes and all, must stay as written).
            close = text.find("%}" if text[index + 1] == "%" else "}}", index + 2, end)
            if close > 0:
                return close + 2
        match = ATTRS.match(text, index, end)
        return match.end() if match else None
    if char == "@" or (char == "-" and text.startswith("-@", index)):
        if index > 0 and (text[index - 1].isalnum() or text[index - 1] in "._+"):
            return None  # part of an e-mail address, handled below
        match = CITE.match(text, index, end)
        return match.end() if match else None
    if char == "[":
        match = FOOTNOTE.match(text, index, end)
        return match.end() if match else None
    if char == "\\":
        match = ESCAPE.match(text, index, end)
        return match.end() if match else None
    if char == "&":
        match = ENTITY.match(text, index, end)
        return match.end() if match else None
    if char in "hw":
        match = URL.match(text, index, end)
        if match:
            url_end = match.end()
            while url_end > index and text[url_end - 1] in ".,;:!?)":
                url_end -= 1
            return url_end
    match = EMAIL.match(text, index, end)
    if match:
        return match.end()
    return None


def mask_inline(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Prose sub-spans of ``text[start:end]`` (see the module docstring)."""
    spans: list[tuple[int, int]] = []
    prose_start = start
    index = start
    while index < end:
        found = CANDIDATE.search(text, index, end)
        if not found:
            break
        index = found.start()
        stop = masked_end(text, index, end)
        if stop is None or stop <= index:
            index += 1
            continue
        if index > prose_start:
            spans.append((prose_start, index))
        prose_start = index = stop
    if prose_start < end:
        spans.append((prose_start, end))
    return spans
