"""The back-of-book index (찾아보기): its entries, their order and their groups, decided
once for every writer.

A place in the text is a :class:`Mark` (a ``[용어]{.index}`` span, ``\\index{용어}``, or
a glossary term the book asks to index).  :func:`arrange` gathers the marks of the
whole book into :class:`Group` s of :class:`Entry` s, in the order a Korean reader looks
for them, which Korean IT publishers print:

* symbols and numbers first, then Latin terms, one group per letter (``GPU`` under
  *G*, case ignored), then Hangul terms in dictionary order (가나다), one group per
  initial consonant with the doubled ones under the single (``까`` under ㄱ), then
  anything else (kana, Han characters) by code point, one group per first character;
* an entry's ``sort`` reading, when the book gives one, decides where it goes (a term
  that starts with a symbol or a Han character can be filed under its Korean reading);
* ``텐서!분할`` makes ``분할`` a sub-entry under ``텐서``.

Hangul syllables in Unicode order are already the South Korean dictionary order
(KS X 1026-1: initial, then medial, then final, doubled consonants after their single
ones), so the order needs no table.  Each writer prints the locators its own way: the
PDF engines as page numbers, the site and the EPUB as links named by section.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

SUB = "!"  # makeindex's separator of an entry and its sub-entry
HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3
# The 19 initial consonants in syllable order, each under the group it is printed in.
INITIAL_GROUPS = "ㄱㄱㄴㄷㄷㄹㅁㅂㅂㅅㅅㅇㅈㅈㅊㅋㅌㅍㅎ"
# The initial consonants as compatibility jamo, in the same order.
INITIAL_JAMO = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
# Compatibility jamo (a term that starts with ``ㄲ``) under the same groups.
JAMO_GROUPS = {"ㄲ": "ㄱ", "ㄸ": "ㄷ", "ㅃ": "ㅂ", "ㅆ": "ㅅ", "ㅉ": "ㅈ"}
# The order of the kinds of groups.
SYMBOLS, LATIN, HANGUL, OTHER = range(4)


@dataclass(frozen=True)
class Mark:
    """One place the text is indexed: the entry (``텐서!분할`` for a sub-entry), how it
    sorts, the anchor the text carries there, its chapter and the section it is in (as a
    reference prints it: ``3.2절``, or the section's title)."""

    term: str
    anchor: str
    chapter_id: str
    section: str
    sort: str = ""
    original: str = ""  # the source term (``tensor parallelism``), printed beside it


@dataclass
class Entry:
    """One entry of the index: its text, the places it is marked (in reading order), the
    source term beside it, and its sub-entries."""

    term: str
    sort: str
    marks: list[Mark] = field(default_factory=list)
    original: str = ""
    subs: list[Entry] = field(default_factory=list)


@dataclass
class Group:
    """Entries under one heading (``ㄱ``, ``G``, ``기호·숫자``)."""

    label: str
    entries: list[Entry]


def clean(text: str) -> str:
    """``text`` as one line, NFC (a decomposed 한 and a composed one are one entry)."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def kind_of(char: str) -> int:
    """Which kind of group a term starting with ``char`` goes to."""
    code = ord(char)
    if HANGUL_FIRST <= code <= HANGUL_LAST or 0x3131 <= code <= 0x318E:
        return HANGUL
    base = unicodedata.normalize("NFD", char)[0]
    if base.isascii() and base.isalpha():
        return LATIN
    if char.isalpha():
        return OTHER
    return SYMBOLS


def group_label(text: str, symbols: str) -> str:
    """The heading ``text`` is printed under; ``symbols``: the words for the first group."""
    if not text:
        return symbols
    char = text[0]
    kind = kind_of(char)
    if kind == HANGUL:
        code = ord(char)
        if HANGUL_FIRST <= code <= HANGUL_LAST:
            return INITIAL_GROUPS[(code - HANGUL_FIRST) // 588]
        return JAMO_GROUPS.get(char, char)
    if kind == LATIN:
        return unicodedata.normalize("NFD", char)[0].upper()
    if kind == OTHER:
        return char
    return symbols


def sort_key(text: str) -> tuple[int, str, str]:
    """Where ``text`` goes: its kind of group, then the text without case or accents
    (``gpu`` beside ``GPU``), then the text itself, so the order never depends on which
    mark came first."""
    text = clean(text)
    folded = "".join(
        c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c)
    )
    folded = unicodedata.normalize("NFC", folded)
    if folded and folded[0] in INITIAL_JAMO:  # ㄲ 받침: just before the syllables 까…
        folded = chr(HANGUL_FIRST + INITIAL_JAMO.index(folded[0]) * 588 - 1) + folded
    return (kind_of(text[0]) if text else SYMBOLS, folded, text)


def split_term(term: str) -> tuple[str, str]:
    """``텐서!분할`` → (``텐서``, ``분할``); a term with no ``!`` has no sub-entry."""
    head, _, sub = term.partition(SUB)
    return clean(head), clean(sub.replace(SUB, " "))


def arrange(marks: list[Mark], symbols: str) -> list[Group]:
    """The index of the book whose marks are ``marks`` (in reading order): its groups in
    order, each entry's marks in reading order.  ``symbols`` names the first group."""
    entries: dict[str, Entry] = {}
    for mark in marks:
        head, sub = split_term(mark.term)
        if not head:
            continue
        reading = clean(mark.sort) if mark.sort and not sub else ""
        entry = entries.get(head)
        if entry is None:
            entry = entries[head] = Entry(head, reading or head)
        elif reading:
            entry.sort = reading
        if mark.original and not entry.original and not sub:
            entry.original = clean(mark.original)
        if sub:
            child = next((e for e in entry.subs if e.term == sub), None)
            if child is None:
                child = Entry(sub, clean(mark.sort) or sub)
                entry.subs.append(child)
            child.marks.append(mark)
        else:
            entry.marks.append(mark)
    groups: dict[str, Group] = {}
    for entry in sorted(entries.values(), key=lambda e: sort_key(e.sort)):
        entry.subs.sort(key=lambda e: sort_key(e.sort))
        label = group_label(entry.sort, symbols)
        groups.setdefault(label, Group(label, [])).entries.append(entry)
    return list(groups.values())


def anchors(groups: list[Group]) -> list[str]:
    """Every anchor the index links to, in the order it prints them."""
    found = []
    for group in groups:
        for entry in group.entries:
            found += [m.anchor for m in entry.marks]
            for sub in entry.subs:
                found += [m.anchor for m in sub.marks]
    return found


def unique_pages(pages: list[str]) -> list[str]:
    """Page numbers as an index prints them: each once, in the order of the text."""
    seen: list[str] = []
    for page in pages:
        if page and page not in seen:
            seen.append(page)
    return seen
