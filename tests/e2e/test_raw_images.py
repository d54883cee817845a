"""A lone raw ``<img>`` naming an image of the book is an image in every output.

Left as raw HTML, the site linked a file it never copied (a broken image, no word
said), the Typst PDF dropped it (LEAK002), and a path relative to the chapter's
file was "not a file of the book" in the EPUB (EPUB001).  Now it is found and
copied as ``![alt](file)`` is.  Any other ``<img>`` (a missing file, one outside
the book, one with ``align``) stays raw HTML, with what the writers say of it.
"""

from __future__ import annotations

import re
import subprocess
import zipfile

import kobook
from tests.conftest import BookMaker

CHAPTER = """# 그림들

<img src="../images/a.png" alt="장 파일 기준">

<img src="images/b.png" alt="책 폴더 기준" width="30">

<p>문단 안의 <img src="images/c.png" alt="문단 안"> 그림</p>

<img src="images/none.png" alt="없는 그림">

<img src="images/a.png" alt="오른쪽" align="right">
"""


def attribute(tag: str, name: str) -> str:
    found = re.search(rf'\s{name}="([^"]*)"', tag)
    return found.group(1) if found else ""


def test_lone_raw_images_reach_every_output(make_book: BookMaker) -> None:
    root = make_book(
        {"book/01.md": CHAPTER},
        metadata={"title": "그림 책"},
        images=["images/a.png", "images/b.png", "images/c.png"],
    )
    result = kobook.build(root, ["html", "epub", "pdf"], engine="typst")
    codes = [(d.code, d.location.line) for d in result.diagnostics]
    # The three images reach every output; the missing one and the one with align= stay
    # raw HTML: the EPUB leaves the missing one out, the Typst PDF both, and say so.
    assert not [c for c in codes if c[0] in ("LEAK002", "EPUB001") and c[1] < 9], codes
    assert ("EPUB001", 9) in codes and ("LEAK002", 9) in codes and ("LEAK002", 11) in codes

    site = result.outputs["html"].parent
    page = (site / "ch01.html").read_text(encoding="utf-8")
    tags = re.findall(r"<img\b[^>]*>", page)
    sources = [(attribute(t, "src"), attribute(t, "alt")) for t in tags]
    assert sources[:3] == [
        ("images/a.png", "장 파일 기준"),
        ("images/b.png", "책 폴더 기준"),
        ("images/c.png", "문단 안"),
    ]
    assert all((site / name).is_file() for name, _ in sources[:3])
    assert 'width="30"' in page and 'src="images/none.png"' in page

    with zipfile.ZipFile(result.outputs["epub"]) as epub:
        text = "".join(
            epub.read(n).decode("utf-8") for n in epub.namelist() if n.endswith(".xhtml")
        )
        media = [n for n in epub.namelist() if "/media/" in n]
    shown = {attribute(t, "alt"): attribute(t, "src") for t in re.findall(r"<img\b[^>]*>", text)}
    for alt in ("장 파일 기준", "책 폴더 기준", "문단 안"):
        assert shown[alt].startswith("../media/"), shown
    assert media

    listed = subprocess.run(
        ["pdfimages", "-list", str(result.outputs["pdf"])],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()[2:]
    assert len([line for line in listed if " image " in line]) == 3


def test_the_site_copies_the_images_raw_html_shows(make_book: BookMaker) -> None:
    """An ``<img>`` that stays raw HTML (``align=``) still finds its file in the site; a
    file that is no image, and a path that would leave the site, are not copied."""
    chapter = (
        "# 그림\n\n"
        '<img src="images/d.png" alt="오른쪽" align="right">\n\n'
        '<p><img src="notes/config" alt="설정" align="left">\n'
        '<img src="../e.png" alt="밖" align="left"></p>\n'
    )
    root = make_book(
        {"book/01.md": chapter}, metadata={"title": "그림 책"}, images=["images/d.png"]
    )
    (root / "notes").mkdir()
    (root / "notes" / "config").write_text("[remote]\ntoken = secret\n", encoding="utf-8")
    (root.parent / "e.png").write_bytes((root / "images" / "d.png").read_bytes())
    result = kobook.build(root, ["html"])
    site = result.outputs["html"].parent
    assert (site / "images" / "d.png").read_bytes() == (root / "images" / "d.png").read_bytes()
    assert not (site / "notes").exists() and not (site.parent / "e.png").exists()
