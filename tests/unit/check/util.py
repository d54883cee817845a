"""Small helpers shared by the ``kobook check`` unit tests."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from kobook.check import Finding, Settings, check_text, fix_text

NFD_SCREENSHOT = unicodedata.normalize("NFD", "스크린샷")
assert NFD_SCREENSHOT != "스크린샷"  # the test data itself must be decomposed


def found(
    text: str, rule: str | None = None, settings: Settings | None = None, path: Path | None = None
) -> list[Finding]:
    """Findings for ``text`` (only ``rule``'s, when given)."""
    findings = check_text(text, path, settings or Settings())
    return [f for f in findings if rule is None or f.rule == rule]


def hits(text: str, rule: str, settings: Settings | None = None) -> list[tuple[str, str | None]]:
    """``(flagged text, replacement)`` for each finding of ``rule``."""
    return [(text[f.start : f.end], f.replacement) for f in found(text, rule, settings)]


def fix(text: str, settings: Settings | None = None, path: Path | None = None) -> str:
    return fix_text(text, path, settings or Settings())[0]
