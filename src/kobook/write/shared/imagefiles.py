"""Files XeLaTeX can include: SVG → PDF, GIF/WebP → PNG, emoji → PNG (all cached); and
an image file's size, which the site and the Typst engine size images by.

XeTeX reads PDF, PNG and JPEG only, and cannot draw colour emoji fonts, so
these are converted once and kept in the cache by content hash.
"""

from __future__ import annotations

import functools
import re
import shutil
from pathlib import Path

from ... import limits, tools
from ...cache import Cache, digest
from ...errors import KobookError
from .fonts import fontconfig

RASTER_OK = {".png", ".jpg", ".jpeg", ".pdf"}


def convert_image(path: Path, cache: Cache) -> Path:
    """A file XeLaTeX can include for ``path`` (the path itself when it already can)."""
    suffix = path.suffix.lower()
    if suffix in RASTER_OK:
        return path
    data = path.read_bytes()
    if suffix == ".svg":
        key = digest("svg2pdf", data)
        cached = cache.lookup("latex-img", key, ".pdf")  # only an entry that checks out
        if cached is not None:
            return cached
        tool = shutil.which("rsvg-convert")
        if tool is None:
            raise KobookError(
                f"cannot convert SVG for XeLaTeX: rsvg-convert is not installed ({path.name})",
                code="TEX002",
                file=path,
                hint="sudo apt-get install librsvg2-bin (scripts/install-system-deps.sh --tex)",
            )
        proc = tools.run(
            [tool, "-f", "pdf", str(path)],
            timeout=limits.TOOL_TIMEOUT,
            what=f"rsvg-convert on {path.name}",
            file=path,
            hint="simplify the SVG, or save it as PNG or PDF",
        )
        if proc.returncode != 0:
            raise KobookError(
                f"rsvg-convert failed: {proc.stderr.decode()[:300]}", code="TEX002", file=path
            )
        stored = cache.put("latex-img", key, proc.stdout, ".pdf")
        return stored or write_temp(proc.stdout, ".pdf")
    # GIF (first frame), WebP, BMP, TIFF → PNG
    from PIL import Image

    key = digest("topng", data)
    cached = cache.lookup("latex-img", key, ".png")  # only an entry that checks out
    if cached is not None:
        return cached
    import io

    try:
        with Image.open(io.BytesIO(data)) as image:
            image.seek(0)
            frame = image.convert("RGBA")
            buffer = io.BytesIO()
            frame.save(buffer, format="PNG")
    except Exception as exc:  # Pillow: OSError, SyntaxError, ValueError... for damaged data
        # The build checks images first (IMG003 at the chapter's line); this is what
        # only a full decode finds, such as a truncated GIF.
        raise KobookError(
            f"image file cannot be used: {path.name}: {exc or type(exc).__name__}",
            code="IMG003",
            file=path,
            hint="open it in an image editor and save it again as PNG or JPEG",
        ) from None
    stored = cache.put("latex-img", key, buffer.getvalue(), ".png")
    return stored or write_temp(buffer.getvalue(), ".png")


def write_temp(data: bytes, suffix: str) -> Path:
    import tempfile

    fd, name = tempfile.mkstemp(suffix=suffix, prefix="kobook-")
    with open(fd, "wb") as handle:
        handle.write(data)
    return Path(name)


@functools.cache
def emoji_font_file() -> str | None:
    out = fontconfig("fc-match", "--format=%{file}", "emoji:color=true").strip()
    if out and "emoji" in out.lower():
        return out
    out = fontconfig("fc-list", ":family=Noto Color Emoji", "file").strip()
    return out.split(":", 1)[0] if out else None


def emoji_image(sequence: str, cache: Cache) -> Path | None:
    """A PNG of ``sequence`` drawn with the colour emoji font, or None without one."""
    font_file = emoji_font_file()
    if font_file is None:
        return None
    key = digest("emoji", font_file, sequence)
    cached = cache.lookup("emoji", key, ".png")  # only an entry that checks out
    if cached is not None:
        return cached
    import io

    from PIL import Image, ImageDraw, ImageFont

    try:
        font = ImageFont.truetype(font_file, 109)
    except OSError:
        return None
    canvas = Image.new("RGBA", (300, 160), (0, 0, 0, 0))
    ImageDraw.Draw(canvas).text((10, 10), sequence, font=font, embedded_color=True)
    box = canvas.getbbox()
    if box is None:
        return None
    buffer = io.BytesIO()
    canvas.crop(box).save(buffer, format="PNG")
    stored = cache.put("emoji", key, buffer.getvalue(), ".png")
    return stored or write_temp(buffer.getvalue(), ".png")


def image_size(path: Path) -> tuple[int, int] | None:
    """An image file's size in pixels (CSS pixels for an SVG), or None when it is not an
    image kobook can read (or no file); read once per file and modification time."""
    try:
        return header_size(path, path.stat().st_mtime_ns)
    except OSError:
        return None


@functools.lru_cache(maxsize=4096)
def header_size(path: Path, _mtime: int) -> tuple[int, int] | None:
    """The size the file's header gives: Pillow's for a raster image (it reads no pixels
    for it), the root element's ``width``/``height`` or ``viewBox`` for an SVG."""
    if path.suffix.lower() == ".svg":
        return svg_size(path)
    from PIL import Image

    try:
        with Image.open(path) as image:
            return image.size
    except Exception:  # a format Pillow does not know, or a broken file
        return None


SVG_ROOT = re.compile(rb"<svg\b[^>]*>", re.S)
NUMBER = r"\s*([0-9]+(?:\.[0-9]+)?)\s*(?:px)?\s*"


def svg_size(path: Path) -> tuple[int, int] | None:
    """An SVG's size in CSS pixels from its root element (the first 8 KB of the file)."""
    with path.open("rb") as file:
        head = SVG_ROOT.search(file.read(8192))
    if head is None:
        return None
    tag = head.group(0).decode("utf-8", "replace")
    width = re.search(rf'\swidth="{NUMBER}"', tag)
    height = re.search(rf'\sheight="{NUMBER}"', tag)
    if width and height:
        return round(float(width.group(1))), round(float(height.group(1)))
    box = re.search(r'\sviewBox="\s*[-0-9.]+[\s,]+[-0-9.]+[\s,]+([0-9.]+)[\s,]+([0-9.]+)\s*"', tag)
    if box:
        return round(float(box.group(1))), round(float(box.group(2)))
    return None
