"""Even Korean paragraphs in WeasyPrint: a loose line takes words from the line before it.

WeasyPrint fills lines greedily, one at a time.  When a long word that cannot
be broken (an inline code name, ``reduce-scatter해서``) does not fit at the end
of a line, that line keeps all the slack: word gaps of two em and more, which
letter spacing (:mod:`kobook.write.weasyprint.justify`) can only partly absorb.  A
typesetter — and TeX's paragraph builder — ends the line *before* it earlier,
so that the two lines share the slack.

This module does that locally.  Each line of a justified Korean paragraph is
laid out with the next one ahead; when the next one would be loose (word gaps
above :data:`LOOSE` em beyond a space), the line is laid out again with less
room (its last words move down), and the pair whose looser line is the least
loose wins.  The line ahead is then used as laid out, so a paragraph costs
about what it did, plus a few layouts per loose line.  Paragraphs with floats,
positioned boxes or anything else laid out outside the line are left to
WeasyPrint as they are; so are other languages and unjustified text.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from typing import Any

# Justification spacing (em, beyond the normal space) above which a line counts as loose:
# with a space of about 0.27 em, a gap of about 0.9 em.
LOOSE = 0.6
# Room taken from a line to push its last words down, in em, tried in turn.
PULLS = (1.5, 3.0, 4.5, 6.0, 8.0, 10.0)

SHRINK: contextvars.ContextVar[float] = contextvars.ContextVar("kobook_line_shrink", default=0.0)
# Off: WeasyPrint's greedy lines (to measure what balancing buys: tests, scripts/bench.py).
BALANCE: contextvars.ContextVar[bool] = contextvars.ContextVar("kobook_balance", default=True)
_PATCHED = False


def looseness(line: Any) -> float:
    """The widest justification spacing of a laid-out line, in em of its text (0: none)."""
    from weasyprint.formatting_structure import boxes

    worst = 0.0
    for box in line.descendants():
        if isinstance(box, boxes.TextBox) and box.justification_spacing:
            size = box.style["font_size"] or 1.0
            worst = max(worst, box.justification_spacing / size)
    return worst


def evens(box: Any) -> bool:
    """Whether a paragraph's lines may be balanced: justified Korean text, nothing outside."""
    from weasyprint.formatting_structure import boxes

    lang = str(box.style["lang"] or "").lower()
    if not lang.startswith("ko") or box.style["text_align_all"] != "justify":
        return False
    for child in box.descendants():
        if not child.is_in_normal_flow() or isinstance(child, boxes.InlineBlockBox):
            return False
        if child.style["position"] not in ("static", "relative"):
            return False
    return True


def install() -> None:
    """Patch WeasyPrint once (safe to call many times)."""
    global _PATCHED
    if _PATCHED:
        return
    from weasyprint.formatting_structure import boxes
    from weasyprint.layout import block, inline
    from weasyprint.layout.leader import handle_leader
    from weasyprint.layout.percent import resolve_one_percentage, resolve_percentages

    original_split = inline.split_inline_box
    original_iter = inline.iter_line_boxes
    get_next_linebox = inline.get_next_linebox

    def split_inline_box(
        context: Any, box: Any, position_x: float, max_x: float, *rest: Any
    ) -> Any:
        shrink = SHRINK.get()
        if shrink and isinstance(box, boxes.LineBox):
            max_x -= shrink
        return original_split(context, box, position_x, max_x, *rest)

    def iter_line_boxes(
        context: Any,
        box: Any,
        position_y: float,
        bottom_space: float,
        skip_stack: Any,
        containing_block: Any,
        absolute_boxes: list[Any],
        fixed_boxes: list[Any],
        first_letter_style: Any,
        first_line_style: Any,
    ) -> Iterator[tuple[Any, Any]]:
        if not BALANCE.get() or context.excluded_shapes or not evens(box):
            yield from original_iter(
                context,
                box,
                position_y,
                bottom_space,
                skip_stack,
                containing_block,
                absolute_boxes,
                fixed_boxes,
                first_letter_style,
                first_line_style,
            )
            return
        resolve_percentages(box, containing_block)
        if skip_stack is None:
            resolve_one_percentage(box, "text_indent", containing_block.width)
        else:
            box.text_indent = 0
        start, indent = skip_stack, box.text_indent

        def lay(stack: Any, y: float, shrink: float = 0.0) -> tuple[Any, Any]:
            """One line from ``stack`` at ``y`` (nothing else of the paragraph is laid out)."""
            at_start = stack is start
            box.text_indent = indent if at_start else 0
            token = SHRINK.set(shrink)
            try:
                return get_next_linebox(
                    context,
                    box,
                    y,
                    bottom_space,
                    stack,
                    containing_block,
                    absolute_boxes,
                    fixed_boxes,
                    first_letter_style if at_start else None,
                    first_line_style if at_start else None,
                )
            finally:
                SHRINK.reset(token)

        def below(line: Any) -> float:
            return float(line.position_y + line.height)

        def balance(
            stack: Any, y: float, line: Any, resume_at: Any
        ) -> tuple[Any, Any, tuple[Any, Any]]:
            """The line from ``stack`` and the one after it, made even if that one is loose."""
            after = lay(resume_at, below(line))
            if after[0] is None or after[1] is None or looseness(after[0]) <= LOOSE:
                return line, resume_at, after
            best = (max(looseness(line), looseness(after[0])), line, resume_at, after)
            seen = {repr(resume_at)}
            for pull in PULLS:
                size = line.style["font_size"] or 1.0
                shorter, shorter_resume = lay(stack, y, pull * size)
                if shorter is None or shorter_resume is None or repr(shorter_resume) in seen:
                    continue
                seen.add(repr(shorter_resume))
                following = lay(shorter_resume, below(shorter))
                if following[0] is None:
                    continue
                worst = max(looseness(shorter), looseness(following[0]))
                if worst < best[0]:
                    best = (worst, shorter, shorter_resume, following)
                if worst <= LOOSE:
                    break
            return best[1], best[2], best[3]

        ahead: tuple[Any, Any] | None = None
        while True:
            if ahead is not None:
                line, resume_at = ahead
                ahead = None
            else:
                line, resume_at = lay(skip_stack, position_y)
            if line is None:
                return
            if resume_at is not None:
                line, resume_at, ahead = balance(skip_stack, position_y, line, resume_at)
            handle_leader(context, line, containing_block)
            position_y = below(line)
            yield line, resume_at
            if resume_at is None:
                return
            skip_stack = resume_at

    inline.split_inline_box = split_inline_box
    inline.iter_line_boxes = iter_line_boxes
    block.iter_line_boxes = iter_line_boxes
    _PATCHED = True
