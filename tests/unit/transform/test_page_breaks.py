"""A page break as the document's own element (transform/page_breaks.py), and text that
shows nothing making no chapter (load/splitting.py)."""

from __future__ import annotations

from pathlib import Path

from kobook.load import load_book
from kobook.model import Chapter, Doc
from kobook.parse.pandoc import markdown_to_ast
from kobook.transform.page_breaks import is_page_break, page_breaks
from tests.conftest import BookMaker

SOURCE = """# 장

앞 문단.

\\newpage

뒤 문단.

\\clearpage

<div style="page-break-after: always"></div>

문단 안의 \\newpage 는 글의 일부다.
"""


def test_raw_page_breaks_become_elements() -> None:
    doc = Doc(Chapter(id="01", path=Path("01.md"), text=SOURCE), markdown_to_ast(SOURCE)["blocks"])
    blocks = page_breaks(doc, None).blocks  # type: ignore[arg-type]
    breaks = [b for b in blocks if is_page_break(b)]
    assert [dict(b["c"][0][2])["command"] for b in breaks] == ["newpage", "clearpage", "newpage"]
    assert not [b for b in blocks if b["t"] == "RawBlock"]


def test_a_page_break_before_the_first_heading_makes_no_chapter(make_book: BookMaker) -> None:
    """Five empty "들어가며" chapters of one book were a \\newpage above each file's title."""
    root = make_book(
        {
            "book/01.md": "\\newpage\n\n# 하나\n\n본문.\n",
            "book/02.md": "<!-- 번역 중 -->\n\\clearpage\n\n# 둘\n\n본문.\n",
            "book/03.md": "머리말 한 줄.\n\n# 셋\n\n본문.\n",
        }
    )
    book = load_book(root)
    assert [(c.title, c.kind) for c in book.chapters] == [
        ("하나", "chapter"),
        ("둘", "chapter"),
        ("들어가며", "preface"),  # text a reader sees still makes one
        ("셋", "chapter"),
    ]
