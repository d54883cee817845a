"""kobook.transform on small books, through the real load → normalize → parse stages."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kobook.cache import Cache
from kobook.errors import KobookError
from kobook.load import load_book
from kobook.model import Book, Doc
from kobook.normalize import normalize_book
from kobook.parse import parse_book
from kobook.parse.ast import iter_nodes, keyval, stringify
from kobook.transform import Context, transform_book

BookMaker = Callable[..., Path]  # the ``make_book`` fixture of tests/conftest.py
Node = dict[str, Any]
NBSP = "\u00a0"


def run(
    make_book: BookMaker,
    files: dict[str, str],
    metadata: dict[str, object] | None = None,
    images: list[str] | None = None,
    keep_going: bool = False,
) -> tuple[Book, list[Doc], Context]:
    root = make_book(files, metadata=metadata, images=images)
    book = load_book(root)
    normalize_book(book)
    docs = parse_book(book, Cache(None))
    docs, ctx = transform_book(book, docs, keep_going=keep_going)
    return book, docs, ctx


def nodes(doc: Doc | list[Doc], kind: str) -> list[Node]:
    docs = doc if isinstance(doc, list) else [doc]
    return [n for d in docs for n in iter_nodes(d.blocks) if n["t"] == kind]


def text(value: Any) -> str:
    return stringify(value).replace(NBSP, " ")


def classes(node: Node) -> list[str]:
    index = 1 if node["t"] == "Header" else 0
    return list(node["c"][index][1])


def para_with(doc: Doc, needle: str) -> Node:
    """The first paragraph whose text contains ``needle``."""
    for node in iter_nodes(doc.blocks):
        if node["t"] in ("Para", "Plain") and needle in text(node):
            return node
    raise AssertionError(f"no paragraph with {needle!r}")


def after_link(inlines: list[Node], target: str) -> tuple[Node, Node]:
    """The cross-reference Link to ``#target`` and the inline right after it."""
    for index, node in enumerate(inlines):
        if node["t"] == "Link" and node["c"][2][0] == "#" + target:
            return node, inlines[index + 1]
    raise AssertionError(f"no link to #{target}")


def source_line(files: dict[str, str], name: str, needle: str) -> int:
    return next(i for i, line in enumerate(files[name].split("\n"), 1) if needle in line)


# --- headings -------------------------------------------------------------------------

ONE_FILE = """\
# 책 제목

머리말.

## 첫째 장

### 첫 절

#### 더 깊은 절

## 둘째 장

본문.

# References

### 문헌
"""


def test_headings_shift_for_chapter_level_two(make_book: BookMaker) -> None:
    _, docs, _ = run(make_book, {"book.md": ONE_FILE}, metadata={"chapter-level": 2})
    assert [d.chapter.kind for d in docs] == ["preface", "chapter", "chapter", "backmatter"]
    levels = [[(h["c"][0], text(h["c"][2])) for h in nodes(d, "Header")] for d in docs]
    assert levels == [
        [(1, "들어가며")],
        [(1, "첫째 장"), (2, "첫 절"), (3, "더 깊은 절")],
        [(1, "둘째 장")],
        [(1, "References"), (2, "문헌")],
    ]


def test_chapter_heading_class_and_number(make_book: BookMaker) -> None:
    _, docs, _ = run(make_book, {"book.md": ONE_FILE}, metadata={"chapter-level": 2})
    first = [nodes(d, "Header")[0] for d in docs]
    assert all("chapter" in classes(h) for h in first)
    assert [keyval(h["c"][1], "number") for h in first] == [None, "1", "2", None]
    assert "unnumbered" in classes(first[0])
    assert "unnumbered" in classes(first[3])
    assert "unnumbered" not in classes(first[1])
    # Only the first heading of a chapter is a chapter heading.
    assert all("chapter" not in classes(h) for d in docs for h in nodes(d, "Header")[1:])


def test_preface_gets_a_heading(make_book: BookMaker) -> None:
    _, docs, _ = run(
        make_book, {"book.md": ONE_FILE}, metadata={"chapter-level": 2, "preface-title": "서문"}
    )
    heading = docs[0].blocks[0]
    assert heading["t"] == "Header"
    assert text(heading["c"][2]) == "서문"
    assert heading["c"][1][0] == "preface-title"


def test_sections_numbered_within_chapter(make_book: BookMaker) -> None:
    _, docs, _ = run(make_book, {"book.md": ONE_FILE}, metadata={"chapter-level": 2})
    numbers = [keyval(h["c"][1], "number") for h in nodes(docs[1], "Header")]
    assert numbers == ["1", "1.1", "1.1.1"]


# --- figures --------------------------------------------------------------------------

FIGURES = {
    "book/01.md": (
        "# 메모리\n\n"
        "![첫째 그림](images/a.png){#fig:a}\n\n"
        "![둘째 그림](images/b.png){#fig:c}\n\n"
        "![셋째 그림](images/a.png){#fig:b}\n\n"
        "본문에서 @fig:a를 보고 @fig:b를 보고 @fig:c을 본다.\n\n"
        "번호만: [-@fig:b]번. 괄호 뒤 조사: [@fig:c]을 본다.\n\n"
        "@sec:x 참고. @sec:two를 보라.\n"
    ),
    "book/02.md": (
        "# 둘째 장 {#sec:two}\n\n"
        "## 절 {#sec:x}\n\n"
        "![다른 장의 그림](images/b.png){#fig:d}\n\n"
        "앞 장의 @fig:b와 이 장의 @fig:d를 비교한다.\n"
    ),
}
IMAGES = ["images/a.png", "images/b.png"]


@pytest.fixture
def figures(make_book: BookMaker) -> tuple[Book, list[Doc], Context]:
    return run(make_book, FIGURES, images=IMAGES)


def test_figures_numbered_per_chapter(figures: tuple[Book, list[Doc], Context]) -> None:
    _, docs, ctx = figures
    per_chapter = [[keyval(f["c"][0], "number") for f in nodes(d, "Figure")] for d in docs]
    assert per_chapter == [["1.1", "1.2", "1.3"], ["2.1"]]
    assert ctx.targets["fig:b"].text == "그림 1.3"
    assert ctx.targets["fig:d"].label == "2.1"
    assert ctx.diagnostics == []


def test_figure_caption_starts_with_label_span(figures: tuple[Book, list[Doc], Context]) -> None:
    _, docs, _ = figures
    figure = nodes(docs[0], "Figure")[1]
    caption = figure["c"][1][1]
    first = caption[0]["c"][0]
    assert first["t"] == "Span"
    assert "caption-label" in first["c"][0][1]
    assert stringify(first) == f"그림{NBSP}1.2."
    assert text(caption) == "그림 1.2. 둘째 그림"


def test_a_house_style_numbers_1_1_with_a_hyphen_and_no_period(make_book: BookMaker) -> None:
    """``captions: {separator: "-", period: false}``: 그림 1-2 as Korean IT publishers
    print it, in the caption and in every reference."""
    style = {"captions": {"separator": "-", "period": False}}
    _, docs, ctx = run(make_book, FIGURES, metadata=style, images=IMAGES)
    caption = nodes(docs[0], "Figure")[1]["c"][1][1]
    assert stringify(caption[0]["c"][0]) == f"그림{NBSP}1-2"
    assert text(caption) == "그림 1-2 둘째 그림"
    assert ctx.targets["fig:b"].text == "그림 1-3" and ctx.targets["fig:d"].label == "2-1"


@pytest.mark.parametrize(
    ("style", "message"),
    [('{separator: "/"}', "one of ., -"), ("{period: no-thanks}", "true or false")],
)
def test_a_wrong_house_style_is_an_error(tmp_path: Path, style: str, message: str) -> None:
    from kobook.load.config import load_config

    (tmp_path / "metadata.yaml").write_text(f"title: 책\ncaptions: {style}\n", encoding="utf-8")
    with pytest.raises(KobookError, match=message) as info:
        load_config(tmp_path / "metadata.yaml")
    assert info.value.code == "CFG003"


def test_image_paths_are_relative_to_project(figures: tuple[Book, list[Doc], Context]) -> None:
    _, docs, _ = figures
    urls = [i["c"][2][0] for i in nodes(docs, "Image")]
    assert urls == ["images/a.png", "images/b.png", "images/a.png", "images/b.png"]


def test_image_relative_to_chapter_folder(make_book: BookMaker) -> None:
    files = {"book/01.md": "# 장\n\n![그림](img/x.png)\n"}
    _, docs, _ = run(make_book, files, images=["book/img/x.png"])
    assert nodes(docs, "Image")[0]["c"][2][0] == "book/img/x.png"


def test_numbering_for_the_whole_book(make_book: BookMaker) -> None:
    _, docs, _ = run(make_book, FIGURES, images=IMAGES, metadata={"number-by-chapter": False})
    numbers = [keyval(f["c"][0], "number") for f in nodes(docs, "Figure")]
    assert numbers == ["1", "2", "3", "4"]


SCREENSHOT = {
    "book/01.md": (
        "# 장\n\n"
        "![첫 그림](images/a.png)\n\n"
        "설명 문단.\n\n"
        "![스크린샷 2025-06-27 오후 3.52.11.png](images/shot.png)\n\n"
        "![다음 그림](images/a.png)\n"
    ),
}


def test_file_name_alt_text_is_dropped(make_book: BookMaker) -> None:
    _, docs, _ = run(make_book, SCREENSHOT, images=["images/a.png", "images/shot.png"])
    figures = nodes(docs, "Figure")
    shot = figures[1]
    assert shot["c"][1][1] == []  # no caption
    image = next(n for n in iter_nodes(shot["c"][2]) if n["t"] == "Image")
    assert image["c"][1] == []  # no alt text either
    assert keyval(shot["c"][0], "number") is None
    # The screenshot is not counted: the next figure is 1.2.
    assert [keyval(f["c"][0], "number") for f in figures] == ["1.1", None, "1.2"]
    assert "스크린샷" not in text(docs[0].blocks)


def test_file_name_alt_text_diagnostic_points_at_image(make_book: BookMaker) -> None:
    _, _, ctx = run(make_book, SCREENSHOT, images=["images/a.png", "images/shot.png"])
    [diagnostic] = ctx.diagnostics
    assert diagnostic.code == "FIG002"
    assert diagnostic.severity == "warning"
    assert diagnostic.location.file is not None
    assert diagnostic.location.file.name == "01.md"
    assert diagnostic.location.line == source_line(SCREENSHOT, "book/01.md", "스크린샷")
    assert "3.52.11.png" in diagnostic.message


def test_file_name_alt_text_line_when_image_file_is_reused(make_book: BookMaker) -> None:
    # The same image file appears earlier with a real caption; FIG002 must still
    # point at the line of the screenshot, not at the first use of the file.
    files = {
        "book/01.md": (
            "# 장\n\n"
            "![제대로 된 캡션](images/a.png)\n\n"
            "설명 문단.\n\n"
            "![스크린샷 2025-06-27 오후 3.52.11.png](images/a.png)\n"
        )
    }
    _, _, ctx = run(make_book, files, images=["images/a.png"])
    [diagnostic] = ctx.diagnostics
    assert diagnostic.code == "FIG002"
    assert diagnostic.location.line == source_line(files, "book/01.md", "스크린샷")


def test_nfd_file_name_caption_is_recognised(make_book: BookMaker) -> None:
    # macOS writes Hangul decomposed; after normalize the alt text is still a file name.
    alt = unicodedata.normalize("NFD", "스크린샷 2025-06-27 오후 3.52.11.png")
    files = {"book/01.md": f"# 장\n\n![{alt}](images/a.png)\n"}
    _, docs, ctx = run(make_book, files, images=["images/a.png"])
    assert [d.code for d in ctx.diagnostics] == ["FIG002"]
    assert ctx.diagnostics[0].location.line == 3
    assert nodes(docs, "Figure")[0]["c"][1][1] == []


def test_figure_with_id_but_no_caption_is_numbered(make_book: BookMaker) -> None:
    # Module docstring: "A figure with a caption, or with a #fig: id, is numbered".
    files = {"book/01.md": "# 장\n\n![](images/a.png){#fig:bare}\n\n@fig:bare를 보라.\n"}
    _, docs, ctx = run(make_book, files, images=["images/a.png"])
    assert ctx.targets["fig:bare"].text == "그림 1.1"
    link, particle = after_link(para_with(docs[0], "보라")["c"], "fig:bare")
    assert text(link["c"][1]) == "그림 1.1"
    assert particle["c"] == "을"


def test_missing_image_is_img001(make_book: BookMaker) -> None:
    files = {"book/01.md": "# 장\n\n본문.\n\n![캡션](images/missing.png)\n"}
    with pytest.raises(KobookError) as info:
        run(make_book, files)
    error = info.value
    assert error.code == "IMG001"
    assert error.location.file is not None
    assert error.location.file.name == "01.md"
    assert error.location.line == 5
    assert "images/missing.png" in str(error)


def test_missing_image_keep_going(make_book: BookMaker) -> None:
    files = {"book/01.md": "# 장\n\n본문.\n\n![캡션](images/missing.png)\n"}
    _, docs, ctx = run(make_book, files, keep_going=True)
    spans = [s for s in nodes(docs, "Span") if "missing-image" in s["c"][0][1]]
    assert len(spans) == 1
    assert "images/missing.png" in stringify(spans[0])
    assert nodes(docs, "Image") == []
    [diagnostic] = ctx.diagnostics
    assert diagnostic.code == "IMG001"
    assert diagnostic.severity == "error"
    assert diagnostic.location.line == 5


def test_remote_images_never_pass_silently(make_book: BookMaker) -> None:
    # Downloads are covered in test_remote.py (with a local server); here they are off.
    files = {"book/01.md": "# 장\n\n![원격](https://example.com/x.png)\n"}
    _, docs, ctx = run(make_book, files, metadata={"remote-images": "off"}, keep_going=True)
    assert nodes(docs, "Image") == []
    assert [d.code for d in ctx.diagnostics] == ["IMG002"]
    assert ctx.diagnostics[0].location.line == 3


# --- tables and equations -------------------------------------------------------------

TABLES = {
    "book/01.md": (
        "# 장\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n: 메모리 사용량 {#tbl:x}\n\n"
        "| c |\n|---|\n| 3 |\n\n"
        "| d |\n|---|\n| 4 |\n\n: 둘째 표\n\n"
        "@tbl:x를 보라.\n\n"
        "$$ a = b $$ {#eq:e}\n\n"
        "앞 문장\n$$ c = d $$ {#eq:f}\n뒷 문장\n\n"
        "번호 없는 $$ x $$ 식.\n\n"
        "@eq:e를 보고 @eq:f를 본다.\n"
    )
}


def test_tables_numbered(make_book: BookMaker) -> None:
    _, docs, ctx = run(make_book, TABLES)
    tables = nodes(docs, "Table")
    assert [keyval(t["c"][0], "number") for t in tables] == ["1.1", None, "1.2"]
    assert tables[0]["c"][0][0] == "tbl:x"
    caption = tables[0]["c"][1][1]
    assert "caption-label" in caption[0]["c"][0]["c"][0][1]
    assert text(caption) == "표 1.1. 메모리 사용량"
    assert ctx.targets["tbl:x"].text == "표 1.1"
    link, particle = after_link(para_with(docs[0], "보라")["c"], "tbl:x")
    assert text(link["c"][1]) == "표 1.1"
    assert particle["c"] == "을"


def test_equations_become_numbered_divs(make_book: BookMaker) -> None:
    _, docs, ctx = run(make_book, TABLES)
    divs = [d for d in nodes(docs, "Div") if "equation" in d["c"][0][1]]
    assert [d["c"][0][0] for d in divs] == ["eq:e", "eq:f"]
    assert [keyval(d["c"][0], "number") for d in divs] == ["1.1", "1.2"]
    math = [n for n in iter_nodes(divs[0]["c"][1]) if n["t"] == "Math"]
    assert [m["c"][1].strip() for m in math] == ["a = b"]
    # The label text is gone and the text around eq:f is kept on both sides.
    assert "{#eq" not in text(docs[0].blocks)
    assert para_with(docs[0], "앞 문장")
    assert para_with(docs[0], "뒷 문장")
    assert ctx.targets["eq:f"].text == "식 (1.2)"


def test_equation_references_agree(make_book: BookMaker) -> None:
    _, docs, _ = run(make_book, TABLES)
    para = para_with(docs[0], "본다")
    assert text(para) == "식 (1.1)을 보고 식 (1.2)를 본다."


# --- cross-references -----------------------------------------------------------------


def test_reference_text_and_particle(figures: tuple[Book, list[Doc], Context]) -> None:
    _, docs, _ = figures
    inlines = para_with(docs[0], "본문에서")["c"]
    link, particle = after_link(inlines, "fig:a")
    assert "xref" in link["c"][0][1]
    assert text(link["c"][1]) == "그림 1.1"
    assert particle == {"t": "Str", "c": "을"}  # 일: ㄹ is a consonant for 을/를
    link, particle = after_link(inlines, "fig:b")
    assert text(link["c"][1]) == "그림 1.3"
    assert particle["c"] == "을"  # 삼
    link, particle = after_link(inlines, "fig:c")
    assert text(link["c"][1]) == "그림 1.2"
    assert particle["c"] == "를"  # 이: "@fig:c을" is corrected
    assert text(para_with(docs[0], "본문에서")) == (
        "본문에서 그림 1.1을 보고 그림 1.3을 보고 그림 1.2를 본다."
    )


def test_reference_keeps_number_on_one_line(figures: tuple[Book, list[Doc], Context]) -> None:
    _, docs, _ = figures
    link, _ = after_link(para_with(docs[0], "본문에서")["c"], "fig:a")
    assert stringify(link["c"][1]) == f"그림{NBSP}1.1"


def test_suppressed_reference_prints_number(figures: tuple[Book, list[Doc], Context]) -> None:
    _, docs, _ = figures
    para = para_with(docs[0], "번호만")
    link, after = after_link(para["c"], "fig:b")
    assert text(link["c"][1]) == "1.3"
    assert after["c"].startswith("번")


def test_bracketed_reference_particle_in_next_str(
    figures: tuple[Book, list[Doc], Context],
) -> None:
    _, docs, _ = figures
    para = para_with(docs[0], "괄호 뒤")
    link, particle = after_link(para["c"], "fig:c")
    assert text(link["c"][1]) == "그림 1.2"
    assert particle["c"] == "를"
    assert "그림 1.2를 본다." in text(para)


def test_references_across_chapters(figures: tuple[Book, list[Doc], Context]) -> None:
    _, docs, _ = figures
    para = para_with(docs[1], "비교한다")
    assert text(para) == "앞 장의 그림 1.3과 이 장의 그림 2.1을 비교한다."
    link, _ = after_link(para["c"], "fig:b")
    assert link["c"][2][0] == "#fig:b"


def test_section_and_chapter_references(figures: tuple[Book, list[Doc], Context]) -> None:
    _, docs, _ = figures
    para = para_with(docs[0], "참고")
    assert text(para) == "2.1절 참고. 2장을 보라."
    assert after_link(para["c"], "sec:x")[0]["c"][1][0]["c"] == "2.1절"


def test_unknown_reference_is_ref001(make_book: BookMaker) -> None:
    files = {"book/01.md": "# 장\n\n첫 문단.\n\n둘째 문단에서 @fig:nope를 본다.\n"}
    with pytest.raises(KobookError) as info:
        run(make_book, files)
    error = info.value
    assert error.code == "REF001"
    assert "fig:nope" in str(error)
    assert error.location.file is not None
    assert error.location.file.name == "01.md"
    assert error.location.line == 5
    assert error.location.col == len("둘째 문단에서 ") + 1


def test_unknown_reference_line_in_split_file(make_book: BookMaker) -> None:
    source = "# 책\n\n## 하나\n\n가\n\n## 둘\n\n나\n\n## 셋\n\n다 @fig:nope 라\n"
    with pytest.raises(KobookError) as info:
        run(make_book, {"book.md": source})
    assert info.value.code == "REF001"
    assert info.value.location.line == source_line({"x": source}, "x", "@fig:nope")


def test_unknown_reference_keep_going(make_book: BookMaker) -> None:
    files = {"book/01.md": "# 장\n\n@fig:nope 참고.\n"}
    _, docs, ctx = run(make_book, files, keep_going=True)
    assert [d.code for d in ctx.diagnostics] == ["REF001"]
    assert "??fig:nope" in text(docs[0].blocks)


# --- callouts -------------------------------------------------------------------------

CALLOUTS = """\
# 장

::: note
노트 본문
:::

::: warning
경고 본문
:::

::: {.tip title="제목"}
팁 본문
:::

> 📝 참고
>
> 참고 본문

> 💡 한 줄 팁

> **주의:** 조심할 것

> 그냥 인용문
"""


@pytest.fixture
def callouts(make_book: BookMaker) -> list[Node]:
    _, docs, _ = run(make_book, {"book/01.md": CALLOUTS})
    return docs[0].blocks[1:]


def callout_parts(node: Node) -> tuple[str, str, str]:
    """(kind, title text, body text) of a callout Div."""
    assert node["t"] == "Div", node["t"]
    found = [c[len("callout-") :] for c in node["c"][0][1] if c.startswith("callout-")]
    assert "callout" in node["c"][0][1]
    title, *body = node["c"][1]
    assert title["t"] == "Div" and "callout-title" in title["c"][0][1]
    return found[0], text(title).strip(), text(body).strip()


def test_fenced_div_callouts(callouts: list[Node]) -> None:
    assert callout_parts(callouts[0]) == ("note", "참고", "노트 본문")
    assert callout_parts(callouts[1]) == ("warning", "주의", "경고 본문")
    assert callout_parts(callouts[2]) == ("tip", "제목", "팁 본문")


def test_emoji_label_blockquote_callout(callouts: list[Node]) -> None:
    kind, title, body = callout_parts(callouts[3])
    assert kind == "note"
    assert "참고" in title
    assert body == "참고 본문"


def test_emoji_one_line_callout(callouts: list[Node]) -> None:
    kind, title, body = callout_parts(callouts[4])
    assert kind == "tip"
    assert "💡" in title
    assert body == "한 줄 팁"
    assert "💡" not in body


def test_bold_label_callout(callouts: list[Node]) -> None:
    kind, _title, body = callout_parts(callouts[5])
    assert kind == "warning"
    assert body == "조심할 것"


def test_bold_label_callout_title_has_no_colon(callouts: list[Node]) -> None:
    # Like the emoji form (``> 📝 참고:`` → title ``📝 참고``), the label's colon is dropped.
    _kind, title, _body = callout_parts(callouts[5])
    assert title == "주의"


def test_plain_blockquote_stays(callouts: list[Node]) -> None:
    assert callouts[6]["t"] == "BlockQuote"
    assert text(callouts[6]["c"]) == "그냥 인용문"
    assert len(callouts) == 7


# --- unique ids -----------------------------------------------------------------------


def test_repeated_heading_ids_become_unique(make_book: BookMaker) -> None:
    files = {
        "book/01.md": "# 하나\n\n## 요약\n\n[여기](#요약)\n",
        "book/02.md": "# 둘\n\n## 요약\n\n[이 장의 요약](#요약)\n",
    }
    _, docs, ctx = run(make_book, files)
    ids = [h["c"][1][0] for h in nodes(docs, "Header")]
    assert ids[1] == "요약"
    assert ids[3] != "요약"
    assert len(set(ids)) == len(ids)
    links = [link["c"][2][0] for link in nodes(docs, "Link")]
    assert links == ["#요약", "#" + ids[3]]
    assert ctx.targets[ids[3]].text == "2.1절"


# --- citations ------------------------------------------------------------------------

BIB = """\
@book{knuth84,
  author = {Donald E. Knuth},
  title = {The TeXbook},
  year = {1984},
  publisher = {Addison-Wesley}
}
"""


def test_citation_through_citeproc(make_book: BookMaker) -> None:
    files = {"book/01.md": "# 장\n\n조판은 [@knuth84]을 따른다.\n", "refs.bib": BIB}
    _, docs, ctx = run(make_book, files, metadata={"bibliography": "refs.bib"})
    doc = docs[0]
    prefix = doc.chapter.id
    [cite] = nodes(doc, "Cite")
    assert "Knuth" in text(cite["c"][1])
    assert "1984" in text(cite["c"][1])
    refs = [d for d in nodes(doc, "Div") if d["c"][0][0] == f"refs-{prefix}"]
    assert len(refs) == 1
    assert "The TeXbook" in text(refs[0])
    entries = [d["c"][0][0] for d in nodes(doc, "Div") if "csl-entry" in d["c"][0][1]]
    assert entries == [f"ref-{prefix}-knuth84"]
    assert ctx.diagnostics == []


def test_at_word_without_key_stays_text(make_book: BookMaker) -> None:
    files = {
        "book/01.md": "# 장\n\n함수를 @torch.compile 로 감싼다. [@knuth84]\n",
        "refs.bib": BIB,
    }
    _, docs, ctx = run(make_book, files, metadata={"bibliography": "refs.bib"})
    assert "함수를 @torch.compile 로 감싼다." in text(docs[0].blocks)
    assert all("torch" not in c["c"][0][0]["citationId"] for c in nodes(docs, "Cite"))
    assert ctx.diagnostics == []


def test_at_word_without_bibliography(make_book: BookMaker) -> None:
    _, docs, ctx = run(make_book, {"book/01.md": "# 장\n\n@torch.compile을 쓴다.\n"})
    assert nodes(docs, "Cite") == []
    assert text(docs[0].blocks[1]) == "@torch.compile을 쓴다."
    assert ctx.diagnostics == []


def test_bracketed_unknown_key_warns(make_book: BookMaker) -> None:
    files = {"book/01.md": "# 장\n\n인용 [@nokey].\n", "refs.bib": BIB}
    _, docs, ctx = run(make_book, files, metadata={"bibliography": "refs.bib"})
    assert "[@nokey]" in text(docs[0].blocks)
    [diagnostic] = ctx.diagnostics
    assert diagnostic.code == "CITE001"
    assert diagnostic.severity == "warning"
    assert diagnostic.location.line == 3


# --- order ----------------------------------------------------------------------------


def test_transforms_keep_chapter_order(make_book: BookMaker) -> None:
    names = ["book/03-c.md", "book/01-a.md", "book/02-b.md"]
    files = {name: f"# 장 {name[-4]}\n\n본문 {name[-4]}\n" for name in names}
    book, docs, _ = run(
        make_book, files, metadata={"chapters": ["book/02-b.md", "book/03-c.md", "book/01-a.md"]}
    )
    assert [d.chapter for d in docs] == book.chapters
    assert [d.chapter.id for d in docs] == ["02-b", "03-c", "01-a"]
    assert [text(d.blocks[0]) for d in docs] == ["장 b", "장 c", "장 a"]
    assert [keyval(d.blocks[0]["c"][1], "number") for d in docs] == ["1", "2", "3"]
