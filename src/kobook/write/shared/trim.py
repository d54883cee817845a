"""A print-ready PDF: bleed, crop and registration marks, and the page boxes a printer reads.

Every engine lays out the trimmed page (the book's ``papersize``); this module,
run once on whichever engine's PDF, grows each page by the bleed and a slug for
the marks, and says where the sheet is cut:

* ``/TrimBox`` — the finished page, where the engine put it;
* ``/BleedBox`` — the trim plus ``pdf.bleed`` on every side;
* ``/MediaBox`` and ``/CropBox`` — the bleed plus the slug, when marks are drawn.

Crop marks are hairlines in line with the trim edges, starting outside the bleed
(so they never print on the page); registration marks are circled crosses at the
middle of each side.  Both are drawn in the ``/All`` separation, which prints on
every plate.  The page's own content is wrapped in ``q``…``Q`` first, so no state
it leaves behind moves the marks.  The engines differ in how they draw; where the
sheet is cut is decided here, once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .packing import write_packed

MM = 72 / 25.4
# Crop marks start this far outside the bleed and run this long (points).
MARK_GAP = 3.0
MARK_LENGTH = 5 * MM
# The slug around the bleed that holds the marks.
SLUG = MARK_GAP + MARK_LENGTH + 1 * MM
REGISTRATION_RADIUS = 1.5 * MM
HAIRLINE = 0.25


@dataclass(frozen=True)
class Trim:
    """How a PDF is made ready for the printer: ``bleed`` in points, ``marks`` drawn."""

    bleed: float
    marks: bool

    @property
    def margin(self) -> float:
        """How far the sheet reaches beyond the trim on each side."""
        return self.bleed + (SLUG if self.marks else 0.0)


def boxes(width: float, height: float, trim: Trim) -> dict[str, list[float]]:
    """The page boxes for a trimmed page ``width`` × ``height`` whose lower left corner
    is at the origin (the content keeps its coordinates)."""
    bleed, sheet = trim.bleed, trim.margin
    return {
        "/TrimBox": [0.0, 0.0, width, height],
        "/BleedBox": [-bleed, -bleed, width + bleed, height + bleed],
        "/MediaBox": [-sheet, -sheet, width + sheet, height + sheet],
        "/CropBox": [-sheet, -sheet, width + sheet, height + sheet],
    }


def _line(x0: float, y0: float, x1: float, y1: float) -> str:
    return f"{x0:.2f} {y0:.2f} m {x1:.2f} {y1:.2f} l S"


def _registration(x: float, y: float) -> list[str]:
    """A circled cross centred on ``(x, y)`` (the circle as four Bézier quarters)."""
    r, k = REGISTRATION_RADIUS, REGISTRATION_RADIUS * 0.5523
    circle = (
        f"{x + r:.2f} {y:.2f} m "
        f"{x + r:.2f} {y + k:.2f} {x + k:.2f} {y + r:.2f} {x:.2f} {y + r:.2f} c "
        f"{x - k:.2f} {y + r:.2f} {x - r:.2f} {y + k:.2f} {x - r:.2f} {y:.2f} c "
        f"{x - r:.2f} {y - k:.2f} {x - k:.2f} {y - r:.2f} {x:.2f} {y - r:.2f} c "
        f"{x + k:.2f} {y - r:.2f} {x + r:.2f} {y - k:.2f} {x + r:.2f} {y:.2f} c S"
    )
    reach = r * 1.6
    return [circle, _line(x - reach, y, x + reach, y), _line(x, y - reach, x, y + reach)]


def marks(width: float, height: float, trim: Trim) -> str:
    """The content stream of the crop and registration marks (``/KbAll``: the ``/All``
    separation, named in the page's resources by :func:`finish`)."""
    start = trim.bleed + MARK_GAP
    end = start + MARK_LENGTH
    ops = ["q", "/KbAll CS 1 SCN", f"{HAIRLINE} w"]
    for x in (0.0, width):
        for y in (0.0, height):
            out_x = -1 if x == 0 else 1
            out_y = -1 if y == 0 else 1
            ops.append(_line(x + out_x * start, y, x + out_x * end, y))  # horizontal
            ops.append(_line(x, y + out_y * start, x, y + out_y * end))  # vertical
    middle = start + MARK_LENGTH / 2
    for x, y in (
        (width / 2, -middle),
        (width / 2, height + middle),
        (-middle, height / 2),
        (width + middle, height / 2),
    ):
        ops += _registration(x, y)
    ops.append("Q")
    return "\n".join(ops)


def finish(src: Path, dst: Path, trim: Trim) -> None:
    """Write ``src`` to ``dst`` with the bleed, the page boxes and (``trim.marks``) the
    crop and registration marks of every page."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        FloatObject,
        NameObject,
        NumberObject,
    )

    writer = PdfWriter(clone_from=PdfReader(src))
    all_plates = None
    if trim.marks:
        tint = DictionaryObject(
            {
                NameObject("/FunctionType"): NumberObject(2),
                NameObject("/Domain"): ArrayObject([NumberObject(0), NumberObject(1)]),
                NameObject("/C0"): ArrayObject([NumberObject(0)] * 4),
                NameObject("/C1"): ArrayObject([NumberObject(1)] * 4),
                NameObject("/N"): NumberObject(1),
            }
        )
        separation = ArrayObject(
            [NameObject("/Separation"), NameObject("/All"), NameObject("/DeviceCMYK"), tint]
        )
        all_plates = writer._add_object(separation)

    def stream(text: str) -> object:
        data = DecodedStreamObject()
        data.set_data(text.encode("ascii"))
        return writer._add_object(data)

    for page in writer.pages:
        box = page.trimbox if "/TrimBox" in page else page.mediabox
        left, bottom = float(box.left), float(box.bottom)
        width, height = float(box.width), float(box.height)
        for name, values in boxes(width, height, trim).items():
            shifted = [v + (left if i % 2 == 0 else bottom) for i, v in enumerate(values)]
            page[NameObject(name)] = ArrayObject(FloatObject(round(v, 3)) for v in shifted)
        if all_plates is None:
            continue
        contents = page.get("/Contents")
        existing = contents.get_object() if contents is not None else None
        parts = list(existing) if isinstance(existing, list) else [contents]
        drawn = marks(width, height, trim)
        if left or bottom:
            drawn = f"q 1 0 0 1 {left:.3f} {bottom:.3f} cm\n{drawn}\nQ"
        page[NameObject("/Contents")] = ArrayObject(
            [stream("q"), *[p for p in parts if p is not None], stream("Q"), stream(drawn)]
        )
        resources = page.get("/Resources")
        resources = resources.get_object() if resources is not None else DictionaryObject()
        spaces = resources.get("/ColorSpace")
        spaces = spaces.get_object() if spaces is not None else DictionaryObject()
        spaces = DictionaryObject(spaces)  # a copy: resources may be shared by pages
        spaces[NameObject("/KbAll")] = all_plates
        resources = DictionaryObject(resources)
        resources[NameObject("/ColorSpace")] = spaces
        page[NameObject("/Resources")] = resources
    write_packed(writer, dst)


def finish_in_place(pdf: Path, trim: Trim) -> None:
    """:func:`finish` on the written PDF, through a temporary file moved into place."""
    from .common import atomic_output

    with atomic_output(pdf) as tmp:
        finish(pdf, tmp, trim)
