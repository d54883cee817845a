"""A book's templates that are code are used only with --trust (issue 35): scripts, the
pages around the text, the EPUB's XHTML, SVG icons and the Typst template.  Style sheets
need no trust."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

import kobook
from tests.checks import pdf_pages
from tests.conftest import BookMaker

BUILTIN = Path(kobook.__file__).parent / "templates"
CODE = {
    "templates/html/book.js": "alert('book.js ran');\n",
    "templates/html/favicon.svg": '<svg xmlns="http://www.w3.org/2000/svg"><script>'
    "alert('icon')</script></svg>",
    "templates/epub/book.xhtml": "<html><body><script>alert('epub')</script>$body$</body></html>",
}


def templates(make_book: BookMaker) -> Path:
    base = (BUILTIN / "html" / "base.html.j2").read_text(encoding="utf-8")
    typst = (BUILTIN / "typst" / "book.typ").read_text(encoding="utf-8")
    return make_book(
        {
            "book/01.md": "# 장\n\n본문.\n",
            **CODE,
            "templates/html/base.html.j2": base.replace(
                "<head>",
                '<head><meta http-equiv="refresh" content="0; url=https://evil.example/">',
                1,
            ),
            "templates/typst/book.typ": typst + "\n#text[TYPST-TEMPLATE-RAN]\n",
            "templates/html/extra.css": "body { --kobook-own-style: 1; }\n",
        },
        metadata={"title": "책"},
    )


def site_text(site: Path) -> str:
    return "".join(
        p.read_text(encoding="utf-8")
        for p in site.rglob("*")
        if p.suffix in {".html", ".js", ".svg"}
    )


@pytest.mark.slow
def test_code_templates_are_not_used_without_trust(make_book: BookMaker) -> None:
    root = templates(make_book)
    result = kobook.build(root, ["html", "epub", "pdf"], engine="typst")
    site = result.outputs["html"].parent
    text = site_text(site)
    assert "alert(" not in text and "evil.example" not in text
    assert "--kobook-own-style" in (site / "assets" / "extra.css").read_text(encoding="utf-8")
    with zipfile.ZipFile(result.outputs["epub"]) as epub:
        assert not any(b"alert(" in epub.read(n) for n in epub.namelist())
    assert "TYPST-TEMPLATE-RAN" not in "".join(pdf_pages(result.outputs["pdf"]))
    named = sorted(
        d.location.file.relative_to(root).as_posix()
        for d in result.diagnostics
        if d.code == "SEC005" and d.location.file is not None
    )
    assert named == sorted([*CODE, "templates/html/base.html.j2", "templates/typst/book.typ"])


@pytest.mark.slow
def test_trust_uses_the_books_own_templates(make_book: BookMaker) -> None:
    root = templates(make_book)
    result = kobook.build(root, ["html", "pdf"], engine="typst", trust=True)
    text = site_text(result.outputs["html"].parent)
    assert "book.js ran" in text and "evil.example" in text
    assert "TYPST-TEMPLATE-RAN" in "".join(pdf_pages(result.outputs["pdf"]))
    assert not [d for d in result.diagnostics if d.code == "SEC005"]
