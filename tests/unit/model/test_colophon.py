"""model/colophon.py: what the copyright page (판권) says, decided once."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.model import Config
from kobook.model.colophon import colophon, isbns
from tests.unit.load.test_config import load_error

FULL = {
    "title": "책",
    "lang": "ko-KR",
    "author": ["가나", "다라"],
    "translators": ["마바"],
    "edition": "초판 1쇄",
    "date": "2026-12-01",
    "publisher": "펴낸 곳",
    "identifier": [
        {"scheme": "UUID", "text": "urn:uuid:1"},
        {"scheme": "ISBN-13", "text": "979-11-0000-000-0"},
    ],
    "rights": "번역 © 2026 마바, CC BY 4.0",
    "original": {"title": "The Book", "licence": "CC BY 4.0"},
    "colophon": {"price": "32,000원", "publisher-person": "사아", "registration": "제1호"},
}


def test_the_page_prints_the_keys_in_the_publishers_order() -> None:
    page = colophon(Config(FULL))
    assert page is not None and page.title == "책"
    assert page.lines == [
        ("초판 1쇄 발행", "2026년 12월 1일"),
        ("지은이", "가나, 다라"),
        ("옮긴이", "마바"),
        ("펴낸이", "사아"),
        ("펴낸곳", "펴낸 곳"),
        ("출판 등록", "제1호"),
        ("정가", "32,000원"),
        ("ISBN", "979-11-0000-000-0"),
    ]
    assert page.notes == ["원서: The Book — CC BY 4.0", "번역 © 2026 마바, CC BY 4.0"]


def test_the_words_follow_the_books_language() -> None:
    page = colophon(Config({**FULL, "lang": "en"}))
    assert page is not None
    assert [label for label, _ in page.lines][:5] == [
        "초판 1쇄 Published",
        "Author",
        "Translator",
        "Publisher",
        "Published by",
    ]


def test_a_book_with_no_publishing_key_has_no_page() -> None:
    plain = {k: v for k, v in FULL.items() if k in ("title", "lang", "author", "date", "original")}
    assert colophon(Config(plain)) is None
    assert colophon(Config({**plain, "identifier": [{"scheme": "DOI", "text": "10.1/x"}]})) is None


def test_isbns_are_found_by_scheme_or_prefix() -> None:
    assert isbns("ISBN 978-89-000-0000-0") == ["978-89-000-0000-0"]
    assert isbns([{"scheme": "isbn", "text": "979 11 0"}, "urn:isbn:978-1"]) == [
        "979 11 0",
        "978-1",
    ]
    assert isbns("urn:uuid:1234") == [] and isbns(None) == []


@pytest.mark.parametrize(
    ("text", "code"),
    [("colophon:\n  prize: 1원\n", "CFG008"), ("colophon:\n  price: [1, 2]\n", "CFG003")],
)
def test_a_wrong_colophon_key_is_an_error_on_its_line(tmp_path: Path, text: str, code: str) -> None:
    error = load_error(tmp_path, "title: 책\n" + text)
    assert error.code == code and error.location.line == 3
