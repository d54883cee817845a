"""What a rule is, what it finds, and the settings it reads."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..lang.script import UNTRANSLATED_MIN_WORDS
from ..source import SourceDoc

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class Finding:
    """A problem at ``text[start:end]``; ``replacement`` is the safe fix, if there is one."""

    rule: str
    start: int
    end: int
    message: str
    replacement: str | None = None
    severity: str = "warning"


@dataclass
class Settings:
    """``check:`` in metadata.yaml, with the command line's overrides applied."""

    select: set[str] | None = None
    ignore: set[str] = field(default_factory=set)
    quotes: str = "curly"  # curly | straight | off
    ellipsis: str = "…"  # "…" | "..." | off
    fail_on: str = "warning"  # error | warning | info | never
    glossary_first_use: bool = True
    fix_emphasis: bool = False
    untranslated_min_words: int = UNTRANSLATED_MIN_WORDS
    glossary: dict[str, Any] = field(default_factory=dict)
    # Glossary terms (Korean) already used in earlier chapters: KO012's "first use"
    # is the book's first use, not each file's (set per file by ``check_files``).
    glossary_seen: frozenset[str] = frozenset()
    particle_words: dict[str, str] = field(default_factory=dict)
    project: Path | None = None
    number_by_chapter: bool = True
    # The language of the text being checked (kobook.lang.language_of: ko, en, zh-Hans, ...).
    language: str = "ko"

    def enabled(self, rule: str) -> bool:
        if rule in self.ignore or any(rule.startswith(i) for i in self.ignore if len(i) < 5):
            return False
        if self.select is None:
            return True
        return rule in self.select or any(rule.startswith(s) for s in self.select if len(s) < 5)


Check = Callable[[SourceDoc, Settings], Iterator[Finding]]


@dataclass(frozen=True)
class Rule:
    """One rule: id, one-line description, severity, whether it fixes, the check itself."""

    id: str
    summary: str
    severity: str
    fix: str  # "fix", "report", or a short note on what is fixed ("fix for acronyms")
    check: Check
    in_build: bool = True  # may the build's normalize stage apply its fixes
    # A Korean rule looks at Korean text only: never a Chinese or Japanese book,
    # nor a Chinese paragraph quoted in a Korean one (see kobook.lang.script).
    korean: bool = False

    @property
    def fixable(self) -> bool:
        return self.fix != "report"
