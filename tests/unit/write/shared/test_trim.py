"""Bleed, page boxes and printer's marks (write/shared/trim.py) on a tiny PDF."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.write.shared.trim import MM, SLUG, Trim, boxes, finish, marks

A6 = (297.64, 419.53)


def test_boxes_grow_from_the_trim() -> None:
    trim = Trim(bleed=3 * MM, marks=True)
    found = boxes(*A6, trim)
    assert found["/TrimBox"] == [0.0, 0.0, *A6]
    assert found["/BleedBox"] == pytest.approx([-3 * MM, -3 * MM, A6[0] + 3 * MM, A6[1] + 3 * MM])
    reach = 3 * MM + SLUG
    assert found["/MediaBox"] == pytest.approx([-reach, -reach, A6[0] + reach, A6[1] + reach])
    plain = boxes(*A6, Trim(bleed=3 * MM, marks=False))
    assert plain["/MediaBox"] == plain["/BleedBox"]  # no slug without marks


def test_marks_stay_outside_the_bleed() -> None:
    """Eight crop hairlines in line with the trim edges, four registration crosses, all
    in the /All separation and none reaching into the bleed."""
    trim = Trim(bleed=3 * MM, marks=True)
    stream = marks(*A6, trim)
    assert stream.startswith("q\n/KbAll CS 1 SCN") and stream.endswith("Q")
    lines = [op for op in stream.splitlines() if op.endswith(" l S")]
    crop = lines[:8]
    assert len(crop) == 8 and stream.count(" c S") == 4  # four circles
    for op in crop:
        x0, y0, _, x1, y1, *_ = op.split()
        for x, y in ((float(x0), float(y0)), (float(x1), float(y1))):
            inside_x = -trim.bleed < x < A6[0] + trim.bleed
            inside_y = -trim.bleed < y < A6[1] + trim.bleed
            assert not (inside_x and inside_y), op


def test_finish_sets_the_boxes_and_keeps_the_page(tmp_path: Path) -> None:
    from pypdf import PdfReader
    from weasyprint import HTML

    page = tmp_path / "page.pdf"
    style = "@page { size: a6; margin: 15mm } body { font: 10pt 'Noto Serif CJK KR' }"
    HTML(string=f"<style>{style}</style><p>재단 표시를 시험한다.</p>").write_pdf(page)
    out = tmp_path / "out.pdf"
    finish(page, out, Trim(bleed=3 * MM, marks=True))
    finished = PdfReader(out).pages[0]
    assert [round(float(v), 1) for v in finished.trimbox] == [0.0, 0.0, 297.6, 419.5]
    assert float(finished.mediabox.left) == pytest.approx(-(3 * MM + SLUG), abs=0.01)
    assert "재단 표시를 시험한다" in finished.extract_text()
    assert "/KbAll" in finished["/Resources"]["/ColorSpace"]
    unmarked = tmp_path / "bleed.pdf"
    finish(page, unmarked, Trim(bleed=3 * MM, marks=False))
    bleed_only = PdfReader(unmarked).pages[0]
    assert "/KbAll" not in bleed_only["/Resources"]["/ColorSpace"]
    assert float(bleed_only.mediabox.left) == pytest.approx(-3 * MM, abs=0.01)
