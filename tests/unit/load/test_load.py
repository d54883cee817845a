"""kobook.load (book, splitting): which files are chapters, in what order, how a file splits."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kobook.errors import KobookError
from kobook.load import load_book, select_chapter
from kobook.load.splitting import chapter_level, split_chapters
from kobook.model import Book, Config
from kobook.source.headings import heading_levels

BookMaker = Callable[..., Path]  # the ``make_book`` fixture of tests/conftest.py

# A translated book kept as one Markdown file: a ``#`` title, a short preface, four
# ``##`` chapters (one unnumbered), a code block whose comments look like headings,
# and ``# References`` with ``###`` entries at the end.
BIG_FILE = """\
# 초대규모 학습 플레이북

이 책은 번역서입니다.

머리말 둘째 문단.

## 메모리

메모리 본문.

```python
# 주석은 제목이 아니다
## 이것도 아니다
x = 1
```

### 활성값 재계산

재계산 본문.

## 데이터 병렬

데이터 병렬 본문.

## 부록처럼 {-}

번호 없는 장.

## 파이프라인

파이프라인 본문.

# References

### 논문

Alpha et al.

### 블로그

Beta.
"""

CHAPTER_TITLES = ["메모리", "데이터 병렬", "부록처럼", "파이프라인"]


def line_of(text: str, needle: str) -> int:
    """1-based line of the first line equal to ``needle``."""
    return text.split("\n").index(needle) + 1


def big_book(make_book: BookMaker, metadata: dict[str, object] | None = None) -> Book:
    return load_book(make_book({"playbook.md": BIG_FILE}, metadata=metadata))


# --- which files, in what order -------------------------------------------------------


def test_chapters_listed_in_metadata_set_the_order(make_book: BookMaker) -> None:
    root = make_book(
        {
            "book/a.md": "# 가\n\n본문 가\n",
            "book/b.md": "# 나\n\n본문 나\n",
            "extra/c.md": "# 다\n\n본문 다\n",
        },
        metadata={"chapters": ["extra/c.md", "book/a.md", "book/b.md"]},
    )
    book = load_book(root)
    assert [c.title for c in book.chapters] == ["다", "가", "나"]
    assert [c.number for c in book.chapters] == [1, 2, 3]
    assert [c.id for c in book.chapters] == ["c", "a", "b"]
    assert book.chapters[0].path == (root / "extra" / "c.md").resolve()


def test_book_folder_in_name_order(make_book: BookMaker) -> None:
    root = make_book(
        {
            "book/10-end.md": "# 끝\n",
            "book/02-middle.md": "# 중간\n",
            "book/01-start.md": "# 시작\n",
            "notes.md": "# 무시\n",
        }
    )
    book = load_book(root)
    assert [c.path.name for c in book.chapters] == ["01-start.md", "02-middle.md", "10-end.md"]
    assert [c.id for c in book.chapters] == ["01-start", "02-middle", "10-end"]
    assert [c.kind for c in book.chapters] == ["chapter"] * 3


def test_top_level_markdown_without_readme(make_book: BookMaker) -> None:
    root = make_book(
        {
            "README.md": "# 저장소 설명\n",
            "LICENSE.md": "# License\n",
            "b.md": "# 둘\n",
            "a.md": "# 하나\n",
        }
    )
    book = load_book(root)
    assert [c.path.name for c in book.chapters] == ["a.md", "b.md"]
    assert all("저장소" not in c.text for c in book.chapters)


def test_missing_listed_chapter_is_load004(make_book: BookMaker) -> None:
    root = make_book({"book/a.md": "# 가\n"}, metadata={"chapters": ["book/a.md", "book/nope.md"]})
    with pytest.raises(KobookError) as info:
        load_book(root)
    assert info.value.code == "LOAD004"
    assert "book/nope.md" in str(info.value)
    assert info.value.location.file == root / "metadata.yaml"


def test_no_chapters_is_load002(make_book: BookMaker) -> None:
    root = make_book({"README.md": "# only a readme\n"})
    with pytest.raises(KobookError) as info:
        load_book(root)
    assert info.value.code == "LOAD002"


def test_missing_project_folder_is_load001(tmp_path: Path) -> None:
    with pytest.raises(KobookError) as info:
        load_book(tmp_path / "nowhere")
    assert info.value.code == "LOAD001"


def test_cp949_chapter_is_enc001(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 제목\n\n본문\n".encode("cp949")})
    with pytest.raises(KobookError) as info:
        load_book(root)
    assert info.value.code == "ENC001"
    assert "01.md" in str(info.value)
    assert "iconv" in str(info.value)


# --- one big file ---------------------------------------------------------------------


def test_big_file_auto_detects_chapter_level_two(make_book: BookMaker) -> None:
    book = big_book(make_book)
    numbered = [c for c in book.chapters if c.kind == "chapter"]
    assert [c.title for c in numbered] == ["메모리", "데이터 병렬", "파이프라인"]
    assert all(c.shift == 1 for c in book.chapters)


def test_auto_level_two_without_back_matter(make_book: BookMaker) -> None:
    text = "# 책\n\n## 하나\n\n가\n\n## 둘\n\n나\n\n## 셋\n\n다\n"
    book = load_book(make_book({"book.md": text}))
    assert [c.title for c in book.chapters] == ["하나", "둘", "셋"]
    assert [c.number for c in book.chapters] == [1, 2, 3]
    assert book.title == "책"


def test_chapter_level_helper_guesses() -> None:
    config = Config(raw={})
    two = "# T\n\n## a\n\n## b\n\n## c\n"
    assert chapter_level(config, [(Path("x.md"), two)]) == 2
    # Several files: one chapter per file.
    assert chapter_level(config, [(Path("x.md"), two), (Path("y.md"), "# y\n")]) == 1
    # ``#`` chapters with ``##`` sections: level 1.
    assert chapter_level(config, [(Path("x.md"), "# a\n\n## s\n\n# b\n\n## t\n")]) == 1
    assert chapter_level(Config(raw={"chapter-level": 1}), [(Path("x.md"), two)]) == 1


@pytest.fixture
def split_big(make_book: BookMaker) -> Book:
    """The big file with its level given explicitly (structure independent of the guess)."""
    return big_book(make_book, metadata={"chapter-level": 2})


def test_big_file_structure(split_big: Book) -> None:
    kinds = [(c.kind, c.title, c.number) for c in split_big.chapters]
    assert kinds == [
        ("preface", "들어가며", None),
        ("chapter", "메모리", 1),
        ("chapter", "데이터 병렬", 2),
        ("preface", "부록처럼", None),  # ``{-}``: unnumbered
        ("chapter", "파이프라인", 3),
        ("backmatter", "References", None),
    ]
    assert [c.id for c in split_big.chapters] == [
        "preface",
        "ch01",
        "ch02",
        "preface-2",
        "ch03",
        "back1",
    ]
    assert all(c.shift == 1 for c in split_big.chapters)


def test_big_file_preface_holds_text_before_first_chapter(split_big: Book) -> None:
    preface = split_big.chapters[0]
    assert "이 책은 번역서입니다." in preface.text
    assert "머리말 둘째 문단." in preface.text
    assert "# 초대규모 학습 플레이북" not in preface.text
    assert "## 메모리" not in preface.text


def test_big_file_loses_nothing(split_big: Book) -> None:
    joined = "\n".join(c.text for c in split_big.chapters)
    for line in BIG_FILE.split("\n"):
        if line.strip() and line != "# 초대규모 학습 플레이북":
            assert line in joined, line
    # And nothing is duplicated: every chapter's text is a distinct slice of the file.
    assert sum(len(c.text.split("\n")) for c in split_big.chapters) <= len(BIG_FILE.split("\n"))


def test_big_file_code_comment_is_not_a_chapter(split_big: Book) -> None:
    memory = split_big.chapters[1]
    assert "# 주석은 제목이 아니다" in memory.text
    assert "## 이것도 아니다" in memory.text
    assert "### 활성값 재계산" in memory.text
    assert all("주석" not in c.title and "아니다" not in c.title for c in split_big.chapters)


def test_big_file_back_matter_keeps_subsections(split_big: Book) -> None:
    back = split_big.chapters[-1]
    assert back.text.startswith("# References")
    assert "### 논문" in back.text
    assert "### 블로그" in back.text
    assert "Beta." in back.text


def test_big_file_source_lines_map_to_the_file(split_big: Book) -> None:
    file_lines = BIG_FILE.split("\n")
    for chapter in split_big.chapters:
        for local, line in enumerate(chapter.text.split("\n"), 1):
            assert file_lines[chapter.source_line(local) - 1] == line
    memory = split_big.chapters[1]
    assert memory.source_line(1) == line_of(BIG_FILE, "## 메모리")
    back = split_big.chapters[-1]
    assert back.line_offset + 1 == line_of(BIG_FILE, "# References")
    local = back.text.split("\n").index("### 블로그") + 1
    assert back.source_line(local) == line_of(BIG_FILE, "### 블로그")


def test_big_file_title_becomes_book_title(split_big: Book) -> None:
    assert split_big.title == "초대규모 학습 플레이북"
    assert split_big.config.title == "초대규모 학습 플레이북"


def test_metadata_title_wins_over_heading(make_book: BookMaker) -> None:
    book = big_book(make_book, metadata={"title": "메타데이터 제목", "chapter-level": 2})
    assert book.title == "메타데이터 제목"


def test_heading_title_markup_is_stripped(make_book: BookMaker) -> None:
    text = "# **굵은** `책`\n\n## 가\n\n## 나\n\n## 다\n"
    book = load_book(make_book({"book.md": text}))
    assert book.title == "굵은 책"


def test_explicit_chapter_level_one_keeps_file_whole_at_hash(make_book: BookMaker) -> None:
    book = big_book(make_book, metadata={"chapter-level": 1})
    assert [c.title for c in book.chapters] == ["초대규모 학습 플레이북", "References"]
    assert [c.number for c in book.chapters] == [1, 2]
    assert all(c.shift == 0 for c in book.chapters)
    # The ``##`` headings stay inside the first chapter.
    assert "## 메모리" in book.chapters[0].text
    assert "## 파이프라인" in book.chapters[0].text


def test_fenced_heading_never_splits(make_book: BookMaker) -> None:
    text = "# 하나\n\n```\n# 주석\n```\n\n~~~~\n# 또 주석\n```\n# 여전히 코드\n~~~~\n\n# 둘\n"
    book = load_book(make_book({"book/01.md": text}, metadata={"chapter-level": 1}))
    assert [c.title for c in book.chapters] == ["하나", "둘"]
    assert "# 여전히 코드" in book.chapters[0].text


def test_heading_levels_skip_fences() -> None:
    text = "# a\n```\n# b\n```\n## c\n    # indented code\n#nospace\n"
    assert heading_levels(text) == [(0, 1, "a"), (4, 2, "c")]


def test_text_before_any_heading_becomes_preface(make_book: BookMaker) -> None:
    text = "머리 글.\n\n# 하나\n\n본문\n"
    book = load_book(make_book({"book/01.md": text}))
    assert [(c.kind, c.number) for c in book.chapters] == [("preface", None), ("chapter", 1)]
    assert book.chapters[0].text.startswith("머리 글.")
    assert book.chapters[1].source_line(1) == 3


def test_file_without_headings_is_one_chapter(make_book: BookMaker) -> None:
    book = load_book(make_book({"book/01.md": "제목 없는 글.\n\n둘째 문단.\n"}))
    assert len(book.chapters) == 1
    assert book.chapters[0].kind == "chapter"
    assert book.chapters[0].number == 1
    assert book.chapters[0].title == "제목 없는 글."


# --- select_chapter -------------------------------------------------------------------


@pytest.fixture
def three_files(make_book: BookMaker) -> Book:
    return load_book(
        make_book(
            {
                "book/01-memory.md": "# 메모리\n",
                "book/02-data.md": "# 데이터\n",
                "book/03-kernels.md": "# 커널\n",
            }
        )
    )


@pytest.mark.parametrize(
    ("wanted", "title"),
    [("02-data", "데이터"), ("2", "데이터"), ("03-kernels.md", "커널"), ("01-memory", "메모리")],
)
def test_select_chapter(three_files: Book, wanted: str, title: str) -> None:
    assert select_chapter(three_files, wanted).title == title


def test_select_chapter_by_split_id(split_big: Book) -> None:
    assert select_chapter(split_big, "ch02").title == "데이터 병렬"
    assert select_chapter(split_big, "3").title == "파이프라인"
    assert select_chapter(split_big, "back1").kind == "backmatter"


def test_select_unknown_chapter_is_load003(three_files: Book) -> None:
    with pytest.raises(KobookError) as info:
        select_chapter(three_files, "99")
    assert info.value.code == "LOAD003"
    assert "'99'" in str(info.value)
    assert "02-data" in info.value.diagnostic.hint


# --- property: splitting never loses or misplaces a line ------------------------------

LINES = st.sampled_from(
    ["", "본문", "text", "# 제목", "## 장", "### 절", "## 번호 없음 {-}", "```", "~~~", "# 코드?"]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(LINES, max_size=25), st.sampled_from([1, 2, 3]))
def test_split_keeps_every_line_in_place(lines: list[str], level: int) -> None:
    text = "\n".join(lines)
    chapters, title = split_chapters(Path("x.md"), text, level, "들어가며")
    covered: set[int] = set()
    for chapter in chapters:
        for local, line in enumerate(chapter.text.split("\n"), 1):
            index = chapter.source_line(local) - 1
            assert lines[index] == line
            assert index not in covered
            covered.add(index)
    for index, line in enumerate(lines):
        if index not in covered:
            # Only blank lines and the book title line may be left out.
            assert not line.strip() or (title and line.startswith("#") and title in line)


def test_a_book_with_no_title_anywhere_takes_its_folders_name(make_book: BookMaker) -> None:
    """The EPUB's dc:title was empty (EPUBCheck's error) and nothing said so."""
    root = make_book({"book/01.md": "## 절만 있는 글\n\n본문.\n"})
    book = load_book(root)
    assert book.config.title == root.name
    [note] = [d for d in book.notes if d.code == "CFG016"]
    assert note.severity == "warning" and root.name in note.message
    titled = make_book({"book/01.md": "# 장\n"}, metadata={"title": "책"})
    assert not [d for d in load_book(titled).notes if d.code == "CFG016"]
