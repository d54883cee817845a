"""``book.toml``: where an mdBook book keeps its title, authors, language and source folder.

Only ``[book]`` matters to kobook (``[output.html]``, ``[preprocessor.*]``
configure mdBook's own renderers).  What it states are defaults:
``metadata.yaml`` overrides each of them.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from ...boundary import inside
from ...errors import KobookError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 needs the tomli package
    import tomli as tomllib

TOML_PLACE = re.compile(r"\(at line (\d+), column (\d+)\)")


def read_book_toml(root: Path) -> dict[str, Any]:
    """``book.toml`` parsed (``{}`` when there is none); DIA201 at the line tomllib names."""
    path = root / "book.toml"
    if not path.is_file():
        return {}
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        place = TOML_PLACE.search(str(error))
        line, col = (int(place.group(1)), int(place.group(2))) if place else (0, 0)
        if place is None and "end of document" in str(error):
            line = len(text.rstrip("\n").split("\n"))
        raise KobookError(
            f"book.toml is not valid TOML: {TOML_PLACE.sub('', str(error)).strip()}",
            code="DIA201",
            file=path,
            line=line,
            col=col,
            hint="fix the line (mdBook would refuse it too), or remove book.toml",
        ) from None


def book_section(toml: dict[str, Any]) -> dict[str, Any]:
    section = toml.get("book")
    return section if isinstance(section, dict) else {}


def source_folder(root: Path, toml: dict[str, Any]) -> Path:
    """The folder holding ``SUMMARY.md`` (``[book] src``, default ``src``), inside ``root``."""
    name = book_section(toml).get("src") or "src"
    return inside(
        root / str(name), root, what="book.toml [book] src", file=root / "book.toml", written=name
    )


def book_metadata(toml: dict[str, Any]) -> dict[str, Any]:
    """``title``, ``author`` and ``lang`` in kobook's keys, as ``[book]`` states them.

    mdBook's ``language`` is optional (the Rust book has none): then no
    ``lang`` is given and kobook's default (``metadata.yaml``'s, else ko-KR)
    holds; the text is not guessed from.
    """
    section = book_section(toml)
    found: dict[str, Any] = {}
    if isinstance(section.get("title"), str) and section["title"].strip():
        found["title"] = section["title"].strip()
    authors = section.get("authors")
    if isinstance(authors, list):
        names = [str(a).strip() for a in authors if str(a).strip()]
        if names:
            found["author"] = names
    if isinstance(section.get("language"), str) and section["language"].strip():
        found["lang"] = section["language"].strip()
    return found


def mathjax(toml: dict[str, Any]) -> bool:
    """True when the book asks mdBook for MathJax: its ``$$`` and ``\\(`` are then math."""
    output = toml.get("output")
    html = output.get("html") if isinstance(output, dict) else None
    return isinstance(html, dict) and html.get("mathjax-support") is True
