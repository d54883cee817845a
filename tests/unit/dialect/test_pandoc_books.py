"""pandoc books as their authors build them (issue 29): the book's own ``pandoc`` command
orders the chapters, its YAML inputs state the metadata, pandoc's structured forms read."""

from __future__ import annotations

from pathlib import Path

from kobook.dialect.pandoc import DIALECT
from kobook.dialect.pandoc.command import arguments, book_command, logical_lines
from kobook.load.book import load_book
from kobook.model.pandocmeta import pandoc_forms
from tests.conftest import BookMaker

TITLE = (
    "---\ntitle:\n- type: main\n  text: 나뉜 책\n- type: subtitle\n  text: 부제\n"
    "creator:\n- role: author\n  text: 김작가\n- role: trl\n  text: 박번역\n...\n"
)


def test_continued_lines_and_the_next_command() -> None:
    text = "a\npandoc -o x.pdf \\\n  a.md \\\n  b.md && echo done\n"
    number, joined = logical_lines(text)[1]
    assert number == 2 and " ".join(joined.split()) == "pandoc -o x.pdf a.md b.md && echo done"
    assert arguments(logical_lines(text)[1][1]) == ["-o", "x.pdf", "a.md", "b.md"]
    assert arguments("$ /usr/bin/pandoc --toc a.md") == ["--toc", "a.md"]
    assert arguments("pandocfilters a.md") is None


def test_the_command_naming_most_chapters_wins(make_book: BookMaker) -> None:
    root = make_book(
        {
            "README.md": "```\npandoc a/one.markdown -o x.html\n```\n",
            "build.sh": "pandoc --metadata-file meta.yml -c s.css title.txt \\\n"
            "  a/*.markdown b/two.txt $(EXTRA) -o book.epub\n",
            "meta.yml": "lang: ko\n",
            "title.txt": TITLE,
            "s.css": "",
            "a/one.markdown": "# 하나\n",
            "a/zero.markdown": "# 영\n",
            "b/two.txt": "# 둘\n",
        }
    )
    command = book_command(root)
    assert command is not None and command.shown(root) == "build.sh:1"
    names = [p.relative_to(root).as_posix() for p in command.chapters]
    assert names == ["title.txt", "a/one.markdown", "a/zero.markdown", "b/two.txt"]
    stated = DIALECT.metadata(root)
    assert stated["chapters"] == ["a/one.markdown", "a/zero.markdown", "b/two.txt"]
    assert (stated["title"], stated["subtitle"], stated["lang"]) == ("나뉜 책", "부제", "ko")
    assert (stated["author"], stated["translators"]) == (["김작가"], ["박번역"])


def test_a_book_builds_from_its_command_without_metadata(make_book: BookMaker) -> None:
    root = make_book(
        {
            "Makefile": "book.pdf:\n\tpandoc title.yaml ch2/b.markdown ch1/a.markdown -o $@\n",
            "title.yaml": TITLE,
            "ch1/a.markdown": "# 가\n",
            "ch2/b.markdown": "# 나\n",
            "ch2/c.markdown": "# 목록에 없음\n",
        }
    )
    book = load_book(root)
    assert [c.title for c in book.chapters] == ["나", "가"]
    assert book.config.title == "나뉜 책"
    assert book.config.sources["chapters"] == "the pandoc command in Makefile:2"


def test_structured_forms_and_plain_ones() -> None:
    data = {"title": [{"type": "main", "text": "책"}], "identifier": "urn:x", "creator": "김"}
    pandoc_forms(data)
    assert data == {
        "title": "책",
        "identifier": [{"scheme": "", "text": "urn:x"}],
        "author": ["김"],
    }
    plain = {"title": "책", "author": ["이"]}
    pandoc_forms(plain)
    assert plain == {"title": "책", "author": ["이"]}


def test_no_command_changes_nothing(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 장\n", "README.md": "pandoc 으로 만든다.\n"})
    assert DIALECT.metadata(Path(root)) == {}
