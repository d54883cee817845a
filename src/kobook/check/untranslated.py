"""KO011: paragraphs left untranslated, and translation progress per chapter.

A prose paragraph (code, math, link text and reference lists left out) with
many Latin words and no Hangul is most likely not translated yet.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..korean.hangul import has_hangul
from ..lang.script import LATIN_WORD
from ..source import SourceDoc
from .model import Finding, Settings

REFERENCE_HEADINGS = re.compile(
    r"references|bibliography|further reading|참고\s*문헌|참고\s*자료|더\s*읽을\s*거리", re.I
)


@dataclass(frozen=True)
class Paragraph:
    line: int  # 0-based first line
    text: str  # the prose a reader sees (no code, math, links)


def paragraphs(doc: SourceDoc) -> list[Paragraph]:
    """Prose paragraphs outside reference sections."""
    found = []
    in_references = False
    tokens = doc.tokens
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and index + 1 < len(tokens):
            title = tokens[index + 1].content
            level = int(token.tag[1])
            if REFERENCE_HEADINGS.search(title):
                in_references, references_level = True, level
            elif in_references and level <= references_level:
                in_references = False
            continue
        if token.type != "inline" or not token.map or in_references:
            continue
        if index == 0 or tokens[index - 1].type != "paragraph_open":
            continue
        parts = []
        depth = 0
        for child in token.children or []:
            if child.type == "link_open":
                depth += 1
            elif child.type == "link_close":
                depth -= 1
            elif depth == 0 and child.type in ("text", "softbreak"):
                parts.append(child.content if child.type == "text" else " ")
        found.append(Paragraph(token.map[0], "".join(parts)))
    return found


def ko011_untranslated(doc: SourceDoc, settings: Settings) -> Iterator[Finding]:
    for paragraph in paragraphs(doc):
        words = LATIN_WORD.findall(paragraph.text)
        if len(words) >= settings.untranslated_min_words and not has_hangul(paragraph.text):
            start = doc.line_offset(paragraph.line)
            line_end = doc.text.find("\n", start)
            yield Finding(
                "KO011",
                start,
                line_end if line_end >= 0 else len(doc.text),
                f"paragraph looks untranslated ({len(words)} Latin words, no Hangul): "
                f"{paragraph.text[:50]}…",
                None,
                "info",
            )


@dataclass(frozen=True)
class Progress:
    paragraphs: int
    translated: int

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.paragraphs if self.paragraphs else 100.0


def progress(doc: SourceDoc) -> Progress:
    """How many prose paragraphs have Hangul (reference lists and code left out)."""
    counted = [p for p in paragraphs(doc) if LATIN_WORD.search(p.text) or has_hangul(p.text)]
    return Progress(len(counted), sum(1 for p in counted if has_hangul(p.text)))
