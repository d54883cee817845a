"""Every SVG in the HTML site and the EPUB is an image, not a document (issue 27): a book's
own SVG and a downloaded one, used as figures and linked, lose their scripts."""

from __future__ import annotations

import zipfile

import pytest

import kobook
from tests import imageserver
from tests.checks import epubcheck
from tests.conftest import BookMaker
from tests.imageserver import ImageServer

EVIL = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="40" onload="alert(1)">'
    "<script>alert(2)</script>"
    '<rect width="80" height="40" fill="#fc0" onclick="alert(3)"/>'
    '<a href="javascript:alert(4)"><text x="2" y="20">{word}</text></a>'
    '<foreignObject width="9" height="9"><p xmlns="http://www.w3.org/1999/xhtml">x</p>'
    "</foreignObject></svg>"
)
RISKY = ("<script", "alert(", "onload", "onclick", "javascript:", "foreignObject")


@pytest.mark.slow
def test_no_script_in_any_svg_of_the_site_or_the_epub(
    make_book: BookMaker, server: ImageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        imageserver.ROUTES, "/evil.svg", (200, "image/svg+xml", EVIL.format(word="먼").encode())
    )
    root = make_book(
        {
            "book/01.md": (
                "# 그림\n\n![로컬 그림](images/evil.svg)\n\n"
                f"![내려받은 그림]({server.url('/evil.svg')})\n\n"
                "[그림 파일 열기](images/evil.svg)\n"
            ),
            "images/evil.svg": EVIL.format(word="가까운"),
        },
        metadata={"title": "그림 책"},
    )
    result = kobook.build(root, ["html", "epub"])
    site = result.outputs["html"].parent
    svgs = sorted(site.rglob("*.svg"))
    assert len([p for p in svgs if p.name != "favicon.svg"]) >= 2, svgs
    for path in svgs:
        text = path.read_text(encoding="utf-8")
        assert not [r for r in RISKY if r in text], (path, text)
    assert "가까운" in (site / "images" / "evil.svg").read_text(encoding="utf-8")
    with zipfile.ZipFile(result.outputs["epub"]) as epub:
        for name in epub.namelist():
            data = epub.read(name).decode("utf-8", "replace")
            assert not [r for r in RISKY if r in data], name
        package = epub.read("EPUB/content.opf").decode("utf-8")
    assert "scripted" not in package
    assert epubcheck(result.outputs["epub"]) == []
