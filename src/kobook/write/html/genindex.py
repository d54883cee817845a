"""The site's index page (찾아보기, ``genindex.html`` as Sphinx names it): the book's index
(``write/shared/bookindex.py``) with each entry linked to the sections it is marked in,
after the last chapter in the sidebar, the contents and the pager."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ...model.bookindex import Mark
from ..shared.bookindex import by_section

INDEX_PAGE = "genindex.html"  # its page, and its key in the site's chapter positions


def free_name(name: str, taken: list[str]) -> str:
    """``name``, or ``_name`` … when a chapter's page has it."""
    while name in taken:
        name = "_" + name
    return name


def contents_entry(page: str, title: str) -> dict[str, Any]:
    """The index as the site's contents and sidebar list it."""
    return {"level": 1, "href": page, "number": "", "title": title}


def locate(marks: list[Mark]) -> list[dict[str, str]]:
    """An entry's links: one per section it is marked in, named as a reference prints it."""
    return [
        {"href": f"{m.chapter_id}.html#{quote(m.anchor)}", "label": m.section}
        for m in by_section(marks)
    ]
