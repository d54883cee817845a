"""Raster images too coarse for print, read from the PDF an engine wrote (IMG006).

A printer wants 300 pixels per inch at the size the image is printed; a
screenshot set full width on a book page often has half that.  What counts is
the placed size, which only the laid-out PDF knows, so the PDF is read back
(pdfium gives each image's effective resolution) and each image of the source
is found there by its size in pixels.  Reported for a book going to print
(``print: true``, or ``pdf.bleed``/``pdf.marks``), once for every engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ...errors import Diagnostic
from ...model import Doc
from ...parse.ast import iter_nodes
from .imagefiles import image_size

PRINT_PPI = 300


def placed_resolutions(pdf: Path) -> dict[tuple[int, int], list[float]]:
    """The resolutions (pixels per inch) at which images of each pixel size are drawn in
    ``pdf``, in page order."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    placed: dict[tuple[int, int], list[float]] = {}
    document = pdfium.PdfDocument(pdf)
    try:
        for page in document:
            for image in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=4):
                width, height = image.get_px_size()
                metadata = image.get_metadata()
                ppi = min(metadata.horizontal_dpi, metadata.vertical_dpi)
                if ppi > 0:
                    placed.setdefault((int(width), int(height)), []).append(ppi)
    finally:
        document.close()
    return placed


def source_images(docs: Iterable[Doc]) -> list[tuple[Doc, str, int]]:
    """``(doc, target, occurrence)`` of each raster image the chapters show, in order;
    ``occurrence`` counts the same file name before it in the chapter."""
    found = []
    for doc in docs:
        seen: dict[str, int] = {}
        for node in iter_nodes(doc.blocks):
            if node.get("t") != "Image":
                continue
            target = str(node["c"][2][0])
            if target.lower().endswith(".svg") or "://" in target:
                continue
            name = Path(target).name
            found.append((doc, target, seen.get(name, 0)))
            seen[name] = seen.get(name, 0) + 1
    return found


def coarse_images(pdf: Path, docs: Iterable[Doc], root: Path) -> list[Diagnostic]:
    """IMG006, at the source line, for each raster image printed under :data:`PRINT_PPI`
    (an image drawn at several sizes is matched to its places in source order)."""
    placed = placed_resolutions(pdf)
    problems = []
    for doc, target, occurrence in source_images(docs):
        path = Path(target) if Path(target).is_absolute() else root / target
        size = image_size(path)
        drawn = placed.get(size, []) if size else []
        if not drawn:
            continue
        # The images of one size are met in the PDF in the order the source shows them.
        ppi = drawn.pop(0) if len(drawn) > 1 else drawn[0]
        if ppi >= PRINT_PPI - 0.5:
            continue
        name = Path(target).name
        where = doc.chapter.locate(name, occurrence) or doc.chapter.where(1, 0)
        wide = size[0] if size else 0
        problems.append(
            Diagnostic(
                "IMG006",
                f"image {name} prints at {ppi:.0f} ppi ({wide} px wide), "
                f"under the {PRINT_PPI} ppi a printer asks for",
                where,
                f"use a file with at least {wide * PRINT_PPI / ppi:.0f} px across, "
                'or print it smaller (width="50%")',
                "warning",
            )
        )
    return problems
