"""Checks on built outputs, shared by the end-to-end tests and scripts/bench.py.

They read what a reader gets (the PDF's text through poppler, the HTML files)
and compare it with what the source says.
"""

from __future__ import annotations

import itertools
import re
import subprocess
import unicodedata
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

HANGUL = re.compile(r"[\uac00-\ud7a3]")


def pdf_pages(pdf: Path) -> list[str]:
    """Text of each page (poppler's pdftotext; pages split on form feeds)."""
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    pages = out.split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    # No-break spaces (between 그림 and its number) read as spaces.
    return [unicodedata.normalize("NFC", p).replace("\u00a0", " ") for p in pages]


def squash(text: str) -> str:
    """Text without whitespace, for matching headings that wrap across lines."""
    return re.sub(r"\s+", "", text)


def in_order(haystack: str, needles: list[str]) -> list[str]:
    """The needles NOT found in order in ``haystack`` (empty list: all in order)."""
    missing = []
    position = 0
    flat = squash(haystack)
    for needle in needles:
        index = flat.find(squash(needle), position)
        if index < 0:
            missing.append(needle)
        else:
            position = index + len(squash(needle))
    return missing


def split_words(pdf_text: str, source: str) -> list[tuple[str, str]]:
    """Line breaks that fall inside a Korean word of the source (the 어절 rule)."""
    source = unicodedata.normalize("NFC", source)
    # Math is drawn as images, which leave no text: "수 $L$만" reads "수 만".
    words = set(source.split()) | set(re.sub(r"\$[^$]*\$", " ", source).split())
    lines = [line for line in pdf_text.split("\n") if line.strip()]
    bad = []
    for a, b in itertools.pairwise(lines):
        last, first = a.split()[-1], b.split()[0]
        if not (HANGUL.search(last[-1:]) and HANGUL.search(first[:1])):
            continue
        if last + first in words and (last not in words or first not in words):
            bad.append((last, first))
    return bad


def toc_entries(toc_text: str) -> list[tuple[str, int]]:
    """``(title, page)`` pairs from TOC page text (lines ending in a page number)."""
    entries = []
    for line in toc_text.split("\n"):
        match = re.match(r"^(.*?)[\s.]*?(\d+)\s*$", line.strip())
        if match and match.group(1).strip() and "." in line:
            title = re.sub(r"[.\s]+$", "", match.group(1)).strip()
            entries.append((title, int(match.group(2))))
    return entries


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.assets: list[str] = []
        self.lang = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if "id" in values:
            self.ids.add(values["id"])
        if tag == "html":
            self.lang = values.get("lang", "")
        if tag == "a" and "href" in values:
            self.links.append(values["href"])
        if tag in ("img", "script", "iframe", "video", "audio", "source") and "src" in values:
            self.assets.append(values["src"])
        if tag == "link" and "href" in values:
            self.assets.append(values["href"])


def html_problems(site: Path) -> list[str]:
    """Broken internal links and images, remote assets, a missing ``lang``."""
    pages: dict[str, _Collector] = {}
    for page in sorted(site.glob("*.html")):
        collector = _Collector()
        collector.feed(page.read_text(encoding="utf-8"))
        pages[page.name] = collector
    problems = []
    for name, page in pages.items():
        if not page.lang.startswith("ko"):
            problems.append(f"{name}: lang is {page.lang!r}")
        for asset in page.assets:
            if re.match(r"^(https?:)?//", asset):
                problems.append(f"{name}: remote asset {asset}")
            elif not asset.startswith("data:") and not (site / unquote(asset)).is_file():
                problems.append(f"{name}: missing asset {asset}")
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                continue
            target = unquote(parts.path) or name
            if target not in pages:
                if not (site / target).is_file():
                    problems.append(f"{name}: link to missing page {link}")
                continue
            fragment = unquote(parts.fragment)
            if fragment and fragment not in pages[target].ids:
                problems.append(f"{name}: link to missing id {link}")
    return problems


def words_off_page(pdf: Path, margin: float = 0.0, tolerance: float = 1.0) -> list[str]:
    """Words drawn (partly) outside the page less ``margin`` points: code or tables that ran off."""
    out = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    problems = []
    width = height = 0.0
    page = 0
    for line in out.splitlines():
        page_match = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', line)
        if page_match:
            width, height = float(page_match.group(1)), float(page_match.group(2))
            page += 1
            continue
        box = r'xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)"'
        word = re.search(rf"<word {box}>(.*)</word>", line)
        if word:
            x0, _y0, x1, y1 = (float(word.group(i)) for i in range(1, 5))
            low, high = margin - tolerance, width - margin + tolerance
            if x0 < low or x1 > high or y1 > height + tolerance:
                problems.append(f"page {page}: {word.group(5)} at x={x0:.0f}..{x1:.0f}")
    return problems


def attached_files(pdf: Path) -> list[bytes]:
    """The contents of the files a PDF's attachment annotations embed."""
    from pypdf import PdfReader

    found = []
    for page in PdfReader(pdf).pages:
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") == "/FileAttachment":
                found.append(annot["/FS"].get_object()["/EF"]["/F"].get_object().get_data())
    return found
