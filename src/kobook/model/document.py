"""A parsed chapter (:class:`Doc`): its chapter and pandoc's AST of it, which the
transforms change in place and the writers read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .book import Chapter


@dataclass
class Doc:
    """A parsed chapter: its source and its AST (``blocks`` are what transforms change)."""

    chapter: Chapter
    blocks: list[dict[str, Any]]
    meta: dict[str, Any] = field(default_factory=dict)
    # The key of everything the AST was made from, when the build's transform stage knows
    # it (empty: unknown): a writer may keep what it makes of the chapter under it
    # (``write/shared/kept.py``).
    key: str = ""
