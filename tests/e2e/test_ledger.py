"""The content ledger on real builds (issue 28): the sample loses nothing in any engine or
format; a loss no other check reports is found, with its line (a superscript printed on
the line, as the Typst and XeLaTeX PDFs did before raw ``<sup>`` became an element; a
table's column pushed off the page by an image); ``--strict`` fails on one."""

from __future__ import annotations

from pathlib import Path

import pytest

import kobook
from kobook import ledger, transform
from kobook.errors import KobookError
from kobook.ledger.found import Found
from kobook.write import registry
from tests.conftest import REPO, BookMaker, sample_copy


def lost(result: kobook.BuildResult) -> list[str]:
    return [d.format() for d in result.diagnostics if d.code.startswith("LOST")]


@pytest.mark.slow
@pytest.mark.parametrize("engine", registry.pdf_engines())
def test_the_sample_pdf_loses_nothing(sample_build: object, engine: str) -> None:
    result = sample_build(engine)  # type: ignore[operator]
    assert lost(result) == [], engine


@pytest.mark.slow
def test_the_sample_site_and_epub_lose_nothing(tmp_path: Path) -> None:
    root = sample_copy(tmp_path)
    result = kobook.build(root, ["html", "epub"], out=tmp_path / "out", cache_dir=tmp_path / "c")
    assert set(result.outputs) == {"html", "epub"}
    assert lost(result) == []


SCRIPTS = "# 첨자\n\n값은 2<sup>7</sup> − 1이고 물은 H<sub>2</sub>O다.\n"


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["typst", "xelatex"])
def test_a_superscript_printed_on_the_line_is_found(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch, engine: str
) -> None:
    """The build as it was before raw <sup> became an element and before LEAK002 knew
    what pandoc drops: nothing but the ledger says the PDF prints "27 − 1"."""
    root = make_book({"book/01.md": SCRIPTS}, metadata={"title": "첨자"})
    passes = [(name, step) for name, step in transform.PASSES if name != "html-markup"]
    monkeypatch.setattr(transform, "PASSES", passes)
    monkeypatch.setattr("kobook.transform.leaks.html_leaks", lambda *args: [])
    result = kobook.build(root, ["pdf"], engine=engine, cache_dir=root / "c")
    found = lost(result)
    assert any("LOST003 superscript '7' is printed as plain text" in f for f in found), found
    assert any("LOST003 subscript '2'" in f for f in found), found
    assert all("01.md:3:" in f for f in found), found
    # With the fix in place the same book loses nothing.
    monkeypatch.undo()
    assert lost(kobook.build(root, ["pdf"], engine=engine, cache_dir=root / "c")) == []


FERRIS = """# 표 안의 그림

| 그림 | 뜻 |
|---|---|
| <img src="img/big.svg" alt="큰 그림"/> | 이 코드는 컴파일되지 않는다! |
"""
BIG_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800">'
    '<rect width="1200" height="800" fill="#c33"/></svg>'
)


@pytest.mark.slow
def test_a_table_column_pushed_off_the_page_is_found_then_kept(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A raw <img> in a table cell was laid out at its own size by WeasyPrint and pushed
    the next column past the page's edge: the ledger found it in the Korean Rust book."""
    root = make_book({"book/01.md": FERRIS, "img/big.svg": BIG_SVG}, metadata={"title": "표"})
    css = REPO / "src/kobook/templates/pdf/book.css.j2"
    old = css.read_text(encoding="utf-8").replace("td img:not(.math), th img:not(.math),", "")
    (root / "templates" / "pdf").mkdir(parents=True)
    (root / "templates" / "pdf" / "book.css.j2").write_text(old, encoding="utf-8")
    result = kobook.build(root, ["pdf"], cache_dir=root / "c")
    assert any(
        "'이 코드는 컴파일되지 않는다!' is not in the WeasyPrint PDF" in f for f in lost(result)
    )
    (root / "templates" / "pdf" / "book.css.j2").unlink()
    assert lost(kobook.build(root, ["pdf"], cache_dir=root / "c")) == []


@pytest.mark.slow
def test_strict_fails_on_a_loss(make_book: BookMaker, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_book({"book/01.md": "# 장\n\n사라질 문단이다.\n"}, metadata={"title": "엄격"})
    monkeypatch.setitem(ledger.READERS, "pdf", lambda *_: Found("the PDF", "장"))
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["pdf"], cache_dir=root / "c", strict=True)
    assert info.value.code == "LOST004"
    assert info.value.location.file == root / "book/01.md" and info.value.location.line == 3
