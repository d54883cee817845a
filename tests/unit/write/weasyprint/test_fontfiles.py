"""One copy of each font file while WeasyPrint writes a PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kobook.write.weasyprint import engine, fontfiles


def test_equal_big_blobs_are_one_object_only_while_a_pdf_is_written() -> None:
    first, second = b"x" * fontfiles.SMALLEST, b"x" * fontfiles.SMALLEST
    assert first is not second
    assert fontfiles.shared(first) is first  # no PDF is being written: nothing is kept
    token = fontfiles.FILES.set({})
    try:
        assert fontfiles.shared(first) is first
        assert fontfiles.shared(second) is first
        small = b"y" * 10
        assert fontfiles.shared(small) is small and fontfiles.shared(None) is None
    finally:
        fontfiles.FILES.reset(token)
    assert fontfiles.FILES.get() is None


def test_faces_of_one_collection_share_its_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Noto Sans CJK KR and Noto Sans Mono CJK KR are two faces of one 19 MB file."""
    import weasyprint
    from weasyprint.pdf.fonts import Font

    engine.install()
    seen: list[tuple[str, int, int]] = []
    subset = Font.subset

    def recording(self: Any, to_unicode: Any, hinting: bool) -> None:
        seen.append((self.family, id(self.file_content), len(self.file_content)))
        subset(self, to_unicode, hinting)

    monkeypatch.setattr(Font, "subset", recording)
    html = (
        "<p style=\"font-family: 'Noto Sans CJK KR'\">가나다 본문</p>"
        "<p style=\"font-family: 'Noto Sans Mono CJK KR'\">코드 라마바</p>"
    )
    weasyprint.HTML(string=html).write_pdf(tmp_path / "faces.pdf")
    whole = {family: (blob, size) for family, blob, size in seen if size > fontfiles.SMALLEST}
    assert set(whole) == {"Noto Sans CJK KR", "Noto Sans Mono CJK KR"}
    assert whole["Noto Sans CJK KR"] == whole["Noto Sans Mono CJK KR"]  # one object
    assert fontfiles.FILES.get() is None  # the table went with the PDF
