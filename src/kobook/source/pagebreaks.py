"""A page break as written in Markdown: ``\\newpage`` (or ``\\clearpage``, ``\\pagebreak``,
``\\cleardoublepage``) on a line of its own.  Load (no chapter of text that shows nothing)
and the transforms (a page break in every PDF engine) read it the same way."""

from __future__ import annotations

import re

PAGE_BREAK = re.compile(
    r"\s*\\(?P<command>newpage|clearpage|pagebreak|cleardoublepage)(?:\[[0-4]\])?\s*(?:\{\})?\s*"
)
