"""An incremental update appended to a PDF (write/shared/increment.py): the file's bytes
kept as its prefix, the changed objects read back by pypdf, poppler and pdfium, whether
the file ends with a classic cross-reference table or a stream."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kobook.write.shared.increment import NotUpdatable, append_update
from kobook.write.shared.packing import write_packed
from kobook.write.weasyprint.labels import label_pages
from tests.unit.write.shared.test_packing import assembled


def labelled_pages(pdf: Path) -> list[str]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        return [document.get_page_label(i) for i in range(len(document))]
    finally:
        document.close()


@pytest.mark.parametrize("packed", [False, True])
def test_an_update_keeps_the_file_and_changes_the_objects(tmp_path: Path, packed: bool) -> None:
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject

    src, dst = tmp_path / "src.pdf", tmp_path / "dst.pdf"
    writer = assembled()
    if packed:
        write_packed(writer, src)
    else:
        writer.write(str(src))  # type: ignore[attr-defined]
    reader = PdfReader(src)
    catalog = reader.trailer["/Root"]
    roman = DictionaryObject({NameObject("/S"): NameObject("/r")})
    numbers = ArrayObject([NumberObject(0), roman])
    catalog[NameObject("/PageLabels")] = DictionaryObject({NameObject("/Nums"): numbers})
    append_update(src, dst, reader, {reader.trailer.raw_get("/Root"): catalog})
    assert dst.read_bytes().startswith(src.read_bytes())
    again = PdfReader(dst, strict=True)
    assert again.page_labels == ["i", "ii", "iii"]
    assert len(again.pages) == 3 and again.metadata is not None
    assert again.metadata.title == "묶음"
    assert len(again.trailer["/Root"]["/KbElements"]) == 500
    info = subprocess.run(["pdfinfo", str(dst)], capture_output=True, text=True)
    assert info.returncode == 0 and "Pages:           3" in info.stdout, info.stderr
    assert "Syntax Error" not in info.stderr
    assert labelled_pages(dst) == ["i", "ii", "iii"]  # pdfium reads it


def test_page_labels_are_appended_to_the_book(tmp_path: Path) -> None:
    """The front matter in roman numerals, the body from 1 on the page of its first
    chapter's destination."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(5):
        writer.add_blank_page(200, 300)
    writer.add_named_destination("chapter-one", 2)
    writer.add_named_destination("toc", 1)
    writer.add_named_destination("chapter-two", 4)
    writer.add_named_destination("part-x", 3)
    src, dst = tmp_path / "book.pdf", tmp_path / "labelled.pdf"
    writer.write(str(src))
    assert label_pages(src, dst)
    assert labelled_pages(dst) == ["i", "ii", "1", "2", "3"]
    plain = tmp_path / "plain.pdf"
    bare = PdfWriter()
    bare.add_blank_page(200, 300)
    bare.write(str(plain))
    assert not label_pages(plain, tmp_path / "none.pdf")  # no chapter: no labels


def test_a_file_that_does_not_end_as_a_pdf_is_refused(tmp_path: Path) -> None:
    from pypdf import PdfReader

    src = tmp_path / "src.pdf"
    assembled().write(str(src))  # type: ignore[attr-defined]
    reader = PdfReader(src)
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(src.read_bytes()[:-40])
    with pytest.raises(NotUpdatable):
        append_update(cut, tmp_path / "dst.pdf", reader, {})
