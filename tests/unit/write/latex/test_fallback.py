"""Hindi, Thai, Hebrew and Arabic in prose and in code reach every PDF (issue 29).

The Korean Rust book quotes such strings in its code examples; the fonts come from the
set-up script (fonts-noto-core).  XeTeX has no font fallback of its own: kobook sets the
runs in an installed font that has them (``write/latex/fallback.py``).  Every engine
prints them from the MkDocs fixture book (``test_dialect_mkdocs.py``); here, the runs."""

from __future__ import annotations

from pathlib import Path

from kobook.write.latex.fallback import code_escape, runs


def test_runs_keep_a_word_and_its_marks_together() -> None:
    pieces = runs("a नमस्ते b", "DejaVu Sans Mono")
    assert [p for _, p in pieces] == ["a ", "नमस्ते", " b"]
    family = pieces[1][0]
    assert family is not None and "Devanagari" in family
    assert runs("한글 ↪ abc", "DejaVu Sans Mono") == [(None, "한글 ↪ abc")]


def test_code_is_escaped_for_commandchars() -> None:
    assert code_escape("fn f() { x\\y }") == "fn f() \\{ x\\textbackslash{}y \\}"


def test_the_set_up_script_installs_these_fonts() -> None:
    script = (Path(__file__).parents[4] / "scripts" / "install-system-deps.sh").read_text()
    assert "fonts-noto-core" in script
