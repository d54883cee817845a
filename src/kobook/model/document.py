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
