"""A figure that does not fit goes to the next page; the text after it fills the gap.

A figure is kept whole (``break-inside: avoid``): when it does not fit in
what is left of a page, WeasyPrint starts the next page with it and leaves the
rest of this one white — a third of a page at times (issue 11: "big white
gaps before unsplittable images").  CSS page floats (``float: top``), which
would let the text go on, are not implemented in WeasyPrint.  LaTeX floats
such a figure to the top of the next page and goes on with the text; a
Korean typesetter does the same.

This module does it within WeasyPrint's page maker.  When a page ends right
before a figure (or a paragraph that is only an image) and leaves more than
:data:`GAP` of its height white, the figure — with the figures right after it
— is moved after the block that follows it (a paragraph, a list, a callout, a
section heading and what it is kept with; never another figure or a table,
never out of its chapter) and the page is made again, as long as the page
gets fuller: the figure lands at the top of the next page, as LaTeX's floats
do, near the text that cites it.  Numbers and cross-references are in the
text already (the transforms number figures), so they do not change; only
where the figure sits does.  The move is made in the box tree of the document
being laid out, never in the sources, and is told to
:mod:`.relayout` (the preview's page reuse).
"""

from __future__ import annotations

import contextvars
import copy
from typing import Any

# The white a page may keep before a figure that goes to the next page (of the page's height).
GAP = 0.15
# The most blocks a figure is moved past at once (a heading and the paragraph it is
# kept with are two), and in all: a page's worth of short paragraphs at most, so a
# figure lands at the top of the next page, as LaTeX's floats do, and no further.
MOVES = 3
MOST = 12
# Blocks a figure may be moved past: running text and the headings of sections (as
# LaTeX floats do), not another figure or table.
MOVABLE = {"p", "ul", "ol", "dl", "blockquote", "div", "h2", "h3", "h4", "h5", "h6"}
# Off: WeasyPrint's own placement (tests, to compare).
FLOAT: contextvars.ContextVar[bool] = contextvars.ContextVar("kobook_float_figures", default=True)
_PATCHED = False


def starts_with(root: Any, resume_at: dict[int, Any] | None) -> tuple[Any, int] | None:
    """The parent box and child index where a page starting at ``resume_at`` begins,
    when it begins at the start of that child (not inside it)."""
    if not resume_at:
        return None
    box = root
    while True:
        if len(resume_at) != 1:
            return None
        ((index, deeper),) = resume_at.items()
        children = getattr(box, "children", None)
        if not children or index >= len(children):
            return None
        if deeper is None:
            return box, index
        box, resume_at = children[index], deeper


def is_figure(box: Any) -> bool:
    """A figure, or a paragraph that is only an image (no caption): either is kept whole."""
    from weasyprint.formatting_structure import boxes

    tag = getattr(box, "element_tag", None)
    if tag == "figure":
        return True
    if tag != "p":
        return False
    images = 0
    for child in box.descendants():
        if isinstance(child, boxes.ReplacedBox):
            images += 1
        elif isinstance(child, boxes.TextBox) and child.text.strip():
            return False
    return images == 1


def movable(box: Any) -> bool:
    """A block the figure may go past: running text or a heading, in the normal flow,
    holding no figure itself."""
    if getattr(box, "element_tag", None) not in MOVABLE or not box.is_in_normal_flow():
        return False
    if is_figure(box):
        return False
    if box.style["break_before"] in ("page", "left", "right", "recto", "verso"):
        return False
    return not any(is_figure(child) for child in box.descendants())


def white_below(page: Any) -> float:
    """The fraction of the page's content height left white under its last line or image
    (the blocks around them reach down to the page's bottom)."""
    from weasyprint.formatting_structure import boxes

    root = page.children[0]
    top = page.content_box_y()
    height = page.height
    if height <= 0:
        return 0.0
    bottom = top
    for box in root.descendants():
        if isinstance(box, (boxes.LineBox, boxes.ReplacedBox)):
            bottom = max(bottom, box.position_y + box.margin_height())
    footnotes = page.children[1] if len(page.children) > 1 else None
    floor = top + height
    if footnotes is not None and getattr(footnotes, "children", None):
        floor = min(floor, footnotes.position_y)
    return max(floor - bottom, 0.0) / height


def install() -> None:
    """Patch WeasyPrint's page maker once (safe to call many times)."""
    global _PATCHED
    if _PATCHED:
        return
    from weasyprint.layout import page as page_module

    original = page_module.make_page

    def make_page(
        context: Any,
        root_box: Any,
        page_type: Any,
        resume_at: Any,
        page_number: int,
        page_state: Any,
    ) -> Any:
        if not FLOAT.get() or page_type.blank:
            return original(context, root_box, page_type, resume_at, page_number, page_state)
        saved = _Saved(context, page_state, page_number)
        moves = moved(context)

        def make() -> Any:
            return original(context, root_box, page_type, resume_at, page_number, page_state)

        made = make()
        while True:
            page, next_resume_at, _next_page = made
            found = starts_with(root_box, next_resume_at)
            if found is None or not is_figure(found[0].children[found[1]]):
                break
            parent, index = found
            white = white_below(page)
            if white <= GAP:
                break
            better, tried = float_figures(parent.children, index, moves, white, saved, make)
            if better is None:
                if not tried:
                    break
                saved.restore()  # the tries changed the layout context
                return make()
            made = better
        return made

    page_module.make_page = make_page
    _PATCHED = True


def float_figures(
    children: list[Any],
    index: int,
    moves: dict[Any, int],
    white: float,
    saved: _Saved,
    make: Any,
) -> tuple[Any | None, bool]:
    """Move the figures starting at ``children[index]`` (one, or several in a row) after
    the next block, or the next two, … up to :data:`MOVES`; the page made again with the
    first move that leaves it less white, or ``None`` (the order put back as it was),
    and whether a page was made in trying (the caller must then make it again).

    A heading moved before a figure may be kept with what follows it and go to the
    next page anyway: moving past the paragraph after it too is what helps then.
    """
    end = index + 1
    while end < len(children) and is_figure(children[end]):
        end += 1
    figures = children[index:end]
    if any(moves.get(figure, 0) >= MOST for figure in figures):
        return None, False
    before = children[index:]
    tried = False
    for count in range(1, MOVES + 1):
        past = before[len(figures) : len(figures) + count]
        if len(past) < count or not movable(past[-1]):
            break
        children[index:] = [*past, *figures, *before[len(figures) + count :]]
        saved.restore()
        made = make()
        tried = True
        if white_below(made[0]) < white:
            for figure in figures:
                moves[figure] = moves.get(figure, 0) + count
            return made, True
        children[index:] = before
    children[index:] = before
    return None, tried


def moved(context: Any) -> dict[Any, int]:
    """The figures moved in the document being laid out (figure box → blocks moved past):
    a figure moves at most :data:`MOST` blocks in all, however often its page is made
    (WeasyPrint makes pages again to fill in the contents' page numbers), and
    :mod:`.relayout` must know where the box tree no longer follows the source."""
    found: dict[Any, int] | None = getattr(context, "kobook_moved_figures", None)
    if found is None:
        found = {}
        context.kobook_moved_figures = found
    return found


class _Saved:
    """What making a page changes in the layout context, kept to make it again."""

    def __init__(self, context: Any, page_state: Any, page_number: int) -> None:
        self.context = context
        self.state = page_state
        self.page_state = copy.deepcopy(page_state)
        self.footnotes = list(context.footnotes)
        self.reported = list(context.reported_footnotes)
        self.broken = dict(context.broken_out_of_flow)
        remake = context.page_maker[page_number - 1][-1]
        self.remake = remake
        self.anchors = list(remake["anchors"])
        self.lookups = list(remake["content_lookups"])

    def restore(self) -> None:
        """Put the context and the page state back as they were before the page (the
        state in place: WeasyPrint keeps that object for the next page)."""
        quote_depth, counters, scopes, groups = self.state
        kept = copy.deepcopy(self.page_state)
        quote_depth[:] = kept[0]
        counters.clear()
        counters.update(kept[1])
        scopes[:] = kept[2]
        groups[:] = kept[3]
        context = self.context
        context.footnotes[:] = self.footnotes
        context.reported_footnotes = list(self.reported)
        context.broken_out_of_flow = dict(self.broken)
        self.remake["anchors"][:] = self.anchors
        self.remake["content_lookups"][:] = self.lookups
