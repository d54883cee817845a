"""The build's progress line (api.py): the default engine's cost is said where it is paid."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def test_the_default_engine_suggests_the_quicker_draft(
    make_book: BookMaker, tmp_path: Path
) -> None:
    root = make_book({"book/01.md": "# 하나\n\n본문.\n"}, metadata={"title": "책"})
    assert pdf_step(root, tmp_path, None) == (
        "laying out the PDF (WeasyPrint) (for a quicker draft: --engine typst)"
    )


@pytest.mark.parametrize("engine", ["weasyprint", "typst"])
def test_an_engine_asked_for_gets_no_advice(
    make_book: BookMaker, tmp_path: Path, engine: str
) -> None:
    root = make_book({"book/01.md": "# 하나\n\n본문.\n"}, metadata={"title": "책"})
    assert "--engine" not in pdf_step(root, tmp_path, engine)
    (root / "metadata.yaml").write_text(f"title: 책\nengine: {engine}\n", encoding="utf-8")
    assert "--engine" not in pdf_step(root, tmp_path, None)
