"""A Jekyll al-folio site as a book: its distill posts, their order and metadata.

The chapters are the top-level ``*.md`` files whose front matter says
``layout: distill`` (``layout: page`` files are site pages: a menu, an about
page), in ``section_number`` order (the site's "Part N"), ties and missing
numbers by file name.  A post's ``title`` is its chapter title, its
``description`` the chapter's abstract; ``toc`` is ignored (kobook makes its
own).  The book's title, subtitle and authors come from section 0 (or
``index.md``), the site's ``title``, ``lang`` and address from ``_config.yml``,
its bibliography from ``assets/bibliography/*.bib``.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from ...errors import KobookError
from ...files.frontmatter import split_front_matter
from ...files.reading import read_yaml, unify_newlines
from ...model.origins import Lines
from .. import Layout, Unit

CONFIG = "_config.yml"
BIBLIOGRAPHY = "assets/bibliography"


def front_matter(path: Path) -> dict[str, Any]:
    """A file's front matter (empty when it has none or cannot be read)."""
    try:
        text = unify_newlines(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError):
        return {}
    if not text.startswith("---"):
        return {}
    try:
        return dict(split_front_matter(text, path).meta or {})
    except KobookError:
        return {}


def posts(root: Path) -> list[Path]:
    """The top-level ``layout: distill`` files, in reading order."""
    found = []
    for path in sorted(root.glob("*.md")):
        meta = front_matter(path)
        if str(meta.get("layout", "")).strip() == "distill":
            found.append((section_number(meta), path.name, path))
    found.sort(key=lambda item: (item[0] is None, item[0] or 0, item[1]))
    return [path for _number, _name, path in found]


def section_number(meta: dict[str, Any]) -> int | None:
    value = meta.get("section_number")
    try:
        return int(value) if value is not None and str(value).strip() != "" else None
    except (TypeError, ValueError):
        return None


def detect(root: Path) -> str | None:
    """Why ``root`` is a distill site: ``_config.yml`` and ``layout: distill`` posts."""
    if not (root / CONFIG).is_file():
        return None
    found = posts(root)
    if not found:
        return None
    return f"{CONFIG} and {len(found)} top-level post(s) with 'layout: distill' front matter"


def layout(root: Path) -> Layout:
    """One chapter per post, numbered by its ``section_number``."""
    units = []
    for path in posts(root):
        meta = front_matter(path)
        units.append(
            Unit(
                files=[(path, 0)],
                title=str(meta.get("title") or ""),
                number=section_number(meta),
            )
        )
    names = ", ".join(unit.files[0][0].name for unit in units)
    return Layout(units, f"distill posts ordered by section_number ({names})")


@functools.cache
def site_config(path: Path, mtime: float) -> dict[str, Any]:
    """``_config.yml`` (a syntax error is CFG001 at its line)."""
    data, _text = read_yaml(path, "Jekyll site configuration", "CFG001")
    return data if isinstance(data, dict) else {}


def config_of(root: Path) -> dict[str, Any]:
    path = root / CONFIG
    if not path.is_file():
        return {}
    return site_config(path, path.stat().st_mtime)


def metadata(root: Path) -> dict[str, Any]:
    """Book metadata the site states (``metadata.yaml`` overrides every key)."""
    config = config_of(root)
    first = book_page(root)
    out: dict[str, Any] = {}
    title = first.get("title") or config.get("title")
    if title:
        out["title"] = plain(str(title))
    if first.get("subtitle"):
        out["subtitle"] = plain(str(first["subtitle"]))
    authors = authors_of(first.get("authors"))
    if authors:
        out["author"] = authors
    if config.get("lang"):
        out["lang"] = str(config["lang"])
    url = (str(config.get("url") or "") + str(config.get("baseurl") or "")).rstrip("/")
    if url.startswith(("http://", "https://")):
        out["original"] = {"url": url}
    bibs = sorted((root / BIBLIOGRAPHY).glob("*.bib")) if (root / BIBLIOGRAPHY).is_dir() else []
    if bibs:
        out["bibliography"] = [p.relative_to(root).as_posix() for p in bibs]
    return out


def book_page(root: Path) -> dict[str, Any]:
    """The front matter of the book's first post: section 0, else ``index.md``, else the first."""
    found = [front_matter(path) for path in posts(root)]
    for meta in found:
        if section_number(meta) == 0:
            return meta
    index = front_matter(root / "index.md") if (root / "index.md").is_file() else {}
    return index or (found[0] if found else {})


def plain(text: str) -> str:
    """Text without HTML tags (``Reiner Pope<sup>*</sup>`` → ``Reiner Pope``)."""
    text = re.sub(r"<(sup|sub)\b[^>]*>.*?</\1\s*>", "", text, flags=re.S | re.I)
    return " ".join(re.sub(r"<[^>]+>", "", text).split())


def authors_of(value: Any) -> list[Any]:
    """distill ``authors:`` → names, or ``{name, affiliation}`` where one is given."""
    out: list[Any] = []
    for entry in value if isinstance(value, list) else []:
        if isinstance(entry, str):
            out.append(plain(entry))
            continue
        if not isinstance(entry, dict) or not entry.get("name"):
            continue
        name = plain(str(entry["name"]))
        affiliation = affiliation_of(entry.get("affiliations", entry.get("affiliation")))
        out.append({"name": name, "affiliation": affiliation} if affiliation else name)
    return out


def affiliation_of(value: Any) -> str:
    """``{name: X}`` / ``[{name: X}, …]`` / ``X`` → ``"X"`` (several joined by ``; ``)."""
    items = value if isinstance(value, list) else [value]
    names = []
    for item in items:
        if isinstance(item, dict):
            item = item.get("name")
        if item:
            names.append(plain(str(item)))
    return "; ".join(names)


def with_abstract(lines: Lines, meta: dict[str, Any], path: Path) -> tuple[Lines, bool]:
    """``description`` as ``::: {.abstract}`` right after the chapter's ``#`` title line.

    Its lines point at the front matter's ``description:`` line.
    """
    description = meta.get("description")
    if not isinstance(description, str) or not description.strip():
        return lines, False
    texts = lines.text.split("\n")
    title = next((i for i, line in enumerate(texts) if line.startswith("# ")), None)
    if title is None:
        return lines, False
    origin = (path, description_line(path) or lines.origins[title][1])
    block = ["", "::: {.abstract}", " ".join(description.split()), ":::", ""]
    new_texts = texts[: title + 1] + block + texts[title + 1 :]
    origins = lines.origins[: title + 1] + (origin,) * len(block) + lines.origins[title + 1 :]
    return Lines("\n".join(new_texts), origins), True


def description_line(path: Path) -> int:
    """The line of ``description:`` in a post's front matter (0 when not found)."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return 0
    for number, line in enumerate(text.split("\n")[1:200], 2):
        if line.strip() == "---":
            break
        if line.startswith("description:"):
            return number
    return 0
