"""Is an image file really an image?  Asked once, where the chapter's line is known.

A corrupt GIF or a screenshot saved half-way used to reach the writers, where
XeLaTeX's conversion died with ``PIL.UnidentifiedImageError`` and WeasyPrint
silently left the image out.  Reading the header (for PNG, checking every
chunk; for the formats the writers convert, decoding the first frame) costs
about a millisecond per image, so the build asks before any writer does, and
IMG003 names the image and the line that uses it.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from pathlib import Path

# Files Pillow is not asked about: kobook hands them to tools that read them whole.
SVG = {".svg"}
PDF = {".pdf"}
# verify() reads every PNG chunk (CRCs included), and JPEGs go to the PDF as they
# are; any other format (GIF, WebP, BMP, TIFF) is converted, so its first frame
# is decoded here once — these are few and small in books.
CHECKED_BY_VERIFY = {"PNG", "JPEG"}


# (path, size, mtime in ns) → the answer: ``kobook preview`` asks again on every save of
# a chapter, and reading every chunk of its PNGs was a tenth of such a rebuild.
_ANSWERS: dict[tuple[str, int, int], str] = {}
KEPT = 4096


def unreadable_image(path: Path) -> str:
    """Why ``path`` is not an image kobook can use, or "" when it is one.

    Kept per file, size and modification time: a file saved again is asked again.
    """
    try:
        stat = path.stat()
    except OSError as exc:
        return exc.strerror or str(exc)
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    answer = _ANSWERS.get(key)
    if answer is None:
        answer = examine(path)
        if len(_ANSWERS) >= KEPT:
            _ANSWERS.clear()
        _ANSWERS[key] = answer
    return answer


def examine(path: Path) -> str:
    """What :func:`unreadable_image` says, read from the file."""
    suffix = path.suffix.lower()
    try:
        if suffix in SVG:
            return "" if b"<svg" in path.read_bytes() else "no <svg> element: not an SVG file"
        if suffix in PDF:
            with path.open("rb") as handle:
                head = handle.read(1024)
            return "" if b"%PDF-" in head else "not a PDF file"
        return pillow_problem(path)
    except OSError as exc:
        return exc.strerror or str(exc)


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
            with Image.open(path) as image:
                kind = image.format
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
