"""What a writer made of one chapter, kept in the build's cache by the chapter's AST key.

The transform stage gives each chapter's AST a key (:attr:`kobook.model.Doc.key`)
that names everything it was made from: its text, the state of the book's
passes, the book's configuration and files (:mod:`kobook.transform.world`).  A
writer's per-chapter work (the site's passes and pandoc's HTML, say) is a
function of that AST and of a few things of the book the writer names in its
own key (the pages the chapter's links point at); so a warm build makes again
only what an edit touched.

The warnings met while making it are kept with it, each by its line in the
chapter's text, and put back at that line of the chapter as it is now: an
edit in an earlier chapter of the same file moves them.
"""

from __future__ import annotations

import pickle
from typing import Any

from ...cache import Cache, digest
from ...errors import Diagnostic
from ...model import Doc
from ...transform.memo import Lines, place, replace_in


def kept_key(doc: Doc, kind: str, *parts: Any) -> str:
    """The key of what a writer makes of ``doc`` (``kind``: what it is) given ``parts``;
    empty when the AST has no key (made by a caller that keeps nothing)."""
    return digest(kind, doc.key, repr(parts)) if doc.key else ""


def kept(cache: Cache | None, kind: str, key: str, doc: Doc) -> tuple[Any, list[Diagnostic]] | None:
    """What was kept under ``key``, and its warnings placed in ``doc``'s chapter; None: not
    kept (read through :meth:`Cache.get`: the entry's tag is checked before it is read)."""
    data = cache.get(kind, key) if cache is not None and key else None
    if data is None:
        return None
    try:
        value, placed = pickle.loads(data)
    except Exception:  # another kobook's entry: made again
        return None
    return value, replace_in(placed, doc.chapter)


def keep(
    cache: Cache | None, kind: str, key: str, doc: Doc, value: Any, problems: list[Diagnostic]
) -> None:
    """Keep ``value`` and its warnings (by their lines in ``doc``'s chapter) under ``key``."""
    if cache is None or not key:
        return
    try:
        data = pickle.dumps((value, place(problems, Lines(doc.chapter))), protocol=5)
    except (pickle.PicklingError, TypeError, AttributeError):
        return
    cache.put(kind, key, data)
