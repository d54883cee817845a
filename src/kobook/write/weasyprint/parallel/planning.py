"""How the book is cut into runs: the print HTML cut at the template's marks, each
chapter's weight estimated, consecutive chapters grouped so the heaviest run is as
light as it can be; or no runs, when the book's own styles would lay out differently."""

from __future__ import annotations

import html as html_text
import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from urllib.parse import unquote, urlparse

CHAPTER_MARK = "<!--kobook:chapter-->"
END_MARK = "<!--kobook:end-->"
# Below this estimated layout time (seconds on the machine the weights were measured
# on) a second process costs more than it saves: the sample book is about 4.
MIN_WEIGHT = 2.0
SCALE = 0.75  # CSS px → PDF pt: WeasyPrint's scale at zoom 1 (pdf.generate_pdf)
TOC_LINK = re.compile(r'<a href="#([^"]+)">')
CLASSES = re.compile(r'\sclass="([^"]*)"')
IMAGE_SOURCE = re.compile(r'<img\b[^>]*?\ssrc="([^"]+)"')
TAG = re.compile(r"<[^>]+>")
INDEX_PAGES = re.compile(r'<span class="index-pages">(.*?)</span>', re.S)
MARK_LINK = re.compile(r'<a href="#([^"]+)">[^<]*</a>')


@dataclass(frozen=True)
class Cut:
    """The print HTML in pieces: what precedes ``<body>``, the front matter, each
    chapter (with its part page) and what follows the last one."""

    start: str
    front: str
    chapters: list[str]
    tail: str

    def front_document(self, pages: dict[str, int], guess: str = "") -> str:
        """The title page and contents alone, each entry's page number written in
        (``guess`` for every entry when the numbers are not known yet)."""

        def number(match: re.Match[str]) -> str:
            name = unquote(html_text.unescape(match.group(1)))
            value = guess or (str(pages[name]) if name in pages else "")
            if not value:
                return match.group(0)
            return f'<a href="#{match.group(1)}" data-page="{value}">'

        return f"{self.start}<body>{TOC_LINK.sub(number, self.front)}{self.tail}"

    def run_document(self, chapters: range, title: str, footnotes: int) -> str:
        """Chapters ``chapters`` as a document of their own, carrying what the pages
        before them set: the book's title (for the running heads) and the footnote
        counter."""
        rule = (
            f"<style>html {{ string-set: book-title {css_string(title)}; "
            f"counter-reset: footnote {footnotes}; }}</style>"
        )
        start = self.start.replace("</head>", rule + "</head>", 1)
        return start + "<body>" + "".join(self.chapters[i] for i in chapters) + self.tail

    def tail_document(
        self, chapters: range, title: str, footnotes: int, folios: Mapping[str, str]
    ) -> str:
        """Chapters ``chapters`` (the index and what follows it) as a run's document, each
        index entry's page numbers written in: each page once, in the order of the
        marks, each a link to the first mark on it (``folios``: each anchor's)."""

        def entry(match: re.Match[str]) -> str:
            shown: list[str] = []
            links = []
            for name in MARK_LINK.findall(match.group(1)):
                folio = folios.get(unquote(html_text.unescape(name)))
                if folio and folio not in shown:
                    shown.append(folio)
                    links.append(f'<a href="#{name}">{folio}</a>')
            return f'<span class="index-pages numbered">{", ".join(links)}</span>'

        return INDEX_PAGES.sub(entry, self.run_document(chapters, title, footnotes))


def roman(number: int) -> str:
    """``number`` in lower-case roman numerals: the front matter's folios (``book.css.j2``)."""
    out = ""
    for value, letters in ROMAN:
        while number >= value:
            out += letters
            number -= value
    return out


ROMAN = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc")]
ROMAN += [(50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]


def cut(html: str) -> Cut | None:
    """The print HTML cut at the template's marks; None when a mark is missing
    (a book's own ``book.html.j2`` need not have them)."""
    if html.count("<body>") != 1 or html.count(END_MARK) != 1 or "</head>" not in html:
        return None
    start, rest = html.split("<body>", 1)
    pieces = rest.split(CHAPTER_MARK)
    if len(pieces) < 3 or END_MARK not in pieces[-1]:
        return None
    last, tail = pieces[-1].split(END_MARK, 1)
    return Cut(start, pieces[0], [*pieces[1:-1], last], tail)


# The index's piece (book.html.j2): it and what follows are laid out once every other
# piece's pages are known, with its page numbers written in (``pageindex.py``).
INDEX_PIECE = '<section class="chapter chapter-index book-index">'


def tail_start(pieces: Cut) -> int | None:
    """The piece the index opens, or None without an index."""
    return next((i for i, piece in enumerate(pieces.chapters) if INDEX_PIECE in piece), None)


# What a run cannot honour in a book's own stylesheet: counters and strings carried from
# one chapter to the next, the page index in the document, the targets' page numbers.
RUN_BLIND = re.compile(
    r"counter-(?:increment|reset|set)|counter\(\s*pages|string-set|target-|:first\b|:nth\("
)


def styles_allow_runs(folder: Path) -> bool:
    """Whether the book's own PDF templates (``templates/pdf/``) let it be laid out in
    runs: not with its own ``book.css.j2`` (it replaces kobook's whole stylesheet),
    nor with an ``extra.css.j2`` that uses what :data:`RUN_BLIND` lists.  A book's
    ``book.html.j2`` is tried: without the chapter marks, :func:`cut` declines."""
    if (folder / "book.css.j2").is_file():
        return False
    extra = folder / "extra.css.j2"
    try:
        text = extra.read_text(encoding="utf-8") if extra.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return False
    return RUN_BLIND.search(text) is None


def css_string(text: str) -> str:
    """``text`` as a CSS string that nothing in it can end (quotes, ``</style>``)."""
    text = " ".join(text.split())
    return '"' + "".join(f"\\{ord(c):x} " if c in "\"'\\<>&" else c for c in text) + '"'


def footnote_count(html: str) -> int:
    """Footnotes in a run's HTML: the elements of class ``footnote`` (they float to the
    foot of the page, ``pdf/book.css.j2``).  Checked against WeasyPrint's own count."""
    return sum("footnote" in classes.split() for classes in CLASSES.findall(html))


def weight(chapter: str, folders: list[Path]) -> float:
    """Estimated seconds to lay out and paint one chapter: fitted (least squares, worst
    error 0.2 s) on the playbook's 17 chapters laid out one by one, from their text
    and the bytes of the images they show (an SVG is drawn path by path)."""
    text = len(TAG.sub("", chapter))
    svg = raster = 0
    for source in IMAGE_SOURCE.findall(chapter):
        path = image_path(source, folders)
        if path is not None:
            if path.suffix.lower() == ".svg":
                svg += path.stat().st_size
            else:
                raster += path.stat().st_size
    return 0.1 + 6e-5 * text + 1.6e-6 * svg + 2.5e-7 * raster


def image_path(source: str, folders: list[Path]) -> Path | None:
    """The file an ``img`` points at, when it is inside one of ``folders``."""
    url = urlparse(html_text.unescape(source))
    if url.scheme not in ("", "file"):
        return None
    path = Path(unquote(url.path))
    for folder in folders:
        candidate = path if path.is_absolute() else folder / path
        try:
            resolved = candidate.resolve()
        except OSError:
            continue
        if resolved.is_relative_to(folder.resolve()) and resolved.is_file():
            return resolved
    return None


def runs(weights: list[float], count: int) -> list[range]:
    """Consecutive chapters in ``count`` runs whose heaviest is as light as it can be."""
    count = max(1, min(count, len(weights)))
    before = [0.0]
    for value in weights:
        before.append(before[-1] + value)
    total = len(weights)
    # best[k][i]: the heaviest run when the first i chapters make k runs.
    best = [[float("inf")] * (total + 1) for _ in range(count + 1)]
    where = [[0] * (total + 1) for _ in range(count + 1)]
    best[0][0] = 0.0
    for k in range(1, count + 1):
        for i in range(k, total + 1):
            for j in range(k - 1, i):
                heaviest = max(best[k - 1][j], before[i] - before[j])
                if heaviest < best[k][i]:
                    best[k][i], where[k][i] = heaviest, j
    bounds = [total]
    for k in range(count, 0, -1):
        bounds.append(where[k][bounds[-1]])
    bounds.reverse()
    return [range(a, b) for a, b in pairwise(bounds)]


def plan(html: str, *, jobs: int, sides: dict[str, bool], folders: list[Path]) -> Plan | None:
    """How to lay the book out in ``jobs`` processes, or None for one process."""
    if jobs < 2 or (sides["twoside"] and not sides["openright"]):
        return None  # a run's first page could be a left-hand one
    pieces = cut(html)
    if pieces is None or len(pieces.chapters) < 2:
        return None
    start = tail_start(pieces)
    body = pieces.chapters[:start] if start is not None else pieces.chapters
    weights = [weight(chapter, folders) for chapter in body]
    if not weights or sum(weights) < MIN_WEIGHT:
        return None
    tail = range(len(body), len(pieces.chapters))
    return Plan(pieces, runs(weights, jobs), sides["openright"], tail)


@dataclass(frozen=True)
class Plan:
    """The cut book, its runs, whether every run opens on a right-hand page, and the pieces
    laid out once the runs' pages are known."""

    cut: Cut
    runs: list[range]
    openright: bool
    tail: range = range(0)  # the index and what follows: laid out last (pageindex.py)


class Fallback(Exception):
    """Something did not go as planned: lay the book out in one process."""
