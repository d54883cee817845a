"""A figure that does not fit goes to the next page and the text after it fills the
gap (``write/weasyprint/figures.py``); issue 11: "big white gaps before unsplittable images".
"""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pytest
from PIL import Image

from kobook.write.weasyprint import figures as weasy_figures
from tests.checks import pdf_pages

SENTENCE = "데이터 병렬화에서는 각 GPU가 모델 전체를 복제해 두고 배치의 일부만 계산한다. "


def tall_png() -> str:
    """A tall image (half a page when it is as wide as the text)."""
    buffer = io.BytesIO()
    Image.new("RGB", (60, 50), "steelblue").save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def document(before: int, between: str, after: int = 3) -> str:
    """``before`` paragraphs, a figure as wide as the text, ``between`` and more paragraphs."""
    style = (
        "@page { size: 120mm 160mm; margin: 10mm }"
        "body { font-family: 'Noto Serif CJK KR'; font-size: 9pt; line-height: 1.5 }"
        "figure { margin: 0; break-inside: avoid } figure img { width: 100% }"
        "h2 { break-after: avoid; font-size: 11pt }"
    )
    paragraphs = "".join(f"<p>문단 {n}. {SENTENCE * 3}</p>" for n in range(before))
    tail = "".join(f"<p>뒤 문단 {n}. {SENTENCE * 3}</p>" for n in range(after))
    figure = f"<figure><img src='{tall_png()}'><figcaption>그림 1.1 큰 그림</figcaption></figure>"
    return (
        f"<html lang='ko'><style>{style}</style><body>{paragraphs}{figure}{between}{tail}"
        "</body></html>"
    )


def pages(html: str, tmp_path: Path, floating: bool = True) -> list[str]:
    import weasyprint

    weasy_figures.install()
    token = weasy_figures.FLOAT.set(floating)
    try:
        pdf = tmp_path / f"figures-{floating}.pdf"
        weasyprint.HTML(string=html).write_pdf(pdf)
    finally:
        weasy_figures.FLOAT.reset(token)
    return pdf_pages(pdf)


@pytest.mark.parametrize("between", ["<p>그림 뒤 문단. " + SENTENCE * 2 + "</p>", ""])
def test_text_after_the_figure_fills_the_page(between: str, tmp_path: Path) -> None:
    html = document(5, between)
    next_text = "그림 뒤 문단" if between else "뒤 문단 0"
    own = pages(html, tmp_path, floating=False)
    assert "그림 1.1" in own[1] and next_text not in own[0]  # WeasyPrint: a gap on page 1
    floated = pages(html, tmp_path)
    assert next_text in floated[0]  # the text after the figure moved up
    assert "그림 1.1" in floated[1]
    assert "".join(floated).count("그림 1.1") == 1
    assert len(floated) <= len(own)


def test_a_heading_moves_with_the_paragraph_it_is_kept_with(tmp_path: Path) -> None:
    html = document(5, "<h2>다음 절</h2>")
    floated = pages(html, tmp_path)
    first = floated[0]
    assert "다음 절" in first and "뒤 문단 0" in first
    assert first.index("다음 절") < first.index("뒤 문단 0")


def test_never_past_another_figure_or_a_table(tmp_path: Path) -> None:
    table = "<table><tr><td>표 칸</td></tr></table>"
    for between in (table, "<figure><img src='x.png'><figcaption>그림 1.2</figcaption></figure>"):
        html = document(5, between, after=0)
        assert pages(html, tmp_path) == pages(html, tmp_path, floating=False)


def test_a_figure_that_fits_stays_where_it_is(tmp_path: Path) -> None:
    html = document(1, "")
    floated = pages(html, tmp_path)
    assert floated == pages(html, tmp_path, floating=False)
    assert floated[0].index("그림 1.1") < floated[0].index("뒤 문단 0")
