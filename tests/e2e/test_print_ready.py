"""Issue 32, item 7: a print-ready PDF from every engine — bleed, crop and registration
marks, the page boxes a printer reads, images too coarse for print reported, and PDF/X-4
with an output intent."""

from __future__ import annotations

from pathlib import Path

import pytest

import kobook
from kobook.write.shared.trim import MM
from tests.conftest import BookMaker

ENGINES = ["weasyprint", "xelatex", "typst"]
# 4×6판, as Korean printers cut it.
TRIM = (128 * MM, 188 * MM)
CHAPTER = """# 인쇄

본문이다. 인쇄소로 보낼 PDF는 재단선 밖으로 3 mm를 더 두고 재단 표시를 단다.

![작은 화면 갈무리](images/small.png)

![큰 사진](images/big.png)

![작게 찍은 화면 갈무리](images/small.png){width=60%}

![작은 아이콘](images/icon.png)

자세한 규격은 [인쇄 안내](https://example.org/press-guide)를 본다.
"""


def images(root: Path) -> None:
    from PIL import Image

    (root / "book" / "images").mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (400, 300), (200, 100, 50)).save(root / "book/images/small.png")
    Image.new("RGB", (3000, 2000), (50, 100, 200)).save(root / "book/images/big.png")
    Image.new("RGB", (200, 100), (90, 160, 90)).save(root / "book/images/icon.png")


@pytest.fixture(params=ENGINES)
def printed(
    request: pytest.FixtureRequest, make_book: BookMaker, tmp_path: Path
) -> kobook.BuildResult:
    root = make_book(
        {"book/01.md": CHAPTER},
        metadata={
            "title": "인쇄",
            "lang": "ko-KR",
            "papersize": "4x6판",
            "print": True,
            "pdf": {"bleed": "3mm", "marks": True, "standard": "pdf/x-4"},
        },
    )
    images(root)
    return kobook.build(root, ["pdf"], engine=request.param, out=tmp_path / "out")


@pytest.mark.slow
def test_pdfx_names_the_press_in_an_output_intent(printed: kobook.BuildResult) -> None:
    """FOGRA39's CMYK profile embedded as the /GTS_PDFX output intent; the XMP says
    PDF/X-4 and agrees with the document information on the title, the dates and
    Trapped; the header is PDF 1.6."""
    from pypdf import PdfReader

    path = printed.outputs["pdf"]
    assert path.read_bytes()[:8] == b"%PDF-1.6"
    reader = PdfReader(path)
    catalog = reader.trailer["/Root"]
    (intent,) = [i.get_object() for i in catalog["/OutputIntents"]]
    assert intent["/S"] == "/GTS_PDFX"
    assert intent["/OutputConditionIdentifier"] == "FOGRA39"
    profile = intent["/DestOutputProfile"].get_object()
    data = profile.get_data()
    assert profile["/N"] == 4 and data[16:20] == b"CMYK" and data[36:40] == b"acsp"
    xmp = catalog["/Metadata"].get_object().get_data().decode()
    assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
    assert "<pdf:Trapped>False</pdf:Trapped>" in xmp
    info = reader.metadata
    assert info is not None and info["/Trapped"] == "/False" and info.title == "인쇄"
    assert ">인쇄</rdf:li>" in xmp
    created = str(info["/CreationDate"])  # D:YYYYMMDDHHmmSS+00'00'
    stamp = f"{created[2:6]}-{created[6:8]}-{created[8:10]}T{created[10:12]}:"
    assert f"<xmp:CreateDate>{stamp}" in xmp and info["/ModDate"] == created


def names_in(pdf: Path) -> set[str]:
    """Every name any object of ``pdf`` holds, object streams included."""
    from pypdf import PdfReader
    from pypdf.generic import IndirectObject, NameObject

    reader = PdfReader(pdf)
    found: set[str] = set()
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            stack = [reader.get_object(IndirectObject(number, 0, reader))]
        except Exception:  # a free entry
            continue
        while stack:
            node = stack.pop()
            if isinstance(node, NameObject):
                found.add(str(node))
            elif isinstance(node, dict):
                found |= {str(key) for key in node}
                stack += [v for v in node.values() if not isinstance(v, IndirectObject)]
            elif isinstance(node, list):
                stack += [v for v in node if not isinstance(v, IndirectObject)]
    return found


@pytest.mark.slow
def test_pdfx_has_no_device_rgb_and_embeds_every_font(printed: kobook.BuildResult) -> None:
    """Every colour the engines wrote in DeviceRGB reaches the press through sRGB's ICC
    profile: no object names DeviceRGB, and each page's resources map it (/DefaultRGB).
    Every font is embedded (pdffonts)."""
    import subprocess

    from pypdf import PdfReader

    path = printed.outputs["pdf"]
    assert "/DeviceRGB" not in names_in(path)
    for page in PdfReader(path).pages:
        spaces = page["/Resources"].get_object()["/ColorSpace"].get_object()
        space = spaces["/DefaultRGB"].get_object()
        assert space[0] == "/ICCBased" and space[1].get_object()["/N"] == 3
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True).stdout
    rows = fonts.splitlines()[2:]
    assert rows and all(row.split()[-5] == "yes" for row in rows), fonts


@pytest.mark.slow
def test_pdfx_has_no_links_and_prints_the_address(printed: kobook.BuildResult) -> None:
    """Nothing to click on a press sheet: no annotation but printer's marks, and the
    address printed instead (a PDF/X is a print master), with no LOST002 for it."""
    import subprocess

    from pypdf import PdfReader

    path = printed.outputs["pdf"]
    for page in PdfReader(path).pages:
        for annotation in page.get("/Annots") or []:
            assert annotation.get_object()["/Subtype"] in ("/PrinterMark", "/TrapNet")
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True).stdout
    assert "example.org/press-guide" in "".join(text.split())
    assert not [d for d in printed.diagnostics if d.code.startswith("LOST")]


@pytest.mark.slow
def test_every_page_has_trim_and_bleed_boxes(printed: kobook.BuildResult) -> None:
    from pypdf import PdfReader

    pages = PdfReader(printed.outputs["pdf"]).pages
    assert len(pages) >= 3
    for page in pages:
        trim = [float(v) for v in page.trimbox]
        bleed = [float(v) for v in page.bleedbox]
        media = [float(v) for v in page.mediabox]
        assert trim[2] - trim[0] == pytest.approx(TRIM[0], abs=0.2)
        assert trim[3] - trim[1] == pytest.approx(TRIM[1], abs=0.2)
        assert [b - t for b, t in zip(bleed, trim, strict=True)] == pytest.approx(
            [-3 * MM, -3 * MM, 3 * MM, 3 * MM], abs=0.01
        )
        assert media[0] < bleed[0] and media[2] > bleed[2]  # a slug holds the marks


@pytest.mark.slow
def test_marks_are_drawn_outside_the_bleed_and_text_inside_the_trim(
    printed: kobook.BuildResult,
) -> None:
    """pdfium sees the marks as paths beyond the bleed at all four corners, and every
    glyph of the book inside the trim."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(printed.outputs["pdf"])
    page = document[len(document) // 2]
    corners = set()
    for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=1):
        x0, y0, x1, y1 = obj.get_bounds()
        if x1 < 0 or x0 > TRIM[0] or y1 < 0 or y0 > TRIM[1]:
            corners.add((x0 < TRIM[0] / 2, y0 < TRIM[1] / 2))
    assert len(corners) == 4, corners
    textpage = page.get_textpage()
    for i in range(textpage.count_chars()):
        x0, y0, x1, y1 = textpage.get_charbox(i)
        if x1 > x0:
            assert x0 >= -0.5 and x1 <= TRIM[0] + 0.5, (x0, x1)
            assert y0 >= -0.5 and y1 <= TRIM[1] + 0.5, (y0, y1)
    document.close()


@pytest.mark.slow
def test_coarse_images_are_reported_with_their_resolution(printed: kobook.BuildResult) -> None:
    """The 400 px screenshot printed full size is under 300 ppi, and so is the same file at
    60 % width (about 170 ppi); the 3,000 px photo is not reported."""
    found = [d for d in printed.diagnostics if d.code == "IMG006" and "small" in d.message]
    assert [d.location.line for d in found] == [5, 9]
    assert all("small.png" in d.message and "ppi" in d.message for d in found)
    first, second = (int(d.message.split(" at ")[1].split()[0]) for d in found)
    assert first < second < 300


def test_a_screen_pdf_has_no_marks_and_no_resolution_report(
    make_book: BookMaker, tmp_path: Path
) -> None:
    from pypdf import PdfReader

    root = make_book({"book/01.md": CHAPTER}, metadata={"title": "화면", "lang": "ko-KR"})
    images(root)
    result = kobook.build(root, ["pdf"], engine="typst", out=tmp_path / "out")
    page = PdfReader(result.outputs["pdf"]).pages[0]
    assert [float(v) for v in page.mediabox] == [float(v) for v in page.trimbox]
    assert not [d for d in result.diagnostics if d.code == "IMG006"]


@pytest.mark.slow
def test_an_image_prints_at_one_size_in_every_engine(printed: kobook.BuildResult) -> None:
    """One image pixel per CSS pixel (0.75 pt), at most the text width, as the site and
    WeasyPrint show it: XeLaTeX set a 200 px icon 200 pt wide (72 ppi, IMG006 said so)
    where the other engines set it 150 pt."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    from kobook.load import load_book
    from kobook.write.shared.setup import print_setup

    root = Path(printed.outputs["pdf"]).parent.parent / "book-project"
    width = print_setup(load_book(root)).layout.text_width
    document = pdfium.PdfDocument(printed.outputs["pdf"])
    drawn = []
    for page in document:
        for image in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=4):
            if tuple(image.get_px_size()) in ((400, 300), (200, 100)):
                left, _, right, _ = image.get_bounds()
                drawn.append(round(right - left, 1))
    document.close()
    expected = [min(300.0, width), 0.6 * width, 150.0]
    assert drawn == pytest.approx(expected, abs=1.0), (drawn, width)
