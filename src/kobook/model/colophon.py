"""The copyright page (판권): what it says, decided once from ``metadata.yaml``.

A Korean book prints, on its last page or the back of its title page, the title, the
edition and date, who wrote, translated and published it, the publisher's
registration and address, the ISBN, the price, and the licences of the original and
of the translation.  A store's EPUB and a printer's PDF carry the same page: each
writer draws :func:`colophon`'s lines its own way.  The keys::

    edition: 초판 1쇄                  # with date: 초판 1쇄 발행 2026년 12월 1일
    date: 2026-12-01
    publisher: 펴낸곳 이름
    identifier: [{scheme: ISBN-13, text: 979-11-…}]
    rights: 이 번역의 저작권과 라이선스
    original: {licence: Apache-2.0, …}
    colophon:
      publisher-person: 펴낸이 이름
      registration: 제2026-000001호
      address: 서울시 …
      contact: help@example.com
      price: 32,000원

A book that names none of the publishing keys (``edition``, ``publisher``, an ISBN,
``rights``, ``colophon``) has no such page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .config import Config

# ``colophon:`` keys in the order the page prints them (validated in load/schema.py).
COLOPHON_KEYS = ("publisher-person", "registration", "address", "contact", "price")
ISBN_PREFIX = re.compile(r"^(?:urn:)?isbn(?:-1[03])?[:\s]\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Colophon:
    """The page's title, its labelled lines (label, value) and its licence notes."""

    title: str
    lines: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def isbns(identifier: Any) -> list[str]:
    """The ISBNs among ``identifier`` (a text, or pandoc's list of ``{scheme, text}``)."""
    items = identifier if isinstance(identifier, list) else [identifier]
    found = []
    for item in items:
        scheme, text = "", item
        if isinstance(item, dict):
            scheme, text = str(item.get("scheme") or ""), item.get("text")
        text = " ".join(str(text or "").split())
        bare = ISBN_PREFIX.sub("", text)
        if text and (scheme.upper().startswith("ISBN") or bare != text):
            found.append(bare)
    return found


def colophon(config: Config) -> Colophon | None:
    """The copyright page of the book ``config`` describes, or None when it names no
    publishing key."""
    words = config.words
    extra = config.get("colophon") or {}
    extra = extra if isinstance(extra, dict) else {}
    found_isbns = isbns(config.get("identifier"))
    edition = str(config.get("edition") or "").strip()
    publisher = str(config.get("publisher") or "").strip()
    rights = str(config.get("rights") or "").strip()
    if not (edition or publisher or found_isbns or rights or extra):
        return None
    lines: list[tuple[str, str]] = []
    if edition or config.date_text:
        published = " ".join(filter(None, [edition, words.word("colophon-published")]))
        lines.append((published, config.date_text))
    if config.authors:
        lines.append((words.word("colophon-author"), ", ".join(config.authors)))
    if config.translators:
        lines.append((words.word("colophon-translator"), ", ".join(config.translators)))
    if extra.get("publisher-person"):
        lines.append((words.word("colophon-publisher-person"), str(extra["publisher-person"])))
    if publisher:
        lines.append((words.word("colophon-publisher"), publisher))
    for key in COLOPHON_KEYS[1:]:
        if extra.get(key):
            lines.append((words.word(f"colophon-{key}"), str(extra[key])))
    lines += [("ISBN", number) for number in found_isbns]
    notes = []
    original = config.original
    if original.get("licence"):
        title = str(original.get("title") or words.word("original"))
        notes.append(f"{words.word('original')}: {title} — {original['licence']}")
    if rights:
        notes.append(rights)
    return Colophon(config.title, lines, notes)
