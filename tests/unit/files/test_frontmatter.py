"""Front matter, pandoc-fenced metadata and chapter discovery (the load stage)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.errors import KobookError
from kobook.files.frontmatter import split_front_matter, unfence
from kobook.load import load_book, load_config
from kobook.load.discover import discover, is_repository_paper
from tests.conftest import BookMaker

DISTILL_POST = """---
layout: distill
title: "All About Rooflines"
description: "How fast can it go?"
lang: en
# Add a table of contents to your post.
#   - make sure that TOC names match the actual section names
toc:
  - name: Where Does the Time Go?
authors:
  - name: Jacob Austin
---

Intro paragraph of the post.

## Where Does the Time Go?

Body text with a marker word zebra.
"""


def test_front_matter_is_split_off_with_its_line_count() -> None:
    front = split_front_matter(DISTILL_POST, Path("roofline.md"))
    assert front.meta["title"] == "All About Rooflines"
    assert front.meta["layout"] == "distill"
    assert "toc" in front.meta and "authors" in front.meta
    assert front.body.startswith("\nIntro paragraph")
    assert front.body_line == DISTILL_POST.split("\n").index("---", 1) + 1


def test_front_matter_closed_by_dots() -> None:
    front = split_front_matter("---\ntitle: 가\n...\n본문\n", None)
    assert front.meta == {"title": "가"} and front.body == "본문\n" and front.body_line == 3


@pytest.mark.parametrize(
    "text",
    [
        "---\n\n문단\n\n---\n",  # a thematic break, then a blank line
        "첫 줄\n---\ntitle: x\n---\n",  # not at the top
        "---\n- a\n- b\n---\n",  # YAML, but not a mapping
        "---\n그냥 문장입니다\n---\n",  # no key: value at all
    ],
)
def test_text_that_is_not_front_matter_stays_body(text: str) -> None:
    front = split_front_matter(text, None)
    assert front.meta == {} and front.body == text and front.body_line == 0


def test_broken_front_matter_is_an_error_with_the_line() -> None:
    with pytest.raises(KobookError) as info:
        split_front_matter("---\ntitle: 가\nauthors: [a, b\nlang: ko\n---\n", Path("ch.md"))
    assert info.value.code == "FM001"
    assert info.value.location.file == Path("ch.md")
    assert info.value.location.line >= 3


@pytest.mark.parametrize("closing", ["---", "..."])
def test_metadata_yaml_may_be_fenced_like_pandoc(tmp_path: Path, closing: str) -> None:
    path = tmp_path / "metadata.yaml"
    path.write_text(f"---\ntitle: 책\nlang: ko-KR\n{closing}\n", encoding="utf-8")
    config = load_config(path)
    assert config.title == "책" and config.lang == "ko-KR"


def test_metadata_errors_keep_their_line_numbers_when_fenced(tmp_path: Path) -> None:
    path = tmp_path / "metadata.yaml"
    path.write_text("---\ntitle: 책\ntoc: [\n---\n", encoding="utf-8")
    with pytest.raises(KobookError) as info:
        load_config(path)
    assert info.value.code == "CFG001" and info.value.location.line >= 3


def test_text_after_the_closing_fence_is_an_error() -> None:
    with pytest.raises(KobookError) as info:
        unfence("---\ntitle: 책\n---\n\nmore: text\n", Path("metadata.yaml"))
    assert info.value.code == "CFG001" and info.value.location.line == 5


def test_chapter_files_with_front_matter_are_one_chapter_each(make_book: BookMaker) -> None:
    root = make_book(
        {
            "book/roofline.md": DISTILL_POST,
            "book/tpus.md": "---\ntitle: How to Think About TPUs\n---\n\n## What Is a TPU?\n",
            "book/plain.md": "# 보통 장\n\n본문.\n",
        }
    )
    book = load_book(root)
    assert [c.title for c in book.chapters] == [
        "보통 장",
        "All About Rooflines",
        "How to Think About TPUs",
    ]
    roofline = book.chapters[1]
    assert "layout: distill" not in roofline.text and "# Add a table" not in roofline.text
    assert roofline.meta["description"] == "How fast can it go?"
    assert roofline.lang == "en" and book.chapters[0].lang == "ko-KR"
    # Line numbers are the file's: the marker word sits on its own line of the file.
    location = roofline.locate("zebra")
    assert location is not None
    assert (
        location.line == DISTILL_POST.split("\n").index("Body text with a marker word zebra.") + 1
    )


def test_a_heading_in_the_body_wins_over_the_front_matter_title(make_book: BookMaker) -> None:
    root = make_book(
        {
            "book/a.md": "---\ntitle: 앞머리 제목\n---\n# 본문 제목\n\n글.\n",
            "book/b.md": "# 둘째\n",
        }
    )
    book = load_book(root)
    assert [c.title for c in book.chapters] == ["본문 제목", "둘째"]
    assert book.chapters[0].source_line(1) == 4


def test_one_file_book_front_matter_is_book_metadata(make_book: BookMaker) -> None:
    text = (
        "---\ntitle: 한 파일 책\nauthor: [가나]\n---\n# 책 제목\n\n## 1장\n\n가.\n\n## 2장\n\n나.\n"
    )
    book = load_book(make_book({"book.md": text}))
    assert book.config.title == "한 파일 책"
    assert book.config.authors == ["가나"]
    assert [c.title for c in book.chapters if c.number] == ["1장", "2장"]


def test_metadata_yaml_keeps_the_last_word(make_book: BookMaker) -> None:
    root = make_book(
        {"book/01.md": "---\ntitle: 서론\nauthor: [가]\n---\n\n첫 장의 글.\n"},
        metadata={"title": "책 제목", "author": ["나"]},
    )
    book = load_book(root)
    assert book.config.title == "책 제목" and book.config.authors == ["나"]
    assert [c.title for c in book.chapters] == ["서론"]


def test_front_matter_keys_are_validated(make_book: BookMaker) -> None:
    with pytest.raises(KobookError) as info:
        load_book(make_book({"book.md": "---\ntranslater: 가\n---\n# 책\n"}))
    assert info.value.code == "CFG004" and "translators" in str(info.value)


def test_untitled_file_takes_its_first_heading_text(make_book: BookMaker) -> None:
    root = make_book({"book/a.md": "# 하나\n", "book/b.md": "## 설치하기\n\n글.\n"})
    assert [c.title for c in load_book(root).chapters] == ["하나", "설치하기"]


# --- discovery ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "paper"),
    [
        ("README.md", True),
        ("README_en.md", True),
        ("readme.ko.md", True),
        ("LICENSE-MIT.md", True),
        ("CODE_OF_CONDUCT.md", True),
        ("CONTRIBUTING.md", True),
        ("CHANGELOG.md", True),
        ("01-intro.md", False),
        ("licensing-in-ml.md", False),
    ],
)
def test_repository_papers_are_not_chapters(name: str, paper: bool) -> None:
    assert is_repository_paper(Path(name)) is paper


def test_top_level_markdown_skips_readmes_and_says_so(make_book: BookMaker) -> None:
    root = make_book(
        {"README_en.md": "# Read me\n", "README.md": "# 읽어 주세요\n", "책.md": "# 책\n"}
    )
    found = discover(root, load_config(root / "metadata.yaml"))
    assert [p.name for p in found.files] == ["책.md"]
    assert "top of the project" in found.reason and "README_en.md" in found.reason


@pytest.mark.parametrize(
    ("files", "expected", "reason"),
    [
        ({"book/b.md": "# b", "book/a.md": "# a", "docs/x.md": "# x"}, ["a.md", "b.md"], "book/"),
        ({"docs/2.md": "# 2", "docs/sub/1.md": "# 1", "top.md": "# t"}, ["2.md", "1.md"], "docs/"),
        ({"chapters/1.md": "# 1", "top.md": "# t"}, ["1.md"], "chapters/"),
    ],
)
def test_discovery_order(
    make_book: BookMaker, files: dict[str, str], expected: list[str], reason: str
) -> None:
    root = make_book(files)
    found = discover(root, load_config(root / "metadata.yaml"))
    assert [p.name for p in found.files] == expected
    assert reason in found.reason


def test_mdbook_summary_gives_the_order(make_book: BookMaker) -> None:
    summary = (
        "# Summary\n\n[머리말](foreword.md)\n\n# 1부\n\n- [시작하기](ch01.md)\n"
        "    - [설치](ch01-01.md)\n- [초안]()\n- [끝](ch02.md)\n"
    )
    root = make_book(
        {
            "src/SUMMARY.md": summary,
            "src/foreword.md": "# 머리말\n",
            "src/ch01.md": "# 시작하기\n",
            "src/ch01-01.md": "## 설치\n",
            "src/ch02.md": "# 끝\n",
            "README.md": "# repo\n",
        }
    )
    found = discover(root, load_config(root / "metadata.yaml"))
    assert [p.name for p in found.files] == ["foreword.md", "ch01.md", "ch01-01.md", "ch02.md"]
    assert "SUMMARY.md" in found.reason


def test_listed_chapters_win(make_book: BookMaker) -> None:
    root = make_book({"book/a.md": "# a", "b.md": "# b"}, metadata={"chapters": ["b.md"]})
    found = discover(root, load_config(root / "metadata.yaml"))
    assert [p.name for p in found.files] == ["b.md"] and "listed" in found.reason
