"""The print set-up: what every writer draws by, decided once per build from the metadata.

The page (size after ``papersize``/``classoption``/``geometry``), the type size and
leading, the heading scale and the code box (:class:`~.layout.PageLayout`); the fonts
(:mod:`.fonts`, the one module that asks fontconfig); the math font; how many columns a
code line gets before it wraps; whether a chapter's lines keep Korean words whole; the
folders a writer may read.  :func:`print_setup` makes it once and the build hands the same
object to every writer (:class:`~kobook.write.registry.Job`) and the preview to its
typesetter, so engines differ in how they draw, not in what they decide.

Each part is worked out when a writer first asks for it: an HTML-only build never needs the
page geometry or an installed Hangul font, and must not fail for the lack of one.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from ...boundary import inside
from ...cache import Cache
from ...model import Book, Config
from ...model.page import length_mm
from .codewrap import code_columns
from .fonts import FontSet, fc_list, installed_spelling, resolve_fonts
from .layout import PageLayout, page_layout
from .pdfx import Press, find_press
from .trim import Trim


class PrintSetup:
    """One build's decisions about the printed page (and the site's word breaking)."""

    def __init__(self, book: Book, cache: Cache | None = None) -> None:
        self.config: Config = book.config
        self._root = book.root
        self._cache_root = cache.root if cache is not None else None

    @functools.cached_property
    def layout(self) -> PageLayout:
        """Page, margins, type size, leading, heading scale and code box (CFG006/007)."""
        return page_layout(self.config)

    @functools.cached_property
    def fonts(self) -> FontSet:
        """Body, heading, code and emoji fonts (FONT001 when none covers the script)."""
        return resolve_fonts(self.config)

    @functools.cached_property
    def math_name(self) -> str | None:
        """``mathfont:`` as fontconfig spells the family the book names; None: the default
        (Latin Modern Math)."""
        name = self.config.get("mathfont")
        return installed_spelling(str(name), fc_list()) if name else None

    @functools.cached_property
    def math_font(self) -> str | None:
        """The math font's file: the one named, else the default's; None means STIX Two
        Math as ziamath ships it (every engine falls back to that same font)."""
        from .mathsvg import math_font

        return math_font(self.math_name)

    @functools.cached_property
    def code_columns(self) -> int:
        """How many monospace columns a code line gets before it wraps, in every engine."""
        return code_columns(self.layout, self.fonts.mono[0])

    @functools.cached_property
    def folders(self) -> tuple[Path, ...]:
        """What a writer may read images from: the book, the cache (downloaded images,
        print-ready copies; outside the book with --cache-dir) and the downloads folder
        used when there is no cache."""
        from ...transform.remote import fallback_path

        folders = [self._root, fallback_path("x", "").parent]
        if self._cache_root is not None:
            folders.append(self._cache_root)
        return tuple(folders)

    @functools.cached_property
    def link_colours(self) -> tuple[str, str] | None:
        """Links' and URLs' colours (``RRGGBB``) in every engine's PDF; None: links in the
        text's colour, for ``colorlinks: false`` and for a print master (``print: true``,
        where the printer wants no colour the book did not ask for)."""
        config = self.config
        if config.print_master or not config.get("colorlinks", True):
            return None
        return hex_color(config.get("linkcolor"), LINK), hex_color(config.get("urlcolor"), LINK)

    def keeps_words_whole(self, lang: str | None = None) -> bool:
        """Do lines of text in ``lang`` (default: the book's) break only between words?"""
        return self.config.keeps_words_whole(lang)

    @functools.cached_property
    def trim(self) -> Trim | None:
        """How the PDF is made ready for the printer (``pdf.bleed``, ``pdf.marks``), in every
        engine the same; None for a PDF that is read on screen."""
        settings = self.config.get("pdf") or {}
        bleed = length_mm(settings.get("bleed")) or 0.0
        drawn = settings.get("marks") is True
        if not bleed and not drawn:
            return None
        return Trim(bleed=bleed * 72 / 25.4, marks=drawn)

    @functools.cached_property
    def press(self) -> Press | None:
        """The printing condition a PDF/X names (``pdf.standard``, ``pdf.output-profile``),
        the same for every engine; None for a PDF that declares none (PDF002/PDF003 when
        the profile cannot be had)."""
        settings = self.config.get("pdf") or {}
        if settings.get("standard") is None:
            return None
        chosen = settings.get("output-profile")
        profile = None
        if chosen is not None:
            profile = inside(
                self._root / str(chosen),
                self._root,
                what="PDF/X output profile",
                file=self.config.path,
                written=str(chosen),
            )
        return find_press(profile, self.config.path)

    @property
    def goes_to_print(self) -> bool:
        """Is this PDF a printer's (``print: true``, a bleed, marks or a PDF/X standard)?
        Then images are checked for the resolution a press needs
        (``resolution.coarse_images``)."""
        settings = self.config.get("pdf") or {}
        return (
            self.config.print_master
            or self.trim is not None
            or settings.get("standard") is not None
        )

    def hyphenates_latin(self) -> bool:
        """May a Latin word at the end of a loose line of Korean text be hyphenated as
        English?  Only when the book asks (``hyphenate: latin``); every engine follows
        this one answer, and none hyphenates Hangul or code."""
        return self.keeps_words_whole() and self.config.hyphenates_latin


LINK = "1F4E8C"  # kobook's link blue (the site's --accent)
# Where a word may take a hyphen (``hyphenate: latin``) or a code name break at a seam:
# words of 7 letters or more, keeping 3 on each side (CSS ``hyphenate-limit-chars``;
# TeX's \lefthyphenmin and \righthyphenmin).  Typst keeps its own limits.
HYPHEN_LIMITS = (7, 3, 3)


def hex_color(value: Any, default: str) -> str:
    """A colour as ``RRGGBB``: six hex digits, or a name LaTeX users write."""
    named = {
        "blue": "1F4E8C",
        "black": "000000",
        "red": "C62828",
        "magenta": "A0307F",
        "cyan": "00838F",
        "green": "2E7D32",
        "gray": "555555",
        "grey": "555555",
    }
    text = str(value or "").strip().lstrip("#")
    if re.fullmatch(r"[0-9A-Fa-f]{6}", text):
        return text.upper()
    return named.get(text.lower(), default)


def print_setup(book: Book, cache: Cache | None = None) -> PrintSetup:
    """The build's print set-up (its parts are worked out when first asked for)."""
    return PrintSetup(book, cache)
