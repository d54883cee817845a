"""Even justified Korean lines in WeasyPrint: spread slack between syllables (자간 조정).

WeasyPrint justifies a line by widening its spaces only (``justify_line`` in
``weasyprint/layout/inline.py``).  Korean is broken between words (어절), and a
long word that does not fit leaves its slack to the few spaces of the line:
gaps of two em and more (``층의   all-gather를   현재``).  A Korean typesetter
lets the word spaces grow a little, then opens the letters of the line by a
small, capped amount, and only then widens the spaces further.

This module replaces ``justify_line`` with that rule for lines in a Korean
(``lang`` ``ko``) paragraph that contain Hangul:

* up to ``SPACE_STRETCH`` em per space goes to the spaces, as WeasyPrint does;
* the rest, up to ``LETTER_MAX`` em per syllable, becomes letter spacing on
  the line's Hangul (not on Latin words, whose letters a reader sees pulled apart
  — ``b a c k w a r d`` —, nor on inline code, which keeps its fixed pitch);
* what is still left goes to the spaces.

The letter spacing is a Pango ``letter_spacing`` attribute on the non-space
runs of each text box's layout, added when WeasyPrint re-creates the layout to
draw it (``Layout.set_text(..., justify=True)``); the width it adds is measured
from Pango, so boxes after it move by exactly that much.  Which words end a
line is still WeasyPrint's greedy choice (a paragraph-level optimisation of the
breaks is not done here).  Installing is idempotent; other languages and
unjustified lines are left to WeasyPrint.
"""

from __future__ import annotations

import re
from typing import Any

# Per space, the extra width (in em of the line's font) spaces take before letters open.
SPACE_STRETCH = 0.16
# Per syllable, the most letter spacing a justified line gets (em): under the 0.1 em gap
# at which text extractors (poppler, pdfium) read a space, so a copied word stays whole.
LETTER_MAX = 0.08
HANGUL = re.compile(r"[\uac00-\ud7a3]")
LETTERED = re.compile(r"[\uac00-\ud7a3]+")
FIXED_PITCH = ("code", "kbd", "samp", "tt", "pre")

_PATCHED = False


def letter_budget(extra: float, spaces: int, letters: int, em: float) -> float:
    """Letter spacing (points per character) for a line with ``extra`` points of slack.

    Spaces first take up to ``SPACE_STRETCH`` em each; letters take the rest up to
    ``LETTER_MAX`` em each.  Pure so the rule can be tested without WeasyPrint.
    """
    if letters <= 0 or extra <= 0:
        return 0.0
    rest = extra - SPACE_STRETCH * em * spaces
    if rest <= 0:
        return 0.0
    return min(LETTER_MAX * em, rest / letters)


def byte_spans(text: str) -> list[tuple[int, int]]:
    """UTF-8 byte ranges of the runs of Hangul, the letters that open on a justified line
    (Pango indexes attributes in bytes)."""
    spans = []
    for match in LETTERED.finditer(text):
        start = len(text[: match.start()].encode())
        spans.append((start, start + len(match.group().encode())))
    return spans


def is_korean_line(line: Any, text: str) -> bool:
    """Whether the line belongs to a Korean paragraph and holds Hangul."""
    lang = str(line.style["lang"] or "").lower()
    return lang.startswith("ko") and bool(HANGUL.search(text))


def install() -> None:
    """Patch WeasyPrint once (safe to call many times)."""
    global _PATCHED
    if _PATCHED:
        return
    from weasyprint.formatting_structure import boxes
    from weasyprint.layout import inline as inline_layout
    from weasyprint.text import line_break
    from weasyprint.text.ffi import TO_UNITS, ffi, pango

    original_justify = inline_layout.justify_line
    count_spaces = inline_layout.count_expandable_spaces
    create_layout = line_break.create_layout

    def text_boxes(box: Any) -> list[Any]:
        if isinstance(box, boxes.TextBox):
            return [box]
        if isinstance(box, (boxes.LineBox, boxes.InlineBox)):
            return [b for c in box.children if c.is_in_normal_flow() for b in text_boxes(c)]
        return []

    def spaceable(box: Any) -> bool:
        return box.element_tag not in FIXED_PITCH and "mono" not in " ".join(
            box.style["font_family"]
        )

    def width_of(box: Any, context: Any, spacing: float, letters: float) -> float:
        layout = create_layout(box.text, box.style, context, None, spacing)
        layout.kobook_letter_spacing = letters
        layout.set_text(box.text, justify=True)
        first, _ = layout.get_first_line()
        return float(line_break.line_size(first, box.style)[0])

    def justify_line(context: Any, line: Any, extra_width: float) -> None:
        texts = text_boxes(line)
        if extra_width <= 0 or not is_korean_line(line, "".join(b.text for b in texts)):
            return original_justify(context, line, extra_width)
        spaced = [b for b in texts if spaceable(b)]
        letters = sum(len(m.group()) for b in spaced for m in LETTERED.finditer(b.text))
        nb_spaces = count_spaces(line)
        letter = letter_budget(extra_width, nb_spaces, letters, line.style["font_size"])
        if not letter:
            return original_justify(context, line, extra_width)
        added = {}
        for box in spaced:
            added[id(box)] = width_of(box, context, 0, letter) - width_of(box, context, 0, 0)
        rest = extra_width - sum(added.values())
        spacing = max(0.0, rest / nb_spaces) if nb_spaces else 0.0
        spread(context, line, spacing, letter, added, 0.0)
        return None

    def spread(
        context: Any, box: Any, spacing: float, letter: float, added: dict[int, float], x: float
    ) -> float:
        """``add_word_spacing`` that also applies the measured letter spacing."""
        if isinstance(box, boxes.TextBox):
            box.justification_spacing = spacing
            box.position_x += x
            grow = added.get(id(box), 0.0)
            nb_spaces = count_spaces(box)
            if nb_spaces or grow:
                layout = create_layout(box.text, box.style, context, None, spacing)
                layout.kobook_letter_spacing = letter if id(box) in added else 0
                layout.deactivate()
                grow += spacing * nb_spaces
                box.pango_layout = layout
                box.width += grow
                x += grow
        elif isinstance(box, (boxes.LineBox, boxes.InlineBox)):
            box.position_x += x
            before = x
            children = box.children[::-1] if box.style["direction"] == "rtl" else box.children
            for child in children:
                if child.is_in_normal_flow():
                    x = spread(context, child, spacing, letter, added, x)
            box.width += x - before
        else:
            box.translate(x, 0)
        return x

    original_set_text = line_break.Layout.set_text

    def set_text(self: Any, text: str, justify: bool = False) -> None:
        original_set_text(self, text, justify)
        letters = getattr(self, "kobook_letter_spacing", 0)
        if not (justify and letters and self.text):
            return
        attr_list = pango.pango_layout_get_attributes(self.layout)
        if attr_list == ffi.NULL:
            attr_list = ffi.gc(pango.pango_attr_list_new(), pango.pango_attr_list_unref)
        units = int(letters * TO_UNITS)
        for start, end in byte_spans(self.text):
            attr = pango.pango_attr_letter_spacing_new(units)
            attr.start_index, attr.end_index = start, end
            pango.pango_attr_list_change(attr_list, attr)
        pango.pango_layout_set_attributes(self.layout, attr_list)

    line_break.Layout.set_text = set_text
    inline_layout.justify_line = justify_line
    _PATCHED = True
