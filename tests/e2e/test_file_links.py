"""The PDF never holds a path of the build machine (issue 27): links to files that are not
chapters become text (LINK001) or the file's web address, protocol-relative links are https,
and one book built in two folders gives the same bytes in every engine."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

import kobook
from tests.conftest import BookMaker

CHAPTER = """# 링크

[메모 파일](notes.txt)을 보라.

[없는 장](c.md#절)도 있다.

[다른 서버](//evil.example/x)로 간다.

<p>원문 HTML <a href="notes.txt">파일</a>과 <a href="//evil.example/y">서버</a>.</p>

[다음 장](02.md)과 [웹](https://example.org/a)은 그대로다.
"""


def link_targets(pdf: Path) -> list[str]:
    """Every URI and file a link annotation of ``pdf`` points at."""
    found = []
    for page in PdfReader(pdf).pages:
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A")
            if action is None:
                continue
            action = action.get_object()
            for key in ("/URI", "/F", "/D"):
                if key in action and key != "/D":
                    found.append(str(action[key]))
    return found


def book(make_book: BookMaker, **metadata: object) -> Path:
    return make_book(
        {"book/01.md": CHAPTER, "book/02.md": "# 둘\n\n본문.\n", "book/notes.txt": "메모"},
        metadata={"title": "링크 책", **metadata},
    )


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["weasyprint", "typst", "xelatex"])
def test_no_file_link_in_any_pdf(make_book: BookMaker, engine: str) -> None:
    root = book(make_book)
    result = kobook.build(root, ["pdf"], engine=engine)
    targets = link_targets(result.outputs["pdf"])
    assert not [t for t in targets if t.startswith("file:") or "notes.txt" in t], targets
    assert "https://evil.example/x" in targets
    assert "https://example.org/a" in targets
    if engine == "weasyprint":  # the one engine that draws raw HTML
        assert "https://evil.example/y" in targets
    warned = [d for d in result.diagnostics if d.code == "LINK001"]
    assert sorted(d.location.line for d in warned) == [3, 5], warned
    assert str(root) not in result.outputs["pdf"].read_bytes().decode("latin-1")


def test_repository_makes_file_links_web_addresses(make_book: BookMaker) -> None:
    root = book(make_book, repository="https://github.com/o/b/blob/main/")
    result = kobook.build(root, ["pdf"], engine="typst")
    targets = link_targets(result.outputs["pdf"])
    assert "https://github.com/o/b/blob/main/book/notes.txt" in targets
    assert "https://github.com/o/b/blob/main/book/c.md#%EC%A0%88" in targets
    assert not [d for d in result.diagnostics if d.code == "LINK001"]


def test_repository_must_be_https(make_book: BookMaker) -> None:
    root = book(make_book, repository="javascript:alert(1)")
    with pytest.raises(kobook.KobookError) as info:
        kobook.build(root, ["html"])
    assert info.value.code == "CFG003"


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["weasyprint", "typst"])
def test_two_folders_give_the_same_pdf(
    make_book: BookMaker, tmp_path: Path, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(os.environ, "SOURCE_DATE_EPOCH", "1700000000")
    first = book(make_book)
    second = tmp_path / "somewhere" / "else" / "entirely"
    shutil.copytree(first, second)
    one = kobook.build(first, ["pdf"], engine=engine, out=tmp_path / "one")
    two = kobook.build(second, ["pdf"], engine=engine, out=tmp_path / "two")
    assert one.outputs["pdf"].read_bytes() == two.outputs["pdf"].read_bytes()
