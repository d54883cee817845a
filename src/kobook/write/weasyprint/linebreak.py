"""Korean word (어절) line breaking for WeasyPrint, which lacks ``word-break: keep-all``.

Browsers break Korean lines between words with ``word-break: keep-all``;
WeasyPrint's CSS validator rejects that value and Pango, following UAX #14, may
break between any two Hangul syllables.  Wrapping every word in a ``nowrap``
span works but makes layout ~70 % slower, and invisible joiners would end up in
the text readers copy.  Instead we teach WeasyPrint the CSS value:

* the validator accepts ``word-break: keep-all``;
* when a text run with that style is laid out, every whitespace-delimited
  token that contains Hangul gets Pango's ``allow_breaks=false`` attribute, so
  Pango only breaks at spaces (and between non-Hangul tokens as usual);
* where WeasyPrint asks whether it may break *between* two inline boxes
  (``**커널**을``), a Hangul letter touching another letter answers no;
* a text run that fits once its trailing space hangs is kept whole (see
  :func:`fits_without_trailing_space`);
* inline code styled ``hyphenate-character: "↪"`` (:data:`SEAM_MARK`) may break at
  an identifier's seams (``DistributedData↪|Parallel``, ``torch↪|.float32``) when
  the line would otherwise be left loose (see :func:`identifier_seams`); the mark
  ends the line, as XeLaTeX's ``kobookseam`` does.

The cost is one C attribute per Hangul word, measured at about 10 % of layout
time.  Patching is idempotent and only affects elements styled ``keep-all``.
"""

from __future__ import annotations

import contextvars
import re
from collections.abc import Callable
from typing import Any

from ..shared.passes.code import CONTINUATION
from ..shared.seams import identifier_seams

# The mark that ends a line broken inside a code name: the code blocks' continuation
# sign, never a hyphen (which would read as part of the name).
SEAM_MARK = CONTINUATION

_PATCHED = False
KEEP_ALL: contextvars.ContextVar[bool] = contextvars.ContextVar("kobook_keep_all", default=False)

# A precomposed Hangul syllable in UTF-8 (lead bytes 0xEA–0xED cover U+A000–U+DFFF,
# which holds U+AC00–U+D7A3) or conjoining/compatibility jamo (E1 84–87, E3 84–86).
HANGUL_BYTES = re.compile(
    rb"[\xea-\xed][\x80-\xbf]{2}|\xe1[\x84-\x87][\x80-\xbf]|\xe3[\x84-\x86][\x80-\xbf]"
)
TOKEN = re.compile(rb"\S+")


def hangul_tokens(data: bytes) -> list[tuple[int, int]]:
    """The byte spans of the space-delimited tokens of ``data`` that hold Hangul.

    Token by token, so the work is linear in the text: one pattern that looked for
    Hangul inside a run of non-spaces tried the whole run again from each of its
    positions (a 10,000-character word without Hangul took a minute).
    """
    return [m.span() for m in TOKEN.finditer(data) if HANGUL_BYTES.search(m.group())]


HANGUL_CHAR = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
LETTER = re.compile(r"[\w\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")


def keep_all_pair(text: str) -> bool:
    """True when a two-character boundary lies inside a Korean word."""
    if len(text) != 2:
        return False
    a, b = text[0], text[1]
    if a.isspace() or b.isspace():
        return False
    return bool(
        (HANGUL_CHAR.match(a) and not b.isspace() and b not in "([{“‘")
        or (HANGUL_CHAR.match(b) and (LETTER.match(a) or a in ")]}”’.,!?%·"))
    )


def install() -> None:
    """Patch WeasyPrint once (safe to call many times)."""
    global _PATCHED
    if _PATCHED:
        return
    from weasyprint.css.tokens import get_single_keyword
    from weasyprint.css.validation import properties as validation
    from weasyprint.layout import inline as inline_layout
    from weasyprint.layout import preferred
    from weasyprint.text import line_break
    from weasyprint.text.ffi import ffi, pango

    ffi.cdef("PangoAttribute * pango_attr_allow_breaks_new (gboolean allow_breaks);")

    # 1. Accept the value.
    original_word_break = validation.PROPERTIES["word-break"]

    def word_break(tokens: Any) -> Any:
        if get_single_keyword(tokens) == "keep-all":
            return "keep-all"
        return original_word_break(tokens)

    word_break.wants_base_url = False  # type: ignore[attr-defined]
    validation.PROPERTIES["word-break"] = word_break

    # 2. No breaks inside Hangul words of keep-all text.
    original_set_text = line_break.Layout.set_text

    def set_text(self: Any, text: str, justify: bool = False) -> None:
        original_set_text(self, text, justify)
        if self.style["word_break"] != "keep-all" or not self.text:
            return
        spans = hangul_tokens(self.text.encode("utf-8"))
        if not spans:
            return
        attr_list = pango.pango_layout_get_attributes(self.layout)
        if attr_list == ffi.NULL:
            attr_list = ffi.gc(pango.pango_attr_list_new(), pango.pango_attr_list_unref)
        for start, end in spans:
            attr = pango.pango_attr_allow_breaks_new(False)
            attr.start_index, attr.end_index = start, end
            pango.pango_attr_list_insert(attr_list, attr)
        pango.pango_layout_set_attributes(self.layout, attr_list)

    line_break.Layout.set_text = set_text

    # 3. No break between inline boxes inside a Hangul word (``**커널**을``).
    original_can_break = line_break.can_break_text

    def can_break_text(text: str, lang: Any) -> Any:
        if KEEP_ALL.get() and keep_all_pair(text):
            return False
        return original_can_break(text, lang)

    line_break.can_break_text = can_break_text
    inline_layout.can_break_text = can_break_text
    preferred.can_break_text = can_break_text

    # 4. A trailing space hangs (CSS Text 3, 4.1.3) when WeasyPrint fits a run of text.
    original_split = inline_layout.split_first_line

    def split_first_line(
        text: str,
        style: Any,
        context: Any,
        max_width: float | None,
        justification_spacing: float,
        is_line_start: bool = True,
        minimum: bool = False,
    ) -> Any:
        result = original_split(
            text, style, context, max_width, justification_spacing, is_line_start, minimum
        )
        if max_width is None or minimum:
            return result
        if style["hyphenate_character"] == SEAM_MARK and style["hyphens"] != "none":
            seamed = split_at_seam(text, style, context, max_width, justification_spacing, result)
            if seamed is not None:
                return seamed
        if result[2] is None:
            return result

        def width(run: str) -> float | None:
            layout = line_break.create_layout(run, style, context, max_width, 0)
            first, resume = layout.get_first_line()
            return None if resume is not None else float(line_break.line_size(first, style)[0])

        if fits_without_trailing_space(text, style["white_space"], max_width, width):
            # The whole run, unconstrained: the caller subtracts the hanging space.
            return original_split(
                text, style, context, None, justification_spacing, is_line_start, minimum
            )
        return result

    inline_layout.split_first_line = split_first_line

    def split_at_seam(
        text: str,
        style: Any,
        context: Any,
        max_width: float,
        justification_spacing: float,
        result: Any,
    ) -> Any:
        """The first line of a code run ended at an identifier seam, or None to keep ``result``.

        WeasyPrint's hyphenation cannot do this: it looks only at Pango's words, which
        end at ``.`` and ``_``, and uses English patterns (``DistributedDataParal-lel``).
        """
        from math import inf

        from weasyprint.layout.percent import percentage

        _, length, resume, width = result[:4]
        if resume is None and width <= max_width:
            return None  # it all fits
        if width > max_width:  # the run's first token does not fit: the line ends before it
            base, room = text[: len(text) - len(text.lstrip(" "))], max_width
        elif resume == length:  # broken inside a token (overflow-wrap): any seam is better
            cut = text.encode()[:length].decode()
            base, room = cut[: cut.rfind(" ") + 1], inf
        else:  # broken at a space
            base, room = text.encode()[:resume].decode(), max_width - width
        if room < percentage(style["hyphenate_limit_zone"], style, max_width):
            return None  # the line is not loose enough to be worth a break in a name
        rest = text[len(base) :]
        token = rest.split(" ", 1)[0]
        _, left, right = style["hyphenate_limit_chars"]
        for seam in reversed(identifier_seams(token, left, right)):
            candidate = base + token[:seam]
            trial = line_break.create_layout(
                candidate + SEAM_MARK, style, context, max_width, justification_spacing
            )
            first, index = trial.get_first_line()
            if index is None and line_break.line_size(first, style)[0] <= max_width:
                space_collapse = style["white_space"] in ("normal", "nowrap", "pre-line")
                resume = len(candidate.encode())
                return line_break.first_line_metrics(
                    first, text, trial, resume, space_collapse, style, True, SEAM_MARK
                )
        return None

    # 5. Latin words in Korean text hyphenate as English (pyphen has no Korean patterns,
    # so WeasyPrint would not hyphenate them at all); Hangul has no hyphenation points.
    line_break.pyphen = LatinInKorean(line_break.pyphen)
    _PATCHED = True


class LatinInKorean:
    """``pyphen`` as WeasyPrint's line breaking sees it: a Korean text's hyphenation
    language is English, for the Latin words in it (``Flash-/Attention이``), which a
    Korean typesetter hyphenates as an English one would.  Where the CSS asks for it
    (``hyphens: auto``, book.css.j2: running text, not code, headings or cells) and
    only when the line would otherwise be left loose (``hyphenate-limit-zone``)."""

    def __init__(self, pyphen: Any) -> None:
        self._pyphen = pyphen

    def Pyphen(self, **options: Any) -> Any:  # pyphen's name, which WeasyPrint calls
        return Bounded(self._pyphen.Pyphen(**options))

    def language_fallback(self, language: str) -> str | None:
        if str(language).lower().split("-")[0].split("_")[0] == "ko":
            return str(self._pyphen.language_fallback("en_US"))
        found: str | None = self._pyphen.language_fallback(language)
        return found

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pyphen, name)


LONGEST_HYPHENATED = 48
"""Longest word hyphenated, in characters: far above any English word of a technical book.

WeasyPrint tries a layout of the line at each hyphenation point of the word, and
pyphen reads the whole word each time a line ends inside it: for a word of
thousands of letters (a hash, a pasted blob) the work grew with its square."""


class Bounded:
    """A pyphen dictionary that does not hyphenate words past :data:`LONGEST_HYPHENATED`."""

    def __init__(self, dictionary: Any) -> None:
        self._dictionary = dictionary

    def iterate(self, word: str) -> Any:
        return iter(()) if len(word) > LONGEST_HYPHENATED else self._dictionary.iterate(word)

    def positions(self, word: str) -> Any:
        return [] if len(word) > LONGEST_HYPHENATED else self._dictionary.positions(word)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._dictionary, name)


def fits_without_trailing_space(
    text: str, white_space: str, max_width: float, width: Callable[[str], float | None]
) -> bool:
    """Would ``text`` fit in ``max_width`` once its trailing spaces hang?

    WeasyPrint compares a run's width *with* its trailing space to the room
    left; a run ending in a space that fits only without it (a run after an
    inline image: ``상태를 <img>조각으로 나눠 … 랭크 <img>``) was then cut after
    its first word, leaving the line with word gaps of nine em.  ``width``
    measures a run on one line (None when it needs more than one).
    """
    if not text.endswith(" ") or white_space not in ("normal", "nowrap", "pre-line"):
        return False
    stripped = text.rstrip(" ")
    if not stripped:
        return False
    measured = width(stripped)
    return measured is not None and measured <= max_width
