"""kobook.ledger: what the transformed book holds, what an output holds, and the
differences as warnings at the construct's source line."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

from kobook.errors import Diagnostic, Location
from kobook.ledger import expected, fail_on_losses, verify
from kobook.ledger.compare import differences
from kobook.ledger.expected import letters, probes
from kobook.ledger.found import Found
from kobook.ledger.markup import read_epub, read_pages
from kobook.ledger.pdf import Line, read_pdf, without_running_heads
from kobook.ledger.pdf import read_pages as original_read_pages
from kobook.model import Chapter, Doc
from kobook.parse.pandoc import markdown_to_ast

SOURCE = """# 첫 장 {#first}

본문 첫 문단은 조금 길게 써서 탐침이 여러 개 나오게 한다. 값은 2^7^ − 1이다.

| 칸 | 값 |
|---|---|
| 메모리 | 16 |

물은 H~2~O이고 [링크](https://example.org/a)와 각주가 있다.[^1]

[^1]: 각주의 글은 따로 센다.

<table><tr><td>날것의 표 안 글</td></tr></table>
"""


def doc_of(text: str, path: Path) -> Doc:
    path.write_text(text, encoding="utf-8")
    chapter = Chapter(id="ch", path=path, text=text)
    return Doc(chapter, markdown_to_ast(text)["blocks"])


def test_letters_keep_only_letters_and_digits_folded() -> None:
    assert letters("“Flash-Atten\u00adtion”이 ﬁ 57,344!") == "flashattention이fi57344"
    assert letters("② 전환") == letters("➁ 전환") == "2전환"  # one glyph, two code points
    assert probes("가" * 40) == ("가" * 12,) * 3
    assert probes("abc") == ("abc",)
    assert len(probes("a" * 20)) == 2


def test_expected_counts_each_construct_at_its_line(tmp_path: Path) -> None:
    book = expected([doc_of(SOURCE, tmp_path / "01.md")])
    texts = {p.text: p for p in book.passages}
    assert texts["첫 장"].what == "heading" and texts["첫 장"].where.line == 1
    assert texts["각주의 글은 따로 센다."].where.line == 11  # a note's text is a passage
    assert texts["날것의 표 안 글"].where.line == 13  # a raw table's cell: pandoc's text
    kinds = sorted((e.kind, e.key) for e in book.elements)
    assert ("heading", "first") in kinds and ("link", "https://example.org/a") in kinds
    assert ("table", "") in kinds and ("footnote", "") in kinds
    scripts = [(s.kind, s.text, s.before) for s in book.scripts]
    assert scripts == [("superscript", "7", "값은2"[-3:]), ("subscript", "2", "물은h"[-3:])]


def page(body: str, sidebar: str = "<h2 id='side'>차례</h2>") -> tuple[str, str]:
    return (
        "article",
        f"<html><body><nav>{sidebar}</nav><main><article class='chapter'>{body}"
        "</article></main><nav>다음 장</nav></body></html>",
    )


def test_a_site_page_counts_only_the_chapter_and_not_note_marks() -> None:
    found = read_pages(
        [
            page(
                "<h1 id='first'>첫 장</h1><p>2<sup>7</sup> 물 H<sub>2</sub>O"
                "<a class='footnote-ref' href='#fn1'><sup>1</sup></a></p>"
                "<table><tr><td>칸</td></tr></table><img src='a.png' alt='그림'>"
                "<script>var hidden = '숨은 글';</script>"
            )
        ],
        "the HTML book",
    )
    assert found.ids == {"first"}  # the sidebar's heading is not the chapter's
    assert found.superscripts == ["7"] and found.subscripts == ["2"]
    assert (found.footnotes, found.tables, found.images) == (1, 1, ["그림"])
    assert "숨은글" not in found.text and "차례" not in found.text and "첫장" in found.text


def test_an_epub_identifier_pandoc_prefixed_is_the_books(tmp_path: Path) -> None:
    epub = tmp_path / "book.epub"
    with zipfile.ZipFile(epub, "w") as archive:
        archive.writestr(
            "EPUB/text/ch001.xhtml", "<html><body><h1 id='id_01-x'>제목</h1></body></html>"
        )
        archive.writestr("EPUB/nav.xhtml", "<html><body><h1 id='nav'>차례</h1></body></html>")
    found = read_epub(epub)
    assert found.ids is not None and "01-x" in found.ids and "nav" not in found.ids


def test_differences_name_what_is_lost_and_where(tmp_path: Path) -> None:
    book = expected([doc_of(SOURCE, tmp_path / "01.md")])
    found = read_pages(
        [page("<h1 id='other'>첫 장</h1><p>본문 첫 문단은 조금 길게 써서 2<sup>7</sup></p>")],
        "the HTML book",
    )
    lost = differences(book, found, set())
    by_code: dict[str, list[Diagnostic]] = {}
    for diagnostic in lost:
        by_code.setdefault(diagnostic.code, []).append(diagnostic)
        assert diagnostic.severity == "warning" and diagnostic.location.line > 0
    messages = " | ".join(d.message for d in lost)
    assert "각주의 글은 따로 센다" in messages and "heading #first" in messages
    assert "subscript '2'" in messages and "superscript" not in messages
    assert "link https://example.org/a" in messages and "table is not in" in messages
    # Explained at its line (LEAK002 at the raw table's line): not said again.
    raw = next(d for d in lost if "날것의" in d.message)
    again = differences(book, found, {(str(raw.location.file), raw.location.line)})
    assert not [d for d in again if "날것의" in d.message]
    with pytest.raises(Exception) as info:
        fail_on_losses(lost)
    assert getattr(info.value, "code", "") == "LOST004"


def line(text: str, page: int) -> Line:
    return Line(letters(text), page, list(range(len(letters(text)))))


def test_running_heads_and_page_numbers_are_margins_not_text() -> None:
    pages = [
        [line("1장 메모리", 0), line("문단 앞", 0), line("57,344", 0), line("12", 0)],
        [line("1장 메모리", 1), line("문단 뒤", 1), line("13", 1)],
    ]
    body, margins = without_running_heads(pages)
    assert [[x.text for x in p] for p in body] == [["문단앞", "57344"], ["문단뒤"]]
    assert sorted(x.text for x in margins) == ["12", "13", "1장메모리", "1장메모리"]


def weasy_pdf(tmp_path: Path, body: str) -> Path:
    from weasyprint import HTML

    out = tmp_path / "out.pdf"
    HTML(string=f"<html><body style='font-size: 12pt'><p>{body}</p></body></html>").write_pdf(out)
    return out


@pytest.mark.parametrize(("markup", "drawn"), [("2<sup>7</sup> − 1", True), ("27 − 1", False)])
def test_a_pdf_superscript_printed_on_the_line_is_lost003(
    tmp_path: Path, markup: str, drawn: bool
) -> None:
    doc = doc_of("값은 2^7^ − 1이다. [주소](https://example.org/b)\n", tmp_path / "01.md")
    pdf = weasy_pdf(tmp_path, f"값은 {markup}이다. <a href='https://example.org/b'>주소</a>")
    found = read_pdf(pdf, "the test PDF")
    assert found.links == {"https://example.org/b"}
    codes = [d.code for d in differences(expected([doc]), found, set())]
    assert codes == ([] if drawn else ["LOST003"])


def marked_read_pages(*args: Any) -> Any:
    """``read_pages`` that says which process ran it (pickled by name into the child)."""
    import os

    Path(os.environ["KOBOOK_TEST_MARKER"]).write_text(str(os.getpid()))
    return original_read_pages(*args)


def dying_read_pages(*args: Any) -> Any:
    """``read_pages`` whose forked process dies (the build's own call reads the pages)."""
    import os

    if os.getpid() != int(os.environ["KOBOOK_TEST_PARENT"]):
        os._exit(3)
    return original_read_pages(*args)


def test_a_long_pdf_is_read_by_two_processes_as_by_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From ``APART`` pages on, a forked process reads the later half: the same pages,
    links and text, in order; a process that dies leaves its pages to this one."""
    import os

    import pypdfium2 as pdfium
    from weasyprint import HTML

    from kobook.ledger import pdf as reading

    pages = "".join(
        f"<p style='break-after: page'>쪽 {n} <a href='https://example.org/{n}'>주소</a></p>"
        for n in range(reading.APART + 3)
    )
    path = tmp_path / "long.pdf"
    HTML(string=f"<html><body>{pages}</body></html>").write_pdf(path)
    alone = reading.every_page(pdfium.PdfDocument(str(path)), path)
    marker = tmp_path / "forked"
    monkeypatch.setenv("KOBOOK_TEST_MARKER", str(marker))
    monkeypatch.setenv("KOBOOK_TEST_PARENT", str(os.getpid()))
    monkeypatch.setattr(reading, "read_pages", marked_read_pages)
    read_here: list[int] = []
    read_page = reading.read_page
    monkeypatch.setattr(reading, "read_page", lambda d, i: read_here.append(i) or read_page(d, i))
    split = reading.every_page(pdfium.PdfDocument(str(path)), path)
    assert int(marker.read_text()) != os.getpid()  # the later half was read elsewhere
    assert read_here == list(range(len(alone) // 2))
    assert split == alone and len(alone) == reading.APART + 3
    assert "https://example.org/66" in alone[66][2] and "쪽 66" in alone[66][0]
    found = read_pdf(path, "x")
    monkeypatch.setattr(reading, "read_pages", dying_read_pages)
    read_here.clear()
    assert reading.every_page(pdfium.PdfDocument(str(path)), path) == alone
    assert read_here == list(range(len(alone)))  # the dead process's half, read here
    monkeypatch.setattr(reading, "APART", 10**6)  # one process
    assert (read_pdf(path, "x").text, read_pdf(path, "x").links) == (found.text, found.links)


def test_verify_reads_each_output_kind(tmp_path: Path) -> None:
    doc = doc_of("# 머리말\n\n사라진 문단의 글이 여기에 있다.\n", tmp_path / "01.md")
    pdf = weasy_pdf(tmp_path, "제목만 있다")
    lost: list[Any] = verify([doc], [("pdf", pdf, "WeasyPrint PDF")], [])
    assert [d.code for d in lost] == ["LOST001", "LOST001"]
    assert "the WeasyPrint PDF" in lost[0].message
    assert lost[1].location == Location(doc.chapter.path, 3, 1)
    explained = [Diagnostic("LEAK002", "x", Location(doc.chapter.path, 3), severity="warning")]
    assert [d.code for d in verify([doc], [("pdf", pdf, "WeasyPrint PDF")], explained)] == [
        "LOST001"
    ]


def test_raw_html_a_writer_drops_is_text_the_ledger_looks_for(tmp_path: Path) -> None:
    raw = "<pre>\n날것의 미리 짠 글\n</pre>\n"
    book = expected([doc_of(raw, tmp_path / "01.md")])
    [passage] = book.passages
    assert (passage.what, passage.where.line, passage.lines) == ("raw HTML", 1, 3)
    found = Found("the Typst PDF", letters("다른 글"))
    assert [d.code for d in differences(book, found, set())] == ["LOST001"]
    # LEAK002 said it at a line of the block: explained.
    assert differences(book, found, {(str(passage.where.file), 2)}) == []


def test_found_declares_what_a_pdf_cannot_tell() -> None:
    found = Found("x", "")
    assert found.ids is None and found.tables is None and found.images is None


def test_text_with_a_character_no_font_has_is_explained_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kobook.ledger

    doc = doc_of("힌디어 नमस्ते 낱말\n\n```\n['न', 'म']\n```\n", tmp_path / "01.md")
    found = Found("the WeasyPrint PDF", letters("힌디어 नननननन 낱말 नन"))
    monkeypatch.setitem(kobook.ledger.READERS, "pdf", lambda *_: found)
    assert [d.code for d in verify([doc], [("pdf", tmp_path, "x")], [])] == ["LOST001"] * 2
    # GLYPH001 names the characters drawn as boxes once; every passage with one is explained.
    glyph = Diagnostic("GLYPH001", "no installed font has 'न' (U+0928); drawn 2× as a box")
    glyph2 = Diagnostic("GLYPH001", "no installed font has 'म' (U+092E); drawn 1× as a box")
    assert verify([doc], [("pdf", tmp_path, "x")], [glyph, glyph2]) == []


def test_a_character_past_u_ffff_takes_two_pdfium_indices() -> None:
    """Typst's math letters (U+1D44B 𝑋) are two UTF-16 units: the glyph looked up for a
    script after a formula must be the script's, not its neighbour's."""
    from kobook.ledger.pdf import Letters, indexed_lines_of

    [line] = indexed_lines_of("\U0001d44bab", 0, Letters())
    assert (line.text, line.chars) == ("xab", [0, 2, 3])


def test_drawn_letters_point_at_their_page_and_character() -> None:
    """Every page's letters in one string; each letter's page and pdfium index, as the
    letter-by-letter reading gives them (empty pages, ligatures, characters past U+FFFF,
    line breaks and marks between)."""
    from kobook.ledger.pdf import Drawn, Letters, indexed_lines_of

    pages = ["가① b\r\n\U0001d44bc.", "", "  ", "ﬁx\n\n다", "", "라"]
    drawn = Drawn(pages, Letters())
    expected = [
        (line.text, page, line.chars)
        for page, text in enumerate(pages)
        for line in indexed_lines_of(text, page, Letters())
    ]
    assert drawn.letters == "".join(text for text, _, _ in expected) == "가1bxcfix다라"
    places = [(page, char) for _, page, chars in expected for char in chars]
    assert [drawn.at(k) for k in range(len(drawn.letters))] == places
    assert places[:6] == [(0, 0), (0, 1), (0, 3), (0, 6), (0, 8), (3, 0)]


def test_a_loss_in_one_output_explains_none_in_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outputs are checked together: the PDF's LOST001 is no reason to keep the site's
    loss of the same paragraph quiet."""
    import kobook.ledger

    doc = doc_of("# 머리말\n\n사라진 문단의 글이 여기에 있다.\n", tmp_path / "01.md")
    monkeypatch.setitem(kobook.ledger.READERS, "pdf", lambda *_: Found("the PDF", "머리말"))
    monkeypatch.setitem(kobook.ledger.READERS, "html", lambda *_: Found("the site", "머리말"))
    lost = verify([doc], [("pdf", tmp_path, "x"), ("html", tmp_path, "y")], [])
    assert [(d.code, d.message.split(" is not in ")[1]) for d in lost] == [
        ("LOST001", "the PDF"),
        ("LOST001", "the site"),
    ]


def test_a_chapters_side_is_kept_by_its_ast_key_and_moves_with_its_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warm build finds what the ledger expects of an unchanged chapter in the cache; an
    edit above it in the same file moves each item to the chapter's line as it is now."""
    import dataclasses
    import importlib

    from kobook.cache import Cache

    expected_module = importlib.import_module("kobook.ledger.expected")  # the package's
    # ``expected`` is the function

    cache = Cache(tmp_path / "cache")
    doc = doc_of(SOURCE, tmp_path / "01.md")
    doc.key = "the-ast"
    cold = expected([doc], cache)
    collected: list[str] = []
    monkeypatch.setattr(expected_module, "collect", lambda *a: collected.append("run"))
    assert expected([doc], cache) == cold and collected == []
    # The same AST, two lines further down its file (a chapter made of a file's second half).
    moved = dataclasses.replace(doc, chapter=dataclasses.replace(doc.chapter, line_offset=2))
    warm = expected([moved], cache)
    assert collected == []
    assert [p.where.line for p in warm.passages] == [p.where.line + 2 for p in cold.passages]
    monkeypatch.undo()
    assert warm == expected([moved])  # as if found anew


def test_a_page_read_again_is_read_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kobook.cache import Cache
    from kobook.ledger import markup

    cache = Cache(tmp_path / "cache")
    pages = [page("<h1 id='first'>첫 장</h1><p>2<sup>7</sup> 물</p>")]
    cold = read_pages(pages, "the HTML book", cache)
    monkeypatch.setattr(markup, "Page", None)  # a page parsed again would fail
    assert read_pages(pages, "the HTML book", cache) == cold
    monkeypatch.undo()
    assert read_pages(pages, "the HTML book") == cold


def test_the_search_follows_the_output_and_finds_whatever_it_holds() -> None:
    """A probe the output repeats (a listing's "Filename: src/main.rs" in every chapter)
    found ahead of its place must not carry the search away from the text: every later
    probe would then be a search of the whole output (the Rust book: 5,162 of 6,215).
    Whatever the order, it finds exactly what the output holds."""
    from kobook.ledger.compare import Search

    text = "".join(
        f"장{n}제목" + "가나다라마바사" * 300 + "파일명srcmainrs" + "아자차카" * 300 + f"장{n}끝"
        for n in range(60)
    )
    search = Search(text)
    # The book has each chapter's end before its listing (the output floats it after).
    probes = [probe for n in range(60) for probe in (f"장{n}제목", f"장{n}끝", "파일명srcmainrs")]
    assert all(search.finds(probe) for probe in probes)
    assert search.far <= 2  # not one per chapter
    for probe in ("장59끝", "장0제목", "없는말", "장7제목", "장8끝"):  # back, forth, absent
        assert search.finds(probe) is (probe in text)
