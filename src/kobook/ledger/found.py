"""What one output holds, read back from the output itself: the right-hand side of the
ledger.

A reader fills in what its format can tell and leaves the rest ``None``: a PDF has no
element identifiers or table elements to count, so the ledger compares there only
what a PDF keeps (text, scripts drawn raised or lowered, link addresses).  Which
constructs each output is read back for is therefore data on :class:`Found`, not a
decision of the comparison.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

# A script check for PDFs: (letters before, script letters, kind) → True when drawn as a
# script, False when the letters stand there as plain text, None when not found.
ScriptCheck = Callable[[str, str, str], "bool | None"]


@dataclass
class Found:
    """One output's side of the ledger."""

    label: str  # "the HTML book", "the Typst PDF", ...
    text: str  # every letter and digit the output shows, in reading order (ledger.letters)
    ids: set[str] | None = None  # element identifiers
    links: set[str] | None = None  # external addresses a reader can follow
    superscripts: list[str] | None = None  # letters of each <sup> that is not a note mark
    subscripts: list[str] | None = None
    images: list[str] | None = None  # letters of each image's alternative text
    tables: int | None = None
    footnotes: int | None = None
    display_math: int | None = None
    script_check: ScriptCheck | None = field(default=None, repr=False)
