"""FIG001, FIG002, IMG001: figure references, file-name alt texts, missing images."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from ..source import SourceDoc
from ..transform.figures import is_file_name
from .model import Finding, Settings

IMAGE = re.compile(r"!\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?")
MANUAL_REF = re.compile(
    r"(?P<bracket>\[)?(?P<word>Figure|Fig\.|Table|Tab\.|그림|표)(?P<space>\s*)"
    r"(?P<number>\d+(?:\.\d+)?)(?(bracket)\])"
)


def in_prose(doc: SourceDoc, offset: int) -> bool:
    return any(start <= offset < end for start, end in doc.spans)


def images(doc: SourceDoc) -> Iterator[re.Match[str]]:
    for match in IMAGE.finditer(doc.text):
        if in_prose(doc, match.start()):
            yield match


def fig002_file_name_alt(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    for match in images(doc):
        alt = match.group(1).strip()
        if alt and is_file_name(alt):
            yield Finding(
                "FIG002",
                match.start(1),
                match.end(1),
                f"image alt text is a file name, not a caption: {alt} "
                "(the build drops it; describe what the image shows instead)",
                None,
            )


def image_name(url: str) -> str | None:
    """The file an image URL names (None: a URL with a scheme, not a file)."""
    from urllib.parse import unquote

    if re.match(r"^[a-z][a-z0-9+.-]*:", url, re.I):
        return None
    return unquote(url.split("#")[0].split("?")[0])


def image_bases(path: Path, settings: Settings) -> list[Path]:
    """Where an image named in ``path`` may be: beside it, or in the project."""
    return [path.parent] + ([Path(settings.project)] if settings.project else [])


def img001_missing(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    if doc.path is None:
        return
    bases = image_bases(doc.path, settings)
    for match in images(doc):
        url = match.group(2)
        name = image_name(url)
        if name is not None and not any((base / name).is_file() for base in bases):
            yield Finding(
                "IMG001",
                match.start(2),
                match.end(2),
                f"image file not found: {url}",
                None,
                "error",
            )


def images_present(text: str, path: Path | None, settings: Settings) -> str:
    """What IMG001 reads beside the text: which of the images it names exist (a key for
    findings kept in a cache)."""
    if path is None:
        return ""
    bases = image_bases(path, settings)
    names = [image_name(m.group(2)) for m in IMAGE.finditer(text)]
    return "".join(
        "-" if name is None else "1" if any((b / name).is_file() for b in bases) else "0"
        for name in names
    )


def count_figures(doc: SourceDoc) -> int:
    """Captioned figures: images alone in a paragraph with alt text that is not a file name."""
    total = 0
    for match in images(doc):
        line_start = doc.text.rfind("\n", 0, match.start()) + 1
        line_end = doc.text.find("\n", match.end())
        line = doc.text[line_start : line_end if line_end >= 0 else len(doc.text)]
        alt = match.group(1).strip()
        if line.strip().startswith("![") and alt and not is_file_name(alt):
            total += 1
    return total


def fig001_references(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    figures = count_figures(doc)
    for offset, text in doc.prose():
        for match in MANUAL_REF.finditer(text):
            word = match.group("word")
            korean = "그림" if word in ("Figure", "Fig.", "그림") else "표"
            number = match.group("number")
            wanted = f"{korean} {number}"
            start, end = offset + match.start(), offset + match.end()
            if match.group(0) != wanted:
                yield Finding(
                    "FIG001",
                    start,
                    end,
                    f"figure reference '{match.group(0)}': write '{wanted}' (or better, @fig:id)",
                    wanted,
                )
            if korean == "그림" and "." not in number and int(number) > figures and figures:
                yield Finding(
                    "FIG001",
                    start,
                    end,
                    f"'{wanted}' refers to a figure that does not exist (this file has {figures})",
                    None,
                    "error",
                )
