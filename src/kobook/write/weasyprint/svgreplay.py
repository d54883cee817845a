"""Draw each formula once: replay the PDF operators of a math SVG drawn before.

WeasyPrint draws an SVG image by walking its tree and parsing every path's
``d`` attribute again each time it is drawn: a third of the time spent
drawing the pages of a chapter with formulas (``kobook preview --pdf``
typesets the same formulas on every save), and a book repeats the same small
formulas (``$N$``, ``$b_s$``) dozens of times.  kobook's formulas are its own
SVGs (:mod:`.mathsvg`), given as ``data:`` URIs, so their text is their
identity: the operators one drawing wrote at a given size are recorded and
appended again for the next drawing of the same formula at the same size.

Only what replays exactly is kept: a drawing that wrote no text, images,
patterns or shadings and set no graphics state but opacity (whose ``/aN``
states are added to the page's resources on replay when missing).  Colour and
opacity set before the image are forgotten before recording and replaying,
so the operators never depend on what was drawn before them.

The recording is made from a freshly parsed copy of the SVG: WeasyPrint's
``<use>`` handling changes the tree it draws (a second drawing of the same
image object adds invisible zero-size copies of some glyphs), so a recording
of whichever drawing came first would make the PDF's bytes depend on the
order of the drawings.  From a fresh copy, the operators are a function of
the SVG's text and size alone, and the PDF stays reproducible
(:mod:`kobook.reproducible`).  The kept drawings are dropped between two
documents once there are more than :data:`LIMIT` of them, never during one.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

_PATCHED = False
LIMIT = 20_000  # drawings kept across documents (a formula at one size: a few kB)
DATA_SVG = "data:image/svg+xml;base64,"
STATE = re.compile(rb"/(\S+) gs")
OPACITY = re.compile(r"[aA][0-9.]+")
# Operators a replay could not stand for: text, images and forms, shadings, marked content.
UNSAFE = re.compile(rb"(?:^|\s)(?:Tf|Tj|TJ|Do|sh|BDC|BMC|EMC|BI|ID|EI)(?:\s|$)")
RESOURCES = ("XObject", "Pattern", "Shading", "Font", "ColorSpace")


class Recording:
    """The operators of one drawing and the opacity states they name."""

    __slots__ = ("operators", "states")

    def __init__(self, operators: list[Any], states: dict[str, Any]) -> None:
        self.operators = operators
        self.states = states


_DRAWN: dict[tuple[str, float, float], Recording | None] = {}


def key_of(url: str, width: float, height: float) -> tuple[str, float, float] | None:
    """The cache key of an SVG image drawn at a size: only base64 ``data:`` SVGs have one."""
    if not url.startswith(DATA_SVG):
        return None
    return (url, width, height)


def new_document() -> None:
    """Called before each document: drop the kept drawings when there are too many."""
    if len(_DRAWN) > LIMIT:
        _DRAWN.clear()


def fresh_copy(image: Any, url: str) -> Any | None:
    """A new WeasyPrint image of the same SVG text, never drawn (None if it will not parse)."""
    from xml.etree import ElementTree

    from weasyprint import images

    try:
        tree = ElementTree.fromstring(base64.b64decode(url[len(DATA_SVG) :], validate=True))
    except (binascii.Error, ValueError, ElementTree.ParseError):
        return None
    return images.SVGImage(tree, url, image._url_fetcher, image._context)


def forget_state(stream: Any) -> None:
    """Make the stream set colour and opacity again before it relies on them."""
    stream._current_color = stream._current_color_stroke = None
    stream._current_alpha = stream._current_alpha_stroke = None


def sizes(stream: Any) -> tuple[int, ...]:
    """How many resources, images and fonts the stream's page has (a drawing adding one
    cannot be replayed on another page)."""
    resources = stream._resources
    counts = [len(resources.get(name) or ()) for name in RESOURCES]
    return (*counts, len(stream._images), len(stream._fonts))


def record(stream: Any, draw: Any) -> Recording | None:
    """Run ``draw`` on ``stream``; what it wrote, when a replay can stand for it."""
    forget_state(stream)
    start = len(stream.stream)
    before = sizes(stream)
    draw()
    operators = list(stream.stream[start:])
    if sizes(stream) != before:
        return None
    data = b"\n".join(op if isinstance(op, bytes) else str(op).encode() for op in operators)
    if UNSAFE.search(data):
        return None
    states: dict[str, Any] = {}
    for raw in STATE.findall(data):
        name = raw.decode()
        if not OPACITY.fullmatch(name) or name not in stream._resources["ExtGState"]:
            return None
        states[name] = stream._resources["ExtGState"][name]
    return Recording(operators, states)


def replay(stream: Any, recording: Recording) -> None:
    forget_state(stream)
    for name, state in recording.states.items():
        stream._resources["ExtGState"].setdefault(name, state)
    stream.stream.extend(recording.operators)
    forget_state(stream)


def install() -> None:
    """Patch WeasyPrint's SVG image drawing once."""
    global _PATCHED
    if _PATCHED:
        return
    from weasyprint import images

    original = images.SVGImage.draw

    def draw(self: Any, stream: Any, width: float, height: float, style: Any) -> None:
        url = str(getattr(self, "_base_url", "") or "")
        key = key_of(url, width, height)
        if key is not None and key in _DRAWN:
            done = _DRAWN[key]
            if done is not None:
                replay(stream, done)
                return
        fresh = fresh_copy(self, url) if key is not None and key not in _DRAWN else None
        if key is None or fresh is None:  # not ours, or not replayable: WeasyPrint draws it
            original(self, stream, width, height, style)
            return
        _DRAWN[key] = record(stream, lambda: original(fresh, stream, width, height, style))

    images.SVGImage.draw = draw
    _PATCHED = True
