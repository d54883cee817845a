"""WeasyPrint line breaking as kobook patches it (``write/weasy_linebreak.py``)."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path

import pytest

from kobook.write.weasy_linebreak import fits_without_trailing_space, install


def widths(table: dict[str, float | None]) -> object:
    return lambda run: table[run]


@pytest.mark.parametrize(
    ("text", "white_space", "measured", "fits"),
    [
        ("조각으로 나눠 랭크 ", "normal", 300.0, True),  # fits once the space hangs
        ("조각으로 나눠 랭크 ", "normal", 310.0, False),  # too wide even without it
        ("조각으로 나눠 랭크 ", "normal", None, False),  # needs two lines anyway
        ("조각으로 나눠 랭크", "normal", 300.0, False),  # no trailing space: nothing hangs
        ("조각으로 나눠 랭크 ", "pre", 300.0, False),  # preserved spaces do not hang
        ("   ", "normal", 0.0, False),
    ],
)
def test_fits_without_trailing_space(
    text: str, white_space: str, measured: float | None, fits: bool
) -> None:
    table = {text.rstrip(" "): measured}
    assert fits_without_trailing_space(text, white_space, 305.0, widths(table)) is fits  # type: ignore[arg-type]


SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="27" height="21" viewBox="0 0 27 21">'
    '<rect width="27" height="21" fill="black"/></svg>'
)


def test_a_run_after_an_inline_image_is_not_cut_after_its_first_word(tmp_path: Path) -> None:
    """The sample book's ``옵티마이저 상태를 $N_d$조각으로 나눠 …``: the run after the
    formula ends in a space and fits only once that space hangs; it was cut after
    ``조각으로``, leaving a first line with nine-em word gaps."""
    install()
    import weasyprint

    image = "data:image/svg+xml;base64," + base64.b64encode(SVG.encode()).decode()
    math = f'<img style="width:1.36em;height:1.04em;vertical-align:-0.3em" src="{image}">'
    words = "조각으로 나눠 랭크마다 한 조각씩만 갖게 한다. 랭크 "
    html = (
        "<html lang='ko'><style>@page { size: 120mm 80mm; margin: 10mm }"
        "body { font-family: 'Noto Serif CJK KR'; font-size: 10pt; text-align: justify;"
        " word-break: keep-all }</style><body>"
        f"<p>옵티마이저 상태를 {math}{words}{math}는 전체 파라미터 가운데 번째 조각만 "
        "책임지고 갱신한다.</p></body></html>"
    )
    # Page widths around the one where the run ends exactly at the margin, its
    # trailing space beyond it (139–139.5 mm with Noto Serif CJK at 10 pt).
    cut = []
    for tenths in range(1300, 1420, 5):
        pdf = tmp_path / f"p{tenths}.pdf"
        weasyprint.HTML(string=html.replace("120mm", f"{tenths / 10}mm")).write_pdf(pdf)
        first = first_line(pdf)
        if "나눠" not in first:
            cut.append((tenths / 10, first))
    assert cut == []


def first_line(pdf: Path) -> str:
    """The first line as laid out (poppler's -layout keeps a line with an image whole)."""
    out = subprocess.run(
        ["pdftotext", "-layout", "-enc", "UTF-8", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.splitlines()[0]
