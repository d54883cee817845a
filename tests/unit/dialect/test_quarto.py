"""The Quarto dialect and the code cells it shares with bookdown (``dialect/chunks.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.dialect import Report, convert_book
from kobook.dialect.chunks import Cells, parse_header, split_options
from kobook.dialect.quarto.project import names, project_metadata
from kobook.errors import KobookError
from kobook.importer.detect import detect
from kobook.load.book import load_book
from kobook.model import Book
from kobook.model.origins import Lines
from tests.conftest import BookMaker

YML = "project:\n  type: book\nbook:\n  title: 책\n  chapters:\n    - index.qmd\n    - a.qmd\n"


def project(make_book: BookMaker, files: dict[str, str], yml: str = YML) -> Path:
    files = {"_quarto.yml": yml, "index.qmd": "# 머리말 {.unnumbered}\n", **files}
    return make_book(files, metadata={"dialect": "quarto"})


def converted(root: Path) -> tuple[Book, Report]:
    book = load_book(root)
    return book, convert_book(book)


def test_authors_in_every_form() -> None:
    value = ["김", {"name": "이"}, {"name": {"given": "Jane", "family": "Doe"}}]
    assert names(value) == ["김", "이", "Jane Doe"]
    found = project_metadata({"book": {"title": "책", "author": "박"}, "lang": "ko"})
    assert found == {"title": "책", "author": ["박"], "lang": "ko"}


def test_import_detects_a_quarto_book(make_book: BookMaker) -> None:
    root = project(make_book, {"a.qmd": "# 가\n"})
    assert detect(root).dialect == "quarto"


def test_notebooks_and_missing_files_are_warnings(make_book: BookMaker) -> None:
    yml = YML + "    - nb.ipynb\n    - gone.qmd\n"
    book = load_book(project(make_book, {"a.qmd": "# 가\n", "nb.ipynb": "{}"}, yml))
    assert [n.code for n in book.notes] == ["DIA402", "DIA402"]
    assert [c.title for c in book.chapters] == ["머리말", "가"]


def test_labels_references_and_shortcodes(make_book: BookMaker) -> None:
    text = (
        "# 가 {#sec-a}\n\n@Fig-x와 [-@tbl-y], `@fig-code` 그대로.\n\n"
        "{{< meta book.title >}} {{< var nothing >}} {{< unknown x >}}\n"
    )
    book, report = converted(project(make_book, {"a.qmd": text}))
    body = book.chapters[1].text
    assert "{#sec:a}" in body and "@fig:x와 [-@tbl:y]" in body and "`@fig-code`" in body
    assert "책 " in body and "{{<" not in body
    problems = [(p.code, p.location.line) for p in report.problems]
    assert problems == [("DIA403", 5), ("DIA403", 5)]


def test_includes_stay_inside_the_book(make_book: BookMaker) -> None:
    root = project(make_book, {"a.qmd": "# 가\n\n{{< include ../../../../etc/hostname >}}\n"})
    with pytest.raises(KobookError) as info:
        converted(root)
    assert info.value.code == "SEC001"
    loop = project(make_book, {"a.qmd": "# 가\n\n{{< include a.qmd >}}\n"})
    with pytest.raises(KobookError) as info:
        converted(loop)
    assert info.value.code == "DIA206"


# ---------------------------------------------------------------- cells


def cells(text: str) -> tuple[str, Report]:
    report = Report()
    return Cells(report).convert(Lines.of(text, Path("c.qmd"))).text, report


def test_knitr_headers_and_options() -> None:
    assert split_options('a, b="x, y", c=list(1, 2)') == ["a", 'b="x, y"', "c=list(1, 2)"]
    cell = parse_header('{r cars, fig.cap="자동차, 그림", echo=FALSE}')
    assert cell is not None and (cell.engine, cell.label) == ("r", "cars")
    assert cell.options == {"fig-cap": "자동차, 그림", "echo": "FALSE"}
    assert parse_header("{.python}") is None and parse_header("python") is None


def test_cells_are_shown_hidden_or_figures() -> None:
    text, report = cells(
        "```{python}\n#| label: a\nprint(1)\n```\n\n"
        "```{r setup, include=FALSE}\nlibrary(x)\n```\n\n"
        '```{r pic, fig.cap="점", out.width="50%", echo=FALSE}\n'
        'knitr::include_graphics("img/dot.png")\n```\n'
    )
    assert "```python\nprint(1)\n```" in text and "#|" not in text
    assert "library(x)" not in text
    assert "![점](img/dot.png){#fig:pic width=50%}" in text
    assert [n.code for n in report.notes] == ["CELL001"]
    assert report.converted["include_graphics figure"] == 1


def test_an_escaped_cell_shows_its_header() -> None:
    text, _ = cells("```{{python}}\nprint(1)\n```\n")
    assert text.split("\n") == ["````", "```{python}", "print(1)", "```", "````", ""]


def test_a_captioned_cell_is_a_listing_its_references_follow(make_book: BookMaker) -> None:
    text = (
        "# 가\n\n@fig-plot는 코드다.\n\n```{python}\n#| label: fig-plot\n"
        '#| fig-cap: "그래프"\n#| echo: false\nplot(1)\n```\n'
    )
    book, _ = converted(project(make_book, {"a.qmd": text}))
    body = book.chapters[1].text
    assert "@lst:plot는" in body and '```{.python #lst:plot caption="그래프"}' in body
    assert "plot(1)" in body  # shown although echo is false: its figure is referred to


def test_a_chapter_entry_with_text_titles_its_chapter(make_book: BookMaker) -> None:
    yml = YML.replace("    - a.qmd\n", "    - href: a.qmd\n      text: 번역한 제목\n")
    book = load_book(project(make_book, {"a.qmd": "# Original Title\n"}, yml))
    assert book.chapters[1].title == "번역한 제목"
    assert [n.code for n in book.notes] == ["LOAD005"]
