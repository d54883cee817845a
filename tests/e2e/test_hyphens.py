"""Issue 32, item 2: no hyphen inside a Korean line unless the book asks, in every engine;
code names break only at their seams, with a continuation mark where the engine can draw one.

A small book on a narrow page (A6), full of long English words and long code names,
so that lines must end next to them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import kobook
from kobook.write.shared.seams import identifier_seams
from tests import checks
from tests.conftest import BookMaker

ENGINES = ["weasyprint", "xelatex", "typst"]
LATIN = (
    "이 절은 backpropagation과 checkpointing을 함께 다루고, recomputation이 "
    "parallelization이나 synchronization보다 먼저 오는 까닭을 설명한다. "
    "microbatching과 interleaving은 그다음이며 communication overlapping은 마지막이다. "
    "영어 용어로는 gradient accumulation, activation recomputation, sequence "
    "parallelization, communication overlapping, pipeline interleaving 같은 것이 있다. "
)
NAMES = (
    "PyTorch에서는 `DistributedDataParallel`이 기본이고 `FullyShardedDataParallel`이 "
    "ZeRO-3에 해당하며, 통신은 `torch.distributed.reduce_scatter_tensor`로, 버킷 크기는 "
    "`bucket_cap_mb_setting`으로 정한다. "
)
CODE_NAMES = {
    "DistributedDataParallel",
    "FullyShardedDataParallel",
    "torch.distributed.reduce_scatter_tensor",
    "bucket_cap_mb_setting",
}


def chapter() -> str:
    paragraphs = [(LATIN * 2), (NAMES * 2), (LATIN + NAMES), (NAMES + LATIN)]
    return "# 하이픈\n\n" + "\n\n".join(paragraphs) + "\n"


def build(make_book: BookMaker, tmp_path: Path, engine: str, **metadata: object) -> Path:
    root = make_book(
        {"book/01.md": chapter()},
        metadata={"title": "하이픈", "lang": "ko-KR", "papersize": "a6", **metadata},
    )
    out = tmp_path / f"out-{engine}-{len(metadata)}"
    return Path(kobook.build(root, ["pdf"], engine=engine, out=out).outputs["pdf"])


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_no_hyphen_unless_asked(engine: str, make_book: BookMaker, tmp_path: Path) -> None:
    """By default no line ends in an inserted hyphen; with ``hyphenate: latin`` English
    words do at loose line ends (Typst through an English show rule), and still never
    a Hangul word, a number or a code name."""
    plain = build(make_book, tmp_path, engine)
    # A line may end at a hyphen the source typed (ZeRO-|3): that is no inserted hyphen.
    assert checks.inserted_hyphens(plain, chapter()) == []
    asked = build(make_book, tmp_path, engine, hyphenate="latin")
    ends = checks.hyphenated(asked)
    assert ends, "the narrow page should hyphenate some English word"
    bad = checks.bad_hyphens(asked, chapter())
    # Typst keeps its own limits: two letters may stand before its hyphen (se-quence).
    assert [e for e in bad if not (engine == "typst" and re.search("[A-Za-z]{2}$", e))] == []
    assert not [end for end in ends if any(end.endswith(n[:k]) for n in CODE_NAMES for k in (4,))]


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_code_names_break_only_at_seams(engine: str, make_book: BookMaker, tmp_path: Path) -> None:
    """A code name that ends a line breaks at a seam (``Distributed|DataParallel``,
    ``torch.distributed|.reduce_scatter_tensor``), never with a hyphen; WeasyPrint and
    XeLaTeX end the line with the continuation mark ↪ (XeLaTeX hyphenated
    ``DistributedDataParal-lel`` before).  Typst has no discretionary break, so its
    line ends at the seam unmarked."""
    pdf = build(make_book, tmp_path, engine)
    broken = checks.broken_names(pdf, CODE_NAMES)
    assert broken, "the narrow page should break a long name"
    for first, rest in broken:
        name = first.removesuffix(checks.SEAM_MARK)
        assert len(name) in identifier_seams(name + rest), (first, rest)
        if engine != "typst":
            assert first.endswith(checks.SEAM_MARK), (first, rest)
    text = "".join(checks.pdf_pages(pdf))
    assert not re.search(r"[A-Za-z]-\n[A-Za-z]", text)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_text_layer_holds_ascii_hyphens(engine: str, make_book: BookMaker, tmp_path: Path) -> None:
    """``ZeRO-3`` copied from the PDF is the word the source typed: XeLaTeX's text layer
    held U+2011, the non-breaking hyphen Noto CJK's hyphen glyph also serves."""
    text = "".join(checks.pdf_pages(build(make_book, tmp_path, engine)))
    assert "ZeRO-3" in text
    assert "\u2011" not in text and "\u00ad" not in text
