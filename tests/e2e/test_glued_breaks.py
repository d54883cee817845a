"""No line break inside a word where scripts meet, and one space after a sentence (issue 11).

A tiny A6 book repeats each kind of junction (``GPU가``, ``4로``, ``(row)을``,
``모델(LLM)의``, inline code, math, a link, bold) two dozen times at varying
places in a paragraph, so that without the rule some of them fall at a line
end (XeLaTeX broke 20 of them before the fix).  Both engines must keep every
one whole.
"""

from __future__ import annotations

import itertools
import random
import statistics
from pathlib import Path

import pdfplumber
import pytest

import kobook
from tests.checks import glued_breaks, pdf_pages

pytestmark = pytest.mark.slow

JUNCTIONS = [
    "GPU가",
    "4로",
    "(row)을",
    "모델(LLM)의",
    "`x`로",
    "$n$개",
    "[GPU](https://example.com)가",
    "**GPU**를",
    "ZeRO-1과",
    "계산(compute)을",
]
FILLER = ["하나", "둘은", "셋이다", "넷이라면", "다섯", "여섯째", "일곱", "여덟이"]
FILLER += ["아홉이다", "열"]
SENTENCES = "이것은 문장이다. 다음 문장도 짧다. 끝에 마침표가 온다. 그러면 간격이 같아야 한다."


def junction_chapter() -> str:
    """Each junction 24 times among filler words of varying lengths (fixed seed)."""
    rng = random.Random(7)
    paragraphs = []
    for junction in JUNCTIONS:
        words: list[str] = []
        for k in range(24):
            words += FILLER[: (k * 7) % 10 + 1][::-1][: rng.randint(1, 6)]
            words.append(junction)
        paragraphs.append(" ".join(words) + ".")
    paragraphs.append(" ".join([SENTENCES] * 6))
    return "# 붙은 말\n\n" + "\n\n".join(paragraphs) + "\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Path]]:
    root = tmp_path_factory.mktemp("glued")
    source = junction_chapter()
    (root / "book").mkdir()
    (root / "book" / "01.md").write_text(source, encoding="utf-8")
    (root / "metadata.yaml").write_text(
        "title: 줄바꿈\nlang: ko-KR\npapersize: a6\ntoc: false\n", encoding="utf-8"
    )
    cache = tmp_path_factory.mktemp("glued-cache")
    pdfs = {
        engine: kobook.build(
            root,
            ["pdf"],
            engine=engine,
            cache_dir=cache,
            out=tmp_path_factory.mktemp(f"glued-{engine}"),
        ).outputs["pdf"]
        for engine in ("weasyprint", "xelatex", "typst")
    }
    return source, pdfs


@pytest.mark.parametrize("engine", ["weasyprint", "xelatex", "typst"])
def test_no_break_where_scripts_meet(built: tuple[str, dict[str, Path]], engine: str) -> None:
    source, pdfs = built
    pages = pdf_pages(pdfs[engine])
    text = "\f".join(pages)
    assert glued_breaks(text, source) == []
    # Math may be an image (WeasyPrint): its particle at the left edge gives the break away.
    assert line_starts(pdfs[engine], "개") == 0
    assert line_starts(pdfs[engine], "하") > 10  # the check does see line starts
    # The book really did fill many lines: the junctions met line ends often enough.
    lines = [line for page in pages for line in page.split("\n") if line.strip()]
    assert len(lines) > 150


def line_starts(pdf: Path, char: str) -> int:
    """How many lines start with ``char`` (drawn at the text's left edge)."""
    count = 0
    with pdfplumber.open(pdf) as document:
        for page in document.pages:
            body = [c for c in page.chars if c["size"] > 6]
            if not body:
                continue
            left = min(c["x0"] for c in body)
            count += sum(1 for c in body if c["text"] == char and c["x0"] - left < 1)
    return count


def gaps(pdf: Path) -> list[tuple[float, list[float]]]:
    """Per full line of the sentences paragraph: (widest gap after '.', the other gaps)."""
    found = []
    with pdfplumber.open(pdf) as document:
        for page in document.pages:
            rows: dict[int, list[dict]] = {}
            for char in page.chars:
                rows.setdefault(round(char["top"]), []).append(char)
            for chars in rows.values():
                chars.sort(key=lambda c: c["x0"])
                line = "".join(c["text"] for c in chars)
                if "마침표" not in line and "문장" not in line:
                    continue
                after_stop, others = [], []
                for a, b in itertools.pairwise(chars):
                    gap = b["x0"] - a["x1"]
                    if gap > 0.2 * a["size"]:
                        (after_stop if a["text"] == "." else others).append(gap)
                if after_stop and len(others) >= 2:
                    found.append((max(after_stop), others))
    return found


def test_xelatex_sets_one_space_after_a_sentence(built: tuple[str, dict[str, Path]]) -> None:
    lines = gaps(built[1]["xelatex"])
    assert len(lines) >= 3
    for widest, others in lines:
        assert widest <= statistics.median(others) * 1.08 + 0.2, (widest, others)
