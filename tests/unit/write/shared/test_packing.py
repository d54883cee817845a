"""PDFs pypdf assembled, written with object streams (write/shared/packing.py): the same
document, smaller, read back alike by pypdf, poppler and pdfium."""

from __future__ import annotations

import subprocess
from pathlib import Path

from kobook.write.shared.packing import write_packed


def assembled() -> object:
    """A three-page PDF with an outline, a link and many small dictionaries (as a tag
    tree has)."""
    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject

    writer = PdfWriter()
    for _ in range(3):
        writer.add_blank_page(200, 300)
    writer.add_outline_item(title="둘째 쪽", page_number=1)
    elements = ArrayObject()
    for number in range(500):
        element = DictionaryObject(
            {NameObject("/S"): NameObject("/P"), NameObject("/K"): NumberObject(number)}
        )
        elements.append(writer._add_object(element))
    writer.root_object[NameObject("/KbElements")] = writer._add_object(elements)
    writer.add_metadata({"/Title": "묶음"})
    return writer


def test_packed_pdf_is_the_same_document_and_smaller(tmp_path: Path) -> None:
    from pypdf import PdfReader

    plain, packed = tmp_path / "plain.pdf", tmp_path / "packed.pdf"
    writer = assembled()
    writer.write(str(plain))  # type: ignore[attr-defined]
    write_packed(assembled(), packed)
    assert packed.read_bytes().startswith(b"%PDF-1.5")
    assert packed.stat().st_size < plain.stat().st_size / 2
    reader = PdfReader(packed, strict=True)
    assert len(reader.pages) == 3
    assert reader.metadata is not None and reader.metadata.title == "묶음"
    assert [item.title for item in reader.outline] == ["둘째 쪽"]  # type: ignore[union-attr]
    elements = reader.trailer["/Root"]["/KbElements"]
    assert [int(e.get_object()["/K"]) for e in elements] == list(range(500))
    info = subprocess.run(["pdfinfo", str(packed)], capture_output=True, text=True)
    assert info.returncode == 0 and "Pages:           3" in info.stdout
    assert "Syntax" not in info.stderr  # poppler read the xref stream without repairing


def test_pdfium_reads_a_packed_pdf(tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    packed = tmp_path / "packed.pdf"
    write_packed(assembled(), packed)
    document = pdfium.PdfDocument(packed)
    assert len(document) == 3
    document.close()


def test_packed_bytes_are_pypdfs_own() -> None:
    """What goes into an object stream is written without pypdf's per-object stream and
    with each name escaped once, and is still exactly what pypdf writes: names that need
    escapes, numbers, reals, text in and out of PDFDocEncoding, references, nesting,
    and the key pypdf keeps for itself."""
    from pypdf.generic import (
        ArrayObject,
        BooleanObject,
        ByteStringObject,
        DictionaryObject,
        FloatObject,
        IndirectObject,
        NameObject,
        NullObject,
        NumberObject,
        TextStringObject,
    )

    from kobook.write.shared.packing import packed_bytes, serialized

    inner = DictionaryObject(
        {
            NameObject("/S"): NameObject("/H#1"),
            NameObject("/Alt"): TextStringObject("그림 (1) \\ 설명"),
            NameObject("/A b"): ArrayObject([FloatObject(0.1), FloatObject(-12.5), NullObject()]),
            NameObject("/%kept%"): NumberObject(1),
        }
    )
    outer = DictionaryObject(
        {
            NameObject("/K"): ArrayObject(
                [IndirectObject(7, 0, None), inner, NumberObject(-3), BooleanObject(True)]
            ),
            NameObject("/Lang"): TextStringObject("ko-KR"),
            NameObject("/한글"): ByteStringObject(b"\x00\xff"),
            NameObject("/Empty"): ArrayObject(),
        }
    )
    names: dict[str, bytes] = {}
    for obj in (outer, inner, ArrayObject([outer, inner]), NameObject("/(x)"), FloatObject(0)):
        assert packed_bytes(obj, names) == serialized(obj)
    assert packed_bytes(outer, names) == serialized(outer)  # the names kept from before
