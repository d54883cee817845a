"""One budget per book for everything that makes its text longer than its files.

An include, a math macro, a Liquid tag: each expands a few bytes of source into
more, and nested they multiply (mdBook includes ten deep over a few files of
150 bytes gave 10⁵ lines and three minutes of work).  Every such expansion of a
book charges :class:`Expansion` its size plus a fixed cost per expansion (the
work of one include or one macro use does not vanish when its text is short),
so that the whole build's expanded text stays within
:data:`~kobook.limits.MAX_EXPANDED_BYTES`.  Running out is LIMIT010 at the
place that expanded last, naming the chain of includes that led there.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import limits
from ..errors import KobookError

EXPANSION_COST = 1024
"""What one expansion costs besides its bytes (so 10⁵ one-line includes are not free)."""


class Expansion:
    """The expanded bytes a book has spent; shared by its dialect and its transforms."""

    def __init__(self) -> None:
        self.spent = 0
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:  # sent to the preview's typesetter
        return {"spent": self.spent}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.spent = state["spent"]
        self._lock = threading.Lock()

    def spend(self, size: int, what: str, chain: Sequence[tuple[Path, int]]) -> None:
        """Charge ``size`` bytes for ``what``, expanded at the last place of ``chain``
        (the include directives that led there, outermost first)."""
        with self._lock:
            self.spent += size + EXPANSION_COST
            over = self.spent > limits.MAX_EXPANDED_BYTES
        if not over:
            return
        file, line = chain[-1] if chain else (None, 0)
        path = " → ".join(f"{Path(f).name}:{n}" for f, n in chain)
        raise KobookError(
            f"the book's {what} expand past {limits.MAX_EXPANDED_BYTES // 2**20} MiB"
            + (f" (at {path})" if path else ""),
            code="LIMIT010",
            file=file,
            line=line,
            hint="include each file once, and fewer levels deep; a book's includes and "
            "macros may not grow it by more than this",
        )
