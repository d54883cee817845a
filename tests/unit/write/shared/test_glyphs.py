"""Characters no font has, found before layout (``write/shared/glyphs.py``, issue 29)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.errors import KobookError
from kobook.load import load_book
from kobook.model import Doc
from kobook.write.shared.fonts import FontSet
from kobook.write.shared.glyphs import missing_glyphs, refuse_missing, text_chars
from tests.conftest import BookMaker

FONTS = FontSet(serif=["Noto Serif CJK KR"], sans=[], mono=["DejaVu Sans Mono"], emoji=[])


def test_text_and_code_are_read_math_is_not(make_book: BookMaker) -> None:
    book = load_book(make_book({"book/01.md": "# 장\n"}, metadata={"title": "책"}))
    doc = Doc(
        chapter=book.chapters[0],
        blocks=[
            {"t": "Para", "c": [{"t": "Str", "c": "가"}, {"t": "Math", "c": [{}, "ℵ"]}]},
            {"t": "CodeBlock", "c": [["", [], []], "x = '\U000f0001'"]},
        ],
    )
    chars = text_chars([doc])
    assert "가" in chars and "\U000f0001" in chars and "ℵ" not in chars


def test_a_character_no_font_has_is_glyph001_where_written(make_book: BookMaker) -> None:
    root = make_book(
        {"book/01.md": "# 장\n\n사용자 문자 \U000f0000 하나.\n"}, metadata={"title": "책"}
    )
    book = load_book(Path(root))
    found = missing_glyphs(book, {"가", "a", " ", "\u200d", "\U000f0000"}, FONTS, "WeasyPrint")
    assert [d.code for d in found] == ["GLYPH001"]
    assert "U+F0000" in found[0].message and found[0].location.line == 3
    with pytest.raises(KobookError) as info:
        refuse_missing(found)
    assert info.value.code == "GLYPH001"
    refuse_missing([])  # nothing missing: nothing raised
