"""The LaTeX kobook hands XeLaTeX: words per language, class options, header-includes.

These render the template with pandoc only (no XeLaTeX run), so they are fast;
tests/e2e/test_xelatex_metadata.py and test_cjk_xelatex.py typeset for real.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kobook.cache import Cache
from kobook.errors import Diagnostic
from kobook.load import load_book
from kobook.parse import parse_book
from kobook.transform import transform_book
from kobook.write.latex.diagnostics import latex_error
from kobook.write.latex.template import render_latex
from kobook.write.shared.latexmeta import BEGIN_INCLUDES
from tests.conftest import BookMaker

HANGUL = re.compile("[\uac00-\ud7a3]")


def render(root: Path) -> tuple[str, list[Diagnostic]]:
    book = load_book(root)
    docs, _ = transform_book(book, parse_book(book, Cache(None)))
    return render_latex(book, docs, Cache(None))


def document(tex: str) -> str:
    return tex[tex.index("\\begin{document}") :]


def preamble(tex: str) -> str:
    return tex[: tex.index("\\begin{document}")]


META = {
    "title": "T",
    "author": "A",
    "translators": ["B"],
    "original": {"title": "O", "licence": "MIT"},
}


@pytest.mark.parametrize(
    ("lang", "words", "cjk"),
    [
        (
            "ko-KR",
            ["차례", "A 지음", "B 옮김", "원서: ", "라이선스: ", "\\thechapter{}장"],
            "kotex",
        ),
        (
            "en",
            ["Contents", "by A", "translated by B", "Original: ", "Chapter \\thechapter{}"],
            "kotex",
        ),
        ("zh-CN", ["目录", "A 著", "B 译", "原书：", "许可证：", "第\\thechapter{}章"], "xeCJK"),
        ("zh-TW", ["目錄", "B 譯", "授權：", "第\\thechapter{}章"], "xeCJK"),
        ("ja", ["目次", "A 著", "B 訳", "原書：", "第\\thechapter{}章"], "xeCJK"),
    ],
)
def test_words_and_cjk_set_up_follow_the_language(
    make_book: BookMaker, lang: str, words: list[str], cjk: str
) -> None:
    root = make_book({"book/01.md": "# One\n\nText.\n"}, metadata={**META, "lang": lang})
    tex, _ = render(root)
    for word in words:
        assert word in tex, word
    assert f"\\usepackage{{{cjk}}}" in tex
    assert ("\\usepackage{kotex}" in tex) == (cjk == "kotex")
    if cjk == "xeCJK":
        # No Korean words typeset in a Chinese or Japanese book (comments aside).
        code = "\n".join(line for line in tex.splitlines() if not line.startswith("%"))
        assert not HANGUL.search(code)
        assert "\n\\XeTeXlinebreakpenalty=10000" not in tex


def test_classoption_documentclass_and_date(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1795219200")  # 2026-11-21 UTC
    root = make_book(
        {"book/01.md": "# 장\n\n본문.\n"},
        metadata={
            "title": "책",
            "date": "\\today",
            "documentclass": "ctexbook",
            "classoption": ["oneside", "openany", "a5paper", "11pt", "UTF8"],
        },
    )
    tex, problems = render(root)
    head = re.search(r"\\documentclass\[([^\]]*)\]\{(\w+)\}", tex)
    assert head is not None and head.group(2) == "scrbook"
    options = head.group(1).split(",")
    assert {"oneside", "open=any", "fontsize=11pt"} <= set(options)
    assert "paperwidth=148mm" in tex  # a5paper
    assert "2026년 11월 21일" in document(tex) and "\\today" not in document(tex)
    messages = [d.message for d in problems if d.code == "TEX004"]
    assert any("documentclass ctexbook is ignored" in m for m in messages)
    assert any("classoption UTF8 ignored" in m for m in messages)
    assert all(d.location.file and d.location.file.name == "metadata.yaml" for d in problems)


def test_papersize_wins_over_classoption(make_book: BookMaker) -> None:
    root = make_book(
        {"book/01.md": "# 장\n\n본문.\n"}, metadata={"papersize": "b5", "classoption": "a5paper"}
    )
    tex, problems = render(root)
    assert "paperwidth=182mm" in tex and problems == []  # a Korean book's b5 is JIS B5
    assert "twoside,open=right" in tex


def test_header_includes_string_list_and_fence_reach_the_preamble(make_book: BookMaker) -> None:
    includes = [
        "\\newcommand{\\kobookplain}{PLAIN}",
        "```{=latex}\n\\newcommand{\\kobookfenced}{FENCED}\n```",
        "\\usepackage{fancyhdr}\n\\pagestyle{fancy}\n\\fancyhead[L]{X}",
        "\\usepackage[table]{xcolor}",
    ]
    root = make_book({"book/01.md": "# 장\n\n본문.\n"}, metadata={"header-includes": includes})
    tex, problems = render(root)
    head = preamble(tex)
    assert "\\newcommand{\\kobookplain}{PLAIN}" in head
    assert "\\newcommand{\\kobookfenced}{FENCED}" in head and "```" not in tex
    assert head.index(BEGIN_INCLUDES) > head.index("\\hypersetup")  # after kobook's own
    assert "fancy" not in head.split(BEGIN_INCLUDES)[1]
    assert tex.index("\\PassOptionsToPackage{table}{xcolor}") < tex.index("\\documentclass")
    fancy = [d for d in problems if "fancyhdr" in d.message]
    assert fancy and fancy[0].code == "TEX004" and "scrlayer-scrpage" in fancy[0].message
    assert fancy[0].location.file is not None and fancy[0].location.line > 0

    root.joinpath("metadata.yaml").write_text(
        "header-includes: \\newcommand{\\kobookstring}{S}\n", encoding="utf-8"
    )
    tex, problems = render(root)
    assert "\\newcommand{\\kobookstring}{S}" in preamble(tex) and problems == []


def test_latex_error_in_header_includes_points_at_the_metadata(make_book: BookMaker) -> None:
    root = make_book(
        {"book/01.md": "# 장\n\n본문.\n"},
        metadata={"title": "책", "header-includes": ["\\usepackage{tikz}", "\\undefinedmacro"]},
    )
    tex, _ = render(root)
    line = tex.splitlines().index("\\undefinedmacro") + 1
    log = f"./book.tex:{line}: Undefined control sequence.\nl.{line} \\undefinedmacro\n\n"
    error = latex_error(log, tex, load_book(root), Path("/cache/latex/x/book.log"))
    text = str(error)
    assert error.code == "TEX001"
    assert "Undefined control sequence" in text and f"l.{line} \\undefinedmacro" in text
    assert "header-includes in metadata.yaml" in text
    assert error.location.file == root / "metadata.yaml"
    yaml_line = (root / "metadata.yaml").read_text(encoding="utf-8").splitlines()
    assert "undefinedmacro" in yaml_line[error.location.line - 1]
    assert "/cache/latex/x/book.log" in error.diagnostic.hint


def test_latex_error_without_an_error_line_quotes_the_log(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 장\n\n본문.\n"})
    tex, _ = render(root)
    log = "This is XeTeX\nxdvipdfmx:fatal: Invalid font: -1 (0)\nNo output PDF file written.\n"
    text = str(latex_error(log, tex, load_book(root)))
    assert "xdvipdfmx:fatal" in text and text != "XeLaTeX failed"
    title_line = next(i for i, t in enumerate(tex.splitlines(), 1) if "\\begin{titlepage}" in t)
    log = f"./book.tex:{title_line + 1}: Missing $ inserted.\nl.{title_line + 1} x\n"
    assert "title page" in str(latex_error(log, tex, load_book(root)))


def test_cjk_spaces_leave_latin_words_to_xecjk() -> None:
    from kobook.parse.pandoc import markdown_to_ast
    from kobook.write.latex.passes import cjk_spaces

    blocks = markdown_to_ast("放进 GPU 的显存，以 Adam\n为例，使用 `torch` 和 C 语言 and more")[
        "blocks"
    ]
    inlines = cjk_spaces(blocks)[0]["c"]
    kinds = [n["t"] if n["t"] != "Str" else n["c"] for n in inlines]
    assert kinds[:6] == ["放进", "GPU", "的显存，以", "Adam", "为例，使用", "Space"]
    # Spaces next to code, and between Latin words, stay.
    assert kinds[6:] == ["Code", "Space", "和", "C", "语言", "and", "Space", "more"]


def test_chapter_location_finds_the_source_line(make_book: BookMaker) -> None:
    from kobook.write.latex.diagnostics import chapter_location

    root = make_book(
        {"book/01.md": "# 장\n\n첫 문단.\n\n본문 $x^$ 이다.\n\n```{=latex}\n\\kobookx{}\n```\n"}
    )
    chapter = load_book(root).chapters[0]
    assert chapter_location(chapter, "본문 \\(x^\\) 이다.").line == 5
    assert chapter_location(chapter, "\\kobookx{}").line == 8
    assert chapter_location(chapter, "\\relax").line == 1
