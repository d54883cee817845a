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
    "신국판": ("152mm", "225mm"),
    "crown": ("152mm", "225mm"),
    "국판": ("148mm", "210mm"),
}
LENGTH = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt|bp|px|em)\s*$")
