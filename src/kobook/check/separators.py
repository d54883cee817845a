"""KO014: U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR in prose.

They arrive with text pasted from Word, PDFs and some web editors.  Markdown
does not know them: pandoc keeps them inside a word, and then WeasyPrint
fails on a U+2029 next to a space (``AssertionError``), while a U+2028 is drawn
as a box and reported as a missing font.  In every language they are mistakes.

The fix is a space, not the line or paragraph break they stand for: a newline
in Markdown can turn the next words into a heading (``---``, ``#``), a list
item or the end of a block quote, which no prose fix may do; a space keeps the
words apart and the structure as it is.  Next to a line end nothing is
needed, so the run is removed (a space before a newline would start a hard
line break when another space is already there).  A real paragraph break is
the author's call: the message says how.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..source import SourceDoc
from .model import Finding, Settings

SEPARATORS = {"\u2028": "U+2028 LINE SEPARATOR", "\u2029": "U+2029 PARAGRAPH SEPARATOR"}
# A run of separators with the spaces and tabs around it becomes one space.
RUN = re.compile(r"[ \t]*[\u2028\u2029][\u2028\u2029 \t]*")


def ko014_separators(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    for offset, text in doc.prose():
        for match in RUN.finditer(text):
            start, end = offset + match.start(), offset + match.end()
            before = doc.text[start - 1] if start > 0 else "\n"
            after = doc.text[end] if end < len(doc.text) else "\n"
            names = ", ".join(name for char, name in SEPARATORS.items() if char in match.group(0))
            yield Finding(
                "KO014",
                start,
                end,
                f"{names} in prose: a PDF engine cannot draw it "
                "(the fix is a space; a new paragraph needs a blank line)",
                "" if "\n" in (before, after) else " ",
            )
