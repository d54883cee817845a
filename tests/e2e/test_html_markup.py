"""``2<sup>7</sup> − 1`` through every engine (issue 28): drawn as a superscript, not "27 − 1";
raw HTML an engine cannot draw is one LEAK002 each."""

from __future__ import annotations

import itertools
from pathlib import Path

import pdfplumber
import pytest

import kobook
from kobook.write import registry
from tests.conftest import BookMaker

CHAPTER = """# 첨자

값은 2<sup>7</sup> − 1이고 물은 H<sub>2</sub>O이며 <kbd>Ctrl</kbd> 키와 <mark>표시</mark>가 있다.

<video src="a.mp4"></video>

<iframe src="https://example.org/"></iframe>
"""


def sizes(pdf: Path, before: str, char: str) -> tuple[float, float, float, float]:
    """(size, bottom) of the ``before`` glyph and of the ``char`` glyph right after it."""
    with pdfplumber.open(pdf) as document:
        for page in document.pages:
            chars = page.chars
            for first, second in itertools.pairwise(chars):
                if first["text"] == before and second["text"] == char:
                    return first["size"], first["bottom"], second["size"], second["bottom"]
    raise AssertionError(f"{before}{char} not found in {pdf}")


@pytest.mark.slow
@pytest.mark.parametrize("engine", registry.pdf_engines())
def test_superscripts_and_subscripts_in_every_engine(make_book: BookMaker, engine: str) -> None:
    root = make_book({"book/01.md": CHAPTER}, metadata={"title": "첨자"})
    result = kobook.build(root, ["pdf"], engine=engine, keep_going=True)
    size, base, sup_size, sup_base = sizes(result.outputs["pdf"], "2", "7")
    assert sup_size < size and sup_base < base, (engine, size, sup_size, base, sup_base)
    size, base, sub_size, sub_base = sizes(result.outputs["pdf"], "H", "2")
    assert sub_size < size and sub_base > base, (engine, size, sub_size, base, sub_base)
    lost = sorted(
        d.message.split("<")[1].split(">")[0] for d in result.diagnostics if d.code == "LEAK002"
    )
    assert lost == ["iframe", "video"], (engine, lost)  # one each; sup, sub, kbd, mark drawn
