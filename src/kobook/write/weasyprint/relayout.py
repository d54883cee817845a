"""Lay out again only the pages a save changed (``kobook preview --pdf``).

A translator's save changes a sentence; WeasyPrint lays out the whole chapter
again, page after page, and that layout was the largest part of the preview's
chapter PDF (a third of its time on a playbook chapter).  The pages before the
edit come out the same, and so do the pages after it once a page ends where it
ended before.  WeasyPrint already knows how to skip a page whose starting state
has not changed: its ``page_maker`` keeps, for each page, where the page
starts in the box tree (a *skip stack* of child indices), the page counters and
which side it is on, and ``make_all_pages`` lays out again only the pages
marked changed — it does so between its own passes over one document.  This
module carries that over from one document to the next:

* the element trees of the two documents are compared in document order; a
  page is *dirty* when a box on it comes from an element whose tag,
  attributes, text or tail changed (an image whose file changed counts);
* when both trees have the same shape (a text edit: the same elements, the same
  whitespace-only text), every skip stack means the same place in both, so the
  old pages and page states are handed to ``make_all_pages``: the page before
  the first dirty one (a heading kept with what follows looks one page ahead)
  through the last dirty one are laid out again, and each later page is reused
  as soon as the page before it ends where it ended before;
* when the shape changed (a paragraph added), only the pages before the first
  difference are kept, and everything after is laid out anew;
* a change outside every page (the stylesheet, the title), a footnote carried
  over a page boundary or a float broken across one: no reuse there.

The reused pages are the old document's page boxes, drawn again into the new
PDF: WeasyPrint lets pages of several documents be written together.  Only the
preview's warm PDF process sets :data:`KEPT`; ``kobook build`` lays out every
page, so its bytes never depend on what was built before.
"""

from __future__ import annotations

import contextvars
import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlparse

_PATCHED = False
# The WeasyPrint whose ``make_all_pages`` is followed here; with another the patch is
# not made and every page is laid out (the preview is slower, never wrong).
SUPPORTED = "70."


@dataclass
class Fragments:
    """What a page's boxes were when laid out, and WeasyPrint changes afterwards: the
    page's children (margin boxes are added), its root's (fixed boxes are added), and
    which sides of each box broken across pages lost their decoration (drawing copies
    a box and leaves the original without them, and a page drawn again would have
    its broken code blocks rounded off where they continue)."""

    page: tuple[Any, ...]
    root: list[Any]
    broken: list[tuple[Any, set[str]]]

    @classmethod
    def of(cls, page: Any) -> Fragments:
        broken = [
            (box, box.remove_decoration_sides)
            for box in page.descendants()
            if getattr(box, "remove_decoration_sides", None)
        ]
        return cls(tuple(page.children), list(page.children[0].children), broken)

    def restore(self, page: Any) -> None:
        page.children = self.page
        self.page[0].children = list(self.root)
        for box, sides in self.broken:
            box.remove_decoration_sides = sides


@dataclass
class Laid:
    """What one layout leaves for the next."""

    keys: list[tuple[Any, ...]]  # per element, in document order: what it shows
    shape: list[tuple[Any, ...]]  # per element: what the box tree's child indices depend on
    pages: list[Any]  # the page boxes
    fragments: list[Fragments]  # what each page's boxes were when laid out
    page_maker: list[tuple[Any, ...]]  # (resume_at, next_page, right_page, page_state) per page
    on_page: list[frozenset[int]]  # per page: the elements (indices) its boxes come from
    unsettled: list[bool]  # per page: it carried a footnote or a broken float to the next
    looks_up: list[bool]  # per page: it shows a page number found by layout (the TOC)
    # The first element (index) of a figure moved after the text that follows it
    # (figures): from there on the box tree no longer follows the source.
    moved: int | None = None


@dataclass
class Relayout:
    """The layouts of one process, kept from one document to the next."""

    last: Laid | None = None
    # Pages laid out and reused in the last document (tests, scripts/bench.py).
    made: int = 0
    reused: int = 0
    # The document being laid out: its context, its elements, the layout it reuses,
    # and per page box (by id): laid out for it, from the other, its fragments, and
    # whether it ended unsettled.
    _context: Any = None
    _tree: tuple[list[Any], list[Any], list[Any]] | None = None
    _from: Laid | None = None
    _made: set[int] = field(default_factory=set)
    _foreign: set[int] = field(default_factory=set)
    _fragments: dict[int, Fragments] = field(default_factory=dict)
    _unsettled: dict[int, bool] = field(default_factory=dict)
    _on_page: dict[int, frozenset[int]] = field(default_factory=dict)


# Set by ``kobook preview --pdf``'s PDF process (kobook.preview.typesetter).
KEPT: contextvars.ContextVar[Relayout | None] = contextvars.ContextVar(
    "kobook_relayout", default=None
)


def element_keys(
    root: Any, base: str = ""
) -> tuple[list[Any], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The elements of a tree in document order, what each shows, and its shape.

    The shape is what the box tree's child indices (and so WeasyPrint's skip
    stacks) depend on: tags, child counts, attributes (a class can hide a box)
    and whether text around an element is only white space (text beside blocks
    makes anonymous boxes).
    """
    elements = list(root.iter())
    keys = []
    shape = []
    for element in elements:
        attrib = tuple(sorted(element.attrib.items()))
        key: tuple[Any, ...] = (element.tag, attrib, element.text, element.tail)
        if element.tag == "img":
            key += (_file_state(urljoin(base, element.get("src", ""))),)
        keys.append(key)
        blanks = (_blank(element.text), _blank(element.tail))
        shape.append((element.tag, len(element), attrib, *blanks))
    return elements, keys, shape


def _blank(text: str | None) -> bool:
    return not text or text.isspace()


def _file_state(src: str) -> tuple[int, int] | None:
    """An image file's size and time: a file changed under the same name is a change."""
    parsed = urlparse(src)
    if parsed.scheme not in ("", "file"):
        return None
    try:
        stat = Path(unquote(parsed.path)).stat()
    except (OSError, ValueError):
        return None
    return (stat.st_size, stat.st_mtime_ns)


def page_elements(page: Any, index: dict[int, int]) -> frozenset[int]:
    """The indices of the elements a page's boxes come from."""
    found = set()
    for box in page.descendants():
        element = getattr(box, "element", None)
        if element is not None:
            number = index.get(id(element))
            if number is not None:
                found.add(number)
    return frozenset(found)


def plan(last: Laid, keys: list[Any], shape: list[Any]) -> tuple[int, list[bool]] | None:
    """How many old pages to hand over, and which of their starts to lay out again.

    ``None``: nothing can be reused.  Where the last layout moved a figure
    (:mod:`.figures`), its box tree no longer follows the source, and the
    skip stacks of the pages from there on mean other places in the new tree (which
    follows the source until its own layout moves the figure): only the pages
    before the one the figure was moved on are handed over.
    """
    found = _plan(last, keys, shape)
    if found is None or last.moved is None:
        return found
    moved = last.moved
    pages = len(last.pages)
    limit = next((p for p in range(pages) if any(i >= moved for i in last.on_page[p])), pages)
    count, dirty = found
    if count < limit:
        return found
    keep = limit - 1
    if keep <= 0:
        return None
    return keep, [*dirty[:keep], True]


def _plan(last: Laid, keys: list[Any], shape: list[Any]) -> tuple[int, list[bool]] | None:
    pages = len(last.pages)
    if pages == 0:
        return None
    if shape == last.shape:
        pairs = enumerate(zip(last.keys, keys, strict=True))
        changed = {i for i, (old, new) in pairs if old != new}
        touched = [p for p in range(pages) if last.on_page[p] & changed]
        placed = set().union(*(last.on_page[p] for p in touched)) & changed
        if not touched or placed != changed:  # a change no page shows (the stylesheet)
            return None
        first, end = max(touched[0] - 1, 0), touched[-1]
        dirty = [first <= p <= end or looks_up(last, p) for p in range(pages + 1)]
        # A page that carried a footnote or a float into the next is laid out with it.
        for p in range(pages - 1, -1, -1):
            if last.unsettled[p] and dirty[p + 1]:
                dirty[p] = True
        for p in range(pages):
            if last.unsettled[p]:
                dirty[p + 1] = True
        return pages, dirty
    # The shape changed: keep the pages before the first difference.
    differs = next(
        (i for i, (old, new) in enumerate(zip(last.shape, shape, strict=False)) if old != new),
        min(len(shape), len(last.shape)),
    )
    differs = next(
        (i for i, (old, new) in enumerate(zip(last.keys, keys, strict=False)) if old != new),
        differs,
    )
    first = next((p for p in range(pages) if any(i >= differs for i in last.on_page[p])), pages)
    keep = first - 1  # the page before the first change is laid out again
    while keep > 0 and last.unsettled[keep - 1]:
        keep -= 1
    if keep <= 0:
        return None
    return keep, [looks_up(last, p) for p in range(keep)] + [True]


def looks_up(last: Laid, page: int) -> bool:
    """Whether a page shows page numbers of other pages (``target-counter``: the TOC),
    which an edit elsewhere can change: such a page is always laid out again."""
    return page < len(last.looks_up) and last.looks_up[page]


def start(kept: Relayout, context: Any, html: Any) -> list[Any]:
    """Begin a document: the old pages it may reuse (``context.page_maker`` set to match)."""
    elements, keys, shape = element_keys(html.etree_element, html.base_url or "")
    kept._context, kept._tree, kept._from = context, (elements, keys, shape), None
    kept._made, kept._foreign, kept._fragments, kept._unsettled = set(), set(), {}, {}
    kept._on_page = {}
    last = kept.last
    found = plan(last, keys, shape) if last is not None else None
    if last is None or found is None:
        return []
    count, dirty = found
    pages = []
    for p in range(count):
        page = last.pages[p]
        last.fragments[p].restore(page)
        kept._unsettled[id(page)] = last.unsettled[p]
        kept._fragments[id(page)] = last.fragments[p]
        kept._on_page[id(page)] = last.on_page[p]
        kept._foreign.add(id(page))
        pages.append(page)
    context.page_maker = [
        (
            copy.deepcopy(resume_at),
            dict(next_page),
            right_page,
            copy.deepcopy(page_state),
            {"content_changed": flag, "pages_wanted": False, "anchors": [], "content_lookups": []},
        )
        for flag, (resume_at, next_page, right_page, page_state) in zip(
            dirty, last.page_maker, strict=False
        )
    ]
    kept._from = last
    return pages


def install() -> None:
    """Patch WeasyPrint once (safe to call many times); inert unless :data:`KEPT` is set."""
    global _PATCHED
    import weasyprint

    if _PATCHED or not weasyprint.__version__.startswith(SUPPORTED):
        return
    from weasyprint import layout as layout_module
    from weasyprint.layout import page as page_module

    original_make_all_pages = layout_module.make_all_pages
    remake_page = page_module.remake_page
    set_page_type_computed_styles = page_module.set_page_type_computed_styles

    def make_all_pages(context: Any, root_box: Any, html: Any, pages: list[Any]) -> Any:
        kept = KEPT.get()
        if kept is None:
            yield from original_make_all_pages(context, root_box, html, pages)
            return
        first_pass = kept._context is not context
        if first_pass:  # over a new document
            pages = start(kept, context, html)
            for page in pages:
                set_page_type_computed_styles(page.page_type, html, context.style_for)
        # WeasyPrint 70's make_all_pages, which also lays out a page again when
        # the page before carried a footnote or a broken float into it.
        i = 0
        reported_footnotes = None
        context.rendered_notes = []
        while True:
            remake_state = context.page_maker[i][-1]
            if (
                i >= len(pages)
                or context.reported_footnotes
                or context.broken_out_of_flow
                or remake_state["content_changed"]
                or remake_state["pages_wanted"]
            ):
                remake_state["content_changed"] = False
                remake_state["pages_wanted"] = False
                remake_state["anchors"] = []
                remake_state["content_lookups"] = []
                page, resume_at = remake_page(i, context, root_box, html)
                reported_footnotes = context.reported_footnotes
                kept._made.add(id(page))
                kept._unsettled[id(page)] = bool(
                    context.reported_footnotes or context.broken_out_of_flow
                )
            else:
                page = pages[i]
                resume_at = context.page_maker[i + 1][0]
                reported_footnotes = None
                if id(page) in kept._foreign:  # laid out for another document
                    kept._foreign.discard(id(page))
                    replay_anchors(context, page, i)
            if id(page) not in kept._fragments:
                kept._fragments[id(page)] = Fragments.of(page)
            yield page
            i += 1
            if resume_at is None and not reported_footnotes:
                context.page_maker = context.page_maker[: i + 1]
                context.broken_out_of_flow.clear()
                context.reported_footnotes.clear()
                if first_pass and kept._from is not None:
                    look_again(context)
                return

    layout_module.make_all_pages = make_all_pages
    _PATCHED = True


def replay_anchors(context: Any, page: Any, index: int) -> None:
    """Tell the target collector where a reused page's anchors are, as WeasyPrint's
    ``make_page`` does for a page it lays out: the TOC's page numbers come from it."""
    page_maker = context.page_maker
    values = page_maker[index + 1][3][1]  # the page counters once the page was made
    seen = {anchor for item in page_maker[: index + 1] for anchor in item[-1]["anchors"]}
    remake_state = page_maker[index][-1]
    for child in page.descendants(placeholders=True):
        anchor = child.style["anchor"]
        if anchor and anchor not in seen:
            seen.add(anchor)
            remake_state["anchors"].append(anchor)
            context.target_collector.cache_target_page_counters(anchor, values, index, page_maker)


def look_again(context: Any) -> None:
    """Fill in again the page numbers of other pages (the TOC's ``target-counter``)
    once every page of a partly reused document is placed, and lay their pages out
    again in WeasyPrint's next pass.

    WeasyPrint does this when it lays out the page the numbers point to; the
    pages reused here were not laid out (their anchors are told to the target
    collector by :func:`replay_anchors`), so it is asked for here.
    """
    page_maker = context.page_maker
    for lookup in context.target_collector.counter_lookup_items.values():
        index = lookup.page_maker_index
        if lookup.missing_target_counters and index is not None and index < len(page_maker):
            lookup.parse_again(lookup.cached_page_counter_values)
            page_maker[index][-1]["content_changed"] = True


def remember(kept: Relayout, pages: list[Any]) -> None:
    """Keep what the document just written (``pages``: its WeasyPrint ``Page`` objects)
    leaves for the next one."""
    context, tree = kept._context, kept._tree
    kept._context = kept._tree = kept._from = None
    if context is None or tree is None:
        kept.last = None
        return
    elements, keys, shape = tree
    boxes = [page._page_box for page in pages]
    index = {id(element): i for i, element in enumerate(elements)}
    # a reused page's elements are those it had (the indices are the same)
    on_page = [
        kept._on_page[id(box)] if id(box) in kept._on_page else page_elements(box, index)
        for box in boxes
    ]
    lookups = [any(child.missing_link for child in box.descendants()) for box in boxes]
    figures = getattr(context, "kobook_moved_figures", {})
    moved = [index[id(box.element)] for box in figures if id(box.element) in index]
    kept.made = sum(id(box) in kept._made for box in boxes)
    kept.reused = len(boxes) - kept.made
    kept.last = Laid(
        keys=keys,
        shape=shape,
        pages=boxes,
        fragments=[kept._fragments[id(box)] for box in boxes],
        page_maker=[item[:4] for item in context.page_maker],
        on_page=on_page,
        unsettled=[kept._unsettled.get(id(box), True) for box in boxes],
        looks_up=lookups,
        moved=min(moved, default=None),
    )
    kept._made, kept._foreign, kept._fragments, kept._unsettled = set(), set(), {}, {}
    kept._on_page = {}


def abandon(kept: Relayout) -> None:
    """A document failed midway: the next one starts from nothing."""
    if kept._context is not None:
        kept.last = None
        kept._context = kept._tree = kept._from = None
