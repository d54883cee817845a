"""The MkDocs dialect: mkdocs.yml, nav, snippets, admonitions and tabs, inline extensions.

Diagnostics name the file and line the translator wrote; converted lines keep theirs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.dialect import Report, convert_book
from kobook.dialect.mkdocs import DIALECT
from kobook.dialect.mkdocs.blocks import Blocks
from kobook.dialect.mkdocs.config import read_config
from kobook.dialect.mkdocs.inline import Inline
from kobook.errors import KobookError
from kobook.importer.detect import detect
from kobook.load.book import load_book
from kobook.model import Book
from kobook.model.origins import Lines
from tests.conftest import BookMaker

YML = "site_name: 작은 사이트\ntheme:\n  name: material\n  language: ko\n"


def site(make_book: BookMaker, files: dict[str, str], yml: str = YML) -> Path:
    return make_book({"mkdocs.yml": yml, **files}, metadata={"dialect": "mkdocs"})


def converted(root: Path) -> tuple[Book, Report]:
    book = load_book(root)
    return book, convert_book(book)


def blocks(text: str) -> Lines:
    return Blocks(Report(), lambda kind: {"note": "참고", "tip": "팁"}.get(kind, kind)).convert(
        Lines.of(text, Path("p.md"))
    )


# ---------------------------------------------------------------- mkdocs.yml


def test_tags_are_read_not_run_and_inherit_merges(make_book: BookMaker) -> None:
    root = make_book(
        {
            "en/mkdocs.yml": "site_name: Docs\ntheme: {name: material, language: en}\n"
            "docs_dir: docs\n",
            "mkdocs.yml": "INHERIT: en/mkdocs.yml\ntheme:\n  language: ko\n"
            "extra:\n  key: !ENV [NO_SUCH_VARIABLE, 기본]\n"
            "markdown_extensions:\n  - pymdownx.emoji:\n"
            "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
        }
    )
    config = read_config(root)
    assert config["theme"] == {"name": "material", "language": "ko"}
    assert config["site_name"] == "Docs" and config["extra"]["key"] == "기본"
    assert DIALECT.metadata(root) == {"title": "Docs", "lang": "ko"}


def test_bad_yaml_names_its_line(make_book: BookMaker) -> None:
    root = make_book({"mkdocs.yml": "site_name: x\nnav:\n  - a: [\n"})
    with pytest.raises(KobookError) as info:
        read_config(root)
    assert info.value.code == "DIA301" and info.value.diagnostic.location.line >= 3


def test_import_detects_mkdocs(make_book: BookMaker) -> None:
    root = site(make_book, {"docs/index.md": "# 집\n"})
    found = detect(root)
    assert (found.name, found.dialect) == ("mkdocs", "mkdocs")
    assert "mkdocs.yml" in found.reason


# ---------------------------------------------------------------- nav


def test_nav_sections_are_parts_and_nested_sections_chapters(make_book: BookMaker) -> None:
    yml = YML + (
        "nav:\n  - 집: index.md\n  - 안내:\n    - a.md\n    - 깊이:\n      - 하나: b.md\n"
        "      - c.md\n  - 바깥: https://example.com\n"
    )
    root = site(
        make_book,
        {
            "docs/index.md": "# Home\n\n본문",
            "docs/a.md": "# 가\n\n본문",
            "docs/b.md": "# B\n\n본문",
            "docs/c.md": "# 다\n\n## 다 안\n\n본문",
            "docs/orphan.md": "# 고아\n",
        },
        yml,
    )
    book = load_book(root)
    got = [(c.kind, c.title, c.part) for c in book.chapters]
    assert got == [("preface", "집", ""), ("chapter", "가", "안내"), ("chapter", "깊이", "")]
    deep = book.chapters[2].text
    assert "## 하나" in deep and "## 다" in deep and "### 다 안" in deep
    codes = sorted(n.code for n in book.notes)
    assert codes == ["DIA302", "DIA303", "LOAD005", "LOAD005"]


def test_no_nav_lists_the_folder_index_first(make_book: BookMaker) -> None:
    root = site(
        make_book,
        {
            "docs/b.md": "# 나\n",
            "docs/index.md": "# 처음\n",
            "docs/a.md": "# 가\n",
            "docs/guide/z.md": "# 하\n",
            "docs/_hidden.md": "# 숨김\n",
        },
    )
    book = load_book(root)
    assert [c.title for c in book.chapters] == ["처음", "가", "나", "하"]
    assert book.chapters[3].part == "Guide"


def test_i18n_folders_read_the_books_language_with_fallback(make_book: BookMaker) -> None:
    yml = YML + "nav:\n  - index.md\n  - only-en.md\n  - suffixed.md\n"
    root = site(
        make_book,
        {
            "docs/en/index.md": "# Home\n",
            "docs/ko/index.md": "# 홈\n",
            "docs/en/only-en.md": "# English only\n",
            "docs/suffixed.md": "# Suffix\n",
            "docs/suffixed.ko.md": "# 접미사\n",
        },
        yml,
    )
    titles = [c.title for c in load_book(root).chapters]
    assert titles == ["홈", "English only", "접미사"]


def test_a_missing_nav_page_is_a_warning(make_book: BookMaker) -> None:
    root = site(make_book, {"docs/a.md": "# 가\n"}, YML + "nav:\n  - a.md\n  - gone.md\n")
    book = load_book(root)
    assert [n.code for n in book.notes if n.severity == "warning"] == ["DIA304"]


def test_a_nav_page_outside_the_book_is_refused(make_book: BookMaker) -> None:
    root = site(make_book, {"docs/a.md": "# 가\n"}, YML + "nav:\n  - ../../../etc/passwd\n")
    with pytest.raises(KobookError) as info:
        load_book(root)
    assert info.value.code == "SEC001"


# ---------------------------------------------------------------- blocks


def test_admonitions_nest_and_keep_their_lines() -> None:
    text = '!!! note "알림"\n    바깥\n\n    ??? tip\n        안쪽\n\n뒤'
    out = blocks(text)
    lines = out.text.split("\n")
    assert '::: {.callout-note title="알림"}' in lines
    assert '::: {.details summary="팁"}' in lines and "안쪽" in lines
    assert lines.count(":::") == 2 and lines[-1] == "뒤"
    origin = dict(zip(lines, out.origins, strict=True))
    assert origin["안쪽"] == (Path("p.md"), 5) and origin["뒤"] == (Path("p.md"), 7)


def test_blocks_inside_code_fences_are_code() -> None:
    text = '```\n!!! note "x"\n    y\n```'
    assert blocks(text).text == text


def test_consecutive_tabs_make_one_set_and_bang_starts_another() -> None:
    text = '=== "가"\n    하나\n\n=== "나"\n    둘\n\n===! "다"\n    셋\n'
    lines = blocks(text).text.split("\n")
    assert lines.count("::: tabset") == 2 and lines.count(":::: tab") == 3
    assert "**가**" in lines and "**다**" in lines


# ---------------------------------------------------------------- snippets


def test_snippets_take_sections_and_lines(make_book: BookMaker) -> None:
    root = site(
        make_book,
        {
            "docs/index.md": '# 집\n\n--8<-- "part.md:main"\n\n```py\n--8<-- "code.py:2:3"\n```\n'
            ';--8<-- "literal"\n',
            "part.md": "앞\n--8<-- [start:main]\n가운데\n--8<-- [end:main]\n뒤\n",
            "code.py": "one = 1\ntwo = 2\nthree = 3\nfour = 4\n",
        },
    )
    book, report = converted(root)
    text = book.chapters[0].text
    assert "가운데" in text and "앞" not in text and "[start" not in text
    assert "two = 2\nthree = 3" in text and "four" not in text
    assert '--8<-- "literal"' in text and report.converted["snippet"] == 2
    assert book.chapters[0].locate("가운데").file.name == "part.md"  # type: ignore[union-attr]


def test_a_missing_snippet_is_a_warning_and_outside_is_refused(make_book: BookMaker) -> None:
    root = site(make_book, {"docs/index.md": '# 집\n\n--8<-- "none.md"\n'})
    book, report = converted(root)
    assert [(p.code, p.location.line) for p in report.problems] == [("DIA307", 3)]
    assert "[snippet not found: none.md]" in book.chapters[0].text
    root2 = site(make_book, {"docs/index.md": '# 집\n\n--8<-- "../../../../etc/hostname"\n'})
    with pytest.raises(KobookError) as info:
        converted(root2)
    assert info.value.code == "SEC001"


def test_a_snippet_that_includes_itself_stops(make_book: BookMaker) -> None:
    root = site(
        make_book, {"docs/index.md": '# 집\n\n--8<-- "loop.md"\n', "loop.md": '--8<-- "loop.md"\n'}
    )
    with pytest.raises(KobookError) as info:
        converted(root)
    assert info.value.code == "DIA206"


# ---------------------------------------------------------------- inline


def inline(text: str) -> tuple[str, Report]:
    report = Report()
    return Inline(report).convert(Lines.of(text, Path("p.md"))).text, report


def test_attribute_lists_abbreviations_and_emoji() -> None:
    text, report = inline(
        "## 제목 {: #id }\n\nHTML과 `HTML`.\n{: .lead }\n\n:smile: :material-home:\n\n"
        "*[HTML]: 하이퍼텍스트\n"
    )
    lines = text.split("\n")
    assert lines[0] == "## 제목 {#id}"
    assert lines[2] == '[HTML]{title="하이퍼텍스트"}과 `HTML`.'
    assert "{: .lead }" not in text and "*[HTML]" not in text
    assert "😄" in text and ":material-home:" not in text
    assert [p.code for p in report.problems] == ["DIA306"]
    assert [n.code for n in report.notes] == ["DIA305"]


def test_code_block_titles_become_file_names() -> None:
    text, _ = inline('```py title="main.py" linenums="1"\nprint(1)\n```\n')
    assert text.split("\n")[0] == '```{.py filename="main.py"}'


def test_auto_append_files_follow_every_page(make_book: BookMaker) -> None:
    """MkDocs Material keeps its abbreviations in an auto_append snippet."""
    yml = YML + (
        "markdown_extensions:\n  - abbr\n  - pymdownx.snippets:\n"
        "      auto_append:\n        - includes/abbr.md\n"
    )
    root = site(
        make_book,
        {"docs/index.md": "# 집\n\nHTML로 쓴다.\n", "includes/abbr.md": "*[HTML]: 하이퍼텍스트\n"},
        yml,
    )
    book, report = converted(root)
    assert '[HTML]{title="하이퍼텍스트"}로 쓴다.' in book.chapters[0].text
    assert "*[HTML]" not in book.chapters[0].text and report.converted["snippet"] == 1
