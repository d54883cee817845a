"""``_bookdown.yml`` and ``index.Rmd``: a bookdown book's files, metadata and parts.

- the chapter files are ``rmd_files`` (a list, or ``{html: […], latex: […]}``, the
  ``latex`` list for a printed book), else every ``.Rmd`` file of the folder by
  name, ``index.Rmd`` first, those starting with ``_`` left out (bookdown's
  rule).  Each file may hold several ``#`` chapters: kobook splits them as it
  splits any pandoc book;
- ``index.Rmd``'s front matter names the book (``title``, ``subtitle``,
  ``author``, ``date``, ``description``, ``lang``, ``bibliography``);
- ``# (PART) 제목 {-}`` opens a part (``(PART\\*)`` too) and ``# (APPENDIX) 부록 {-}``
  makes every later chapter an appendix: both headings are markers, not chapters.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...errors import Diagnostic, KobookError
from ...files.reading import read_source, read_text
from ...files.yamlread import ToolLoader, parse_yaml
from ...model import Book

PART = re.compile(r"^\((?P<kind>PART|APPENDIX)\\?\*?\)\s*(?P<title>.*)$")
META_KEYS = ("title", "subtitle", "date", "description", "lang", "bibliography")


def read_config(root: Path) -> dict[str, Any]:
    """``_bookdown.yml`` parsed (``{}`` without one); DIA501 for bad YAML."""
    path = root / "_bookdown.yml"
    if not path.is_file():
        return {}
    data = parse_yaml(read_text(path), path, path.name, "DIA501", loader=ToolLoader)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise KobookError(
            "_bookdown.yml should be a mapping of settings",
            code="DIA501",
            file=path,
            line=1,
            hint="bookdown reads rmd_files:, book_filename: … at the top level",
        )
    return data


def is_bookdown(root: Path) -> bool:
    if (root / "_bookdown.yml").is_file():
        return True
    index = root / "index.Rmd"
    return index.is_file() and "bookdown" in str(read_source(index).meta.get("site") or "")


def rmd_files(root: Path, config: dict[str, Any]) -> list[str]:
    """The chapter files, as ``rmd_files`` lists them or bookdown finds them."""
    listed = config.get("rmd_files")
    if isinstance(listed, dict):
        listed = listed.get("latex") or listed.get("html")
    if isinstance(listed, list) and listed:
        return [str(item) for item in listed if isinstance(item, str) and item.strip()]
    found = sorted(
        p.name for p in root.iterdir() if p.suffix.lower() == ".rmd" and not p.name.startswith("_")
    )
    found.sort(key=lambda name: name.lower() != "index.rmd")
    return found


def book_metadata(root: Path) -> dict[str, Any]:
    """What ``index.Rmd``'s front matter says about the book, and the chapter files."""
    found: dict[str, Any] = {}
    index = root / "index.Rmd"
    if index.is_file():
        meta = read_source(index).meta
        for key in META_KEYS:
            value = meta.get(key)
            if isinstance(value, str | list) and value:
                found[key] = value
        author = meta.get("author")
        if isinstance(author, str) and author.strip():
            found["author"] = [author.strip()]
        elif isinstance(author, list):
            found["author"] = [str(a).strip() for a in author if str(a).strip()]
    files = [f for f in rmd_files(root, read_config(root)) if (root / f).is_file()]
    if files:
        found["chapters"] = files
    return found


def arrange_parts(book: Book) -> None:
    """``(PART)`` and ``(APPENDIX)`` heading chapters become the next chapter's part / the
    appendix boundary; the chapters are numbered again."""
    kept = []
    part = ""
    appendix = False
    for chapter in book.chapters:
        marker = PART.match(chapter.title)
        if marker is None:
            if appendix and chapter.kind == "chapter":
                chapter.kind = "appendix"
            if part:
                chapter.part, part = part, ""
            kept.append(chapter)
            continue
        title = marker.group("title").replace("{-}", "").strip()
        if marker.group("kind") == "APPENDIX":
            appendix = True
        part = title or part
        lines = chapter.text.split("\n")
        first = next((i for i in range(1, len(lines)) if lines[i].strip()), None)
        if first is not None:
            book.notes.append(
                Diagnostic(
                    "DIA502",
                    f"the text under '({marker.group('kind')}) {title}' is not printed: "
                    "a part page shows its title only",
                    chapter.where(first + 1),
                    "move the text into the part's first chapter",
                    "warning",
                )
            )
    number = 0
    for chapter in kept:
        if chapter.kind == "chapter":
            number += 1
            chapter.number = number
        elif chapter.kind == "appendix":
            chapter.number = None
    book.chapters[:] = kept
