"""The validated metadata of one book (:class:`Config`), with its source text, so every
message about a value can name its line.

Defaults live here and only here.  What the keys may hold is checked once, when
``load`` reads the file (``kobook.load.config``); what the engine default is
belongs to the writers' registry (``kobook.write.registry.engine_for``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import reproducible
from ..lang import Words, format_date, language_of
from ..lang.dates import as_date

# BCP 47, as far as a book needs it: a language of 2-3 letters, then subtags of letters and
# digits (``ko``, ``ko-KR``, ``zh-Hant-TW``); ``_`` is read as ``-`` (``ko_KR``).  What
# metadata validation accepts and what an output may be given as a language.
LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*")


def language_tag(value: object) -> str:
    """``value`` as a language tag an output may carry (``ko_KR`` → ``ko-KR``), or ""."""
    text = str(value or "").strip()
    return text.replace("_", "-") if LANGUAGE_TAG.fullmatch(text) else ""


# ``captions:`` keys that set the house style of numbers, not words.
CAPTION_STYLE = ("separator", "period")


# Settings only the templates show (title pages, running heads, a page's <title>, the
# colophon, the package's metadata): no check, transform pass or chapter's body reads
# them, so an edit of one makes the pages again and nothing of the chapters
# (``kobook preview``; tests/unit/model/test_config.py holds every pass to it).
SHOWN_ONLY = frozenset(
    {"title", "subtitle", "author", "translators", "date", "edition", "publisher", "rights"}
)


@dataclass
class Config:
    """The validated metadata of one book, with defaults filled in."""

    raw: dict[str, Any]
    path: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    text: str = ""  # the file's text as read: the line of a key is found in it
    # key -> where a value metadata.yaml does not give came from ("book.toml", "the pandoc
    # command in README.md:12"): what the build reports as the reason.
    sources: dict[str, str] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.raw.get(key, default)

    def line(self, key: str, sub: str | None = None) -> int:
        """The line of ``key:`` (or of ``sub:`` inside it) in the metadata file, 0 when
        it is not there: every message about a metadata value points at it."""
        return sub_key_line(self.text, key, sub) if sub else key_line(self.text, key)

    def entry_line(self, key: str, entry: str) -> int:
        """The line of ``- entry`` in the list under ``key:`` (a flow list: the key's line)."""
        return (entry_lines(self.text, key, entry) or [0])[0]

    def beyond_shown(self) -> dict[str, Any]:
        """The settings without the ones only shown (:data:`SHOWN_ONLY`): what the
        chapters are made from."""
        return {key: value for key, value in self.raw.items() if key not in SHOWN_ONLY}

    # Typed accessors used by the stages; defaults live here and only here.
    @property
    def title(self) -> str:
        return str(self.raw.get("title") or "")

    @property
    def lang(self) -> str:
        return str(self.raw.get("lang") or "ko-KR")

    @property
    def authors(self) -> list[str]:
        return as_list(self.raw.get("author"))

    @property
    def affiliations(self) -> list[str]:
        """The authors' affiliations (``author: [{name: …, affiliation: …}]``), each once,
        in the order the authors are listed: the title page prints them under the names."""
        found: dict[str, None] = {}
        value = self.raw.get("author")
        for entry in value if isinstance(value, list) else [value]:
            if isinstance(entry, dict):
                place = entry.get("affiliation", entry.get("affiliations"))
                for item in place if isinstance(place, list) else [place]:
                    name = item.get("name") if isinstance(item, dict) else item
                    found.setdefault(str(name or "").strip(), None)
        return [name for name in found if name]

    @property
    def translators(self) -> list[str]:
        return as_list(self.raw.get("translators"))

    @property
    def original(self) -> dict[str, Any]:
        """The original work, with ``licence`` (either spelling) and authors as text."""
        value = dict(self.raw.get("original") or {})
        if "licence" not in value and "license" in value:
            value["licence"] = value["license"]
        authors = value.get("authors", value.get("author"))
        if isinstance(authors, list):
            authors = ", ".join(map(str, authors))
        if authors:
            value["authors"] = str(authors)
        if not value:
            return {}
        # Templates may ask for any of these: a missing one is empty, never an error.
        for key in ("title", "authors", "url", "licence", "year", "publisher"):
            value[key] = "" if value.get(key) is None else value[key]
        return value

    @property
    def print_master(self) -> bool:
        """``print: true``: the PDF goes to a printer (links as text, web addresses in
        footnotes, a half-title page).  A PDF/X (``pdf.standard``) is one whatever
        ``print`` says: it carries no links, so its addresses must be printed."""
        settings = self.raw.get("pdf")
        press = isinstance(settings, dict) and settings.get("standard") is not None
        return self.raw.get("print") is True or press

    @property
    def half_title(self) -> bool:
        """Does the book open with a half-title page (약표제지: the title alone, then a blank
        verso, then the title page)?  ``half-title:``; by default a print master's
        (``print: true``) does, a screen PDF's does not."""
        value = self.raw.get("half-title")
        return bool(value) if isinstance(value, bool) else self.print_master

    @property
    def index(self) -> bool:
        """Does the book print an index (찾아보기) of its marked terms?  ``index: false``
        leaves it out; a book with no mark has none either way."""
        return self.raw.get("index") is not False

    @property
    def index_glossary(self) -> bool:
        """``index: {glossary: true}``: every glossary term's first use in each chapter is
        indexed too, with its source term beside it."""
        value = self.raw.get("index")
        return isinstance(value, dict) and value.get("glossary") is True

    @property
    def original_lang(self) -> str:
        """The original's language (``original: {lang: en}``), ``en`` when not given or
        not a language tag: text still untranslated is marked as that language."""
        return language_tag(self.original.get("lang")) or "en"

    @property
    def hyphenates_latin(self) -> bool:
        """``hyphenate: latin``: a Latin word that would leave its line loose may be
        hyphenated as English.  Off by default: Korean publishers set no hyphen inside a
        Korean line, where a reader cannot tell an inserted hyphen from one of the
        word's own (``all-reduce``); code names never take one (they break at seams)."""
        return self.raw.get("hyphenate") == "latin"

    @property
    def line_breaking(self) -> str:
        return str(self.raw.get("line-breaking") or "word")

    def keeps_words_whole(self, lang: str | None = None) -> bool:
        """Do lines of text in ``lang`` (default: the book's) break between Korean words
        (어절), never inside one?  The one decision every writer and the preview follow:
        yes for Korean text unless ``line-breaking: syllable``; other languages keep their
        own rules (Chinese and Japanese break between characters, an English book as
        English does)."""
        return self.line_breaking == "word" and language_of(lang or self.lang) == "ko"

    @property
    def toc(self) -> bool:
        return bool(self.raw.get("toc", True))

    @property
    def toc_depth(self) -> int:
        depth = self.raw.get("toc-depth")
        return 2 if depth is None else int(depth)

    @property
    def numbersections(self) -> bool:
        return bool(self.raw.get("numbersections", True))

    @property
    def number_by_chapter(self) -> bool:
        return bool(self.raw.get("number-by-chapter", True))

    @property
    def language(self) -> str:
        """The book's language for kobook: ``ko``, ``en``, ``zh-Hans``, ``zh-Hant``, ``ja``."""
        return language_of(self.lang)

    @property
    def words(self) -> Words:
        """The words kobook prints in this book's language, ``captions:`` applied."""
        captions = self.raw.get("captions") or {}
        overrides = {str(k): str(v) for k, v in captions.items() if k not in CAPTION_STYLE}
        if captions.get("period") is False:
            overrides["caption-end"] = ""
        return Words(self.language, overrides)

    @property
    def caption_separator(self) -> str:
        """Between the chapter and the count in a figure, table, listing or equation
        number: ``.`` (그림 3.2, the default) or ``-`` (그림 3-2)."""
        return str((self.raw.get("captions") or {}).get("separator") or ".")

    @property
    def date_text(self) -> str:
        """``date`` as the title page prints it (``\\today`` is the build date)."""
        return format_date(self.raw.get("date"), self.language)

    @property
    def output_epoch(self) -> int | None:
        """The time the outputs carry (``SOURCE_DATE_EPOCH``, else ``date`` when it is
        one, else None): the policy is in :mod:`kobook.reproducible`."""
        value = self.raw.get("date")
        return reproducible.output_epoch(None if value in (None, "") else as_date(value))

    @property
    def preface_title(self) -> str:
        return str(self.raw.get("preface-title") or self.words.word("preface"))

    @property
    def formats(self) -> list[str]:
        """What ``kobook build`` with no format builds (``formats:``; validated in schema.py)."""
        return as_list(self.raw.get("formats")) or ["pdf"]

    @property
    def bibliography(self) -> list[str]:
        return as_list(self.raw.get("bibliography"))


def as_list(value: Any) -> list[str]:
    """``"a"`` → ``["a"]``, ``None`` → ``[]``; lists of names keep their order."""
    if value is None or value == "":
        return []
    if isinstance(value, list):
        return [str(v if not isinstance(v, dict) else v.get("name", v)) for v in value]
    return [str(value)]


def key_line(text: str, key: str) -> int:
    """Line of ``key:`` in the YAML source, for error messages (0 if not found)."""
    pattern = re.compile(rf"""^(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*:""")
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return number
    return 0


def sub_key_line(text: str, key: str, sub: str) -> int:
    """Line of ``sub:`` inside the mapping under ``key:`` (block or ``{...}`` style)."""
    start = key_line(text, key)
    if not start:
        return 0
    lines = text.splitlines()
    pattern = re.compile(rf"""(?:^|[\s{{,])["']?{re.escape(sub)}["']?\s*:""")
    for number in range(start, len(lines) + 1):
        line = lines[number - 1]
        if number > start and line.strip() and not line[:1].isspace():
            break  # the next top-level key
        if pattern.search(line if number > start else line.split(":", 1)[1]):
            return number
    return start


def entry_lines(text: str, key: str, entry: str) -> list[int]:
    """Lines of ``- entry`` in the block list under ``key:`` (flow lists: the key's line)."""
    start = key_line(text, key)
    if not start:
        return []
    item = re.compile(rf"""^\s*-\s*["']?{re.escape(entry)}["']?\s*(?:#.*)?$""")
    found = []
    lines = text.split("\n")
    for number in range(start + 1, len(lines) + 1):
        line = lines[number - 1]
        if line.strip() and not line[:1].isspace() and not line.startswith("-"):
            break  # the next top-level key
        if item.match(line):
            found.append(number)
    return found or [start]
