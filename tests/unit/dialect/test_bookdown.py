"""The bookdown dialect: its file list, parts and appendices, references and labels."""

from __future__ import annotations

from pathlib import Path

from kobook.dialect import Report
from kobook.dialect.bookdown.project import rmd_files
from kobook.dialect.bookdown.text import convert_text
from kobook.importer.detect import detect
from kobook.load.book import load_book
from kobook.model.origins import Lines
from tests.conftest import BookMaker


def text(source: str) -> tuple[str, Report]:
    report = Report()
    return convert_text(Lines.of(source, Path("a.Rmd")), report).text, report


def test_references_print_numbers() -> None:
    out, report = text(
        "그림 \\@ref(fig:a), 표 \\@ref(tab:b), 식 \\@ref(eq:c), \\@ref(intro)장, `\\@ref(x)`.\n"
    )
    assert out == "그림 [-@fig:a], 표 [-@tbl:b], 식 [-@eq:c], [-@sec:intro]장, `\\@ref(x)`.\n"
    assert report.converted["\\@ref"] == 4


def test_labels_of_tables_figures_and_equations() -> None:
    out, _ = text(
        "Table: (\\#tab:t) 표 제목\n\n![(\\#fig:f) 그림 제목](a.png)\n\n"
        "\\begin{align}\na &= b \\\\\nc &= d (\\#eq:two)\n\\end{align}\n"
    )
    lines = out.split("\n")
    assert lines[0] == "Table: 표 제목 {#tbl:t}"
    assert lines[2] == "![그림 제목](a.png){#fig:f}"
    assert lines[4:8] == [
        "$$",
        "\\begin{aligned}a &= b \\\\",
        "c &= d\\end{aligned}",
        "$$ {#eq:two}",
    ]


def test_files_by_rmd_files_or_by_name(make_book: BookMaker) -> None:
    root = make_book({"b.Rmd": "", "index.Rmd": "", "a.Rmd": "", "_skip.Rmd": ""})
    assert rmd_files(root, {}) == ["index.Rmd", "a.Rmd", "b.Rmd"]
    assert rmd_files(root, {"rmd_files": {"html": ["a.Rmd"], "latex": ["b.Rmd"]}}) == ["b.Rmd"]


def test_part_text_is_reported_and_the_book_detected(make_book: BookMaker) -> None:
    root = make_book(
        {
            "index.Rmd": "---\ntitle: 책\nsite: bookdown::bookdown_site\n---\n\n# 머리 {-}\n",
            "a.Rmd": "# (PART) 부 {-}\n\n부의 글.\n\n# 장\n\n본문\n",
        },
        metadata={"dialect": "bookdown"},
    )
    assert detect(root).dialect == "bookdown"
    book = load_book(root)
    assert [(c.title, c.part) for c in book.chapters] == [("머리", ""), ("장", "부")]
    assert [(n.code, n.location.line) for n in book.notes] == [("DIA502", 3)]


def test_a_kable_table_chunk_is_a_listing_its_reference_follows() -> None:
    """bookdown-demo's own example: knitr::kable(…, caption = '…') referred to as
    \\@ref(tab:nice-tab)."""
    from kobook.dialect.chunks import Cells

    source = (
        "표 \\@ref(tab:nice-tab)를 보라.\n\n```{r nice-tab, tidy=FALSE}\n"
        "knitr::kable(\n  head(iris, 20), caption = '좋은 표',\n  booktabs = TRUE\n)\n```\n"
    )
    report = Report()
    cells = Cells(report)
    lines = cells.convert(Lines.of(source, Path("a.Rmd")))
    out = convert_text(lines, report, cells.renamed).text
    assert out.startswith("표 [-@lst:nice-tab]를 보라.")
    assert '```{.r #lst:nice-tab caption="좋은 표"}' in out
