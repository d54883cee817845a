"""KO001–KO008: characters and punctuation (encoding, spaces, quotes, ellipses).

Each rule looks only at prose spans of the source layer, so code, math, URLs
and raw HTML are never touched, and each fix is idempotent.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from ..source import SourceDoc
from .model import Finding, Settings

INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
INVISIBLE_NAMES = {
    "\u200b": "ZERO WIDTH SPACE",
    "\u200c": "ZERO WIDTH NON-JOINER",
    "\u200d": "ZERO WIDTH JOINER",
    "\u2060": "WORD JOINER",
    "\ufeff": "BYTE ORDER MARK",
    "\u00ad": "SOFT HYPHEN",
}
ODD_SPACES = (
    "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
)
# Full-width forms whose ASCII twin is Markdown syntax are reported, not replaced.
MARKDOWN_SIGNIFICANT = set("＊＿｀＄［］～＼＜＞｜＃＆＾＠｛｝")
EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf]")


def ko001_nfc(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    """Text not in NFC (decomposed Hangul from macOS file names and pastes)."""
    for offset, text in doc.prose():
        if unicodedata.is_normalized("NFC", text):
            continue
        for match in re.finditer(r"\S+", text):
            word = match.group(0)
            if not unicodedata.is_normalized("NFC", word):
                fixed = unicodedata.normalize("NFC", word)
                yield Finding(
                    "KO001",
                    offset + match.start(),
                    offset + match.end(),
                    f"text is not NFC (decomposed characters): {fixed}",
                    fixed,
                )


def ko002_invisible(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    for offset, text in doc.prose():
        for match in re.finditer(f"[{INVISIBLE}]", text):
            char = match.group(0)
            if char == "\u200d":
                before = text[: match.start()].rstrip("\ufe0f\ufe0e")[-1:]
                after = text[match.end() : match.end() + 1]
                if EMOJI.match(before) and EMOJI.match(after):
                    continue  # joins an emoji sequence
            start = offset + match.start()
            # Removed at a line's start, it would let "# …", "- …" or spaces start the line.
            line_start = doc.text.rfind("\n", 0, start) + 1
            next_char = doc.text[start + 1 : start + 2]
            at_start = not doc.text[line_start:start].strip(BLANKS + INVISIBLE)
            yield Finding(
                "KO002",
                start,
                offset + match.end(),
                f"invisible character U+{ord(char):04X} {INVISIBLE_NAMES[char]}",
                None if at_start and next_char and not next_char.isalnum() else "",
            )


LIST_MARKER = re.compile(r"^\s*(?:[:>*+~-]|\d+[.)]|\(?[a-zA-Z]\))$")


# Characters whose meaning depends on whether a space is next to them: pandoc's
# flanking rules treat U+00A0 and U+3000 as letters, so "**\u00a0굵게**" is bold
# there and "** 굵게**" is not.
DELIMITERS = set("*_~^")
BLANKS = " \t" + ODD_SPACES


def odd_space_fix(text: str, start: int) -> tuple[str | None, str]:
    """The replacement for the odd space at ``text[start]`` and, if none, why.

    A plain space changes the Markdown where the odd one stands at a line's
    edge (a line of only spaces ends a paragraph, leading spaces make a list
    or code block, two trailing spaces a line break) or next to an emphasis
    delimiter.  A trailing odd space after no plain space is simply removed.
    """
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line_end = len(text) if line_end < 0 else line_end
    before, after = text[line_start:start], text[start + 1 : line_end]
    left = start
    while left > line_start and text[left - 1] in BLANKS:
        left -= 1
    right = start + 1
    while right < line_end and text[right] in BLANKS:
        right += 1
    if not before.strip(BLANKS) and not after.strip(BLANKS):
        return None, "the line holds only spaces, and a blank line would end the paragraph"
    if not before.strip(BLANKS):
        return None, "at the start of a line, plain spaces can make a list or a code block"
    if text[left - 1 : left] in DELIMITERS or text[right : right + 1] in DELIMITERS:
        return None, "next to * or _, a plain space would end the emphasis"
    if not after.strip(BLANKS):
        run = text[left:right]
        if " " in run or "\t" in run or text[left - 1 : left] == "\\":
            return None, "at the end of a line, two plain spaces or a \\ are a line break"
        return "", ""
    return " ", ""


def ko003_spaces(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    for offset, text in doc.prose():
        for match in re.finditer(f"[{ODD_SPACES}]", text):
            char = match.group(0)
            replacement, why = odd_space_fix(doc.text, offset + match.start())
            yield Finding(
                "KO003",
                offset + match.start(),
                offset + match.end(),
                f"odd space U+{ord(char):04X} {unicodedata.name(char, 'SPACE')}"
                + (f" (fix it by hand: {why})" if why else ""),
                replacement,
            )
        # Runs of spaces between words (not indentation, not a trailing hard break,
        # not the padding of table cells).
        for match in re.finditer(r"(?<=[^\s|]) {2,}(?=[^\s|])", text):
            line_start = text.rfind("\n", 0, match.start()) + 1
            if LIST_MARKER.match(text[line_start : match.start()]):
                continue  # ":   definition", "1.  item": Markdown's own spacing
            yield Finding(
                "KO003",
                offset + match.start(),
                offset + match.end(),
                f"{len(match.group(0))} spaces in a row",
                " ",
            )


# What may stand before a block marker at the start of a line: indentation, quote
# and list markers, digits of a number ("1．" would become "1.").
LINE_HEAD = re.compile(r"[ \t>*+\-\d.)]*")
CITE_END = re.compile(r"-?@\w[\w:.#$%&+?<>~/-]*$")
CITE_CHARS = set(":.#$%&+?<>~/-")
ENTITY_START = re.compile(r"&#?\w+$")


def makes_syntax(text: str, start: int, end: int, ascii_text: str) -> bool:
    """Would ``ascii_text`` in place of ``text[start:end]`` become Markdown syntax?

    ``！[문서](…)`` would be an image, ``[문서]（…）`` a link, ``[x]：`` a
    reference definition, ``－ 항목``, ``１．`` or ``- －`` at a line's start a
    list or a rule; ``@doe．`` would lengthen the citation key, ``$x$１`` end
    the math, ``&amp；`` make an entity.
    """
    before, after = text[start - 1 : start], text[end : end + 1]
    first = ascii_text[0]
    if ascii_text.endswith("!") and after == "[":
        return True
    if before and before in "]］" and first in "(:":
        return True
    window = text[max(0, start - 80) : start]
    if before == "$" and first.isdigit():
        return True
    if first == ";" and ENTITY_START.search(window):
        return True
    if CITE_END.search(window) and (first.isalnum() or first in CITE_CHARS):
        return True
    line_start = text.rfind("\n", 0, start) + 1
    if not LINE_HEAD.fullmatch(text, line_start, start):
        return False
    if first in "-+*=:#~|>":
        return True
    if first in ".)":
        return text[start - 1 : start].isdigit()
    return first.isdigit() and bool(re.match(r"\d+[.)]", ascii_text + after))


def ko004_fullwidth(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    for offset, text in doc.prose():
        for match in re.finditer(r"[\uff01-\uff5e]+", text):
            run = match.group(0)
            ascii_text = "".join(chr(ord(c) - 0xFEE0) for c in run)
            start, end = offset + match.start(), offset + match.end()
            safe = not (set(run) & MARKDOWN_SIGNIFICANT) and not makes_syntax(
                doc.text, start, end, ascii_text
            )
            yield Finding(
                "KO004",
                offset + match.start(),
                offset + match.end(),
                f"full-width characters '{run}': write '{ascii_text}'",
                ascii_text if safe else None,
            )


SPACE_BEFORE = re.compile(r"(?<=[^\s(\[|]) +(?=[,!?;)]|\.(?![.\w])|:(?=\s|$))")


def ko005_space_before_punctuation(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    for offset, text in doc.prose():
        for match in SPACE_BEFORE.finditer(text):
            after = text[match.end() : match.end() + 1]
            if text[match.end() : match.end() + 2] == "![":
                continue  # an image, not an exclamation mark
            if text[match.start() - 1 : match.start()] in DELIMITERS | {"$"}:
                continue  # "**굵게** .", "$$ )": the space decides whether ** or $ closes
            yield Finding(
                "KO005",
                offset + match.start(),
                offset + match.end(),
                f"space before '{after}'",
                "",
            )


def ko006_jamo_dot(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    for offset, text in doc.prose():
        for match in re.finditer("\u318d", text):
            yield Finding(
                "KO006",
                offset + match.start(),
                offset + match.end(),
                "'ㆍ' (U+318D) is a jamo, not a middle dot: write '·' (U+00B7)",
                "·",
            )


# An opening quote starts a word and a closing one ends it ("한국어"가 is fine):
# a stretch between two quotes of different pairs (" 와 ") is not a quotation.
DOUBLE = re.compile(r'(?<![^\s(\[{<])"(?=\S)([^"\n]*[\uac00-\ud7a3][^"\n]*?)(?<=\S)"')
SINGLE = re.compile(
    r"(?<![^\s(\[{<])'(?=\S)([^'\n]*[\uac00-\ud7a3][^'\n]*?)(?<=\S)'(?![A-Za-z0-9'])"
)
CURLY = re.compile(r"[“”‘’]")


def ko007_quotes(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    if settings.quotes == "off":
        return
    for offset, text in doc.prose():
        if settings.quotes == "straight":
            for match in CURLY.finditer(text):
                straight = '"' if match.group(0) in "“”" else "'"
                yield Finding(
                    "KO007",
                    offset + match.start(),
                    offset + match.end(),
                    f"curly quote: this book uses straight quotes ({straight})",
                    straight,
                )
            continue
        for pattern, left, right in ((DOUBLE, "“", "”"), (SINGLE, "‘", "’")):
            for match in pattern.finditer(text):
                inner = match.group(1)
                yield Finding(
                    "KO007",
                    offset + match.start(),
                    offset + match.end(),
                    f"straight quotes around Korean text: write {left}…{right}",
                    f"{left}{inner}{right}",
                )


def ko008_ellipsis(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    if settings.ellipsis == "off":
        return
    for offset, text in doc.prose():
        if settings.ellipsis == "...":
            pattern = re.compile("…")
        else:
            pattern = re.compile(r"(?<!\.)\.\.\.(?!\.)|。。。|(?<=[\uac00-\ud7a3])\.{4,}")
        for match in pattern.finditer(text):
            yield Finding(
                "KO008",
                offset + match.start(),
                offset + match.end(),
                f"ellipsis '{match.group(0)}': write '{settings.ellipsis}'",
                settings.ellipsis,
            )
