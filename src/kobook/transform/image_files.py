"""Is an image file really an image?  Asked once, where the chapter's line is known.

A corrupt GIF or a screenshot saved half-way used to reach the writers, where
XeLaTeX's conversion died with ``PIL.UnidentifiedImageError`` and WeasyPrint
silently left the image out.  Reading the header (for PNG, checking every
chunk; for the formats the writers convert, decoding the first frame) costs
about a millisecond per image, so the build asks before any writer does, and
IMG003 names the image and the line that uses it.  So is an image of more pixels
than :data:`~kobook.limits.MAX_IMAGE_PIXELS` (a 704 KB PNG can hold 16k × 11k
pixels, and decoding it took WeasyPrint to 2.8 GB): its size is read from the
header, before any engine decodes it.  What Pillow warns of while reading is kept
for the build to report (IMG005), never printed raw.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from pathlib import Path

from .. import limits

# Files Pillow is not asked about: kobook hands them to tools that read them whole.
SVG = {".svg"}
PDF = {".pdf"}
# verify() reads every PNG chunk (CRCs included), and JPEGs go to the PDF as they
# are; any other format (GIF, WebP, BMP, TIFF) is converted, so its first frame
# is decoded here once — these are few and small in books.
CHECKED_BY_VERIFY = {"PNG", "JPEG"}


# (path, size, mtime in ns) → the answer: ``kobook preview`` asks again on every save of
# a chapter, and reading every chunk of its PNGs was a tenth of such a rebuild.
_ANSWERS: dict[tuple[str, int, int], tuple[str, tuple[str, ...]]] = {}
KEPT = 4096


def unreadable_image(path: Path) -> str:
    """Why ``path`` is not an image kobook can use, or "" when it is one.

    Kept per file, size and modification time: a file saved again is asked again.
    """
    return answer_for(path)[0]


def image_warnings(path: Path) -> tuple[str, ...]:
    """What Pillow warned of while reading ``path`` (the build reports it, IMG005)."""
    return answer_for(path)[1]


def answer_for(path: Path) -> tuple[str, tuple[str, ...]]:
    try:
        stat = path.stat()
    except OSError as exc:
        return exc.strerror or str(exc), ()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    answer = _ANSWERS.get(key)
    if answer is None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            problem = examine(path)
        answer = (problem, tuple(dict.fromkeys(str(w.message) for w in caught)))
        if len(_ANSWERS) >= KEPT:
            _ANSWERS.clear()
        _ANSWERS[key] = answer
    return answer


def examine(path: Path) -> str:
    """What :func:`unreadable_image` says, read from the file."""
    suffix = path.suffix.lower()
    try:
        if suffix in SVG:
            return svg_problem(path.read_bytes())
        if suffix in PDF:
            with path.open("rb") as handle:
                head = handle.read(1024)
            return "" if b"%PDF-" in head else "not a PDF file"
        return pillow_problem(path)
    except OSError as exc:
        return exc.strerror or str(exc)


def svg_problem(data: bytes) -> str:
    """Why ``data`` is not an SVG every engine reads ("" when it is one): well-formed XML
    whose root is ``<svg>`` (Typst stopped at a broken one naming no file)."""
    from xml.etree import ElementTree

    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        return f"not an SVG file: not well-formed XML ({exc})"
    if root.tag.rsplit("}", 1)[-1] != "svg":
        return "no <svg> element: not an SVG file"
    return ""


def too_many_pixels(width: int, height: int) -> str:
    """Why an image of ``width`` × ``height`` is refused ("" within the pixel budget)."""
    if width * height <= limits.MAX_IMAGE_PIXELS:
        return ""
    return (
        f"{width:,} × {height:,} pixels, more than the "
        f"{limits.MAX_IMAGE_PIXELS / 1e6:g}-megapixel limit: save it smaller"
    )


@contextlib.contextmanager
def strict_loading() -> Iterator[None]:
    """Truncated data raises while inside (WeasyPrint turns that off for the process)."""
    from PIL import ImageFile

    before = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        yield
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = before


def pillow_problem(path: Path) -> str:
    """What Pillow says about ``path`` (header, and PNG chunk checksums), or ""."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:  # reads the header only
                kind = image.format
                if bomb := too_many_pixels(*image.size):
                    return bomb  # before anything is decoded, here or in any engine
                image.verify()
            if kind not in CHECKED_BY_VERIFY:
                with Image.open(path) as image, strict_loading():
                    image.load()  # the first frame: what the writers convert
    except UnidentifiedImageError:
        kind = path.suffix.lower()
        if kind and kind not in Image.registered_extensions():
            return f"kobook cannot read {kind} images: convert it to PNG or JPEG"
        return f"damaged, or not really a {kind or 'picture'} file"
    except Image.DecompressionBombError:
        return "too many pixels to be a real image (a decompression bomb?)"
    except Exception as exc:  # Pillow raises OSError, SyntaxError, ValueError... for bad data
        return str(exc) or type(exc).__name__
    return ""
