"""What a writer leaves out, from what the writers' registry declares it draws
(``Writer.draws``): one pass for every writer, nothing dropped in silence."""

from __future__ import annotations

from pathlib import Path

import kobook
from kobook.model import Chapter, Doc
from kobook.parse.pandoc import markdown_to_ast
from kobook.transform.leaks import html_leaks, raw_leaks
from kobook.write import registry
from tests.checks import pdf_pages
from tests.conftest import BookMaker

SOURCE = """# 장

```{=typst}
#text(fill: red)[빨강]
```

```{=docx}
<w:p/>
```

```{=html}
<p>문단 <b>굵게</b></p>
```

줄 안의 <b>굵은</b> 글과 `#x`{=typst}.
"""


def doc(tmp_path: Path) -> Doc:
    path = tmp_path / "01.md"
    path.write_text(SOURCE, encoding="utf-8")
    return Doc(Chapter(id="01", path=path, text=SOURCE), markdown_to_ast(SOURCE)["blocks"])


def test_the_registry_declares_what_each_writer_draws() -> None:
    raw = {writer.name: writer.raw for writer in registry.writers()}
    # raw HTML reaches every output: laid out, or (pandoc's LaTeX and Typst) as its text
    assert raw["weasyprint"] == raw["html"] == raw["epub"] == {"html"}
    assert raw["xelatex"] == {"latex", "html"} and raw["typst"] == {"html"}
    assert [w.name for w in registry.writers() if w.draws_html] == ["weasyprint", "html", "epub"]


def test_the_declarations_are_data_a_reader_can_read() -> None:
    draws = {writer.name: writer.draws for writer in registry.writers()}
    assert draws["weasyprint"].tag("video") == "dropped" == draws["xelatex"].tag("img")
    assert draws["epub"].tag("video") == "converted"  # its fallback text, EPUB001
    assert draws["html"].tag("video") == draws["weasyprint"].tag("img") == "drawn"
    assert draws["typst"].tag("sup") == "converted"  # the text between the tags
    assert (
        draws["typst"].format("typst") == "dropped" and draws["xelatex"].format("latex") == "drawn"
    )
    assert (
        draws["xelatex"].element("Math") == "drawn" and draws["epub"].element("Math") == "converted"
    )
    assert [n for n, d in draws.items() if d.html_blocks == "dropped"] == ["xelatex"]
    assert draws["typst"].html_blocks == "converted"  # read into the AST first


def test_an_element_a_writer_declares_it_drops_is_one_leak002_each(tmp_path: Path) -> None:
    """The pass reads the declaration: a writer that dropped underlines would say so there
    and every underline would be reported at its line, by the pass, not by the writer."""
    from kobook.model.draws import Draws

    text = "# 장\n\n첫 [밑줄]{.underline} 글.\n\n둘째 [또 밑줄]{.underline}.\n"
    path = tmp_path / "01.md"
    path.write_text(text, encoding="utf-8")
    chapter = Doc(Chapter(id="01", path=path, text=text), markdown_to_ast(text)["blocks"])
    draws = Draws(raw={"html": "drawn"}, elements={"Underline": "dropped"})
    found = html_leaks([chapter], draws, "test PDF")
    assert [(d.code, d.location.line) for d in found] == [("LEAK002", 3), ("LEAK002", 5)]
    assert "Underline '밑줄' is left out of the test PDF" in found[0].message
    assert html_leaks([chapter], registry.get("typst").draws, "Typst PDF") == []


def test_a_raw_format_no_writer_draws_is_said_once_per_chapter(tmp_path: Path) -> None:
    found = raw_leaks([doc(tmp_path)], registry.get("weasyprint").raw)
    assert [(d.code, d.location.line, d.severity) for d in found] == [
        ("RAW001", 7, "warning"),  # {=docx}
        ("TYP003", 3, "warning"),  # two raw Typst pieces, one warning
    ]
    assert "2 raw Typst" in found[1].message


def test_a_raw_html_block_with_text_is_lost_where_pandoc_drops_raw_html(tmp_path: Path) -> None:
    writer = registry.get("xelatex")
    found = html_leaks([doc(tmp_path)], writer.draws, writer.label)
    assert [(d.code, d.location.line) for d in found] == [("LEAK002", 12)]
    assert "'문단 굵게'" in found[0].message
    for name in ("weasyprint", "typst"):  # laid out; read into the AST
        writer = registry.get(name)
        assert html_leaks([doc(tmp_path)], writer.draws, writer.label) == [], name


def test_the_typst_pdf_has_the_text_of_a_raw_html_block(
    make_book: BookMaker, tmp_path: Path
) -> None:
    root = make_book({"book/01.md": SOURCE}, metadata={"title": "날것"})
    result = kobook.build(root, ["pdf"], engine="typst", out=tmp_path / "out")
    assert "문단 굵게" in " ".join(" ".join(pdf_pages(result.outputs["pdf"])).split())
    assert not [d for d in result.diagnostics if d.code in ("LEAK002", "LOST001")]


def test_a_build_says_what_it_leaves_out(make_book: BookMaker, tmp_path: Path) -> None:
    """Raw Typst went out of the site, the EPUB and the WeasyPrint PDF without a word."""
    root = make_book({"book/01.md": SOURCE}, metadata={"title": "날것"})
    result = kobook.build(root, ["html"], out=tmp_path / "out", cache_dir=tmp_path / "c")
    codes = sorted(d.code for d in result.diagnostics if d.severity == "warning")
    assert codes == ["RAW001", "TYP003"]
