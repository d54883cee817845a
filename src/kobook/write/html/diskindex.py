"""The search index a site opened from disk reads: plain scripts in ``search/disk/``.

A browser refuses Pagefind from ``file://`` (an ES module, WebAssembly and ``fetch``
are all blocked there), and a release zip is opened that way.  A ``<script src>`` is
not blocked, so the same words are also written as small scripts a page can add
one by one: ``index.js`` names the pages, their sections and the words' keys (a
word's first letter; two for Latin letters and digits, which are few and common); a
shard (``t-<n>.js``) holds the words of the keys hashed to it and the sections
holding each;
``s-<n>.js`` is one section's text, read only for the results shown.  A query so
loads the index, one shard per word and a few sections: what it needs, not the
book.  ``assets/book.js`` matches words the way Pagefind does (a query word begins
a word of the text; Korean particles taken off the query first).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

DISK_DIR = "disk"
WORD = re.compile(r"\w+(?:-\w+)*")
# What a page shows but nobody searches for (heading # links, footnote back-links, copy
# buttons, the TeX kept beside MathML): both indexes leave it out (search.EXCLUDE is
# made from these for Pagefind).
UNSEARCHED_CLASSES = ("anchor", "footnote-back", "copy-code")
UNSEARCHED_TAGS = ("annotation",)
SKIPPED_CLASSES = set(UNSEARCHED_CLASSES)
SKIPPED_TAGS = {*UNSEARCHED_TAGS, "script", "style", "button"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
SECTION_HEADINGS = {"h1", "h2", "h3"}
# Elements inside a line of text: any other tag separates words.
INLINE = {
    "a",
    "abbr",
    "b",
    "cite",
    "code",
    "del",
    "em",
    "i",
    "ins",
    "kbd",
    "mark",
    "q",
    "s",
    "samp",
    "small",
    "span",
    "strong",
    "sub",
    "sup",
    "u",
    "var",
    "wbr",
}


@dataclass
class Section:
    """A stretch of a page under one heading: where a result links, what it shows."""

    anchor: str
    title: str = ""
    text: list[str] = field(default_factory=list)


class PageText(HTMLParser):
    """The text of a page's ``data-pagefind-body`` article, cut at its headings."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[Section] = []
        self.depth = 0  # inside the article: its element depth
        self.skip = 0  # inside a skipped element: its depth
        self.heading: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if not self.depth:
            if tag == "article" and "data-pagefind-body" in found:
                self.depth = 1
                self.sections.append(Section(""))
            return
        self.apart(tag)
        if tag in VOID:
            return
        self.depth += 1
        classes = set((found.get("class") or "").split())
        if not self.skip and (tag in SKIPPED_TAGS or classes & SKIPPED_CLASSES):
            self.skip = self.depth
        if tag in SECTION_HEADINGS and not self.skip:
            self.sections.append(Section(found.get("id") or ""))
            self.heading = []

    def apart(self, tag: str) -> None:
        """A block's edge (``</p>``, ``<br>``, ``<td>``) parts the words on either side."""
        if tag not in INLINE and self.sections:
            self.sections[-1].text.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if not self.depth or tag in VOID:
            return
        self.apart(tag)
        if self.skip == self.depth:
            self.skip = 0
        if tag in SECTION_HEADINGS and self.heading is not None:
            self.sections[-1].title = " ".join("".join(self.heading).split())
            self.heading = None
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth and not self.skip:
            self.sections[-1].text.append(data)
            if self.heading is not None:
                self.heading.append(data)


def page_sections(markup: str) -> list[Section]:
    parser = PageText()
    parser.feed(markup)
    parser.close()
    return [s for s in parser.sections if "".join(s.text).strip()]


def words(text: str) -> list[str]:
    """The words of ``text`` as a query is cut (``book.js`` cuts it the same way): a
    hyphenated word whole (``all-reduce``) and each of its parts (``reduce``)."""
    found = []
    for word in WORD.findall(unicodedata.normalize("NFC", text).lower()):
        found.append(word)
        if "-" in word:
            found += word.split("-")
    return found


def shard_key(word: str) -> str:
    """The key a word is filed under: its first letter, or its first two when ASCII."""
    return word[:2] if word[0].isascii() else word[0]


def bucket(key: str, buckets: int) -> int:
    """The shard file of ``key``: FNV-1a over its UTF-16 code units, as ``book.js``
    computes it (a few hundred files, not one per Korean syllable)."""
    value = 0x811C9DC5
    data = key.encode("utf-16-le")
    for index in range(0, len(data), 2):
        value ^= data[index] | (data[index + 1] << 8)
        value = (value * 0x01000193) & 0xFFFFFFFF
    return value % buckets


def bucket_count(words: int) -> int:
    """About 300 words a shard, between 8 and 256 shards."""
    return max(8, min(256, words // 300))


def script(call: str, *values: object) -> str:
    """``kobookSearch.call(values…);`` with the values as JSON that cannot close a tag or
    break a line in a script."""
    text = ",".join(json.dumps(v, ensure_ascii=False, separators=(",", ":")) for v in values)
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(raw, escaped)
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"kobookSearch.{call}({text});\n"


def write_disk_index(site: Path, pages: list[str], out: Path, endings: object) -> None:
    """The scripts of the disk index for ``pages`` of ``site``, written into ``out``;
    ``endings``: the Korean particles a query word loses (``particles.json``'s table)."""
    out.mkdir(parents=True, exist_ok=True)
    page_list: list[list[str]] = []
    sections: list[list[object]] = []
    shards: dict[str, dict[str, list[int]]] = {}
    for name in pages:
        found = page_sections((site / name).read_text(encoding="utf-8", errors="replace"))
        page_index = len(page_list)
        page_list.append([name, next((s.title for s in found if s.title), name)])
        for section in found:
            number = len(sections)
            text = " ".join("".join(section.text).split())
            sections.append([page_index, section.anchor, section.title])
            (out / f"s-{number}.js").write_text(script("text", number, text), encoding="utf-8")
            for word in set(words(text)):
                shards.setdefault(shard_key(word), {}).setdefault(word, []).append(number)
    keys = sorted(shards)
    count = bucket_count(sum(len(held) for held in shards.values()))
    files: dict[int, dict[str, list[int]]] = {}
    for key in keys:
        files.setdefault(bucket(key, count), {}).update(shards[key])
    for number, held in sorted(files.items()):
        postings = {word: held[word] for word in sorted(held)}
        (out / f"t-{number}.js").write_text(script("shard", number, postings), encoding="utf-8")
    index = {
        "pages": page_list,
        "sections": sections,
        "keys": keys,
        "buckets": count,
        "endings": endings,
    }
    (out / "index.js").write_text(script("index", index), encoding="utf-8")
