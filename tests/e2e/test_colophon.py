"""The copyright page (판권): one decision (model/colophon.py), drawn by every PDF engine as
the book's last page, with no running head or folio; a book without publishing keys has
none."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

import kobook
from tests.checks import pdf_pages
from tests.conftest import BookMaker

META = {
    "title": "판권 시험 책",
    "lang": "ko-KR",
    "author": "가나다",
    "translators": ["라마바"],
    "date": "2026-12-01",
    "edition": "초판 1쇄",
    "publisher": "사아 출판",
    "identifier": [{"scheme": "ISBN-13", "text": "979-11-0000-000-0"}],
    "rights": "번역 © 2026 라마바",
    "original": {"title": "The Test Book", "licence": "CC BY 4.0"},
    "colophon": {
        "publisher-person": "자차",
        "registration": "제2026-000001호",
        "price": "18,000원",
    },
}
LINES = [
    "초판 1쇄 발행 2026년 12월 1일",
    "지은이 가나다",
    "옮긴이 라마바",
    "펴낸이 자차",
    "펴낸곳 사아 출판",
    "출판 등록 제2026-000001호",
    "정가 18,000원",
    "ISBN 979-11-0000-000-0",
    "원서: The Test Book — CC BY 4.0",
    "번역 © 2026 라마바",
]
TEXT = "# 첫 장\n\n본문 한 줄.\n\n# 둘째 장\n\n본문 두 줄.\n"


def flat(text: str) -> str:
    return " ".join(text.replace("\u2011", "-").split())


@pytest.mark.parametrize("engine", ["weasyprint", "xelatex", "typst"])
def test_every_engine_ends_the_book_with_its_copyright_page(
    make_book: BookMaker, tmp_path: Path, engine: str
) -> None:
    root = make_book({"book/01.md": TEXT}, metadata=META)
    pdf = kobook.build(root, ["pdf"], engine=engine, out=tmp_path / "out").outputs["pdf"]
    pages = pdf_pages(pdf)
    last = flat(pages[-1])
    assert last.startswith("판권 시험 책"), last
    where = [last.find(line) for line in LINES]
    assert -1 not in where and where == sorted(where), (where, last)
    assert not re.search(r"(^|\s)\d{1,3}$", last)  # no folio, no running head
    assert "판권 시험 책" not in flat(pages[-2])[-40:]  # its own page


def test_a_book_without_publishing_keys_has_no_copyright_page(
    make_book: BookMaker, tmp_path: Path
) -> None:
    plain = {k: META[k] for k in ("title", "lang", "author", "date", "original")}
    root = make_book({"book/01.md": TEXT}, metadata=plain)
    pdf = kobook.build(root, ["pdf"], engine="typst", out=tmp_path / "out").outputs["pdf"]
    assert "본문 두 줄" in pdf_pages(pdf)[-1]


LINKED = "# 장\n\n[링크 글자](https://example.org/a)를 누른다.\n"
ADDRESSES = (
    "# 주소\n\n[원서 저장소](https://example.org/book)를 본다. "
    "주소 그대로인 <https://example.org/plain>도 있다.\n"
)
# One book for the print-master tests (약표제지, link colours, addresses in notes), built
# once per engine and setting (a XeLaTeX build is the slow part of each test).
MASTER = {"title": "약표제지 시험", "author": "가나다", "toc": True}
SETTINGS = {
    "print": {"print": True},
    "screen": {},
    "print, no half-title": {"print": True, "half-title": False},
}


@pytest.fixture(scope="module")
def master(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str], list[str]]:
    """``master(engine, setting)``: the pages' text of the print-master book."""

    @functools.cache
    def pages(engine: str, setting: str) -> list[str]:
        root = tmp_path_factory.mktemp("master")
        for name, text in (("01.md", TEXT), ("02.md", LINKED), ("03.md", ADDRESSES)):
            (root / "book").mkdir(exist_ok=True)
            (root / "book" / name).write_text(text, encoding="utf-8")
        metadata = {**MASTER, **SETTINGS[setting]}
        (root / "metadata.yaml").write_text(
            yaml.safe_dump(metadata, allow_unicode=True), encoding="utf-8"
        )
        pdf = kobook.build(root, ["pdf"], engine=engine, out=root / "out").outputs["pdf"]
        return [str(pdf), *pdf_pages(pdf)]

    return pages


def link_colours(pdf: Path) -> set[tuple[float, ...]]:
    import pdfplumber

    with pdfplumber.open(pdf) as doc:
        chars = [c for page in doc.pages for c in page.chars]
    text = "".join(c["text"] for c in chars)
    start = text.index("링크글자") if "링크글자" in text else text.index("링크")
    return {
        tuple(round(v, 2) for v in (chars[i]["non_stroking_color"] or ()))
        for i in range(start, start + 2)
    }


@pytest.mark.parametrize("engine", ["weasyprint", "xelatex", "typst"])
def test_a_print_master_draws_links_in_the_texts_colour(
    master: Callable[[str, str], list[str]], engine: str
) -> None:
    """``print: true``: one decision (PrintSetup.link_colours) every engine follows;
    without it links are kobook's blue."""
    blue = (round(0x1F / 255, 2), round(0x4E / 255, 2), round(0x8C / 255, 2))
    colours = {name: link_colours(Path(master(engine, name)[0])) for name in ("screen", "print")}
    assert colours["screen"] == {blue}, colours
    assert all(max(c or (0,)) < 0.1 for c in colours["print"]), colours


@pytest.mark.parametrize("engine", ["weasyprint", "xelatex", "typst"])
def test_a_print_master_opens_with_a_half_title(
    master: Callable[[str, str], list[str]], engine: str
) -> None:
    """약표제지: the title alone on the first recto, a blank verso, then the title page;
    the body still starts on a recto, at the page the contents give (``print: true``;
    ``half-title:`` says)."""
    pages = [flat(p) for p in master(engine, "print")[1:]]
    assert pages[0] == "약표제지 시험" and pages[1] == ""
    assert pages[2].startswith("약표제지 시험 가나다")
    first = next(i for i, p in enumerate(pages) if p.startswith("1장 첫") and "본문" in p)
    assert first % 2 == 0  # a recto
    folio = pages[first].rsplit(" ", 1)[-1]  # and numbered as the contents say
    assert re.search(rf"1장 첫\s?장[ .…]*{folio}\b", pages[4]), (folio, pages[4])
    plain = master(engine, "print, no half-title")[1:]
    assert flat(plain[0]).startswith("약표제지 시험 가나다")


@pytest.mark.parametrize("engine", ["weasyprint", "xelatex", "typst"])
def test_a_print_master_prints_each_web_address_in_a_footnote(
    master: Callable[[str, str], list[str]], engine: str
) -> None:
    body = flat(" ".join(master(engine, "print")[1:]))
    assert "원서 저장소" in body and "https://example.org/book" in body  # the note's address
    assert body.count("https://example.org/plain") == 1  # printed already: no note
    on_screen = master(engine, "screen")[1:]
    assert "https://example.org/book" not in flat(" ".join(on_screen))
