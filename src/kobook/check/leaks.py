"""LEAK001: syntax of another Markdown dialect in the source (Liquid, distill, mdBook...).

The patterns, and what one occurrence is, live in ``transform/leaks/``; the
build finds the same constructs in what is left after parsing and the
transforms.  Here they are reported where they are written, outside code
blocks, inline code, comments, math and front matter (d2lbook's ``#@tab`` and
mdBook's ``{{#include}}`` are found in code blocks, where they live).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..source import SourceDoc
from ..transform.leaks import message, source_leaks
from .model import Finding, Settings


def leak001_foreign_syntax(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    for found in source_leaks(doc):
        if found.escaped:
            continue  # \$\$: a literal the author asked for
        yield Finding("LEAK001", found.start, found.end, message(found), None)
