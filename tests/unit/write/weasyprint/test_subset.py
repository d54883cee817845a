"""Font subsets kept between preview PDFs (``write/weasyprint/subset.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.write.weasyprint import subset as weasy_subset
from tests.checks import pdf_pages, squash
from tests.conftest import spy


def html(text: str) -> str:
    return (
        "<html lang='ko'><style>body { font-family: 'Noto Serif CJK KR' }</style>"
        f"<body><p>{text}</p></body></html>"
    )


@pytest.fixture
def subsets(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The patch installed with nothing kept; the glyph count of each real subsetting."""
    from weasyprint.pdf.fonts import Font

    weasy_subset.install()
    monkeypatch.setattr(weasy_subset, "_KEPT", {})
    return spy(monkeypatch, Font, "_harfbuzz_subset", lambda _font, glyphs, *_: len(glyphs))


def pdf(text: str) -> bytes:
    import weasyprint

    return bytes(weasyprint.HTML(string=html(text)).write_pdf())


def test_the_preview_reuses_a_subset_until_a_new_glyph_comes(
    subsets: list[object], tmp_path: Path
) -> None:
    token = weasy_subset.GROWING.set(True)
    try:
        pdf("가나다라 마바사")
        assert len(subsets) == 1
        pdf("다라 가나")  # glyphs already in the kept subset: no subsetting
        assert len(subsets) == 1
        pdf("가나 하")  # a new glyph: subset again, to the union
        assert len(subsets) == 2 and subsets[1] > subsets[0]  # type: ignore[operator]
        pdf("마바사 하")
        assert len(subsets) == 2
        # the PDF with the kept (larger) subset still shows its own text
        out = tmp_path / "kept.pdf"
        out.write_bytes(pdf("다라 가나"))
        assert squash(pdf_pages(out)[0]) == "다라가나"
        assert len(subsets) == 2
    finally:
        weasy_subset.GROWING.reset(token)


def test_builds_subset_each_document_to_its_own_glyphs(subsets: list[object]) -> None:
    """Outside the preview, a document's bytes do not depend on what came before."""
    alone = pdf("다라")
    pdf("가나다라 마바사 하")
    after = pdf("다라")
    assert len(subsets) == 3
    assert alone == after
