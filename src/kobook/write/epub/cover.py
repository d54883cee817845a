"""The EPUB's cover: the book's ``cover:`` image, or one drawn from its title and names.

A reader's library shows covers; pandoc's EPUB has none unless given one, and
an EPUB without a cover is a grey tile.  The drawn cover is a PNG (every
reader shows it) in the book's heading font, so Hangul titles need nothing
downloaded.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ...boundary import inside
from ...cache import Cache, digest
from ...errors import Diagnostic, Location
from ...model import Book
from ..shared.fonts import font_face
from ..shared.setup import PrintSetup

SIZE = (1600, 2400)
BACKGROUND = (31, 58, 95)
INK = (255, 255, 255)
QUIET = (205, 218, 235)
READERS_SHOW = {".png", ".jpg", ".jpeg"}


def cover_image(
    book: Book,
    folder: Path,
    problems: list[Diagnostic],
    setup: PrintSetup,
    cache: Cache | None = None,
) -> Path:
    """The cover file to give pandoc: ``cover:`` when it is a PNG or JPEG in the book,
    else a PNG drawn into ``folder`` (EPUB002 says why the named one was not used), or the
    one drawn of the same words and fonts kept in ``cache``."""
    name = book.config.get("cover")
    if name:
        where = Location(book.config.path, book.config.line("cover"))
        path = inside(book.root / str(name), book.root, what="cover image", file=where.file)
        if path.is_file() and path.suffix.lower() in READERS_SHOW:
            return path
        problems.append(
            Diagnostic(
                "EPUB002",
                f"cover '{name}' is not a PNG or JPEG file in the book; a cover is drawn instead",
                where,
                "cover: images/cover.png",
                "warning",
            )
        )
    return drawn_cover(book, folder / "cover.png", setup.fonts.sans[0], cache)


def drawn_cover(book: Book, out: Path, family: str, cache: Cache | None = None) -> Path:
    """Title, subtitle and names on a plain ground, wrapped between words.

    Drawing and compressing it was a tenth of a second of every EPUB build, so the PNG
    is kept by what it shows and the font files it is drawn with.
    """
    config = book.config
    bold = font_face(f"{family}:bold")
    regular = font_face(family)
    fonts = sorted((face, *file_stamp(face[0])) for face in {bold, regular} if face)
    key = digest(
        "cover",
        repr((SIZE, BACKGROUND, INK, QUIET, config.title, config.get("subtitle"))),
        repr((list(config.authors), list(config.translators), config.words, fonts)),
    )
    kept = cache.get("epub-cover", key, ".png") if cache is not None else None
    if kept is not None:
        out.write_bytes(kept)
        return out
    draw_cover(book, out, bold, regular)
    if cache is not None:
        cache.put("epub-cover", key, out.read_bytes(), ".png")
    return out


def file_stamp(path: str) -> tuple[int, int]:
    """A font file's size and modification time (0, 0 when it cannot be read)."""
    try:
        info = os.stat(path)
    except OSError:
        return 0, 0
    return info.st_size, info.st_mtime_ns


def draw_cover(
    book: Book, out: Path, bold: tuple[str, int] | None, regular: tuple[str, int] | None
) -> None:
    """:func:`drawn_cover`'s drawing, into ``out``."""
    from PIL import Image, ImageDraw

    config = book.config
    image = Image.new("RGB", SIZE, BACKGROUND)
    draw = ImageDraw.Draw(image)
    margin = 140
    width = SIZE[0] - 2 * margin
    y = 520
    lines: list[tuple[str, int, tuple[int, int, int], tuple[str, int] | None]] = [
        (config.title, 120, INK, bold),
        (str(config.get("subtitle") or ""), 64, QUIET, regular),
    ]
    words = config.words
    names = [
        words.names("by", list(config.authors)) if config.authors else "",
        words.names("translated-by", list(config.translators)) if config.translators else "",
    ]
    for size, (text, points, colour, face) in enumerate(lines):
        if not text:
            continue
        font = load_font(face, points)
        for line in wrap(text, font, width, draw):
            draw.text((margin, y), line, font=font, fill=colour)
            y += int(points * 1.35)
        y += 60 if size == 0 else 40
    y = SIZE[1] - 420
    for text in names:
        if text:
            font = load_font(regular, 56)
            for line in wrap(text, font, width, draw):
                draw.text((margin, y), line, font=font, fill=QUIET)
                y += 80
    image.save(out, "PNG")


def load_font(face: tuple[str, int] | None, points: int) -> Any:
    """A Pillow font (its default bitmap font when no file was found)."""
    from PIL import ImageFont

    if face is None:
        return ImageFont.load_default(points)
    try:
        return ImageFont.truetype(face[0], points, index=face[1])
    except OSError:
        return ImageFont.load_default(points)


def wrap(text: str, font: Any, width: int, draw: Any) -> list[str]:
    """``text`` in lines no wider than ``width``, broken between words (a word wider
    than the line is broken between characters)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if draw.textlength(trial, font=font) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
        while draw.textlength(current, font=font) > width and len(current) > 1:
            cut = len(current) - 1
            while cut > 1 and draw.textlength(current[:cut], font=font) > width:
                cut -= 1
            lines.append(current[:cut])
            current = current[cut:]
    if current:
        lines.append(current)
    return lines
