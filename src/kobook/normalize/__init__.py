"""Stage 2, normalize: typography fixes on the text the build reads (sources untouched).

The build applies the safe fixes of ``kobook check`` (the same rules, from
``kobook.check``) to each chapter's text before parsing: NFC (always: text
pasted from macOS stores Hangul as loose jamo, which fonts draw apart and
searches miss), invisible characters, odd spaces, full-width ASCII, quotes,
ellipses and particles after acronyms and numbers.  ``normalize:`` in
metadata.yaml turns it off (``normalize: false``) or leaves rules out
(``normalize: {ignore: [KO007]}``).  What the fixes cannot settle is returned
so the build can report it.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from ..cache import Cache
from ..errors import Diagnostic, KobookError
from ..lang import language_of
from ..load import Book


@dataclass
class NormalizeReport:
    """Findings left after the build-time fixes, as diagnostics with file lines."""

    remaining: list[Diagnostic] = field(default_factory=list)
    fixed: int = 0


def normalize_text(text: str) -> str:
    """Return ``text`` in NFC (idempotent, cheap when already NFC)."""
    if unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)


def settings(book: Book) -> Any:
    from ..check import settings_from

    value = book.config.get("normalize", True)
    if value is False:
        return None
    options = value if isinstance(value, dict) else {}
    for key in options:
        if key not in ("ignore", "select"):
            raise KobookError(
                f"unknown key 'normalize.{key}'",
                code="CFG013",
                file=book.config.path,
                hint="normalize takes: ignore, select",
            )
    result = settings_from(book.config, book.root)
    result.ignore |= {str(r) for r in options.get("ignore") or []}
    if options.get("select"):
        result.select = {str(r) for r in options["select"]}
    return result


def normalize_book(book: Book, cache: Cache | None = None) -> NormalizeReport:
    """Normalize every chapter's text in place; return what is left to fix by hand.

    pandoc proves that the fixes changed only prose, as for ``kobook check
    --fix`` (``kobook.check.proof``): a fix that would change code, math, links
    or structure is left out and reported as CHK004.  ``cache`` (the build's)
    keeps the proof's parses, so a rebuild does not run pandoc for it again.
    """
    from ..check.proof import proven_fix
    from ..source import parse_source

    report = NormalizeReport()
    rules = settings(book)
    for chapter in book.chapters:
        text = chapter.text
        if rules is None:
            chapter.text = normalize_text(text)
            continue
        language = language_of(chapter.lang or book.config.lang)
        chapter_rules = dataclasses.replace(rules, language=language)
        proven = proven_fix(text, chapter.path, chapter_rules, build_only=True, cache=cache)
        fixed, remaining = proven.text, proven.findings
        # NFC also outside prose is harmless for the build (never written back).
        chapter.text = normalize_text(fixed)
        report.fixed += fixed != text
        doc = parse_source(chapter.text, chapter.path)
        for finding in remaining:
            line, col = doc.position(finding.start)
            report.remaining.append(
                Diagnostic(
                    finding.rule,
                    finding.message,
                    chapter.where(line, col),
                    "",
                    finding.severity,
                )
            )
    return report
