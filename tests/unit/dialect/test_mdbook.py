"""The mdBook dialect: book.toml, SUMMARY.md, includes, code blocks, listings, images.

Each construct's test checks the source file and line a diagnostic or a
converted line names, since translators fix their files from those.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook import limits
from kobook.dialect import Report, convert_book
from kobook.dialect.mdbook import DIALECT
from kobook.dialect.mdbook.includes import Includer, Selection, parse_selection
from kobook.errors import KobookError, Location
from kobook.load.book import load_book
from kobook.model import Book, Chapter
from kobook.model.expansion import EXPANSION_COST
from tests.conftest import BookMaker, spy

TOML = '[book]\ntitle = "러스트 책"\nauthors = ["Steve", "Carol"]\n'
LISTING = (
    "// ANCHOR: all\nuse std::io;\n// ANCHOR: main\nfn main() {\n    io();\n}\n"
    "// ANCHOR_END: main\n// ANCHOR_END: all\n"
)


def mdbook(make_book: BookMaker, files: dict[str, str], summary: str = "") -> Path:
    """A tiny mdBook book with ``dialect: mdbook``; ``summary`` defaults to one chapter."""
    files = {"book.toml": TOML, **files}
    files.setdefault("src/SUMMARY.md", summary or "# 요약\n\n- [장](ch01.md)\n")
    return make_book(files, metadata={"dialect": "mdbook"})


def converted(root: Path) -> tuple[Book, Report]:
    book = load_book(root)
    return book, convert_book(book)


def chapter_with(book: Book, needle: str) -> Chapter:
    return next(c for c in book.chapters if needle in c.text)


def where(book: Book, needle: str) -> tuple[str, int]:
    """The file name and line the converted text containing ``needle`` came from."""
    found = chapter_with(book, needle).locate(needle)
    assert found is not None and found.file is not None
    return found.file.name, found.line


def codes(report: Report) -> dict[str, tuple[str, int]]:
    return {
        d.code: (d.location.file.name if d.location.file else "", d.location.line)
        for d in report.problems + report.notes
    }


# ---------------------------------------------------------------- book.toml


def test_detect_needs_book_toml_and_the_summary_in_the_src_folder(make_book: BookMaker) -> None:
    root = make_book({"book.toml": '[book]\nsrc = "text"\n', "text/SUMMARY.md": "- [a](a.md)\n"})
    reason = DIALECT.detect(root)
    assert reason is not None and "text/SUMMARY.md" in reason
    (root / "book.toml").unlink()
    assert DIALECT.detect(root) is None


def test_metadata_from_book_toml(make_book: BookMaker) -> None:
    root = make_book({"book.toml": TOML + 'language = "ko"\n'})
    assert DIALECT.metadata(root) == {
        "title": "러스트 책",
        "author": ["Steve", "Carol"],
        "lang": "ko",
    }
    root = make_book({"book.toml": TOML})  # the Rust book names no language: none is guessed
    assert "lang" not in DIALECT.metadata(root)


def test_malformed_book_toml_names_its_line(make_book: BookMaker) -> None:
    root = make_book({"book.toml": '[book]\ntitle = "a"\nauthors = = ["b"]\n'})
    with pytest.raises(KobookError) as caught:
        DIALECT.metadata(root)
    assert caught.value.diagnostic.code == "DIA201"
    assert caught.value.diagnostic.location.line == 3
    (root / "book.toml").write_text('[book]\ntitle = "a"\nauthors = [\n', encoding="utf-8")
    with pytest.raises(KobookError) as caught:
        DIALECT.metadata(root)
    assert caught.value.diagnostic.location.line == 3  # "at end of document": the last line


def test_book_toml_title_and_authors_reach_the_book(make_book: BookMaker) -> None:
    root = mdbook(make_book, {"src/ch01.md": "# 장\n\n본문\n"})
    book = load_book(root)
    assert book.config.title == "러스트 책" and book.config.authors == ["Steve", "Carol"]


# ---------------------------------------------------------------- SUMMARY.md

SUMMARY = """# 러스트 프로그래밍 언어

[표지](title-page.md)
[머리말](foreword.md)

## 시작하기

- [시작하기](ch01-00.md)
  - [설치하기](ch01-01.md)
    - [더 깊이](ch01-01-deep.md)
  - [초안]()

---

# 러스트 기본 지식

- [소유권](ch02-00.md)

---

[부록 A](appendix.md)
"""


@pytest.fixture
def summarized(make_book: BookMaker) -> Book:
    files = {
        "src/title-page.md": "# 러스트 프로그래밍 언어\n\n표지",
        "src/foreword.md": "# 머리말\n\n머리말 본문",
        "src/ch01-00.md": "# 시작하기\n\n들어가며",
        "src/ch01-01.md": "## 설치하기\n\n설치 본문",  # the Rust book's sections use ##
        "src/ch01-01-deep.md": "# 더 깊이\n\n깊은 본문",  # a section written with # goes down
        "src/ch02-00.md": "# 소유권\n\n소유권 본문",
        "src/appendix.md": "# 부록 A\n\n부록 본문",
    }
    return load_book(mdbook(make_book, files, SUMMARY))


def test_summary_orders_chapters_parts_prefix_and_suffix(summarized: Book) -> None:
    got = [(c.kind, c.number, c.title, c.part) for c in summarized.chapters]
    assert got == [
        ("preface", None, "표지", ""),  # SUMMARY.md's title wins
        ("preface", None, "머리말", ""),
        ("chapter", 1, "시작하기", "시작하기"),
        ("chapter", 2, "소유권", "러스트 기본 지식"),
        ("appendix", None, "부록 A", ""),
    ]
    assert summarized.discovery == "src/SUMMARY.md: 5 chapters, 2 parts, 2 sections"


def test_nested_items_are_sections_of_their_chapter_headings_shifted(summarized: Book) -> None:
    chapter = summarized.chapters[2]
    assert "\n## 설치하기\n" in chapter.text and "\n### 더 깊이\n" in chapter.text
    assert where(summarized, "### 더 깊이") == ("ch01-01-deep.md", 1)
    assert where(summarized, "설치 본문") == ("ch01-01.md", 3)


def test_draft_chapter_is_skipped_with_an_info_line(summarized: Book) -> None:
    [draft] = [d for d in summarized.notes if d.code == "DIA203"]
    assert draft.severity == "info" and "초안" in draft.message
    assert draft.location.file is not None and draft.location.file.name == "SUMMARY.md"
    assert draft.location.line == 11


def test_summary_link_to_a_missing_file_is_a_warning_at_its_line(make_book: BookMaker) -> None:
    summary = "- [장](ch01.md)\n- [없음](gone.md)\n"
    book = load_book(mdbook(make_book, {"src/ch01.md": "# 장"}, summary))
    [missing] = [d for d in book.notes if d.code == "DIA202"]
    assert missing.severity == "warning" and missing.location.line == 2
    assert [c.title for c in book.chapters] == ["장"]


def test_summary_link_outside_the_book_is_sec001(make_book: BookMaker, tmp_path: Path) -> None:
    (tmp_path / "secret.md").write_text("# 비밀", encoding="utf-8")
    summary = "- [장](ch01.md)\n- [밖](../../secret.md)\n"
    with pytest.raises(KobookError) as caught:
        load_book(mdbook(make_book, {"src/ch01.md": "# 장"}, summary))
    assert caught.value.diagnostic.code == "SEC001"
    assert caught.value.diagnostic.location.line == 2


# ---------------------------------------------------------------- includes


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("10", Selection(9, 10)),  # line 10 alone (mdBook's docs)
        ("10:20", Selection(9, 20)),
        ("10:", Selection(9, None)),
        (":20", Selection(0, 20)),
        ("main", Selection(anchor="main")),
        (None, Selection()),
    ],
)
def test_include_ranges_follow_mdbook(spec: str | None, expected: Selection) -> None:
    assert parse_selection(spec) == expected


def include_book(make_book: BookMaker, chapter: str, **extra: str) -> Path:
    files = {"src/ch01.md": chapter, "listings/main.rs": LISTING, **extra}
    return mdbook(make_book, files)


def test_include_anchor_takes_its_lines_with_their_origin(make_book: BookMaker) -> None:
    text = "# 장\n\n```rust\n{{#include ../listings/main.rs:main}}\n```\n"
    book, report = converted(include_book(make_book, text))
    code = book.chapters[0].text
    assert "fn main() {\n    io();\n}" in code and "ANCHOR" not in code and "use std" not in code
    assert where(book, "    io();") == ("main.rs", 5)
    assert report.converted["include"] == 1


def test_include_line_ranges(make_book: BookMaker) -> None:
    text = "# 장\n\nA{{#include ../listings/main.rs:2}}Z\n\n{{#include ../listings/main.rs:4:5}}\n"
    book, _ = converted(include_book(make_book, text))
    assert "Ause std::io;Z" in book.chapters[0].text
    assert "\nfn main() {\n    io();\n" in book.chapters[0].text
    assert where(book, "    io();") == ("main.rs", 5)
    assert where(book, "Ause std") == ("ch01.md", 3)  # text around it: the chapter's line


def test_whole_file_include_drops_anchor_markers(make_book: BookMaker) -> None:
    book, _ = converted(include_book(make_book, "# 장\n\n{{#include ../listings/main.rs}}\n"))
    assert "ANCHOR" not in book.chapters[0].text and "use std::io;" in book.chapters[0].text
    assert where(book, "use std::io;") == ("main.rs", 2)


def test_rustdoc_include_drops_the_hidden_lines_outside_the_anchor(make_book: BookMaker) -> None:
    text = "# 장\n\n```rust\n{{#rustdoc_include ../listings/main.rs:main}}\n```\n"
    book, report = converted(include_book(make_book, text))
    assert "use std::io;" not in book.chapters[0].text
    assert where(book, "fn main() {") == ("main.rs", 4)
    assert report.converted["rustdoc_include"] == 1


def test_missing_include_leaves_a_visible_placeholder_and_a_warning(make_book: BookMaker) -> None:
    text = "# 장\n\n본문\n\n{{#include ../listings/gone.rs}}\n"
    book, report = converted(include_book(make_book, text))
    assert "[include not found: ../listings/gone.rs]" in book.chapters[0].text
    assert codes(report)["DIA204"] == ("ch01.md", 5)


def test_unknown_anchor_is_a_warning_at_the_directive(make_book: BookMaker) -> None:
    text = "# 장\n\n{{#include ../listings/main.rs:nope}}\n"
    _, report = converted(include_book(make_book, text))
    assert codes(report)["DIA205"] == ("ch01.md", 3)


def test_include_outside_the_book_is_sec001_at_its_line(
    make_book: BookMaker, tmp_path: Path
) -> None:
    (tmp_path / "secret.txt").write_text("비밀", encoding="utf-8")
    root = include_book(make_book, "# 장\n\n\n{{#include ../../secret.txt}}\n")
    with pytest.raises(KobookError) as caught:
        converted(root)
    assert caught.value.diagnostic.code == "SEC001"
    assert caught.value.diagnostic.location.line == 4


def test_nested_includes_are_relative_to_the_including_file(make_book: BookMaker) -> None:
    extra = {"src/parts/a.md": "첫 줄\n{{#include b.md}}", "src/parts/b.md": "안쪽 줄"}
    book, _ = converted(include_book(make_book, "# 장\n\n{{#include parts/a.md}}\n", **extra))
    assert "첫 줄\n안쪽 줄" in book.chapters[0].text
    assert where(book, "안쪽 줄") == ("b.md", 1)


def test_include_cycle_is_dia206_at_the_directive(make_book: BookMaker) -> None:
    extra = {"src/a.md": "위\n{{#include b.md}}", "src/b.md": "{{#include a.md}}"}
    with pytest.raises(KobookError) as caught:
        converted(include_book(make_book, "# 장\n\n{{#include a.md}}\n", **extra))
    assert caught.value.diagnostic.code == "DIA206"
    assert caught.value.diagnostic.location.file is not None
    assert caught.value.diagnostic.location.file.name == "b.md"


def include_bomb(levels: int, width: int) -> dict[str, str]:
    """Files ``a0.md`` … each including the next ``width`` times: ``width ** levels`` lines."""
    files = {
        f"src/a{i}.md": "\n".join([f"{{{{#include a{i + 1}.md}}}}"] * width) for i in range(levels)
    }
    files[f"src/a{levels}.md"] = "x"
    return files


def test_an_include_bomb_is_limit010_naming_the_chain(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_EXPANDED_BYTES", 2**20)
    root = include_book(make_book, "# 장\n\n{{#include a0.md}}\n", **include_bomb(9, 4))
    spent = spy(monkeypatch, Includer, "read", lambda *args: args[1])
    with pytest.raises(KobookError) as caught:
        converted(root)
    error = caught.value.diagnostic
    assert error.code == "LIMIT010" and "ch01.md:3 → a0.md:1 → a1.md:1" in error.message
    assert error.location.file is not None and error.location.file.name.startswith("a")
    # Stopped after about 2**20 / 1024 includes, not the 4 ** 9 the files ask for.
    assert len(spent) < 1100


def test_includes_within_the_budget_are_counted_once_per_use(make_book: BookMaker) -> None:
    book, _ = converted(
        include_book(make_book, "# 장\n\n{{#include a0.md}}\n", **include_bomb(5, 3))
    )
    assert book.chapters[0].text.count("x") == 3**5
    assert book.expansion.spent >= 3**5 * EXPANSION_COST


def test_a_nul_byte_in_an_include_is_a_warning_not_a_traceback(make_book: BookMaker) -> None:
    extra = {"src/a.md": "위\n{{#include b\x00c.md}}\n아래"}
    book, report = converted(include_book(make_book, "# 장\n\n{{#include a.md}}\n", **extra))
    assert codes(report)["DIA204"] == ("a.md", 2)
    assert "위" in book.chapters[0].text and "아래" in book.chapters[0].text


def test_escaped_include_stays_literal_without_the_backslash(make_book: BookMaker) -> None:
    book, report = converted(include_book(make_book, "# 장\n\n`\\{{#include x.rs}}` 문법\n"))
    assert "`{{#include x.rs}}` 문법" in book.chapters[0].text
    assert not report.problems


def test_title_directive_is_dropped_with_an_info_line(make_book: BookMaker) -> None:
    book, report = converted(include_book(make_book, "{{#title 다른 제목}}\n# 장\n\n본문\n"))
    assert "{{#title" not in book.chapters[0].text
    assert codes(report)["DIA207"] == ("ch01.md", 1)


def test_playground_becomes_a_rust_code_block(make_book: BookMaker) -> None:
    text = "# 장\n\n{{#playground ../listings/main.rs}}\n"
    book, _ = converted(include_book(make_book, text))
    assert "```rust\nuse std::io;\nfn main() {" in book.chapters[0].text
    assert where(book, "use std::io;") == ("main.rs", 2)


# ---------------------------------------------------------------- code blocks


def test_rust_info_string_keeps_the_language_and_hidden_lines_go(make_book: BookMaker) -> None:
    text = (
        "# 장\n\n```rust,ignore,does_not_compile\n# use std::fmt;\n#\nfn f() {}\n"
        "## [derive(Debug)]\n    # let hidden = 1;\n#[test]\n```\n\n```console\n# not rust\n```\n"
    )
    book, report = converted(include_book(make_book, text))
    got = book.chapters[0].text
    assert "```rust\nfn f() {}\n# [derive(Debug)]\n#[test]\n```" in got
    assert "# not rust" in got  # only rust blocks have rustdoc's hidden lines
    assert where(book, "fn f() {}") == ("ch01.md", 6)
    assert report.converted["rust-hidden-line"] == 3


def test_filename_span_becomes_the_code_blocks_attribute(make_book: BookMaker) -> None:
    text = (
        '# 장\n\n<span class="filename">파일명: src/main.rs</span>\n\n```rust\nfn main() {}\n```\n'
    )
    book, report = converted(include_book(make_book, text))
    got = book.chapters[0].text
    assert '```{.rust filename="src/main.rs"}\nfn main() {}' in got and "<span" not in got
    assert where(book, "fn main() {}") == ("ch01.md", 6)
    assert report.converted["filename"] == 1


def test_listing_wrapper_becomes_listing_caption_and_filename(make_book: BookMaker) -> None:
    text = (
        "# 장\n\n"
        '<Listing number="1-2" file-name="Cargo.toml" '
        'caption="*Cargo.toml*의 내용은 `cargo new`가 &quot;만듦&quot;">\n\n'
        "```toml\n[package]\n```\n\n</Listing>\n\n뒤\n"
    )
    book, report = converted(include_book(make_book, text))
    got = book.chapters[0].text
    assert "<Listing" not in got and "</Listing>" not in got
    head = (
        '```{.toml listing="1-2" caption="*Cargo.toml*의 내용은 `cargo new`가 \\"만듦\\"" '
        'filename="Cargo.toml"}'
    )
    assert head in got
    assert where(book, "[package]") == ("ch01.md", 6)
    assert report.converted["listing"] == 1


def test_listing_without_number_gives_the_file_name_only(make_book: BookMaker) -> None:
    text = (
        '# 장\n\n> <Listing file-name="src/main.rs">\n>\n'
        "> ```rust\n> fn main() {}\n> ```\n>\n> </Listing>\n"
    )
    book, _ = converted(include_book(make_book, text))
    assert '> ```{.rust filename="src/main.rs"}' in book.chapters[0].text


def test_unclosed_listing_is_a_warning_at_its_line(make_book: BookMaker) -> None:
    text = (
        '# 장\n\n본문\n\n<Listing number="1-1" caption="첫 예제">\n\n```rust\nfn main() {}\n```\n'
    )
    _, report = converted(include_book(make_book, text))
    assert codes(report)["DIA209"] == ("ch01.md", 5)


# ---------------------------------------------------------------- images


def test_img_tags_become_images_inline_in_tables(make_book: BookMaker) -> None:
    text = (
        "# 장\n\n| 그림 | 뜻 |\n|---|---|\n"
        '| <img src="img/ferris.svg" class="ferris" alt="Ferris | 물음표"/> | 안 됨 |\n'
    )
    book, report = converted(include_book(make_book, text))
    assert "| ![Ferris \\| 물음표](img/ferris.svg) | 안 됨 |" in book.chapters[0].text
    assert where(book, "![Ferris") == ("ch01.md", 5)
    assert report.converted["img"] == 1


def test_img_with_caption_span_becomes_a_captioned_figure(make_book: BookMaker) -> None:
    text = (
        '# 장\n\n<img alt="Two tables: the stack\nand the heap" src="img/trpl04-01.svg"\n'
        'class="center" style="width: 50%;" />\n\n'
        '<span class="caption">그림 4-1: `"hello"` 값을 가진\n`String`</span>\n\n뒤\n'
    )
    book, _ = converted(include_book(make_book, text))
    # The caption is the figure's text; the <img alt> stays its description, and its width
    assert (
        '![`"hello"` 값을 가진 `String`](img/trpl04-01.svg)'
        '{fig-alt="Two tables: the stack and the heap" width="50%"}\n\n뒤'
    ) in book.chapters[0].text
    assert where(book, "![`") == ("ch01.md", 3)


def test_figure_element_and_table_caption(make_book: BookMaker) -> None:
    text = (
        "# 장\n\n<figure>\n\n"
        '<img src="img/a.svg" class="center" alt="diagram" />\n\n'
        "<figcaption>Figure 17-1: A concurrent workflow</figcaption>\n\n</figure>\n\n"
        '<span class="caption">표 3-1: 정수 타입</span>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n'
    )
    book, _ = converted(include_book(make_book, text))
    got = book.chapters[0].text
    assert "![A concurrent workflow](img/a.svg)" in got and "<figure" not in got
    assert ": 정수 타입\n\n| a | b |" in got
    assert where(book, ": 정수 타입") == ("ch01.md", 11)


def test_image_of_a_nested_file_in_another_folder_is_relative_to_the_chapter(
    make_book: BookMaker,
) -> None:
    summary = "- [장](ch01.md)\n  - [절](deep/sec.md)\n"
    files = {
        "src/ch01.md": "# 장\n\n본문",
        "src/deep/sec.md": '## 절\n\n<img src="img/x.svg" alt="x"/>\n\n![y](img/y.png)\n',
    }
    book, _ = converted(mdbook(make_book, files, summary))
    got = book.chapters[0].text
    assert "![x](deep/img/x.svg)" in got and "![y](deep/img/y.png)" in got
    assert book.chapters[0].locate("![x]") == Location(book.root / "src" / "deep" / "sec.md", 3, 1)


# ---------------------------------------------------------------- CommonMark literals


def test_backslashes_and_dollars_stay_literal_as_commonmark_reads_them(
    make_book: BookMaker,
) -> None:
    text = (
        "# 장\n\n_target\\debug\\app.exe_ 파일, `C:\\dir` 코드, 값 $5 와 $10\n\n"
        "```console\n$ cargo run\n```\n"
    )
    book, report = converted(include_book(make_book, text))
    got = book.chapters[0].text
    assert "_target\\\\debug\\\\app.exe_ 파일, `C:\\dir` 코드, 값 \\$5 와 \\$10" in got
    assert "\n$ cargo run\n" in got  # code is never touched
    assert where(book, "\\\\debug") == ("ch01.md", 3)
    assert report.converted["literal-backslash-or-dollar"] == 1


def test_mathjax_books_keep_their_dollars(make_book: BookMaker) -> None:
    toml = TOML + "\n[output.html]\nmathjax-support = true\n"
    root = include_book(make_book, "# 장\n\n수식 $$x^2$$ 끝\n", **{"book.toml": toml})
    book, _ = converted(root)
    assert "수식 $$x^2$$ 끝" in book.chapters[0].text
