"""An AST find placed at its line of the chapter's source (parsed only when something
is found)."""

from __future__ import annotations

from ...errors import Location
from ...model import Chapter
from ...source import SourceDoc, parse_source
from .patterns import Found, squeeze, tag_attributes
from .source import mask_source, source_leaks, source_tags


class Locator:
    """Places AST finds in one chapter's source (parsed only when something is found)."""

    def __init__(self, chapter: Chapter) -> None:
        self.chapter = chapter
        self._doc: SourceDoc | None = None
        self._masked = ""
        self._pools: dict[str, dict[tuple[str, str], list[Found]]] = {}
        self._fallbacks: dict[str, int] = {}

    @property
    def doc(self) -> SourceDoc:
        if self._doc is None:
            self._doc = parse_source(self.chapter.text, self.chapter.path)
            self._masked = mask_source(self._doc)
        return self._doc

    def pool(self, which: str) -> dict[tuple[str, str], list[Found]]:
        """Source finds by kind and name: ``leaks`` (LEAK001) or ``tags`` (HTML start tags)."""
        if which not in self._pools:
            doc = self.doc
            if which == "tags":
                finds = source_tags(doc, self._masked)
            else:
                finds = source_leaks(doc, self._masked)
            pools: dict[tuple[str, str], list[Found]] = {}
            for found in finds:
                pools.setdefault((found.kind, found.name.lower()), []).append(found)
            self._pools[which] = pools
        return self._pools[which]

    def take(self, found: Found, which: str = "leaks") -> Found | None:
        """The source occurrence of ``found``: the first unused one with the same text,
        else the first unused one of its kind and name."""
        candidates = [
            c for c in self.pool(which).get((found.kind, found.name.lower()), []) if not c.used
        ]
        key = squeeze(found.text)
        chosen = next((c for c in candidates if squeeze(c.text) == key), None)
        chosen = chosen or (candidates[0] if candidates else None)
        if chosen is not None:
            chosen.used = True
        return chosen

    def take_markdown_tag(self, found: Found) -> Found | None:
        """The source tag with ``markdown=…`` that pandoc turned into the raw tag ``found``."""
        wanted = tag_attributes(found.text)
        for candidate in self.pool("leaks").get(("markdown-attr", found.name), []):
            if not candidate.used and tag_attributes(candidate.text) == wanted:
                candidate.used = True
                return candidate
        return None

    def location(self, source: Found | None, needle: str) -> Location:
        chapter = self.chapter
        if source is not None:
            line, col = self.doc.position(source.start)
            return chapter.where(line, col)
        occurrence = self._fallbacks.get(needle, 0)
        self._fallbacks[needle] = occurrence + 1
        located = chapter.locate(needle, occurrence)
        return located or chapter.where(1, 0)

    def suppressed(self, code: str, source: Found | None) -> bool:
        return source is not None and self.doc.suppressed(code, source.start)


NEEDLES = {
    "liquid-tag": "{%",
    "liquid-output": "{{",
    "mdbook": "{{#",
    "kramdown-ial": "{:",
    "markdown-attr": "markdown",
    "div-fence": ":::",
    "dollars": "$$",
}


def needle(found: Found) -> str:
    if found.kind == "distill":
        return f"<d-{found.name}"
    if found.kind in ("role", "d2l-tab"):
        return "#@tab" if found.text.startswith("#@tab") else f":{found.name}:"
    return NEEDLES.get(found.kind, found.text)
