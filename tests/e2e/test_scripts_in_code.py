"""Hindi, Thai, Hebrew and Arabic in prose and in code reach every PDF (issue 29).

The Korean Rust book quotes such strings in its code examples; the fonts come from the
set-up script (fonts-noto-core).  XeTeX has no font fallback of its own: kobook sets the
runs in an installed font that has them (``write/latex/fallback.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import kobook
from kobook.write.latex.fallback import code_escape, runs
from tests.checks import pdf_pages, squash
from tests.conftest import BookMaker

CHAPTER = """# 여러 문자

인사말은 नमस्ते, สวัสดี, שלום 이다. 인라인 코드 `"नमस्ते"`도 있다.

```rust
let hello = String::from("नमस्ते");
let hello = String::from("สวัสดี");
let hello = String::from("שלום");
```
"""


@pytest.mark.parametrize("engine", ["xelatex", "weasyprint", "typst"])
def test_every_script_is_drawn_in_every_engine(make_book: BookMaker, engine: str) -> None:
    root = make_book({"book/01.md": CHAPTER}, metadata={"title": "문자"})
    result = kobook.build(root, ["pdf"], engine=engine)
    assert not [d for d in result.diagnostics if d.code.startswith("GLYPH")]
    text = squash("\n".join(pdf_pages(result.outputs["pdf"])))
    assert squash('String::from("नमस्ते");') in text  # no space, nothing lost in code
    assert "नमस्ते" in text and "สวัสดี" in text.replace("\n", "")


def test_runs_keep_a_word_and_its_marks_together() -> None:
    pieces = runs("a नमस्ते b", "DejaVu Sans Mono")
    assert [p for _, p in pieces] == ["a ", "नमस्ते", " b"]
    family = pieces[1][0]
    assert family is not None and "Devanagari" in family
    assert runs("한글 ↪ abc", "DejaVu Sans Mono") == [(None, "한글 ↪ abc")]


def test_code_is_escaped_for_commandchars() -> None:
    assert code_escape("fn f() { x\\y }") == "fn f() \\{ x\\textbackslash{}y \\}"


def test_the_set_up_script_installs_these_fonts() -> None:
    script = (Path(__file__).parents[2] / "scripts" / "install-system-deps.sh").read_text()
    assert "fonts-noto-core" in script
