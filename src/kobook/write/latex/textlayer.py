"""The XeLaTeX PDF's text layer: a hyphen copies as the hyphen-minus the source typed, a
jamo as the jamo.

Noto CJK (and many fonts) draw U+002D, U+2011 and U+00AD with one glyph, and
xdvipdfmx writes one Unicode value per glyph in the font's ``/ToUnicode`` map: the
last it finds, U+2011.  A reader who copies ``all-reduce``, ``ZeRO-3`` or a URL
from the PDF then gets a non-breaking hyphen, and searching the PDF for the word
fails.  Rewriting those single-glyph entries to U+002D fixes every copy; the
update is appended to the PDF (an incremental save), so the pages' bytes and the
reproducible ``/ID`` are kept.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from pathlib import Path
from typing import Any

from ..shared.increment import append_update

# A ``bfchar`` section of a ToUnicode CMap: ``<glyph> <unicode>`` pairs.
BFCHAR = re.compile(rb"beginbfchar(.*?)endbfchar", re.S)
# The hyphen's other code points, which the hyphen glyph should not copy as.
HYPHEN_TWIN = re.compile(rb"(<[0-9A-Fa-f]+>\s*)<(?:2011|00[Aa][Dd])>")
# Halfwidth Hangul jamo (U+FFA1–U+FFDC), which Noto CJK draws with the glyphs of the
# compatibility jamo a Korean text uses (the index's ㄱ, ㄴ headings).
JAMO_TWIN = re.compile(rb"(<[0-9A-Fa-f]+>\s*)<(FF[A-Da-d][0-9A-Fa-f])>")


def jamo(match: re.Match[bytes]) -> bytes:
    """A halfwidth jamo entry as the compatibility jamo of the same name."""
    name = unicodedata.name(chr(int(match.group(2), 16)), "")
    if not name.startswith("HALFWIDTH HANGUL LETTER "):
        return match.group(0)
    char = unicodedata.lookup(name.removeprefix("HALFWIDTH "))
    return match.group(1) + f"<{ord(char):04X}>".encode()


def ascii_hyphens(cmap: bytes) -> bytes:
    """``cmap`` with each glyph that copies as U+2011 or U+00AD copying as U+002D, and
    each that copies as a halfwidth jamo copying as the jamo Korean text uses.

    Only single-glyph entries change: a ``bfrange`` maps a run of glyphs from one
    start value, and is left as it is."""

    def section(match: re.Match[bytes]) -> bytes:
        fixed = JAMO_TWIN.sub(jamo, HYPHEN_TWIN.sub(rb"\1<002D>", match.group(1)))
        return match.group(0).replace(match.group(1), fixed)

    return BFCHAR.sub(section, cmap)


def fix_hyphens(src: Path, dst: Path) -> int:
    """Write ``src`` to ``dst`` with :func:`ascii_hyphens` applied to every font's
    ToUnicode map (an incremental update, :mod:`..shared.increment`); the number of
    maps changed."""
    from pypdf import PdfReader

    reader = PdfReader(src)
    seen: set[int] = set()
    changed: dict[Any, Any] = {}
    for page in reader.pages:
        resources = page.get("/Resources")
        fonts = resources.get_object().get("/Font") if resources is not None else None
        for ref in (fonts.get_object() if fonts is not None else {}).values():
            font = ref.get_object()
            mapping = font.raw_get("/ToUnicode") if "/ToUnicode" in font else None
            if mapping is None or not hasattr(mapping, "idnum") or mapping.idnum in seen:
                continue
            seen.add(mapping.idnum)
            stream = mapping.get_object()
            data = stream.get_data()
            fixed = ascii_hyphens(data)
            if fixed != data:
                stream.set_data(fixed)
                changed[mapping] = stream
    if changed:
        append_update(src, dst, reader, changed)
    else:
        shutil.copyfile(src, dst)
    return len(changed)
