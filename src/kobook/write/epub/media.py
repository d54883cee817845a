"""The EPUB's images: each one a copy in pandoc's working folder, named by its bytes.

Copies, not ``data:`` URLs (a book's images in base64 inside the JSON handed to
pandoc made its heap several times their size); only the core media types every
reader shows (a WebP or BMP becomes a PNG, an SVG is cleaned); media and frames
in raw HTML keep their fallback text.  What is left out is EPUB001, where the
chapter has it.
"""

from __future__ import annotations

import hashlib
import re
from html import escape, unescape
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from ...errors import Diagnostic, Location
from ...model import Doc
from ...parse.ast import iter_nodes, rewrite
from ..shared import svgclean

# What EPUB 3 readers must show (core media types): anything else is converted or left out.
CORE_IMAGES = {".png", ".jpg", ".jpeg", ".gif", ".svg"}
RAW_TAG = re.compile(r"<(/?)([a-zA-Z][\w-]*)\b[^>]*>")
MEDIA = {"video", "audio", "source", "track", "picture", "iframe", "object", "embed"}
RAW_SRC = re.compile(r'\s(?:src|poster)="([^"]*)"', re.IGNORECASE)
STAND_IN = b"kobook-media:"  # what pandoc copies in place of an image (Media.write)


class Media:
    """The images of the EPUB, each under a name made from its bytes: pandoc reads them
    from its working folder, where nothing else kobook did not put there can be found.

    Copies, not ``data:`` URLs: a book's images in base64 inside the JSON handed to
    pandoc made its heap several times the size of the images.
    """

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.paths: dict[str, Path] = {}  # name → the file it was made from

    def add(self, data: bytes, suffix: str, path: Path | None = None) -> str:
        """The name of ``data`` in the working folder (the same bytes, the same name)."""
        name = f"media-{hashlib.sha256(data).hexdigest()[:20]}{suffix}"
        self.files[name] = data
        if path is not None:
            self.paths.setdefault(name, path)
        return name

    def add_files(self, paths: dict[str, Path]) -> bool:
        """The files a kept chapter named, made again under the same names; False when one
        no longer makes its name (the chapter is then prepared again)."""
        for name, path in paths.items():
            found = encode(path) if path.is_file() else None
            if found is None or self.add(*found, path) != name:
                return False
        return True

    def write(self, folder: Path) -> None:
        """Each image's stand-in in pandoc's working folder, which names it.

        pandoc copies an image into the container without reading it (the pages and
        the package it writes are the same byte for byte), so it is given the name
        alone and :meth:`restore` puts the image in its place afterwards: pandoc
        deflating megabytes of PNG and JPEG again was a third of its time.
        """
        for name in self.files:
            (folder / name).write_bytes(STAND_IN + name.encode("ascii"))

    def restore(self, data: bytes) -> bytes:
        """An entry of pandoc's container, the image in place of its stand-in."""
        if data.startswith(STAND_IN):
            return self.files[data[len(STAND_IN) :].decode("ascii")]
        return data


def inline_images(
    blocks: list[Any], doc: Doc, folders: list[Path], media: Media, problems: list[Diagnostic]
) -> list[Any]:
    """Each image as the name of its copy in :class:`Media`, or its alt text and EPUB001."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Image":
            return None
        data = image_file(node["c"][2][0], folders, media)
        if data is None:
            problems.append(left_out(doc, node["c"][2][0]))
            return {"t": "Span", "c": [["", ["image-left-out"], []], node["c"][1]]}
        node["c"][2][0] = data
        return node

    return rewrite(blocks, action)


def raw_media(
    blocks: list[Any], doc: Doc, folders: list[Path], media: Media, problems: list[Diagnostic]
) -> list[Any]:
    """Raw HTML ``img`` with the copy of its file (:class:`Media`).  Media and frames (``video``,
    ``audio``, ``iframe``, …: not what every reader plays) lose their tags, start and
    end, and keep their fallback text; any other ``src`` or ``poster`` goes, and so does
    an image kobook cannot read.  Each is EPUB001: pandoc would fetch it, from
    anywhere, or leave a reference the EPUB does not hold."""

    def replace(match: re.Match[str]) -> str:
        tag, name = match.group(0), match.group(2).lower()
        if match.group(1):  # an end tag
            return "" if name in MEDIA else tag
        source = RAW_SRC.search(tag)
        if name in MEDIA:
            if name not in ("source", "track"):
                problems.append(left_out(doc, unescape(source.group(1)) if source else name))
            return ""
        if source is None:
            return tag
        if name == "img" and len(RAW_SRC.findall(tag)) == 1:
            data = image_file(unescape(source.group(1)), folders, media)
            if data is not None:
                tag = re.sub(r'\ssrcset="[^"]*"', "", tag)
                return tag.replace(source.group(0), f' src="{escape(data)}"')
        problems.append(left_out(doc, unescape(source.group(1))))
        return "" if name == "img" else RAW_SRC.sub("", tag)

    for node in iter_nodes(blocks):
        if node["t"] in ("RawBlock", "RawInline") and node["c"][0] == "html":
            node["c"][1] = RAW_TAG.sub(replace, node["c"][1])
    return blocks


def image_file(url: str, folders: list[Path], media: Media) -> str | None:
    """The image at ``url`` (relative to the book, or a file in the cache) copied into
    ``media``: its name there; None when it is elsewhere, missing, remote or not a type
    every reader shows."""
    if url.startswith("data:image/"):
        return url
    parsed = urlparse(url)
    if parsed.scheme not in ("", "file"):
        return None
    path = Path(unquote(parsed.path))
    for folder in folders:
        candidate = (path if path.is_absolute() else folder / path).resolve()
        if candidate.is_relative_to(folder) and candidate.is_file():
            found = encode(candidate)
            return None if found is None else media.add(*found, candidate)
    return None


def encode(path: Path) -> tuple[bytes, str] | None:
    """A file's bytes and suffix as the EPUB holds it: a WebP or BMP as PNG (not a core
    media type), an SVG without its document type declaration (EPUB 3 allows none:
    OPF-073, HTM-003)."""
    suffix = path.suffix.lower()
    data = path.read_bytes()
    if suffix == ".svg":
        cleaned = epub_svg(data)
        if cleaned is None:
            return None
        data = cleaned
    if suffix not in CORE_IMAGES:
        try:
            from io import BytesIO

            from PIL import Image

            with Image.open(BytesIO(data)) as image:
                converted = BytesIO()
                image.save(converted, "PNG")
        except Exception:  # a PDF figure, a broken file: left out, and said so
            return None
        data, suffix = converted.getvalue(), ".png"
    return data, suffix


SVG_IMAGE = re.compile(rb"<image\b[^>]*>")
IMAGE_PAINT = re.compile(rb'\s(?:fill|fill-rule|fill-opacity|stroke[\w-]*)="[^"]*"')


def epub_svg(data: bytes) -> bytes | None:
    """An SVG as EPUB 3 wants it: cleaned like every SVG kobook publishes (no script, no
    handler, no outside reference, no ``<!DOCTYPE>``: :mod:`..shared.svgclean`), with no
    paint on ``<image>``; None when it is not a well-formed SVG: the image is then left
    out, and said so."""
    cleaned = svgclean.clean(data)
    if cleaned is None:
        return None
    # Paint on an <image> means nothing (browsers ignore it) and EPUB's SVG schema
    # refuses it (RSC-005); drawing tools write it anyway.
    return SVG_IMAGE.sub(lambda m: IMAGE_PAINT.sub(b"", m.group(0)), cleaned)


def left_out(doc: Doc, url: str) -> Diagnostic:
    """EPUB001: an image that is not in the EPUB, where the chapter has it."""
    return Diagnostic(
        "EPUB001",
        f"image left out of the EPUB (not a file of the book, or not an image every "
        f"reader shows): {url[:80]}",
        place(doc, [f'src="{url}"', f"src='{url}'", f"({url}", url]),
        "put the image (PNG, JPEG, GIF or SVG) in the book's images/ folder",
        "warning",
    )


def place(doc: Doc, needles: list[str]) -> Location:
    """Where the first of ``needles`` the chapter holds is (the chapter's first line
    when none is)."""
    for needle in needles:
        found = doc.chapter.locate(needle) if needle else None
        if found is not None:
            return found
    return doc.chapter.where(1)
