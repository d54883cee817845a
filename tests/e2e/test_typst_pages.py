"""The Typst template's pages in a book of many chapters: running heads, blank pages and
folios stay right, and the compiler's memory does not grow with pages times chapters."""

from __future__ import annotations

import re

import pytest

import kobook
from kobook import limits
from kobook.write.typst import compiler
from tests.checks import pdf_pages
from tests.conftest import BookMaker

CHAPTERS = 120
PARAGRAPH = "번역은 원문의 뜻을 옮기되 우리말의 결을 살려야 한다. " * 6


def chapter(number: int) -> str:
    """A chapter of one page (odd numbers) or of about three (even numbers)."""
    paragraphs = 2 if number % 2 else 24
    return f"# 제목{number:03d}\n\n" + "\n\n".join([PARAGRAPH] * paragraphs) + "\n"


@pytest.mark.slow
def test_many_chapters_keep_their_heads_and_memory(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each page asked for every chapter's opening page and every running head's page;
    with 120 chapters the compiler needed over 1 GiB (200 short chapters: 1.6 GB, over
    4 GiB at 400).  Under a limit of 1 GiB the book builds, and its pages are those of a
    printed book: no head on an opening page or a blank page, no folio on a blank page,
    the chapter's title over the odd pages after its opening, the book's over the even."""
    compiler.forget()
    monkeypatch.setattr(limits, "TYPST_MEMORY", 2**30)
    files = {f"book/{n:03d}.md": chapter(n) for n in range(1, CHAPTERS + 1)}
    root = make_book(files, metadata={"title": "많은 장의 책", "lang": "ko"})
    try:
        pdf = kobook.build(root, ["pdf"], engine="typst").outputs["pdf"]
    finally:
        compiler.forget()
    pages = pdf_pages(pdf)
    current = ""
    openings, heads, blanks = 0, 0, 0
    for number, text in enumerate(pages, start=1):
        lines = [line.strip() for line in text.strip().split("\n") if line.strip()]
        if not lines:
            blanks += 1
            continue
        assert not re.fullmatch(r"\d+|[ivxl]+", lines[0]), (number, lines)  # no lone folio
        if re.fullmatch(r"\d+장", lines[0]) and re.fullmatch(r"제목\d{3}", lines[1]):
            assert lines[0] == f"{int(lines[1][2:])}장", lines[:2]
            current = f"{lines[0]} {lines[1]}"  # an opening: no running head over its title
            openings += 1
            continue
        if not current:
            continue  # the title page and the contents
        heads += 1
        expected = "많은 장의 책" if number % 2 == 0 else current
        assert lines[0] == expected, (number, lines[:2])
    assert openings == CHAPTERS
    assert heads >= CHAPTERS  # the long chapters' later pages
    assert blanks >= CHAPTERS // 2 - 1  # after each one-page chapter, before a recto
