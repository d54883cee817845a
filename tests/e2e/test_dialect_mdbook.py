"""A tiny mdBook book built in place: SUMMARY.md order, includes, listings and images reach
the PDF and the HTML, and nothing of mdBook's syntax is left for the reader."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from pypdf import PdfReader

import kobook
from kobook.api import BuildResult
from tests.checks import pdf_pages, squash
from tests.conftest import BookMaker

SUMMARY = """# 작은 책

[머리말](foreword.md)

# 시작하기

- [첫 장](ch01-00.md)
  - [안녕, 세상!](ch01-01.md)
- [두 번째 장](ch02-00.md)
"""
CH01_01 = """## Hello, World!

<Listing number="1-1" file-name="src/main.rs" caption="`Hello, world!`를 출력하는 프로그램">

```rust,ignore
{{#rustdoc_include ../listings/ch01/main.rs:all}}
```

</Listing>

<img src="img/ferris.png" class="center" alt="Ferris, the crab: orange, with
six legs and two claws" style="width: 40%;"/>

<span class="caption">그림 1-1: 게
그림</span>

### 실습

해 본다.
"""
MAIN_RS = (
    "// ANCHOR: all\n# #![allow(unused)]\n"
    'fn main() {\n    println!("Hello, world!");\n}\n// ANCHOR_END: all\n'
)


@pytest.fixture
def built(make_book: BookMaker, tmp_path: Path) -> tuple[Path, BuildResult]:
    root = make_book(
        {
            "book.toml": '[book]\ntitle = "작은 러스트 책"\nauthors = ["페리스"]\n',
            "src/SUMMARY.md": SUMMARY,
            "src/foreword.md": "# 머리말\n\n책을 펴며.",
            "src/ch01-00.md": "# 첫 장\n\n들어가며.",
            "src/ch01-01.md": CH01_01,
            "src/ch02-00.md": "# Second Chapter\n\n"
            '<span class="filename">파일명: Cargo.toml</span>\n\n'
            "```toml\n{{#include ../listings/ch01/Cargo.toml:2}}\n```\n",
            "listings/ch01/main.rs": MAIN_RS,
            "listings/ch01/Cargo.toml": '[package]\nname = "hello"\n',
        },
        metadata={"dialect": "mdbook"},
        images=["src/img/ferris.png"],
    )
    out = tmp_path / "out"
    return out, kobook.build(root, ["pdf", "html", "epub"], out=out, cache_dir=tmp_path / "cache")


def test_mdbook_builds_in_place(built: tuple[Path, BuildResult]) -> None:
    out, result = built
    codes = [d.code for d in result.diagnostics]
    assert not [c for c in codes if c.startswith(("LEAK", "IMG", "DIA"))], codes
    notes = "\n".join(result.notes)
    assert "src/SUMMARY.md: 3 chapters, 1 parts, 1 sections" in notes
    assert "listing ×1" in notes and "rustdoc_include ×1" in notes

    text = "\n".join(pdf_pages(result.outputs["pdf"]))
    flat = squash(text)
    assert "{{#" not in text and "Listing" not in text and "ANCHOR" not in text
    assert squash('fn main() {println!("Hello, world!");}') in flat
    assert "allow(unused)" not in text  # a rustdoc hidden line
    assert squash("Hello, world!를 출력하는 프로그램") in flat and "src/main.rs" in text
    assert squash('name = "hello"') in flat and "[package]" not in text  # :2 is line 2 only
    assert "게 그림" in text

    site = out / "html"
    pages = sorted(p.name for p in site.glob("*.html"))
    assert "ch01-01.html" not in pages  # a section is part of its chapter's page
    chapter = (site / "ch01-00.html").read_text(encoding="utf-8")
    assert "안녕, 세상!" in chapter and "Hello, world!" in chapter
    assert "{{#" not in chapter and "<Listing" not in chapter
    # The <img alt> is the description a screen reader reads, the caption is printed below
    # (and not read twice); the width the book gave the drawing is kept.
    described = 'alt="Ferris, the crab: orange, with six legs and two claws"'
    image = re.search(rf'<img src="([^"]*ferris\.png)" style="width:40.0%" {described}', chapter)
    assert image is not None and (site / image.group(1)).is_file()
    assert re.search(r"<figcaption><span[^>]*>그림\s1.1.</span>\s*게\s*그림</figcaption>", chapter)
    with zipfile.ZipFile(result.outputs["epub"]) as epub:
        xhtml = " ".join(epub.read(n).decode() for n in epub.namelist() if n.endswith(".xhtml"))
    assert re.search(rf'<img src="[^"]*" style="width:40.0%" {described} />', xhtml)
    assert not [d for d in result.diagnostics if d.code == "A11Y001"]


def test_summary_titles_win_and_in_page_headings_stay_unnumbered(
    built: tuple[Path, BuildResult],
) -> None:
    """SUMMARY.md's (translated) titles over the files' headings, in every table of contents;
    mdBook numbers what SUMMARY.md lists, not the headings inside a page."""
    out, result = built
    replaced = sorted(
        (d.location.file.name, d.location.line) for d in result.diagnostics if d.code == "LOAD005"
    )
    assert replaced == [("ch01-01.md", 1), ("ch02-00.md", 1)]
    index = (out / "html" / "index.html").read_text(encoding="utf-8")
    assert "두 번째 장" in index and "안녕, 세상!" in index
    assert "Second Chapter" not in index and "Hello, World!" not in index
    outline = [item.title for item in flat_outline(PdfReader(result.outputs["pdf"]).outline)]
    assert "두 번째 장" in " ".join(outline) and "Second" not in " ".join(outline), outline
    with zipfile.ZipFile(result.outputs["epub"]) as epub:
        nav = next(epub.read(n).decode() for n in epub.namelist() if n.endswith("nav.xhtml"))
    assert "두 번째 장" in nav and "Second Chapter" not in nav
    # The heading keeps the id its own words gave it: links written for mdBook still land.
    chapter = (out / "html" / "ch02-00.html").read_text(encoding="utf-8")
    assert 'id="second-chapter"' in chapter
    page = (out / "html" / "ch01-00.html").read_text(encoding="utf-8")
    practice = re.search(r"<h3[^>]*>(.*?)</h3>", page, re.S)
    assert practice is not None and practice.group(1).strip().startswith("실습<")
    assert "data-number" not in practice.group(0) and "1.1.1" not in practice.group(1)
    text = squash("\n".join(pdf_pages(result.outputs["pdf"])))
    assert "1.1안녕,세상!" in text and "1.1.1실습" not in text


def flat_outline(items: list) -> list:  # type: ignore[type-arg]
    """A pypdf outline's items in order, nested lists opened."""
    found = []
    for item in items:
        found += flat_outline(item) if isinstance(item, list) else [item]
    return found
