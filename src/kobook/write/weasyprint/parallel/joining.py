"""The runs' PDFs made one: the front matter laid out with the page numbers the runs
found, each run after its blank page if any, one outline, one copy of each font, one
structure tree (``tagging.py``), and every internal link resolved."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ...shared.packing import write_packed
from ...shared.pdftags import without_annotations
from . import tagging
from .planning import Cut, Fallback


def outline(pages: list[list[tuple[Any, ...]]]) -> list[Any]:
    """The bookmark tree of the joined book, by WeasyPrint's own rules."""
    from weasyprint.anchors import make_page_bookmark_tree
    from weasyprint.matrix import Matrix

    root: list[Any] = []
    skipped: list[int] = []
    last_by_depth: list[list[Any]] = [root]
    previous = 0
    for number, marks in enumerate(pages):
        page = SimpleNamespace(bookmarks=marks)
        previous = make_page_bookmark_tree(page, skipped, last_by_depth, previous, number, Matrix())
    return root


def front_matter(pieces: Cut, pages: dict[str, int], settings: dict[str, Any]) -> Any:
    """The front matter laid out; with no ``pages`` yet, every contents entry shows
    ``000`` (only the page count is wanted, and it rarely depends on the digits:
    when it does, :func:`write` falls back)."""
    import weasyprint

    source = weasyprint.HTML(
        string=pieces.front_document(pages, "" if pages else "000"),
        base_url=settings["base_url"],
        url_fetcher=settings["fetcher"],
    )
    return source.render(**settings["options"])


def join(
    front: Path, parts: list[tuple[Path, int]], marks: list[list[tuple[Any, ...]]], out: Path
) -> None:
    """One PDF: the front matter, then each run after its blank page if any; every
    run's named destinations, links to anchors that are nowhere removed (as
    WeasyPrint removes them), and the outline made again over all pages."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, Destination, Fit, NameObject

    writer = PdfWriter(clone_from=str(front))
    root = writer.root_object
    if "/Outlines" in root:
        del root["/Outlines"]
    names = set(writer.named_destinations)
    digests: dict[tuple[int, int], bytes] = {}
    files = font_files(writer.pages, {}, digests)
    entries: dict[int, Any] = {}  # the runs' parent tree entries (tagging.py)
    destinations: list[tuple[str, Any]] = []
    for run, (path, blank) in enumerate(parts, start=1):
        if blank:
            writer.add_blank_page()
        # Page by page, not PdfWriter.append: it drops a link to a name the PDFs
        # appended so far lack, and a run links to chapters after it.
        reader = PdfReader(path)
        font_files(reader.pages, files, digests, learn=False)
        first = len(writer.pages)
        for page in reader.pages:
            writer.add_page(page)
        font_files(writer.pages[first:], files, digests)
        tagging.adopt(writer, reader, first, run, entries)
        for name, target in reader.named_destinations.items():
            number = reader.get_destination_page_number(target)
            place = None if number is None or number < 0 else writer.pages[first + number]
            if place is None or place.indirect_reference is None:
                raise Fallback(f"the destination {name} has no page")
            fit = Fit.xyz(target.left, target.top, target.zoom)
            destination = Destination(name, place.indirect_reference, fit)
            destinations.append((name, writer._add_object(destination.dest_array)))
            names.add(name)
    named(writer, destinations)
    dropped: set[int] = set()
    for page in writer.pages:
        annotations = page.get("/Annots")
        if annotations is None:
            continue
        kept = [a for a in annotations if not dangling(a.get_object().get("/Dest"), names)]
        if len(kept) != len(annotations):
            page[NameObject("/Annots")] = ArrayObject(kept)
            dropped |= {a.idnum for a in annotations if a not in kept and hasattr(a, "idnum")}
    # As WeasyPrint tags a link to nowhere: a Link element with no object reference.
    without_annotations(root.get("/StructTreeRoot"), dropped)

    def add(items: list[Any], parent: Any) -> None:
        for label, (page, x, y), children, state in items:
            item = writer.add_outline_item(
                title=label,
                page_number=page,
                parent=parent,
                fit=Fit.xyz(x, y, 0),
                is_open=state != "closed",
            )
            add(children, item)

    tagging.finish(writer, entries)
    add(outline(marks), None)
    write_packed(writer, out)  # object streams: the tag tree's elements compressed


def named(writer: Any, destinations: list[tuple[str, Any]]) -> None:
    """Add ``destinations`` (name, destination's reference) to the writer's name tree at
    once, in the order pypdf's ``add_named_destination_object`` would put them one by
    one: the names sorted, a name after those equal to it.  One by one, each insertion
    scanned the array from its start (a quarter of the join of a 600-page book)."""
    from pypdf.generic import TextStringObject

    array = writer.get_named_dest_root()
    pairs = [(array[i], array[i + 1]) for i in range(0, len(array) - 1, 2)]
    pairs += [(TextStringObject(name), reference) for name, reference in destinations]
    pairs.sort(key=lambda pair: str(pair[0]))
    array[:] = [item for pair in pairs for item in pair]


def dangling(target: Any, names: set[str]) -> bool:
    """Whether a link annotation's ``/Dest`` names a destination the book lacks."""
    return isinstance(target, str) and target not in names


FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


def font_files(
    pages: Any, files: dict[bytes, Any], digests: dict[tuple[int, int], bytes], learn: bool = True
) -> dict[bytes, Any]:
    """Point every font descriptor of ``pages`` whose embedded font has the bytes of one
    in ``files`` at that one; with ``learn`` (pages of the joined PDF, not of a run
    about to be added), add the others to ``files`` (digest → indirect object).

    Every run subsets a font to the glyphs the whole book uses (``subset.UNION``), so
    the font programs of the runs are the same bytes: the joined PDF keeps one.
    """
    import hashlib

    from pypdf.generic import NameObject

    for page in pages:
        resources = page.get("/Resources")
        fonts = resources.get_object().get("/Font") if resources is not None else None
        for font in (fonts.get_object() if fonts is not None else {}).values():
            for descriptor in font_descriptors(font.get_object()):
                for key in FONT_FILES:
                    reference = descriptor.raw_get(key) if key in descriptor else None
                    if reference is None or not hasattr(reference, "idnum"):
                        continue
                    where = (id(reference.pdf), reference.idnum)
                    if where not in digests:  # a font is on many pages: hash it once
                        data = reference.get_object().get_data()
                        digests[where] = hashlib.sha256(data).digest()
                    digest = digests[where]
                    if digest in files and files[digest] != reference:
                        descriptor[NameObject(key)] = files[digest]
                    elif learn:
                        files.setdefault(digest, reference)
    return files


def font_descriptors(font: Any) -> list[Any]:
    """The font descriptors of a font dictionary (a Type0 font's are its descendants')."""
    found = []
    for descendant in font.get("/DescendantFonts") or []:
        descriptor = descendant.get_object().get("/FontDescriptor")
        if descriptor is not None:
            found.append(descriptor.get_object())
    if font.get("/FontDescriptor") is not None:
        found.append(font["/FontDescriptor"].get_object())
    return found
