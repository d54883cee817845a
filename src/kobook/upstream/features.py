"""What a block holds that translation does not change: its language-independent anchors.

Code, URLs, image sources, inline code, numbers, TeX, citations and footnotes
stay the same in any language; a Korean sentence also keeps many English words
(names, terms in parentheses).  These are what pairs a Korean block with its
original without a translation model, and what the invariant rules compare.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

# A number stands alone in English and before a counter in Korean (24시간, 12장).
NUMBER = re.compile(r"(?<![0-9A-Za-z.])\d+(?:[.,]\d+)*(?![0-9A-Za-z])")
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_+#'-]*[A-Za-z0-9+#]|[A-Z]")
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|[^\sA-Za-z0-9_]")
SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Features:
    """A block's anchors: tagged tokens (``u:`` URL, ``i:`` image, ``c:`` inline code,
    ``m:`` TeX, ``n:`` number, ``@`` citation, ``^`` footnote), its Latin words, its
    length in characters without spaces, and a code block's tokens."""

    anchors: Counter[str] = field(default_factory=Counter)
    latin: frozenset[str] = frozenset()
    length: int = 0
    code: Counter[str] = field(default_factory=Counter)

    def of(self, tag: str) -> Counter[str]:
        """The anchors of one kind (``"u:"``, ``"n:"``...)."""
        return Counter({k: n for k, n in self.anchors.items() if k.startswith(tag)})


def tex(text: str) -> str:
    """TeX with its spacing removed: ``x ^ {2}`` and ``x^{2}`` are one formula."""
    return SPACE.sub("", text)


def url(target: str) -> str:
    return target.strip().rstrip("/")


def features_of(inlines: Any, kind: str, text: str | None = None) -> Features:
    """The anchors of a block made of ``inlines`` (or, for code, of ``text``)."""
    if text is not None:
        tokens = Counter(TOKEN.findall(text)) if kind == "code" else Counter()
        return Features(Counter(), frozenset(), len(SPACE.sub("", text)), tokens)
    anchors: Counter[str] = Counter()
    prose: list[str] = []
    collect(inlines, anchors, prose)
    words = " ".join(prose)
    for number in NUMBER.findall(words):
        anchors["n:" + number.replace(",", "")] += 1
    latin = frozenset(w.lower() for w in LATIN.findall(words))
    return Features(anchors, latin, len(SPACE.sub("", words)))


def collect(value: Any, anchors: Counter[str], prose: list[str]) -> None:
    """Walk inlines: anchors into ``anchors``, the words of the text into ``prose``."""
    if isinstance(value, list):
        for item in value:
            collect(item, anchors, prose)
        return
    if not isinstance(value, dict):
        return
    kind: Any = value.get("t")
    content: Any = value.get("c")
    if kind == "Str":
        prose.append(content)
    elif kind in ("Space", "SoftBreak", "LineBreak"):
        prose.append(" ")
    elif kind == "Code":
        anchors["c:" + content[1].strip()] += 1
        if NUMBER.fullmatch(content[1].strip()):  # `5` in the original, 5 in a translation
            anchors["n:" + content[1].strip().replace(",", "")] += 1
        prose.append(" ")
    elif kind == "Math":
        anchors["m:" + tex(content[1])] += 1
        prose.append(" ")
    elif kind == "Link":
        anchors["u:" + url(content[2][0])] += 1
        collect(content[1], anchors, prose)
    elif kind == "Image":
        anchors["i:" + url(content[2][0]).rsplit("/", 1)[-1]] += 1
    elif kind == "Note":
        anchors["^"] += 1
    elif kind == "Cite":
        for citation in content[0]:
            anchors["@" + citation["citationId"]] += 1
    elif kind in ("Span", "Quoted"):
        collect(content[1], anchors, prose)
    elif kind == "RawInline":
        for target in re.findall(r"""(?:href|src)\s*=\s*["']([^"']+)""", content[1]):
            anchors["u:" + url(target)] += 1
    elif isinstance(content, list):
        collect(content, anchors, prose)


def overlap(a: Counter[str], b: Counter[str]) -> float | None:
    """Weighted Jaccard of two multisets; None when both are empty."""
    total = sum((a | b).values())
    if not total:
        return None
    return sum((a & b).values()) / total
