"""Formulas drawn once and replayed (``write/weasyprint/svgreplay.py``)."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from kobook.write.shared.mathsvg import draw
from kobook.write.weasyprint import svgreplay as weasy_svgreplay
from tests.conftest import spy


def data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


FRACTION = data_uri(draw(r"\frac{1}{N_d}", display=False).svg)
SUM = data_uri(draw(r"\sum_{i=1}^{N} x_i^2", display=False).svg)
TEXT_SVG = data_uri(
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">'
    '<text x="0" y="15" font-size="12">ab</text></svg>'
)


def page(*images: tuple[str, float]) -> str:
    """A page of red text with the images (URI, height in pt) in it."""
    tags = "".join(f'텍스트 <img style="height:{size}pt" src="{uri}"> 끝. ' for uri, size in images)
    return (
        "<html lang='ko'><style>@page { size: 120mm 60mm; margin: 8mm }"
        "body { font-family: 'Noto Serif CJK KR'; font-size: 10pt; color: #c00 }</style>"
        f"<body><p>{tags}</p></body></html>"
    )


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The patch installed with no kept drawing; the SVGs WeasyPrint itself draws."""
    from weasyprint.svg import SVG

    weasy_svgreplay.install()
    monkeypatch.setattr(weasy_svgreplay, "_DRAWN", {})
    return spy(monkeypatch, SVG, "draw", lambda svg, *_: svg.url)


def render(html: str, pdf: Path) -> Image.Image:
    import weasyprint

    weasyprint.HTML(string=html).write_pdf(pdf)
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", pdf, pdf.with_suffix("")])
    return Image.open(pdf.with_suffix(".png")).convert("RGB")


def test_a_formula_drawn_again_at_its_size_is_replayed(
    counted: list[object], tmp_path: Path
) -> None:
    render(page((FRACTION, 14), (SUM, 14), (FRACTION, 14), (FRACTION, 20)), tmp_path / "a.pdf")
    # one drawing per formula and size: the second 14 pt fraction is replayed
    assert sorted(counted) == sorted([FRACTION, SUM, FRACTION])
    assert len(weasy_svgreplay._DRAWN) == 3


def test_replayed_formulas_look_like_drawn_ones(
    counted: list[object], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Red text before each formula: a replay that kept the colour state of the page it
    was recorded on, or lost its opacity state, would differ from WeasyPrint's own."""
    html = page((FRACTION, 14), (SUM, 14), (FRACTION, 14), (SUM, 14), (FRACTION, 14))
    replayed = render(html, tmp_path / "replayed.pdf")
    assert len(counted) == 2
    # WeasyPrint's own drawing, every time (a kept None means "not replayable")
    monkeypatch.setattr(weasy_svgreplay, "_DRAWN", dict.fromkeys(weasy_svgreplay._DRAWN, None))
    counted.clear()
    own = render(html, tmp_path / "own.pdf")
    assert len(counted) == 5
    differ = ImageChops.difference(replayed, own).convert("L").histogram()
    # The same picture, but for a few pixels: WeasyPrint's later drawings of an image
    # also paint zero-size copies of some glyphs, which poppler shows as dots.  A
    # formula drawn in the wrong colour or place would change hundreds.
    assert sum(differ[9:]) < 20
    # and the formulas are there: black ink, not the text's red
    assert sum(replayed.convert("L").histogram()[:40]) > 100


def test_the_recording_does_not_depend_on_what_was_drawn_before(counted: list[object]) -> None:
    """The 14 pt fraction recorded after the same image was drawn at 20 pt (WeasyPrint
    changes an SVG's tree as it draws it) equals the one recorded first: the PDF's
    bytes stay a function of its sources."""
    import weasyprint

    weasyprint.HTML(string=page((FRACTION, 20), (FRACTION, 14))).write_pdf()
    after = {key[1:]: rec for key, rec in weasy_svgreplay._DRAWN.items()}
    weasy_svgreplay._DRAWN.clear()
    weasyprint.HTML(string=page((FRACTION, 14))).write_pdf()
    ((size, first),) = ((key[1:], rec) for key, rec in weasy_svgreplay._DRAWN.items())
    assert first is not None and after[size] is not None
    assert after[size].operators == first.operators


def test_an_svg_with_text_is_drawn_every_time(counted: list[object], tmp_path: Path) -> None:
    render(page((TEXT_SVG, 12), (TEXT_SVG, 12)), tmp_path / "t.pdf")
    assert counted == [TEXT_SVG, TEXT_SVG]
    assert list(weasy_svgreplay._DRAWN.values()) == [None]


def test_kept_drawings_are_dropped_between_documents_not_during_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(weasy_svgreplay, "_DRAWN", {("x", 1.0, float(i)): None for i in range(5)})
    monkeypatch.setattr(weasy_svgreplay, "LIMIT", 5)
    weasy_svgreplay.new_document()
    assert len(weasy_svgreplay._DRAWN) == 5
    weasy_svgreplay._DRAWN[("x", 2.0, 2.0)] = None
    weasy_svgreplay.new_document()
    assert weasy_svgreplay._DRAWN == {}
