"""The paper names and lengths a book's metadata may use: ``load`` validates
``papersize``/``geometry`` against them and ``write/shared/layout.py`` draws the page
from the same table, so a name is accepted exactly when every engine can draw it."""

from __future__ import annotations

import re

PAPER = {
    "a4": ("210mm", "297mm"),
    "a5": ("148mm", "210mm"),
    "a6": ("105mm", "148mm"),
    "b5": ("176mm", "250mm"),
    "jisb5": ("182mm", "257mm"),
    "letter": ("8.5in", "11in"),
    "legal": ("8.5in", "14in"),
    "executive": ("7.25in", "10.5in"),
    # Korean trim sizes (판형), as Korean printers cut them.
    "신국판": ("152mm", "225mm"),
    "국판": ("148mm", "210mm"),
    "46배판": ("188mm", "257mm"),
    "4x6배판": ("188mm", "257mm"),
    "변형46배판": ("183mm", "235mm"),
    "크라운판": ("176mm", "248mm"),
    "crown": ("176mm", "248mm"),
    "46판": ("128mm", "188mm"),
    "4x6판": ("128mm", "188mm"),
    "국배판": ("210mm", "297mm"),
}
# What ``pdf.standard`` may name: the PDF/X the press-ready step writes (write/shared/pdfx.py).
PDF_STANDARDS = ("pdf/x-4",)
PAPER_HINT = (
    "use a4, a5, b5, letter, 신국판, 46배판, 크라운판, 4x6판 or 'WIDTH HEIGHT' like '152mm 225mm'"
)
# ``b5`` in a Korean or Japanese book is the B5 its printers cut: JIS B5, not ISO B5.
JIS_B5_LANGUAGES = ("ko", "ja")


def paper_name(value: str, language: str = "") -> str:
    """``papersize`` as a key of :data:`PAPER`: lower case, without ``paper``, spaces or
    ``×`` (``4×6판``, ``변형 46배판``, ``B5``); ``b5`` is JIS B5 in a Korean or Japanese
    book.  A name that is no key comes back as it is (a ``'WIDTH HEIGHT'``)."""
    text = str(value).lower().replace("paper", "").strip()
    name = text.replace("×", "x").replace(" ", "")
    if name == "b5" and language in JIS_B5_LANGUAGES:
        return "jisb5"
    return name if name in PAPER else text


LENGTH = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt|bp|px|em)\s*$")

MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, "bp": 25.4 / 72, "px": 25.4 / 96}


def length_mm(text: object) -> float | None:
    """A length (``3mm``, ``0.125in``, ``9pt``) in millimetres; None when ``text`` is not
    one or is relative (``em``)."""
    match = LENGTH.match(str(text)) if isinstance(text, str) else None
    if not match or match.group(2) not in MM_PER:
        return None
    return float(match.group(1)) * MM_PER[match.group(2)]
