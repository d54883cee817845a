"""Every rule of ``kobook check``, in the order they run (DESIGN.md's catalogue)."""

from __future__ import annotations

from collections.abc import Iterator

from .emphasis import ko010_emphasis, ko015_heading_emphasis
from .figures import fig001_references, fig002_file_name_alt, img001_missing
from .glossary import ko012_glossary
from .leaks import leak001_foreign_syntax
from .model import Finding, Rule
from .particles import ko009_particles, ko013_spaced_particles
from .separators import ko014_separators
from .sync import SYNC_RULES
from .typography import (
    ko001_nfc,
    ko002_invisible,
    ko003_spaces,
    ko004_fullwidth,
    ko005_space_before_punctuation,
    ko006_jamo_dot,
    ko007_quotes,
    ko008_ellipsis,
)
from .untranslated import ko011_untranslated

RULES: list[Rule] = [
    Rule("KO001", "text not in Unicode NFC (decomposed Hangul)", "warning", "fix", ko001_nfc),
    Rule(
        "KO002",
        "invisible characters in prose (U+200B, U+2060, U+FEFF, U+00AD...)",
        "warning",
        "fix",
        ko002_invisible,
    ),
    Rule(
        "KO003",
        "odd spaces (U+00A0, U+3000, U+2009...) and runs of spaces",
        "warning",
        "fix",
        ko003_spaces,
        korean=True,
    ),
    Rule(
        "KO004",
        "full-width ASCII letters, digits and punctuation",
        "warning",
        "fix (not for Markdown symbols)",
        ko004_fullwidth,
        korean=True,
    ),
    Rule(
        "KO005",
        "space before . , ! ? : ; )",
        "warning",
        "fix",
        ko005_space_before_punctuation,
        korean=True,
    ),
    Rule(
        "KO006",
        "ㆍ (U+318D, a jamo) used as a middle dot",
        "warning",
        "fix",
        ko006_jamo_dot,
        korean=True,
    ),
    Rule(
        "KO007", "straight quotes around Korean text", "warning", "fix", ko007_quotes, korean=True
    ),
    Rule("KO008", "... or 。。。 as an ellipsis", "warning", "fix", ko008_ellipsis, korean=True),
    Rule(
        "KO009",
        "particle that does not agree with the word before it",
        "warning",
        "fix for acronyms, digits and units; report for words",
        ko009_particles,
        korean=True,
    ),
    Rule(
        "KO010",
        "emphasis that CommonMark/GitHub shows as literal asterisks",
        "warning",
        "report (fix with check: {fix-emphasis: true})",
        ko010_emphasis,
        in_build=False,
        korean=True,
    ),
    Rule(
        "KO011",
        "untranslated paragraph: many Latin words, no Hangul",
        "info",
        "report",
        ko011_untranslated,
        korean=True,
    ),
    Rule(
        "KO012",
        "glossary: forbidden variant, untranslated term, first use without original",
        "warning",
        "fix for variants of one term",
        ko012_glossary,
        in_build=False,
        korean=True,
    ),
    Rule(
        "KO013",
        "space before a particle after a Latin word, digits or a closing bracket (FLOPS 를)",
        "warning",
        "fix",
        ko013_spaced_particles,
        korean=True,
    ),
    Rule(
        "KO014",
        "line or paragraph separator (U+2028, U+2029) in prose",
        "warning",
        "fix (a space)",
        ko014_separators,
    ),
    Rule(
        "KO015",
        "heading emphasis pandoc cannot pair (literal **) or that crosses a bracket",
        "warning",
        "report",
        ko015_heading_emphasis,
        in_build=False,
    ),
    Rule(
        "FIG001",
        "figure references written by hand (Figure 3, 그림3, [그림 3])",
        "warning",
        "fix",
        fig001_references,
        in_build=False,
        korean=True,
    ),
    Rule("FIG002", "image alt text that is a file name", "warning", "report", fig002_file_name_alt),
    Rule("IMG001", "image file missing", "error", "report", img001_missing),
    Rule(
        "LEAK001",
        "syntax of another dialect left in the text (Liquid, distill, mdBook, kramdown, Sphinx)",
        "warning",
        "report",
        leak001_foreign_syntax,
        in_build=False,
    ),
]


def made_by_the_runner(doc: object, settings: object) -> Iterator[Finding]:
    """Findings of ``NOTICES`` come from ``--fix`` itself, not from a look at the text."""
    return iter(())


# What ``--fix`` reports about itself (proof.py, runner.save_fixed): listed so that
# the summary can name them, never run as checks.
NOTICES: list[Rule] = [
    Rule(
        "CHK004",
        "fix not applied: pandoc shows it would change code, math, links or structure",
        "warning",
        "report",
        made_by_the_runner,
    ),
    Rule(
        "CHK005",
        "fixed file not written: read-only, or changed by another program meanwhile",
        "error",
        "report",
        made_by_the_runner,
    ),
    Rule(
        "CHK006",
        "file not checked: its front matter could not be read (the other files were)",
        "error",
        "report",
        made_by_the_runner,
    ),
]
BY_ID = {rule.id: rule for rule in [*RULES, *NOTICES, *SYNC_RULES]}
