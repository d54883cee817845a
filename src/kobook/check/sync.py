"""The SYNC rules: the translation checked against its original (``kobook upstream``).

Listed here so that ``--select``, ``--ignore`` and the summary know them; they are
found by ``original.py`` over the whole book and its original, not per file.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..source import SourceDoc
from .model import Finding, Rule, Settings


def made_with_the_original(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    """Findings of ``SYNC_RULES`` come from the aligned original, not from one file."""
    return iter(())


SYNC000 = "SYNC000"
SYNC_RULES: list[Rule] = [
    Rule(
        SYNC000,
        "the SYNC rules could not run: the original is not there (kobook upstream)",
        "warning",
        "report",
        made_with_the_original,
    ),
    Rule(
        "SYNC001",
        "a block of the original has no translation",
        "warning",
        "report",
        made_with_the_original,
    ),
    Rule(
        "SYNC002",
        "code differs from the original beyond comments and strings",
        "warning",
        "report",
        made_with_the_original,
    ),
    Rule(
        "SYNC003",
        "math differs from the original (\\text{} aside)",
        "warning",
        "report",
        made_with_the_original,
    ),
    Rule(
        "SYNC004",
        "a link target of the original is missing or changed",
        "warning",
        "report",
        made_with_the_original,
    ),
    Rule(
        "SYNC005",
        "a number of the original is not in the translation",
        "warning",
        "report",
        made_with_the_original,
    ),
    Rule(
        "SYNC006",
        "a citation, footnote or cross-reference of the original is missing",
        "warning",
        "report",
        made_with_the_original,
    ),
    Rule(
        "SYNC007",
        "possibly dropped sentence: much shorter than the original",
        "info",
        "report",
        made_with_the_original,
    ),
    Rule(
        "SYNC008",
        "one glossary term translated two ways across the book",
        "info",
        "report",
        made_with_the_original,
    ),
]
SEVERITY = {rule.id: rule.severity for rule in SYNC_RULES}
