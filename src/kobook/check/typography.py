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
MARKDOWN_SIGNIFICANT = set("＊＿｀＄［］～＼＜＞｜＃＆＾")
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
            yield Finding(
                "KO002",
                offset + match.start(),
                offset + match.end(),
                f"invisible character U+{ord(char):04X} {INVISIBLE_NAMES[char]}",
                "",
            )


LIST_MARKER = re.compile(r"^\s*(?:[:>*+~-]|\d+[.)]|\(?[a-zA-Z]\))$")


def ko003_spaces(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    for offset, text in doc.prose():
        for match in re.finditer(f"[{ODD_SPACES}]", text):
            char = match.group(0)
            yield Finding(
                "KO003",
                offset + match.start(),
                offset + match.end(),
                f"odd space U+{ord(char):04X} {unicodedata.name(char, 'SPACE')}",
                " ",
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


def ko004_fullwidth(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    for offset, text in doc.prose():
        for match in re.finditer(r"[\uff01-\uff5e]+", text):
            run = match.group(0)
            safe = not (set(run) & MARKDOWN_SIGNIFICANT)
            ascii_text = "".join(chr(ord(c) - 0xFEE0) for c in run)
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
