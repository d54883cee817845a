"""One print setup for every engine (issue 28): the sample's chapter, section and subsection
titles are set at the same sizes by WeasyPrint, XeLaTeX and Typst (PageLayout.headings)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pdfplumber
import pytest

import kobook
from kobook.write import registry
from kobook.write.shared.layout import HEADINGS

Sample = Callable[[str], kobook.BuildResult]


def hangul_sizes(result: kobook.BuildResult) -> Counter[float]:
    """How many Hangul glyphs each font size sets, on the pages after the contents."""
    sizes: Counter[float] = Counter()
    with pdfplumber.open(result.outputs["pdf"]) as pdf:
        for page in pdf.pages[4:30]:
            for char in page.chars:
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
