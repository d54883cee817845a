"""Nothing from a book is Typst code, and the Typst compiler is bounded in time and memory
(issue 27): the injections a hostile pull request tried, and metadata that comes out
literally through every engine's template."""

from __future__ import annotations

import html
import re
import zipfile
from pathlib import Path

import pytest

import kobook
from kobook import limits
from kobook.errors import KobookError
from kobook.write.typst import compiler
from tests.checks import pdf_pages, squash
from tests.conftest import BookMaker

INJECTED_ID = "a&gt; #text(fill: red)[INJECTED] &lt;b"
EQUATION_BOOK = f"""# 첫 장

본문입니다.

<div class="equation" id="{INJECTED_ID}">

$$x = 1$$

</div>

[식 참조](#{INJECTED_ID})
"""


def pdf_text(pdf: Path) -> str:
    return "\n".join(pdf_pages(pdf))


def test_an_equation_id_is_a_label_not_code(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": EQUATION_BOOK}, metadata={"title": "식", "engine": "typst"})
    result = kobook.build(root, ["pdf"])
    text = pdf_text(result.outputs["pdf"])
    assert "x=1" in text.replace("𝑥", "x") and "식 참조" in text
    assert "INJECTED" not in text


@pytest.mark.parametrize("where", ["metadata.yaml", "_config.yml"])
def test_a_language_that_is_not_a_tag_is_refused(make_book: BookMaker, where: str) -> None:
    lang = 'ko", fill: red); #text[INJ]; #set text(lang: "ko'
    files = {"book/01.md": "# 장\n\n본문.\n"}
    if where == "_config.yml":
        files = {
            "_config.yml": f"title: 책\nlang: '{lang}'\n",
            "_posts/2025-01-01-a.md": "---\nlayout: distill\ntitle: 장\n---\n본문.\n",
        }
        root = make_book(files, metadata={"title": "책", "dialect": "distill"})
    else:
        root = make_book(files, metadata={"title": "책", "lang": lang})
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["pdf"], engine="typst")
    assert info.value.code == "CFG003"
    assert info.value.location.file is not None and info.value.location.file.name == where
    assert info.value.location.line == 2 or where == "metadata.yaml"


# Every character that means something to Typst, LaTeX, HTML or Markdown.
NASTY = {
    "title": '제목 "따옴표" #text[INJ] $x$ \\input{x} <b>굵게</b> [a](b) *c* _d_ @e 100% {g} ^h',
    "subtitle": "부제 #set page(fill: red) </style><script>alert(1)</script> ~f",
    "author": ['저자 "); #text[INJA]; ("', "O'Brien & <Co>"],
    "translators": ["역자 \\textbf{X} \\u{41} `q`"],
}


def words_of(values: object) -> list[str]:
    return [*values] if isinstance(values, list) else [str(values)]


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["typst", "weasyprint", "xelatex"])
def test_metadata_comes_out_literally_in_every_pdf(make_book: BookMaker, engine: str) -> None:
    root = make_book({"book/01.md": "# 첫 장\n\n본문입니다.\n"}, metadata=dict(NASTY))
    result = kobook.build(root, ["pdf"], engine=engine)
    front = squash(" ".join(pdf_pages(result.outputs["pdf"])[:3]))
    for key, value in NASTY.items():
        for text in words_of(value):
            assert squash(text) in front, (engine, key, text)
    assert "alert(1)" in front  # as text: nothing ran


@pytest.mark.slow
def test_metadata_comes_out_literally_in_the_site_and_the_epub(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 첫 장\n\n본문입니다.\n"}, metadata=dict(NASTY))
    result = kobook.build(root, ["html", "epub"])
    index = (result.outputs["html"].parent / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in index
    shown = html.unescape(re.sub(r"<[^>]+>", " ", index))
    with zipfile.ZipFile(result.outputs["epub"]) as epub:
        package = html.unescape(epub.read("EPUB/content.opf").decode("utf-8"))
    for key, value in NASTY.items():
        for text in words_of(value):
            assert squash(text) in squash(shown), ("html", key, text)
    assert NASTY["title"] in package


BUILTIN = Path(kobook.__file__).parent / "templates" / "typst" / "book.typ"


def typst_template(tail: str) -> str:
    """kobook's own template with ``tail`` (Typst code) after the body."""
    return BUILTIN.read_text(encoding="utf-8") + "\n" + tail + "\n"


@pytest.mark.slow
def test_typst_that_runs_too_long_is_stopped(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "TYPST_TIMEOUT", 3.0)
    root = make_book(
        {
            "book/01.md": "# 장\n\n본문.\n",
            "templates/typst/book.typ": typst_template(
                "#for i in range(3000) { for j in range(100000) {} }"
            ),
        },
        metadata={"title": "책"},
    )
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["pdf"], engine="typst", trust=True)  # a book's Typst is code
    assert info.value.code == "LIMIT006" and "Typst" in str(info.value)
    where = info.value.location.file
    assert where is not None and where.name == "book.typ" and where.is_relative_to(root)
    assert not compiler._KEPT  # the process was ended, not left running
    # The next build starts a new compiler and works.
    (root / "templates" / "typst" / "book.typ").write_text(typst_template(""), encoding="utf-8")
    assert kobook.build(root, ["pdf"], engine="typst", trust=True).outputs["pdf"].is_file()


@pytest.mark.slow
def test_typst_that_takes_too_much_memory_is_stopped(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiler.forget()
    monkeypatch.setattr(limits, "TYPST_MEMORY", 1536 * 2**20)
    root = make_book(
        {
            "book/01.md": "# 장\n\n본문.\n",
            "templates/typst/book.typ": typst_template('#let x = "x" * 2500000000\n#x.len()'),
        },
        metadata={"title": "책"},
    )
    try:
        with pytest.raises(KobookError) as info:
            kobook.build(root, ["pdf"], engine="typst", trust=True)
    finally:
        compiler.forget()
    assert info.value.code == "LIMIT007" and "GiB" in str(info.value)


# Random titles from the characters that mean something to some template language.
SPECIAL = "\"'#$\\[]{}()<>*_`@~%&^=+-/|;:,.!? \n\u200f\u200e"
FUZZ_ALPHABET = SPECIAL + "abcXYZ019한글제목"


def visible(text: str) -> str:
    """What a reader sees of ``text``: no spaces or line breaks, no invisible marks (and
    XeLaTeX's U+2011 in its text layer read as the hyphen it draws: issue 32)."""
    import unicodedata

    text = text.replace("\u2011", "-")
    return "".join(c for c in text if not c.isspace() and unicodedata.category(c) != "Cf")


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["typst", "weasyprint", "xelatex"])
def test_random_metadata_comes_out_literally(make_book: BookMaker, engine: str) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    words = st.text(alphabet=FUZZ_ALPHABET, min_size=3, max_size=24).filter(
        lambda t: len(visible(t)) >= 3 and "--" not in t
    )

    @settings(
        max_examples=3,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(title=words, author=words)
    def build(title: str, author: str) -> None:
        root = make_book(
            {"book/01.md": "# 장\n\n본문.\n"},
            metadata={"title": "책 " + title, "author": ["이 " + author]},
        )
        result = kobook.build(root, ["pdf"], engine=engine, out=root / f"out-{engine}")
        front = visible(" ".join(pdf_pages(result.outputs["pdf"])[:2]))
        assert visible(title) in front and visible(author) in front, (title, author)

    build()


def test_an_svg_typst_cannot_read_names_its_file_and_line(make_book: BookMaker) -> None:
    root = make_book(
        {
            "book/01.md": "# 장\n\n본문.\n\n![그림](../images/bad.svg)\n",
            "images/bad.svg": '<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>',
        },
        metadata={"title": "책"},
    )
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["pdf"], engine="typst")
    assert info.value.code == "IMG003" and "bad.svg" in str(info.value)
    assert info.value.location.line == 5
