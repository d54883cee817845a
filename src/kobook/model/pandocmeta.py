"""pandoc's structured metadata, read as kobook's plain keys.

pandoc's EPUB writer documents lists of typed values, and books written for it
use them in ``metadata.yaml`` and ``title.yaml``::

    title:                          creator:
      - type: main                    - role: author
        text: 책 제목                     text: 김작가
      - type: subtitle                - role: translator
        text: 부제                         text: 박번역
    identifier:
      - scheme: ISBN
        text: 978-89-0000-000-0

``title`` becomes the main title (and ``subtitle`` the subtitle entry, unless
the book names one), ``creator`` the authors and translators (MARC roles
``aut``/``trl`` or their names; other roles are authors' collaborators and go
with the authors), ``identifier`` stays a list of ``{scheme, text}`` (the
EPUB's ``dc:identifier``).  Plain values pass through unchanged.
"""

from __future__ import annotations

from typing import Any

TRANSLATOR_ROLES = {"trl", "translator"}


def text_of(item: Any) -> str:
    """An entry's text: ``{text: …}`` or a plain value."""
    value = item.get("text") if isinstance(item, dict) else item
    return " ".join(str(value).split()) if isinstance(value, str | int | float) else ""


def typed(items: list[Any], key: str, wanted: str) -> str:
    """The text of the first entry whose ``key`` is ``wanted``."""
    for item in items:
        if isinstance(item, dict) and str(item.get(key, "")).lower() == wanted:
            return text_of(item)
    return ""


def pandoc_forms(data: dict[str, Any]) -> None:
    """Rewrite ``data``'s structured ``title``, ``creator`` and ``identifier`` in place."""
    title = data.get("title")
    if isinstance(title, list) and title:
        main = typed(title, "type", "main") or text_of(title[0])
        subtitle = typed(title, "type", "subtitle")
        data["title"] = main
        if subtitle and not data.get("subtitle"):
            data["subtitle"] = subtitle
    creator = data.pop("creator", None)
    if creator is not None:
        entries = creator if isinstance(creator, list) else [creator]
        authors: list[str] = []
        translators: list[str] = []
        for item in entries:
            role = str(item.get("role", "")).lower() if isinstance(item, dict) else ""
            name = text_of(item)
            if name:
                (translators if role in TRANSLATOR_ROLES else authors).append(name)
        if authors and not data.get("author"):
            data["author"] = authors
        if translators and not data.get("translators"):
            data["translators"] = translators
    identifier = data.get("identifier")
    if isinstance(identifier, str | int) and str(identifier).strip():
        data["identifier"] = [{"scheme": "", "text": str(identifier).strip()}]
    elif isinstance(identifier, list):
        data["identifier"] = [
            {"scheme": str(i.get("scheme", "")) if isinstance(i, dict) else "", "text": text_of(i)}
            for i in identifier
            if text_of(i)
        ]
