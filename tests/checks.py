"""Checks on built outputs, shared by the end-to-end tests and scripts/bench.py.

They read what a reader gets (the PDF's text through poppler, the HTML files)
and compare it with what the source says.
"""

from __future__ import annotations

import functools
import gzip
import itertools
import json
import re
import subprocess
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

HANGUL = re.compile(r"[\uac00-\ud7a3]")
SEAM_MARK = "\u21aa"  # ↪: what ends a line broken inside a code name


def pdf_pages(pdf: Path, layout: bool = False) -> list[str]:
    """Text of each page (poppler's pdftotext; pages split on form feeds).  ``layout``:
    lines as laid out (``-layout``), so a code line and its comment stay one line."""
    options = ["-layout"] if layout else []
    out = subprocess.run(
        ["pdftotext", *options, "-enc", "UTF-8", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pages = out.split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    # No-break spaces (between 그림 and its number) read as spaces.
    return [unicodedata.normalize("NFC", p).replace("\u00a0", " ") for p in pages]


def text_of(html: str) -> str:
    """What a reader sees of an HTML page: no tags, scripts or styles, entities decoded."""
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


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


# Markdown a reader never sees, removed before comparing the source with the PDF text.
_MARKUP = [
    (re.compile(r"!\[[^\]]*\]\([^)]*\)"), " "),  # images
    (re.compile(r"\[\^[^\]]*\]"), ""),  # footnote references
    (re.compile(r"\[([^\]]*)\]\([^)]*\)"), r"\1"),  # links: their text
    (re.compile(r"\[([^\]]*)\]\{[^}]*\}"), r"\1"),  # spans with attributes
    (re.compile(r"<[^>\n]+>"), ""),  # inline HTML tags
    (re.compile(r"\*+|`+|~~"), ""),  # emphasis, code and strike-out markers
]
# A break after these is allowed inside a source word (all-/reduce, A/B, 1—2).
_BREAK_AFTER = "-/\u2010\u2013\u2014"


def _reader_text(source: str) -> list[str]:
    """The source as the reader sees it, with math as its TeX and without (math may be an image)."""
    text = unicodedata.normalize("NFKC", source)
    for pattern, replacement in _MARKUP:
        text = pattern.sub(replacement, text)
    with_math = re.sub(r"\$+([^$]*)\$+", r"\1", text)
    without_math = re.sub(r"\$+[^$]*\$+", "", text)
    return [with_math, without_math]


def glued_breaks(pdf_text: str, source: str) -> list[tuple[str, str]]:
    """Line breaks that cut a source word where Latin, digits or brackets meet (``GPU / 가``).

    :func:`split_words` only joins Hangul to Hangul.  Here the line pair
    ``…GPU`` / ``가 …`` counts when ``GPU가`` is one word of the source and
    ``GPU 가`` never occurs in it, and at least one side of the join is not
    Hangul: a Latin word, number, inline code or math, or a bracket
    (``(row) / 을``, ``모델 / (LLM)의``).  Breaks after a hyphen, dash or slash
    are allowed, and so are breaks at a seam of an inline code name
    (``DistributedData`` / ``Parallel은``: WeasyPrint's ``identifier_seams``).
    Pages (form feeds) are checked one by one.  A line starting with punctuation
    alone is skipped: where math is an image (WeasyPrint), poppler puts the text
    after it (``, 역전파``) on lines of its own.
    """
    from kobook.write.shared.seams import identifier_seams

    names = set(re.findall(r"`([^`\s]+)`", source))

    def at_seam(last: str, first: str) -> bool:
        return any(
            last.endswith(name[:cut]) and first.startswith(name[cut:])
            for name in names
            for cut in identifier_seams(name)
        )

    texts = _reader_text(source)
    words = {word for text in texts for word in text.split()}
    spaced = [" ".join(text.split()) for text in texts]
    bad = []
    for page in pdf_text.split("\f"):
        lines = [unicodedata.normalize("NFKC", line) for line in page.split("\n")]
        for a, b in itertools.pairwise([line for line in lines if line.strip()]):
            last, first = a.split()[-1], b.split()[0]
            if HANGUL.match(last[-1]) and HANGUL.match(first[0]):
                continue  # split_words' case
            if last[-1] in _BREAK_AFTER or not (HANGUL.search(last) or HANGUL.search(first)):
                continue
            if not re.search(r"\w", first):
                continue  # a lone ",": poppler's reading order around math drawn as images
            if re.fullmatch(r"\d{1,2}", a.strip()):
                continue  # a line of one small number: an exponent or a mark poppler set apart
            last = last.removesuffix(SEAM_MARK)  # a name broken at a seam, with its mark
            if at_seam(last, first) or any(f"{last} {first}" in t for t in spaced):
                continue
            if last + first in words:
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


def page_labels(pdf: Path) -> dict[str, int]:
    """Each page's label (the number a viewer shows, as the folio prints it: ``iii``,
    ``12``) to its 0-based index; the first page with a label wins."""
    from pypdf import PdfReader

    found: dict[str, int] = {}
    for index, label in enumerate(PdfReader(pdf).page_labels):
        found.setdefault(label, index)
    return found


def tag_tree(pdf: Path) -> list[tuple[int, str, str, tuple[Any, ...]]]:
    """The tagged PDF's structure tree in reading order, as pypdf reads it: one row per
    element, ``(depth, role, its /Alt, what it holds)``, where what it holds lists its
    marked content as ``(page, MCID)`` and its objects as ``(page, subtype)``.  poppler's
    ``pdfinfo -struct-text`` gives the same tree with the text, at minutes a book."""
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    numbers = {page.indirect_reference.idnum: n for n, page in enumerate(reader.pages)}
    tree = reader.trailer["/Root"].get("/StructTreeRoot")
    if tree is None:
        return []

    def page_of(node: Any, default: int | None) -> int | None:
        ref = node.raw_get("/Pg") if "/Pg" in node else None
        return numbers.get(ref.idnum, default) if ref is not None else default

    rows: list[tuple[int, str, str, tuple[Any, ...]]] = []
    stack: list[tuple[Any, int, int | None]] = [(tree.get_object(), -1, None)]
    while stack:
        node, depth, page = stack.pop()
        page = page_of(node, page)
        kids = node.get("/K")
        kids = kids.get_object() if kids is not None else []
        kids = list(kids) if isinstance(kids, list) else [kids]
        held: list[Any] = []
        elements = []
        for kid in kids:
            kid = kid.get_object() if hasattr(kid, "get_object") else kid
            if isinstance(kid, int):
                held.append((page, kid))
            elif kid.get("/Type") == "/MCR":
                held.append((page_of(kid, page), int(kid["/MCID"])))
            elif kid.get("/Type") == "/OBJR":
                held.append((page_of(kid, page), str(kid["/Obj"].get_object().get("/Subtype"))))
            elif "/S" in kid:
                elements.append(kid)
        if depth >= 0:
            rows.append((depth, str(node["/S"]), str(node.get("/Alt") or ""), tuple(held)))
        stack += [(element, depth + 1, page) for element in reversed(elements)]
    return rows


def tagged_text(pdf: Path, roles: set[str]) -> list[str]:
    """The text each element of ``roles`` (``/H1``) holds, in reading order: its marked
    content and its descendants', read from the glyphs pdfplumber tags with MCIDs."""
    import pdfplumber

    rows = tag_tree(pdf)
    wanted: list[list[tuple[int, int]]] = []
    for index, (depth, role, _alt, _held) in enumerate(rows):
        if role not in roles:
            continue
        content = []
        for later in rows[index:]:
            if later is not rows[index] and later[0] <= depth:
                break
            content += [item for item in later[3] if isinstance(item[1], int)]
        wanted.append(content)
    pages = sorted({page for content in wanted for page, _ in content if page is not None})
    glyphs: dict[tuple[int, int], str] = {}
    with pdfplumber.open(pdf) as document:
        for number in pages:
            for char in document.pages[number].chars:
                if char.get("mcid") is not None:
                    key = (number, int(char["mcid"]))
                    glyphs[key] = glyphs.get(key, "") + char["text"]
    return ["".join(glyphs.get(item, "") for item in content) for content in wanted]


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
    for record in search_records(site):  # where the search's results lead
        target = unquote(record["url"]).lstrip("/")
        if target not in pages:
            problems.append(f"search: result for missing page {record['url']}")
            continue
        for anchor in record["anchors"]:
            if anchor["id"] not in pages[target].ids:
                problems.append(f"search: result for missing id {target}#{anchor['id']}")
    return problems


def search_records(site: Path) -> list[dict[str, Any]]:
    """The pages in the site's search index (Pagefind's fragments: gzip, a signature,
    JSON): url, content, meta (title), anchors (the sections' ids)."""
    records = []
    for fragment in sorted((site / "search" / "fragment").glob("*.pf_fragment")):
        data = gzip.decompress(fragment.read_bytes())
        assert data.startswith(b"pagefind_dcd"), fragment
        records.append(json.loads(data[len(b"pagefind_dcd") :]))
    return records


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
    """The contents of the files a PDF embeds: in attachment annotations (WeasyPrint's, on
    the link) and in the document's list of files (Typst's ``pdf.attach``)."""
    from pypdf import PdfReader

    found = []
    reader = PdfReader(pdf)
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") == "/FileAttachment":
                found.append(annot["/FS"].get_object()["/EF"]["/F"].get_object().get_data())
    for contents in reader.attachments.values():
        found += contents
    return found


# Korean citation forms (kobook's korean-author-date.csl): "(Tazi 외, 2025)",
# "(Kim & Lee, 2020)", "(Dao 외, 2022, p. 1)"; pandoc's ko locale instead prints
# "(Tazi 기타 2025년)" and "Ruwase, 와/과 He".
_CITATION = re.compile(r"\(([^()]*?(?<!\d)(?:1[5-9]|20)\d\d(?!\d)[^()]*)\)")
_CITE_ONE = re.compile(
    r"^(?P<names>[^,;&]+?(?: 외|(?:, [^,;&]+?)*,? & [^,;&]+?|(?:, [^,;&\d]+?)+)?), "
    r"(?P<year>(?:1[5-9]|20)\d\d[a-z]?|n\.d\.)(?:, [^;]+)?$"
)


def in_text_citations(text: str) -> list[str]:
    """Parenthesized author-date citations in ``text``, one string per cite
    (``Tazi 외, 2025``), lines joined so a cite broken across lines counts."""
    flat = re.sub(r"\s+", " ", text)
    found = []
    for group in _CITATION.findall(flat):
        for part in group.split("; "):
            if _CITE_ONE.match(part.strip()):
                found.append(part.strip())
    return found


def korean_citation_problems(text: str) -> list[str]:
    """What a Korean editor would strike in citations and reference lists:
    a literal ``와/과``, ``기타`` for et al., ``2025년`` in a cite's year,
    ``외`` with no comma before the year, ``&`` between two Korean names."""
    problems = [f"외 cut off from its name: {m.group(0)}" for m in re.finditer(r"(?m)^외,.*", text)]
    flat = re.sub(r"\s+", " ", text)
    problems += [
        f"literal 와/과: …{m.group(0)}…" for m in re.finditer(r".{0,20}와/과.{0,20}", flat)
    ]
    for group in _CITATION.findall(flat):
        if re.search(r"[A-Za-z가-힣.]\s기타\b", group):
            problems.append(f"기타 for et al.: ({group})")
        if re.search(r"[A-Za-z가-힣.]\s(?:외\s)?(?:1[5-9]|20)\d\d년", group):
            problems.append(f"year with 년 in a cite: ({group})")
        if re.search(r"\s외\s(?:1[5-9]|20)\d\d", group):
            problems.append(f"no comma between 외 and the year: ({group})")
    problems += [
        f"기타 in a reference entry: …{m.group(0)}" for m in re.finditer(r".{0,30}, 기타\.", flat)
    ]
    problems += [
        f"& between Korean names: …{m.group(0)}…"
        for m in re.finditer(r"[가-힣]+,? & [가-힣]+", flat)
    ]
    return problems


# --- Layout checks (issue 11): what a typesetter sees, from glyph positions ------------------
# pdfium (pypdfium2, installed with pdfplumber) reads a 150-page book in seconds where
# pdfplumber takes minutes; one read per PDF is shared by the checks below.


@dataclass(frozen=True)
class _Glyph:
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float  # font size in points (text matrix applied)
    font: str


@dataclass
class _Line:
    glyphs: list[_Glyph]
    top: float
    bottom: float

    @property
    def text(self) -> str:
        return " ".join(_words(self))

    @property
    def size(self) -> float:
        """The line's font size: the most common size among its glyphs."""
        return Counter(round(g.size, 1) for g in self.glyphs).most_common(1)[0][0]

    @property
    def x0(self) -> float:
        return min(g.x0 for g in self.glyphs)

    @property
    def x1(self) -> float:
        return max(g.x1 for g in self.glyphs)


@dataclass(frozen=True)
class _Shape:
    """A drawn path or image: a box behind code, a table rule, a math glyph."""

    x0: float
    top: float
    x1: float
    bottom: float
    white: bool


@dataclass
class _Page:
    number: int  # 1-based
    width: float
    lines: list[_Line]
    shapes: list[_Shape]


def _group_lines(glyphs: list[_Glyph]) -> list[_Line]:
    """Glyphs into lines by vertical overlap; big glyphs first, so superscripts and
    fraction parts join the line they sit on instead of starting their own."""
    lines: list[_Line] = []
    for glyph in sorted(glyphs, key=lambda g: (-g.size, g.top)):
        height = glyph.bottom - glyph.top
        for line in lines:
            overlap = min(glyph.bottom, line.bottom) - max(glyph.top, line.top)
            if overlap >= 0.3 * min(height, line.bottom - line.top):
                line.glyphs.append(glyph)
                break
        else:
            lines.append(_Line([glyph], glyph.top, glyph.bottom))
    return sorted(lines, key=lambda line: line.top)


@functools.lru_cache(maxsize=8)
def _layout_cached(pdf: str, _mtime: float) -> tuple[_Page, ...]:
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pages = []
    document = pdfium.PdfDocument(pdf)
    matrix = raw.FS_MATRIX()
    name = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    colour = [ctypes.c_uint() for _ in range(4)]
    for index, page in enumerate(document):
        height = page.get_height()
        textpage = page.get_textpage()
        glyphs = []
        for i in range(textpage.count_chars()):
            text = chr(raw.FPDFText_GetUnicode(textpage, i))
            if not text.strip() or raw.FPDFText_IsGenerated(textpage, i):
                continue
            left, bottom, right, top = textpage.get_charbox(i, loose=True)
            if right - left <= 0:
                continue
            raw.FPDFText_GetMatrix(textpage, i, ctypes.byref(matrix))
            scale = abs(matrix.a * matrix.d - matrix.b * matrix.c) ** 0.5
            raw.FPDFText_GetFontInfo(textpage, i, name, 256, ctypes.byref(flags))
            font = name.value.decode("latin-1").split("+")[-1]
            size = raw.FPDFText_GetFontSize(textpage, i) * scale
            glyphs.append(_Glyph(text, left, right, height - top, height - bottom, size, font))
        shapes = []
        # Top-level objects only: a form (an included figure, an SVG) counts as one shape.
        kinds = (raw.FPDF_PAGEOBJ_PATH, raw.FPDF_PAGEOBJ_IMAGE, raw.FPDF_PAGEOBJ_FORM)
        for obj in page.get_objects(max_depth=1):
            if obj.type not in kinds:
                continue
            left, bottom, right, top = obj.get_bounds()
            white = False
            if obj.type == raw.FPDF_PAGEOBJ_PATH:
                fill = raw.FPDFPageObj_GetFillColor(obj.raw, *(ctypes.byref(c) for c in colour))
                white = bool(fill) and all(c.value >= 250 for c in colour[:3])
            shapes.append(_Shape(left, height - top, right, height - bottom, white))
        pages.append(_Page(index + 1, page.get_width(), _group_lines(glyphs), shapes))
    return tuple(pages)


def _layout(pdf: Path) -> tuple[_Page, ...]:
    """Lines of glyphs and drawn shapes of every page (cached per file and mtime)."""
    return _layout_cached(str(pdf), Path(pdf).stat().st_mtime)


def _body_size(pages: tuple[_Page, ...]) -> float:
    """The body text size: the size most glyphs of the book are set in."""
    sizes: Counter[float] = Counter()
    for page in pages:
        for line in page.lines:
            sizes.update(round(g.size, 1) for g in line.glyphs)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def _table_bands(page: _Page) -> list[tuple[float, float]]:
    """Vertical spans of tables: between the first and last of two or more horizontal
    rules of the same width (rules drawn in pieces, one per column, are joined first)."""
    rules = sorted(
        (s for s in page.shapes if s.bottom - s.top < 2.5 and s.x1 - s.x0 >= 10),
        key=lambda s: (round(s.top), s.x0),
    )
    joined: list[list[float]] = []  # [x0, x1, y, thickness]
    for rule in rules:
        if joined and abs(joined[-1][2] - rule.top) < 0.5 and rule.x0 - joined[-1][1] < 2:
            joined[-1][1] = max(joined[-1][1], rule.x1)
        else:
            joined.append([rule.x0, rule.x1, rule.top, rule.bottom - rule.top])
    groups: list[tuple[float, float, list[tuple[float, float]]]] = []
    for x0, x1, y, thickness in joined:
        if x1 - x0 < 0.4 * page.width:
            continue
        for gx0, gx1, ys in groups:
            if abs(gx0 - x0) < 3 and abs(gx1 - x1) < 3:
                ys.append((y, thickness))
                break
        else:
            groups.append((x0, x1, [(y, thickness)]))
    bands = []
    for _, _, ys in groups:
        if len(ys) >= 2:
            # booktabs: a thick top rule and a thin last one: the table goes on overleaf.
            open_end = len(ys) == 2 and ys[-1][1] < ys[0][1] - 0.3
            # A header row may sit above the first rule (a CSS border under it).
            top = ys[0][0] - (ys[1][0] - ys[0][0])
            bands.append((top, float("inf") if open_end else ys[-1][0] + 2))
    return bands


def _in_bands(line: _Line, bands: list[tuple[float, float]]) -> bool:
    middle = (line.top + line.bottom) / 2
    return any(top <= middle <= bottom for top, bottom in bands)


def _justified_edges(pages: tuple[_Page, ...], body: float) -> dict[int, list[float]]:
    """Right edges that three or more body-size lines end on, per page parity
    (recto and verso margins differ): the edges justified lines are set to."""
    ends: dict[int, Counter[float]] = {0: Counter(), 1: Counter()}
    for page in pages:
        for line in page.lines:
            if abs(line.size - body) <= 0.15 * body:
                ends[page.number % 2][round(line.x1 * 2) / 2] += 1
    edges: dict[int, list[float]] = {}
    for parity, counter in ends.items():
        edges[parity] = [
            x for x in counter if sum(n for y, n in counter.items() if abs(y - x) <= 0.75) >= 3
        ]
    return edges


def _is_plain(line: _Line, body: float) -> bool:
    """A line of running text: body size, not bold (headings), not monospaced (code)."""
    if abs(line.size - body) > 0.12 * body:
        return False
    heavy = sum(1 for g in line.glyphs if re.search(r"Bold|Mono|Code|Courier", g.font))
    return heavy <= len(line.glyphs) / 2


_LEADER = re.compile(r"(?:\.\s*){5,}|…{3,}")
_EQUATION_NUMBER = re.compile(r"\(\d+(?:\.\d+)*\)$")


def _drawn_leader(page: _Page, line: _Line) -> bool:
    """A contents line whose leader is drawn (Typst's dotted line) rather than typed: it
    ends in a page number, and a wide flat shape crosses its height."""
    if not re.search(r"\d$", line.text.strip()):
        return False
    return any(
        shape.x1 - shape.x0 >= 0.2 * page.width
        and shape.bottom - shape.top < (line.bottom - line.top)
        and line.top - 2 <= shape.top <= line.bottom + 2
        for shape in page.shapes
    )


INDEX_TITLES = ("찾아보기", "Index", "索引")


def _index_start(pages: tuple[_Page, ...]) -> int:
    """Where the index (찾아보기) begins: its two columns share baselines, so a left
    entry and a right one read as one line with a gap of many ems; no running text
    follows it (the copyright page has none)."""
    for index, page in enumerate(pages):
        if any(line.text.replace(" ", "") in INDEX_TITLES for line in page.lines[:3]):
            return index
    return len(pages)


def _full_lines(pdf: Path) -> Iterator[tuple[_Page, _Line]]:
    """The full justified lines of running text: body size, not bold or code, outside
    tables, ending on a justified edge, not a contents line (whose leader is no word
    gap), and before the index."""
    pages = _layout(pdf)
    body = _body_size(pages)
    edges = _justified_edges(pages, body)
    for page in pages[: _index_start(pages)]:
        bands = _table_bands(page)
        for line in page.lines:
            if not _is_plain(line, body) or _in_bands(line, bands):
                continue
            if not any(abs(line.x1 - edge) <= 0.75 for edge in edges[page.number % 2]):
                continue
            if _LEADER.search(line.text) or _drawn_leader(page, line):
                continue
            yield page, line


def word_gaps(pdf: Path) -> list[tuple[int, str, float]]:
    """``(page, line, widest gap in em)`` for every full justified line of running text.

    A line is full when its right end sits on a justified edge (one that three or
    more lines share), so the last lines of paragraphs, which end where they end,
    are skipped; headings (larger or bold), code (smaller or monospaced) and lines
    inside tables (between horizontal rules) are skipped too.  Gaps are measured
    between the glyphs' advance boxes; a drawn shape on the line (math set as paths,
    an emoji image) fills the gap it covers.  A natural word space is about ⅓ em;
    WeasyPrint's word-only justification stretched them to 2–2.5 em (issue 11).
    """
    found = []
    for page, line in _full_lines(pdf):
        # (x0, x1, is text): math and emoji drawn as shapes, or set in a math font,
        # sit in the line too; gaps next to them are spacing around math, not words.
        height = line.bottom - line.top
        glyphs = sorted(line.glyphs, key=lambda g: g.x0)
        number = _EQUATION_NUMBER.search(line.text)
        if number and len(number.group(0)) < len(glyphs):
            glyphs = glyphs[: -len(number.group(0))]  # a display equation's number
        spans = [(g.x0, g.x1, "Math" not in g.font) for g in glyphs]
        for shape in page.shapes:
            overlap = min(shape.bottom, line.bottom) - max(shape.top, line.top)
            narrow = shape.x1 - shape.x0 < 0.4 * page.width
            if narrow and shape.bottom - shape.top < 2.5 * height and overlap > 0.3 * height:
                spans.append((shape.x0, shape.x1, False))
        spans.sort()
        widest, (_, reach, text) = 0.0, spans[0]
        for x0, x1, is_text in spans[1:]:
            if text and is_text:
                widest = max(widest, x0 - reach)
            if x1 > reach:
                reach, text = x1, is_text
        found.append((page.number, line.text, widest / line.size))
    return found


def loose_lines(pdf: Path, ceiling: float = 1.0) -> list[str]:
    """Full justified lines with a word gap wider than ``ceiling`` em (see :func:`word_gaps`)."""
    return [
        f"page {number}: {gap:.2f} em in {text[:40]!r}"
        for number, text, gap in word_gaps(pdf)
        if gap > ceiling
    ]


def _running_head(page: _Page, band: float | None, body: float) -> str | None:
    if band is None:
        return None
    for line in page.lines:
        if abs(line.top - band) <= 2 and line.size <= 1.05 * body:
            return line.text
    return None


def _head_band(pages: tuple[_Page, ...]) -> float | None:
    """The y of the running heads: where the topmost line of a quarter or more of the pages sits."""
    tops = Counter(round(p.lines[0].top) for p in pages if p.lines)
    if not tops:
        return None
    top, count = tops.most_common(1)[0]
    return float(top) if count >= len(pages) / 4 else None


def chapter_openings(pdf: Path, titles: list[str]) -> list[tuple[int, str, str | None]]:
    """``(page, title, running head or None)`` for each chapter-opening page.

    The opening of a title is the first page (after the title page) whose heading
    lines (30 % or more above the body size) contain it; the running head is the
    text in the band where the topmost line of most pages sits, at body size or smaller.
    """
    pages = _layout(pdf)
    body = _body_size(pages)
    band = _head_band(pages)
    found = []
    for title in titles:
        key = squash(unicodedata.normalize("NFC", title))[:12]
        for page in pages[1:]:
            big = squash("".join(line.text for line in page.lines if line.size >= 1.3 * body))
            if key and key in big:
                found.append((page.number, title, _running_head(page, band, body)))
                break
    return found


def running_heads(pdf: Path) -> dict[int, str]:
    """The running head of each page that has one."""
    pages = _layout(pdf)
    body = _body_size(pages)
    band = _head_band(pages)
    heads = {page.number: _running_head(page, band, body) for page in pages}
    return {number: head for number, head in heads.items() if head}


def foreign_running_heads(pdf: Path, titles: list[str]) -> list[str]:
    """Running heads naming another chapter than the one the page is in
    (``차례`` over the preface, ``15장 토론 페이지`` over the References)."""
    openings = sorted((page, title) for page, title, _ in chapter_openings(pdf, titles))
    problems = []
    for number, head in running_heads(pdf).items():
        current = [title for page, title in openings if page <= number]
        if not current:
            continue
        flat = squash(head)
        others = [t for t in titles if t != current[-1] and squash(t) in flat]
        if others and squash(current[-1]) not in flat:
            problems.append(f"page {number}: head {head!r} in {current[-1]!r}")
    return problems


def _latin_cell_words(source: str) -> set[str]:
    """Words of the source's pipe-table rows that contain Latin letters or digits."""
    words = set()
    for row in re.findall(r"^\s*\|.*\|\s*$", unicodedata.normalize("NFKC", source), flags=re.M):
        row = re.sub(r"\$[^$]*\$|\*+|`+", " ", row)
        words |= {w.strip(".,;:()") for w in row.split() if re.search(r"[A-Za-z0-9]", w)}
    return words


def _words(line: _Line) -> list[str]:
    """A line's words: glyph runs split where the gap is over 0.15 em."""
    glyphs = sorted(line.glyphs, key=lambda g: g.x0)
    words = [glyphs[0].text]
    for a, b in itertools.pairwise(glyphs):
        if b.x0 - a.x1 > 0.15 * line.size:
            words.append("")
        words[-1] += b.text
    return words


def broken_cell_words(pdf: Path, source: str) -> list[str]:
    """Latin words of table cells broken across lines (``ZeRO-`` / ``1``, ``all-`` / ``reduce``,
    or a hyphen inserted into ``through-`` / ``put``): the pair is checked against the
    words of the source's table rows, lines are taken between a table's rules."""
    cell_words = _latin_cell_words(source)
    problems = []
    for page in _layout(pdf):
        bands = _table_bands(page)
        lines = [line for line in page.lines if _in_bands(line, bands)]
        for a, b in itertools.pairwise(lines):
            if b.top - a.bottom > 2 * (a.bottom - a.top):
                continue
            below = [w.rstrip(".,;:)") for w in _words(b)]
            for word in _words(a):
                # WeasyPrint's inserted hyphen reads as \x02.
                word = re.sub("[\u2010\u2011\u00ad\x02]", "-", word)
                if not re.search(r"[A-Za-z0-9]-$", word):
                    continue
                for rest in below:
                    if word + rest in cell_words:
                        problems.append(f"page {page.number}: {word}/{rest} (broken at its hyphen)")
                    elif word[:-1] + rest in cell_words:
                        problems.append(f"page {page.number}: {word}/{rest} (hyphen inserted)")
    return problems


def text_outside_boxes(pdf: Path, tolerance: float = 1.0) -> list[str]:
    """Glyphs beside a shaded box (code, notes) in its vertical span but not inside it:
    a wrap marker or the end of a long code line set outside the box."""
    problems = []
    for page in _layout(pdf):
        boxes = [
            s
            for s in page.shapes
            if not s.white and s.x1 - s.x0 >= 0.5 * page.width and s.bottom - s.top >= 12
        ]
        for line in page.lines:
            for glyph in line.glyphs:
                middle = (glyph.top + glyph.bottom) / 2
                for box in boxes:
                    if not box.top < middle < box.bottom:
                        continue
                    if glyph.x0 < box.x0 - tolerance or glyph.x1 > box.x1 + tolerance:
                        where = f"x={glyph.x0:.0f}..{glyph.x1:.0f}, box {box.x0:.0f}..{box.x1:.0f}"
                        problems.append(f"page {page.number}: {glyph.text!r} outside ({where})")
                        break
    return problems


def _text_area(pages: tuple[_Page, ...], band: float | None) -> tuple[float, float]:
    """The top and bottom of the text area: where most pages' first body line starts and
    where their last line above the page number ends (full pages set the bottom)."""
    tops, bottoms = [], []
    for page in pages:
        lines = [line for line in page.lines if band is None or abs(line.top - band) > 2]
        if len(lines) > 3:
            tops.append(lines[0].top)
            bottoms.append(lines[-2].bottom)  # the last line is the page number
    tops.sort()
    bottoms.sort()
    return tops[len(tops) // 4], bottoms[int(len(bottoms) * 0.9)]


def figure_gaps(pdf: Path, fraction: float = 0.25) -> list[str]:
    """Pages left white at the bottom (more than ``fraction`` of the text area) before a
    page that starts with a figure and goes on with text: text that could have filled
    the gap, as a float does (issue 11).  A figure that ends its chapter leaves a gap
    nothing could fill, and is not counted."""
    pages = _layout(pdf)
    band = _head_band(pages)
    top, bottom = _text_area(pages, band)
    height = bottom - top
    found = []
    for page, after in itertools.pairwise(pages):
        lines = [line for line in page.lines if band is None or abs(line.top - band) > 2]
        following = [line for line in after.lines if band is None or abs(line.top - band) > 2]
        if len(lines) < 2 or len(following) < 2:
            continue
        low = max(
            [line.bottom for line in lines[:-1]]
            + [shape.bottom for shape in page.shapes if shape.bottom < bottom + 5]
        )
        first = following[0]
        figure = [
            shape
            for shape in after.shapes
            if shape.bottom <= first.top + 1
            and shape.top >= top - 5
            and shape.bottom - shape.top > 20
        ]
        if not figure:
            continue
        under = max(shape.bottom for shape in figure)
        # text under the figure (its caption aside): the text that could have moved up
        text_below = [line for line in following[:-1] if line.top > under + 0.2 * height]
        if bottom - low > fraction * height and text_below:
            found.append(
                f"page {page.number}: {(bottom - low) / height:.0%} white before the figure "
                f"on page {after.number}"
            )
    return found


def hyphenated(pdf: Path) -> list[str]:
    """The words cut by a hyphen at the end of a line (its part before the hyphen), read
    from the glyphs: ``pdftotext`` joins such words back, as a reader's copy does."""
    found = []
    for page in _layout(pdf):
        for line in page.lines:
            glyphs = sorted(line.glyphs, key=lambda g: g.x0)
            # pdfium reads a hyphen that ends a line as U+0002
            if len(glyphs) > 1 and glyphs[-1].text in "-\u2010\x02":
                words = _words(line)
                if words:
                    found.append(words[-1].rstrip("-\u2010\x02"))
    return found


def bad_hyphens(pdf: Path, source: str) -> list[str]:
    """Hyphens inserted at the end of a line anywhere but in a Latin word three letters or
    more in: a Korean word, a number or code is never hyphenated (Latin words at the end
    of a loose line are, as English).  A line may end at a hyphen of the source
    (``all-to-`` / ``all``)."""
    return [
        piece
        for piece in hyphenated(pdf)
        if not re.search(r"[A-Za-z]{3}$", piece) and f"{piece}-" not in source
    ]


def inserted_hyphens(pdf: Path, source: str) -> list[str]:
    """Hyphens an engine put at a line's end (the piece before each): a line that ends at
    a hyphen the source typed (``all-`` / ``reduce``, ``ZeRO-`` / ``3``) or at a lone
    dash is not one."""
    text = unicodedata.normalize("NFKC", source)
    return [piece for piece in hyphenated(pdf) if piece and f"{piece}-" not in text]


def broken_names(pdf: Path, names: set[str]) -> list[tuple[str, str]]:
    """``(first part, rest)`` of each code name that ends one line and starts the next,
    read from the glyphs (pdftotext may read a line's end after the next line's code).
    A continuation mark (↪) after the first part is kept on it: ``("Distributed↪",
    "DataParallel")``."""
    found = []
    for page in _layout(pdf):
        texts = [
            "".join(g.text for g in sorted(line.glyphs, key=lambda g: g.x0)) for line in page.lines
        ]
        for this, following in itertools.pairwise(texts):
            mark = SEAM_MARK if this.endswith(SEAM_MARK) else ""
            this = this.removesuffix(SEAM_MARK)
            for name in names:
                for cut in range(1, len(name)):
                    if this.endswith(name[:cut]) and following.startswith(name[cut:]):
                        found.append((name[:cut] + mark, name[cut:]))
    return found


def outline_titles(pdf: Path, depth: int = 2) -> list[str]:
    """Bookmark titles down to ``depth``, numbers (``3장``, ``2.1``) removed."""
    from pypdf import PdfReader

    titles: list[str] = []

    def walk(items: list, level: int) -> None:
        for item in items:
            if isinstance(item, list):
                if level < depth:
                    walk(item, level + 1)
                continue
            title = re.sub(r"^\s*(?:\d+장|\d+(?:\.\d+)*)\s+", "", item.title).strip()
            if title and title != "차례":
                titles.append(squash(title))

    walk(PdfReader(pdf).outline, 1)
    return titles


def epubcheck(epub: Path) -> list[str]:
    """What EPUBCheck (the W3C's validator) reports for ``epub``: every fatal error, error
    and warning as ``ID location: message`` (an empty list is a clean EPUB).

    Debian's ``epubcheck`` is the jar itself (run through ``java -jar``).
    """
    import json
    import shutil
    import tempfile

    found = shutil.which("epubcheck")
    if found is None:
        raise AssertionError("epubcheck is not installed (scripts/install-system-deps.sh --dev)")
    jar = Path(found).resolve()
    command = ["java", "-jar", str(jar)] if jar.suffix == ".jar" else [str(jar)]
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        subprocess.run([*command, str(epub), "--json", str(report), "-q"], capture_output=True)
        data = json.loads(report.read_text(encoding="utf-8"))
    problems = []
    for message in data["messages"]:
        if message["severity"] in ("FATAL", "ERROR", "WARNING"):
            where = message["locations"][0] if message.get("locations") else {}
            place = f"{where.get('path', '')}:{where.get('line', '')}"
            problems.append(f"{message['ID']} {place}: {message['message']}")
    return problems


def epub_pages(epub: Path) -> list[tuple[str, str]]:
    """The EPUB's XHTML files in reading order (the spine): (name, XHTML text)."""
    import zipfile

    with zipfile.ZipFile(epub) as container:
        package = container.read("EPUB/content.opf").decode("utf-8")
        hrefs = dict(re.findall(r'<item [^>]*?id="([^"]+)" href="([^"]+)"', package))
        hrefs |= {
            ident: href
            for href, ident in re.findall(r'<item [^>]*?href="([^"]+)"[^>]*? id="([^"]+)"', package)
        }
        order = re.findall(r'<itemref idref="([^"]+)"', package)
        return [(hrefs[i], container.read(f"EPUB/{hrefs[i]}").decode("utf-8")) for i in order]


def xhtml_text(xhtml: str) -> str:
    """The text of an XHTML page (tags dropped, entities decoded, spaces collapsed);
    MathML's TeX annotations are left out."""
    import html

    body = re.sub(r"<annotation[^>]*>.*?</annotation>", "", xhtml, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def site_headings(site: Path) -> list[str]:
    """The text of every ``h1``–``h3``, figure caption and table caption of the HTML
    site's chapter pages, in reading order (the order of the sidebar's links), without
    the ``#`` link each section heading carries."""
    import html as html_module

    index = (site / "index.html").read_text(encoding="utf-8")
    sidebar = index.split('class="sidebar-toc"', 1)[1].split("</ol>", 1)[0]
    pages = list(dict.fromkeys(h.split("#")[0] for h in re.findall(r'href="([^"]+)"', sidebar)))
    found: list[str] = []
    for page in pages:
        text = (site / html_module.unescape(page)).read_text(encoding="utf-8")
        for _, inner in re.findall(r"<(h[1-3]|figcaption|caption)\b[^>]*>(.*?)</\1>", text, re.S):
            found.append(xhtml_text(re.sub(r'<a class="anchor"[^>]*>#</a>', "", inner)))
    return found


DIALECT_BOOKS = Path(__file__).parent / "data" / "dialects"


def imported_copy(folder: Path, dialect: str) -> Path:
    """A copy of the fixture book ``tests/data/dialects/<dialect>`` in ``folder``, made a
    kobook book by ``kobook import`` (which must recognise its format)."""
    import shutil

    from tests.e2e.test_cli import kobook as kobook_cli

    root = folder / "book"
    shutil.copytree(DIALECT_BOOKS / dialect, root)
    result = kobook_cli("import", str(root))
    assert result.returncode == 0, result.stderr
    assert f"format: {dialect}" in result.stdout, result.stdout
    return root


def _is_code(line: _Line) -> bool:
    """A line set in the code font (most of its glyphs monospace)."""
    mono = sum(1 for g in line.glyphs if "mono" in g.font.lower() or "coding" in g.font.lower())
    return mono > len(line.glyphs) / 2


def split_code_blocks(pdf: Path, least: int = 3) -> list[str]:
    """Code blocks broken across a page with fewer than ``least`` of their lines at the
    page's foot (a reader turns the page after two lines) or at the next page's head."""
    pages = _layout(pdf)
    band = _head_band(pages)
    found = []
    for page, after in itertools.pairwise(pages):
        lines = [line for line in page.lines if band is None or abs(line.top - band) > 2]
        lines = [line for line in lines if not re.fullmatch(r"[\divxlc]+", line.text.strip())]
        following = [line for line in after.lines if band is None or abs(line.top - band) > 2]
        following = [li for li in following if not re.fullmatch(r"[\divxlc]+", li.text.strip())]
        if not lines or not following or not (_is_code(lines[-1]) and _is_code(following[0])):
            continue
        foot = len(list(itertools.takewhile(_is_code, reversed(lines))))
        head = len(list(itertools.takewhile(_is_code, following)))
        if foot < least or head < least:
            found.append(f"page {page.number}: a code block split {foot} | {head} lines")
    return found


def _hangul_run(glyphs: list[_Glyph], start: int, step: int, wide: float) -> str:
    """The Hangul from ``glyphs[start]`` on, going ``step`` (1 or -1), up to a gap of
    ``wide`` or more or anything that is not Hangul."""
    text, i = "", start
    while 0 <= i < len(glyphs) and HANGUL.match(glyphs[i].text):
        text = text + glyphs[i].text if step > 0 else glyphs[i].text + text
        j = i + step
        if not 0 <= j < len(glyphs) or abs(glyphs[max(i, j)].x0 - glyphs[min(i, j)].x1) >= wide:
            break
        i = j
    return text


def _hangul_pairs(pdf: Path) -> list[tuple[int, _Line, str, str, float]]:
    """``(page, line, left, right, gap in em)`` for each two Hangul syllables side by
    side on a line of running text (body size, not bold or code; tables skipped).
    ``left`` and ``right`` are the runs of Hangul the two end and start, each bounded by
    a gap as wide as theirs or by anything that is not Hangul."""
    pages = _layout(pdf)
    body = _body_size(pages)
    pairs = []
    for page in pages:
        bands = _table_bands(page)
        for line in page.lines:
            if not _is_plain(line, body) or _in_bands(line, bands):
                continue
            glyphs = sorted(line.glyphs, key=lambda g: g.x0)
            for i, (a, b) in enumerate(itertools.pairwise(glyphs)):
                if HANGUL.match(a.text) and HANGUL.match(b.text):
                    gap = b.x0 - a.x1
                    wide = max(gap, 0.15 * line.size)
                    left = _hangul_run(glyphs, i, -1, wide)
                    right = _hangul_run(glyphs, i + 1, 1, wide)
                    pairs.append((page.number, line, left, right, gap / line.size))
    return pairs


def spaced_syllables(pdf: Path, source: str, at: float = 0.2) -> list[str]:
    """Lines where two syllables of one word stand ``at`` em or more apart
    (``시 퀀 스 병 렬 화``): XeLaTeX's stretch between syllables, pulled wide when a
    line cannot break.  The runs of Hangul on either side of a gap that wide count as
    one word torn apart when together they are a piece of a source word and never
    stand apart, with a space between them, in the source."""
    texts = [" ".join(text.split()) for text in _reader_text(source)]
    words = "\n".join(word for text in texts for word in text.split())
    found: dict[str, None] = {}
    for number, line, left, right, gap in _hangul_pairs(pdf):
        if gap < at or left + right not in words:
            continue
        if not any(f"{left} {right}" in text for text in texts):
            found[f"page {number}: {left}|{right} in {line.text[:50]!r}"] = None
    return list(found)


def letter_spacing(pdf: Path, script: str = "hangul") -> list[float]:
    """The space between two letters of one word, in em, for each such pair on lines of
    running text: about 0 where a font's letters abut as drawn, more where the engine
    spread a line by letter spacing.  ``script`` is ``hangul`` (two syllables) or
    ``latin`` (two ASCII letters).  Gaps of 0.15 em or more are word spaces, left out."""
    if script == "hangul":
        return [gap for *_, gap in _hangul_pairs(pdf) if gap < 0.15]
    pages = _layout(pdf)
    body = _body_size(pages)
    gaps = []
    for page in pages:
        for line in page.lines:
            if abs(line.size - body) > 0.12 * body:
                continue
            glyphs = sorted(line.glyphs, key=lambda g: g.x0)
            for a, b in itertools.pairwise(glyphs):
                gap = (b.x0 - a.x1) / line.size
                letters = all(g.text.isascii() and g.text.isalpha() for g in (a, b))
                if letters and gap < 0.15:
                    gaps.append(gap)
    return gaps


def median_word_gap(pdf: Path) -> float:
    """The median space between words on full justified lines of running text, in em
    (:func:`word_gaps` gives each line's widest)."""
    gaps: list[float] = []
    for _, line in _full_lines(pdf):
        glyphs = sorted(line.glyphs, key=lambda g: g.x0)
        for a, b in itertools.pairwise(glyphs):
            gap = (b.x0 - a.x1) / line.size
            if 0.15 <= gap < 3:
                gaps.append(gap)
    gaps.sort()
    return gaps[len(gaps) // 2] if gaps else 0.0


def _is_heading(line: _Line, body: float) -> bool:
    """A section title's line: larger than the body, mostly in a bold or sans face."""
    heavy = sum(1 for g in line.glyphs if re.search(r"Bold|Sans|Gothic", g.font))
    return line.size >= 1.08 * body and heavy > len(line.glyphs) / 2


def _body_lines(page: _Page, band: float | None) -> list[_Line]:
    """A page's lines without its running head and its folio (a number alone, last)."""
    lines = [line for line in page.lines if band is None or abs(line.top - band) > 2]
    if lines and re.fullmatch(r"[\divxlc]+", lines[-1].text.strip()):
        lines = lines[:-1]
    return lines


def headings_at_foot(pdf: Path) -> list[str]:
    """Pages whose last line is a section title: the title's text went on overleaf."""
    pages = _layout(pdf)
    body = _body_size(pages)
    band = _head_band(pages)
    found = []
    for page in pages[:-1]:
        lines = _body_lines(page, band)
        if len(lines) > 2 and _is_heading(lines[-1], body):
            found.append(f"page {page.number}: {lines[-1].text[:40]!r}")
    return found


def lone_lines(pdf: Path, source: str) -> list[str]:
    """A paragraph's first line alone at a page's foot (an orphan) or its last line alone
    at a page's head (a widow), among lines of running text.  The source says where its
    paragraphs start and end: the line at the foot must begin a longer paragraph, the
    one at the head end one."""
    pages = _layout(pdf)
    body = _body_size(pages)
    band = _head_band(pages)
    paragraphs = [
        squash(block)
        for text in _reader_text(source)[:1]
        for block in re.split(r"\n\s*\n", text)
        if block.strip()
    ]

    whole = set(paragraphs)  # a line that is a paragraph of its own somewhere is no finding
    _, page_foot = _text_area(pages, band)
    head_end = (band or 0.0) + 0.5 * body

    def starts(key: str) -> bool:
        return key not in whole and any(
            p.startswith(key) and len(p) > len(key) + 5 for p in paragraphs
        )

    def ends(key: str) -> bool:
        return key not in whole and any(
            p.endswith(key) and len(p) > len(key) + 5 for p in paragraphs
        )

    found = []
    for page, after in itertools.pairwise(pages):
        lines, following = _body_lines(page, band), _body_lines(after, band)
        if len(lines) < 3 or len(following) < 2:
            continue
        last, first = lines[-1], following[0]
        # The text must run straight over the turn: a drawing after the page's last line
        # (display math, a figure) or before the next page's first breaks the paragraph.
        if any(last.bottom < shape.top < page_foot for shape in page.shapes):
            continue
        if any(head_end < shape.top and shape.bottom < first.top for shape in after.shapes):
            continue
        key = squash(unicodedata.normalize("NFKC", last.text))
        if _is_plain(last, body) and len(key) >= 8 and starts(key):
            found.append(f"page {page.number}: orphan {last.text[:30]!r}")
        key = squash(unicodedata.normalize("NFKC", first.text))
        if _is_plain(first, body) and len(key) >= 2 and ends(key):
            found.append(f"page {after.number}: widow {first.text[:30]!r}")
    return found


def link_targets(pdf: Path, first: int = 0) -> list[tuple[int, str, int | None, str | None]]:
    """Every internal link from page ``first`` on: (its page, the text it covers, the page
    it leads to, the named destination when it has one)."""
    import pypdfium2 as pdfium
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    document = pdfium.PdfDocument(str(pdf))
    where = {page.indirect_reference.idnum: i for i, page in enumerate(reader.pages)}
    named = reader.named_destinations
    found = []
    for index in range(first, len(reader.pages)):
        text = document[index].get_textpage()
        for ref in reader.pages[index].get("/Annots") or []:
            annot = ref.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            dest = annot.get("/Dest")
            action = annot.get("/A")
            if dest is None and action is not None and action.get("/S") == "/GoTo":
                dest = action.get("/D")
            name = None
            if isinstance(dest, str):
                name = str(dest)
                target = reader.get_destination_page_number(named[name]) if name in named else None
            elif dest is not None:
                target = where.get(dest[0].idnum)
            else:
                continue
            x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
            shown = text.get_text_bounded(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
            found.append((index, shown.strip(), target, name))
    return found


def font_pages(pdf: Path) -> dict[int, int]:
    """Each font object the pages use → the first page that uses it: reading those pages
    reads every font the PDF has."""
    from pypdf import PdfReader

    first: dict[int, int] = {}
    for index, page in enumerate(PdfReader(pdf).pages):
        resources = page.get("/Resources")
        fonts = resources.get_object().get("/Font") if resources is not None else None
        for ref in fonts.get_object().values() if fonts is not None else []:
            first.setdefault(getattr(ref, "idnum", id(ref)), index)
    return first
