"""One print setup for every engine (issue 28): the sample's chapter, section and subsection
titles are set at the same sizes by WeasyPrint, XeLaTeX and Typst (PageLayout.headings), and
its lines at the same distance."""

from __future__ import annotations

import functools
import itertools
import re
import statistics
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pdfplumber
import pytest

import kobook
from kobook.write import registry
from kobook.write.shared.layout import HEADINGS
from tests.conftest import BookMaker

Sample = Callable[[str], kobook.BuildResult]


@functools.cache
def page_chars(pdf: Path) -> tuple[list[dict[str, Any]], ...]:
    """Every page's characters (pdfplumber's), read once per PDF for all the tests here:
    reading them is most of what each test costs."""
    with pdfplumber.open(pdf) as opened:
        return tuple(list(page.chars) for page in opened.pages)


def hangul_sizes(result: kobook.BuildResult) -> Counter[float]:
    """How many Hangul glyphs each font size sets, on the pages after the contents."""
    sizes: Counter[float] = Counter()
    for chars in page_chars(result.outputs["pdf"])[4:30]:
        for char in chars:
            if "\uac00" <= char["text"] <= "\ud7a3":
                sizes[round(char["size"], 1)] += 1
    return sizes


@pytest.mark.slow
@pytest.mark.parametrize("engine", registry.pdf_engines())
def test_headings_are_set_at_one_scale(sample_build: Sample, engine: str) -> None:
    sizes = hangul_sizes(sample_build(engine))
    body = sizes.most_common(1)[0][0]
    assert body == 10.0
    for scale in HEADINGS:
        wanted = body * scale
        assert any(abs(size - wanted) <= 0.02 * wanted for size in sizes), (engine, wanted, sizes)
    assert max(sizes) <= body * 1.75 * 1.02, (engine, sizes)  # nothing larger than a chapter


def baseline_gap(result: kobook.BuildResult) -> float:
    """The median distance between the baselines of body lines, in multiples of the size."""
    gaps = []
    for page in page_chars(result.outputs["pdf"])[5:25]:
        chars = [c for c in page if c["text"].strip() and round(c["size"], 1) == 10.0]
        lines = sorted({round(c["bottom"], 1) for c in chars})
        gaps += [(b - a) / 10.0 for a, b in itertools.pairwise(lines) if 9 < b - a < 25]
    return statistics.median(gaps)


@pytest.mark.slow
def test_the_same_leading_in_every_engine(sample_build: Sample) -> None:
    """linestretch 1.6 is 1.92 × the size between baselines (Typst's 1.65 was its leading
    counted from the cap height)."""
    gaps = {engine: baseline_gap(sample_build(engine)) for engine in registry.pdf_engines()}
    wanted = gaps["weasyprint"]
    assert all(abs(gap - wanted) <= 0.02 * wanted for gap in gaps.values()), gaps


@pytest.mark.slow
@pytest.mark.parametrize("engine", registry.pdf_engines())
def test_classoption_sets_the_page_in_every_engine(make_book: BookMaker, engine: str) -> None:
    """``classoption: [a5paper, 11pt]`` was honoured by the LaTeX page alone."""
    root = make_book(
        {"book/01.md": "# 장\n\n" + "한국어 본문 문장이다. " * 40 + "\n"},
        metadata={"title": "작은 책", "classoption": ["a5paper", "11pt"]},
    )
    result = kobook.build(root, ["pdf"], engine=engine)
    with pdfplumber.open(result.outputs["pdf"]) as pdf:
        page = pdf.pages[-1]
        assert (round(page.width), round(page.height)) == (420, 595), engine
        sizes = Counter(
            round(c["size"], 1) for c in page.chars if "\uac00" <= c["text"] <= "\ud7a3"
        )
    assert abs(sizes.most_common(1)[0][0] - 11.0) <= 0.11, (engine, sizes)  # LaTeX: 10.95


def text_block(result: kobook.BuildResult) -> dict[int, tuple[float, float, float, float]]:
    """Per side (0: even pages, 1: odd), where the body's letters stand: the median left and
    right edges, the highest top and the lowest bottom."""
    found: dict[int, tuple[list[float], list[float], list[float], list[float]]] = {
        0: ([], [], [], []),
        1: ([], [], [], []),
    }
    for number, page in enumerate(page_chars(result.outputs["pdf"])[5:40], start=6):
        body = [
            c for c in page if round(c["size"], 1) == 10.0 and "\uac00" <= c["text"] <= "\ud7a3"
        ]
        if len(body) < 200:
            continue
        lefts, rights, tops, bottoms = found[number % 2]
        lefts.append(min(c["x0"] for c in body))
        rights.append(max(c["x1"] for c in body))
        tops.append(min(c["top"] for c in body))
        bottoms.append(max(c["bottom"] for c in body))
    return {
        side: (statistics.median(lefts), statistics.median(rights), min(tops), max(bottoms))
        for side, (lefts, rights, tops, bottoms) in found.items()
    }


@pytest.mark.slow
def test_the_same_text_block_in_every_engine(sample_build: Sample) -> None:
    """One page geometry (PageLayout) in every engine: on each side of the spread the body
    starts and ends at the same place on the line, and its first and last lines stand at
    the text block's top and bottom (WeasyPrint's stood half a leading inside: CSS centres
    the letters in the line box, so its pages held a line fewer)."""
    blocks = {engine: text_block(sample_build(engine)) for engine in registry.pdf_engines()}
    for side in (0, 1):
        left, right, _, _ = blocks["xelatex"][side]
        for engine, sides in blocks.items():
            l2, r2, _, _ = sides[side]
            assert abs(l2 - left) <= 1 and abs(r2 - right) <= 1, (engine, side, blocks)
    # Top and bottom over both sides: they do not depend on the side, and with figures
    # floating to a page's foot (Typst) no left-hand page of the sample may end on the
    # last line.
    top = min(sides[s][2] for s in (0, 1) for sides in [blocks["xelatex"]])
    bottom = max(sides[s][3] for s in (0, 1) for sides in [blocks["xelatex"]])
    for engine, sides in blocks.items():
        t2, b2 = min(sides[0][2], sides[1][2]), max(sides[0][3], sides[1][3])
        assert abs(t2 - top) <= 5 and abs(b2 - bottom) <= 10, (engine, blocks)


@pytest.mark.slow
def test_page_counts_are_close_in_every_engine(sample_build: Sample) -> None:
    """Every engine sets the sample on as many pages as WeasyPrint, ±5 % (XeLaTeX had taken
    7 % more: half a line between paragraphs, KOMA's heading skips, taller code lines)."""
    pages = {}
    for engine in registry.pdf_engines():
        pages[engine] = len(page_chars(sample_build(engine).outputs["pdf"]))
    for count in pages.values():
        assert abs(count - pages["weasyprint"]) <= 0.05 * pages["weasyprint"], pages


def rows(result: kobook.BuildResult) -> list[list[tuple[float, float, str]]]:
    """Per page after the contents: its lines as (baseline-ish bottom, commonest size,
    text), top to bottom."""
    pages = []
    for page in page_chars(result.outputs["pdf"])[4:]:
        found: dict[float, list[dict]] = {}
        for char in page:
            if char["text"].strip():
                found.setdefault(round(char["bottom"], 1), []).append(char)
        pages.append(
            [
                (
                    bottom,
                    Counter(round(c["size"], 1) for c in chars).most_common(1)[0][0],
                    "".join(c["text"] for c in sorted(chars, key=lambda c: c["x0"])),
                )
                for bottom, chars in sorted(found.items())
            ]
        )
    return pages


def spacing(result: kobook.BuildResult) -> dict[str, float]:
    """Median distances, in points, between a paragraph's last line and the next one's
    first; between body text and a section title after it; and between that title and the
    body text after it (the layout's paragraph and heading space)."""
    paragraphs, before, after = [], [], []
    for page in rows(result):
        for (a, size_a, _), (b, size_b, _) in itertools.pairwise(page):
            gap = b - a
            if size_a == size_b == 10.0 and 22 < gap < 30:
                paragraphs.append(gap)
            elif size_a == 10.0 and size_b == 13.0 and gap < 60:
                before.append(gap)
            elif size_a == 13.0 and size_b == 10.0 and gap < 45:
                after.append(gap)
    return {
        "paragraph": statistics.median(paragraphs),
        "before section": statistics.median(before),
        "after section": statistics.median(after),
    }


@pytest.mark.slow
def test_paragraphs_and_titles_are_spaced_alike_in_every_engine(sample_build: Sample) -> None:
    """One decision for the space between paragraphs and around titles (PageLayout): XeLaTeX
    had set half a line between paragraphs (9.6 pt against 6.5) and KOMA's own heading skips
    (11 pt more above a section title, 10 below)."""
    found = {engine: spacing(sample_build(engine)) for engine in registry.pdf_engines()}
    wanted = found["weasyprint"]
    for engine, spaces in found.items():
        assert abs(spaces["paragraph"] - wanted["paragraph"]) <= 0.5, (engine, found)
        for key in ("before section", "after section"):
            assert abs(spaces[key] - wanted[key]) <= 2.0, (engine, key, found)


def code_lines(result: kobook.BuildResult) -> tuple[float, float, float]:
    """The sample's first code block: its type size and the distance between its lines; and
    the size of the inline code ``torch.utils.checkpoint`` in the paragraph before it."""
    inline: float | None = None
    for page in page_chars(result.outputs["pdf"])[4:]:
        chars = [c for c in page if c["text"].strip()]
        text = "".join(c["text"] for c in chars)
        found = text.find("torch.utils.checkpoint로")
        if found >= 0 and inline is None:
            inline = round(chars[found]["size"], 1)
        block = text.find("importtorchfromtorch.utils.checkpoint")
        if inline is not None and block >= 0:
            first, second = chars[block], chars[block + len("importtorch")]
            pitch = round(second["bottom"] - first["bottom"], 1)
            return round(first["size"], 1), pitch, inline
    raise AssertionError("no code block after the inline code")


@pytest.mark.slow
def test_code_is_set_alike_in_every_engine(sample_build: Sample) -> None:
    """One code box (PageLayout.code_*): 8 pt type 10.4 pt apart at 10 pt body (the engines
    had set 8 pt on 10.4, 7.9 on 11.5 and 7.3 on 12 pt lines)."""
    for engine in registry.pdf_engines():
        size, pitch, inline = code_lines(sample_build(engine))
        assert abs(size - 8.0) <= 0.1 and abs(pitch - 10.4) <= 0.2, (engine, size, pitch)
        assert abs(inline - 8.8) <= 0.1, (engine, inline)


def caption_sizes(result: kobook.BuildResult) -> Counter[float]:
    """The type sizes of the sample's figure and table caption labels ("그림 1.2.")."""
    sizes: Counter[float] = Counter()
    for page in page_chars(result.outputs["pdf"])[4:]:
        chars = page
        text = "".join(c["text"] for c in chars)
        for match in re.finditer(r"(?:그림|표)\s?\d+\.\d+\.(?!\d)", text):
            sizes[round(chars[match.start()]["size"], 1)] += 1
    return sizes


@pytest.mark.slow
def test_captions_are_set_alike_in_every_engine(sample_build: Sample) -> None:
    """One caption size (PageLayout.caption_points): WeasyPrint had set figure captions at
    0.85 and table captions at 0.95 of the body, Typst and XeLaTeX both at 0.9."""
    for engine in registry.pdf_engines():
        sizes = caption_sizes(sample_build(engine))
        assert set(sizes) == {9.0} and sum(sizes.values()) >= 8, (engine, sizes)


@pytest.mark.parametrize("engine", ["weasyprint", "xelatex", "typst"])
def test_every_engine_names_the_books_language(sample_build: Sample, engine: str) -> None:
    """The PDF's /Lang, which screen readers and search read (XeLaTeX wrote none)."""
    from pypdf import PdfReader

    root = PdfReader(sample_build(engine).outputs["pdf"]).trailer["/Root"]
    assert root.get("/Lang") == "ko-KR"


@pytest.mark.parametrize("engine", ["weasyprint", "xelatex", "typst"])
def test_no_code_block_of_the_sample_is_split_with_two_lines(
    sample_build: Sample, engine: str
) -> None:
    from tests.checks import split_code_blocks

    assert split_code_blocks(sample_build(engine).outputs["pdf"]) == []


def code_at_every_height(blank_before_last: bool) -> str:
    """A chapter where code blocks start at many heights of a page: paragraphs of many
    lengths, each followed by a listing with its file name and ten lines of code, an
    empty one among them (and, with ``blank_before_last``, one before the last two)."""
    parts = ["# 코드가 많은 장\n"]
    for i in range(24):
        words = 8 + (i * 37) % 90
        parts.append(" ".join(["낱말을"] * words) + "\n")
        code = "\n".join(f"    let value_{n} = {n} + {i};" for n in range(10))
        code = code.replace("    let value_5", "\n    let value_5")  # an empty line
        if blank_before_last:
            code = code.replace("    let value_9", "\n    let value_9")
        parts.append(f'```{{.rust filename="src/part{i}.rs"}}\nfn main() {{\n{code}\n}}\n```\n')
    return "\n".join(parts)


@pytest.mark.parametrize("engine", ["weasyprint", "typst"])
def test_a_page_break_leaves_three_code_lines_on_each_side(
    make_book: BookMaker, tmp_path: Path, engine: str
) -> None:
    """PageLayout.code_kept, in every engine that can keep lines together (XeLaTeX's
    code box breaks where TeX's page builder puts it): no page ends or starts with one
    or two lines of a code block, and a listing's file name is never a page's last line;
    an empty line of code keeps its height.  Typst broke a raw block's paragraph of lines
    anywhere (one line at a page's foot).  Typst does not count an empty line among the
    lines it keeps; WeasyPrint does (CSS ``widows`` counts line boxes), so an empty line
    before a block's last two may leave those two alone there."""
    from tests.checks import _layout, pdf_pages, split_code_blocks

    text = code_at_every_height(blank_before_last=engine == "typst")
    project = make_book({"book/01.md": text}, metadata={"title": "코드"})
    result = kobook.build(project, ["pdf"], engine=engine, out=tmp_path / "out")
    pdf = result.outputs["pdf"]
    assert split_code_blocks(pdf) == []
    pages = [page.strip().splitlines() for page in pdf_pages(pdf)]
    ends = [lines[-2] for lines in pages if len(lines) > 2]  # the last line is the folio
    assert ends and not [end for end in ends if "src/part" in end]
    pitches = set()
    for page in _layout(pdf):
        tops = {}  # (line, block) → its top
        for line in page.lines:
            if "let value_" in line.text:
                words = line.text.split()
                tops[words[1], words[-1]] = line.top
        for block in {block for _, block in tops}:
            top = {name: at for (name, of), at in tops.items() if of == block}
            if {"value_0", "value_1", "value_4", "value_5"} <= top.keys():
                pitch = top["value_1"] - top["value_0"]
                pitches.add(round((top["value_5"] - top["value_4"]) / pitch, 2))
    assert pitches == {2.0}
