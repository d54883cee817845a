"""The build's progress line (api.py): the default engine's cost is said where it is paid."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

import kobook
from tests.conftest import BookMaker


class Stop(Exception):
    """Raised at the PDF step: what these tests look at is said before the layout."""


class Recorder:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def step(self, message: str) -> None:
        self.lines.append(message)
        if "PDF" in message:
            raise Stop


def pdf_step(root: Path, tmp_path: Path, engine: str | None) -> str:
    progress = Recorder()
    with pytest.raises(Stop):
        kobook.build(root, ["pdf"], engine=engine, out=tmp_path / "out", progress=progress)
    return progress.lines[-1]


def test_the_default_engine_is_typst(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book({"book/01.md": "# 하나\n\n본문.\n"}, metadata={"title": "책"})
    assert pdf_step(root, tmp_path, None) == "typesetting the PDF (pandoc + Typst)"


def test_a_book_styled_for_weasyprint_is_built_by_it_and_told_why(
    make_book: BookMaker, tmp_path: Path
) -> None:
    """Its own CSS would be lost on Typst: WeasyPrint, a note saying why, and the cost of
    WeasyPrint where it is paid (the progress line's draft advice)."""
    files = {"book/01.md": "# 하나\n\n본문.\n", "templates/pdf/extra.css.j2": "h1 { color: red }"}
    root = make_book(files, metadata={"title": "책"})
    assert pdf_step(root, tmp_path, None) == (
        "laying out the PDF (WeasyPrint) (for a quicker draft: --engine typst)"
    )
    result = kobook.build(root, ["pdf"], out=tmp_path / "built")
    assert any(
        note.startswith("engine: weasyprint, for the book's own templates/pdf/")
        for note in result.notes
    )
    info = PdfReader(result.outputs["pdf"]).metadata
    assert info is not None and "WeasyPrint" in str(info.get("/Producer"))
    (root / "templates" / "pdf" / "extra.css.j2").unlink()  # the folder stays, empty
    typst = kobook.build(root, ["pdf"], out=tmp_path / "plain")
    assert not [note for note in typst.notes if note.startswith("engine:")]


@pytest.mark.parametrize("engine", ["weasyprint", "typst"])
def test_an_engine_asked_for_gets_no_advice(
    make_book: BookMaker, tmp_path: Path, engine: str
) -> None:
    root = make_book({"book/01.md": "# 하나\n\n본문.\n"}, metadata={"title": "책"})
    assert "--engine" not in pdf_step(root, tmp_path, engine)
    (root / "metadata.yaml").write_text(f"title: 책\nengine: {engine}\n", encoding="utf-8")
    assert "--engine" not in pdf_step(root, tmp_path, None)
