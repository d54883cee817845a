"""A chapter written to attack readers: the site and the WeasyPrint PDF are safe to publish.

One hostile book is built once (HTML and the WeasyPrint PDF, under umask 077
as some CI runners have it); the tests read what was published.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest
import yaml

import kobook
from kobook.api import BuildResult
from kobook.errors import KobookError
from tests.checks import pdf_pages, squash
from tests.conftest import REPO

Built = tuple[Path, BuildResult]

HOSTILE = """# 위험한 장

첫 문단은 독자에게 보여야 한다.

<script>alert("script")</script>

<img src="images/pixel.png" onerror="alert('onerror')" alt="점">

<iframe src="https://evil.example/"></iframe>

[자바스크립트 링크](javascript:alert('md'))

<a href="javascript:alert('raw')">날 링크</a>

<style>body{display:none}</style>

마지막 문단도 독자에게 보여야 한다.
"""
INDEX = """# 색인이라는 장

색인 장의 본문이 자기 쪽에 있다.
"""
# Where each construct is in HOSTILE, and what its warning names.
EXPECTED = {
    5: "<script>",
    7: "onerror=",
    9: "<iframe>",
    11: "link to a javascript: URL",
    13: "javascript: URL in href=",
    15: "<style>",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("hostile")
    (root / "book").mkdir()
    (root / "book" / "01-hostile.md").write_text(HOSTILE, encoding="utf-8")
    (root / "book" / "index.md").write_text(INDEX, encoding="utf-8")
    (root / "images").mkdir()
    (root / "images" / "pixel.png").write_bytes((REPO / "tests/data/pixel.png").read_bytes())
    metadata = {
        "title": "위험한 책",
        "original": {"title": "A Book", "url": "https://example.org/book"},
    }
    (root / "metadata.yaml").write_text(yaml.safe_dump(metadata, allow_unicode=True), "utf-8")
    previous = os.umask(0o077)
    try:
        result = kobook.build(root, ["html", "pdf"])
    finally:
        os.umask(previous)
    return root / "dist", result


def site_text(dist: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted((dist / "html").rglob("*.html")))


# kobook's own scripts, on every page: the theme chosen before the page is drawn, and
# assets/book.js (theme button, copy buttons, the chapter's contents).
OWN_SCRIPTS = re.compile(
    r'<script>try\{var t=localstorage\.getitem\("kobook-theme"\);[^<]*</script>'
    r'|<script src="assets/book\.js" defer></script>'
)


def test_site_has_no_script_handler_frame_or_javascript_url(built: Built) -> None:
    pages = site_text(built[0]).lower()
    count = len(list((built[0] / "html").rglob("*.html")))
    assert len(OWN_SCRIPTS.findall(pages)) == 2 * count
    pages = OWN_SCRIPTS.sub("", pages)
    for forbidden in ("<script", "onerror", "javascript:", "<iframe", "evil.example", "<style"):
        assert forbidden not in pages, forbidden
    assert "display:none" not in pages
    assert 'href="https://example.org/book"' in pages  # a valid original.url stays a link


def test_the_chapter_text_is_still_there(built: Built) -> None:
    page = (built[0] / "html" / "01-hostile.html").read_text(encoding="utf-8")
    for text in ("첫 문단은 독자에게", "마지막 문단도 독자에게", "자바스크립트 링크", "날 링크"):
        assert text in page
    sized = '( width="40" height="20")?'  # the file's pixel size (html/images.py)
    lazy = '( loading="lazy" decoding="async")?'
    assert re.search(rf'<img src="images/pixel.png" alt="점"{sized}{lazy}\s*/?>', page)


def test_a_chapter_style_does_not_blank_the_pdf(built: Built) -> None:
    text = squash("".join(pdf_pages(built[0] / "book.pdf")))
    assert squash("첫 문단은 독자에게 보여야 한다.") in text
    assert squash("마지막 문단도 독자에게 보여야 한다.") in text
    assert "alert" not in text and "display" not in text


def test_each_removal_is_a_warning_with_file_and_line_once(built: Built) -> None:
    found = [d for d in built[1].diagnostics if d.code == "HTML001"]
    path = built[0].parent / "book" / "01-hostile.md"
    # One each, though both the site and the PDF sanitized the chapter.
    assert len(found) == len(EXPECTED), [d.format() for d in found]
    for line, named in EXPECTED.items():
        rows = [d for d in found if d.location.line == line and named in d.message]
        assert len(rows) == 1, (line, named, [d.format() for d in found])
        assert rows[0].format().startswith(f"{path}:{line}:")
        assert rows[0].severity == "warning"


def test_published_files_are_world_readable_whatever_the_umask(
    built: Built,
) -> None:
    dist = built[0]
    assert stat.S_IMODE((dist / "book.pdf").stat().st_mode) == 0o644
    site = dist / "html"
    modes = {
        path.relative_to(dist).as_posix(): stat.S_IMODE(path.stat().st_mode)
        for path in [site, *site.rglob("*")]
    }
    assert {"html", "html/assets", "html/index.html", "html/assets/style.css"} <= set(modes)
    assert {"html/search", "html/search/pagefind.js", "html/search/particles.json"} <= set(modes)
    wrong = {
        name: oct(mode)
        for name, mode in modes.items()
        if mode != (0o755 if (dist / name).is_dir() else 0o644)
    }
    assert wrong == {}


def test_a_chapter_called_index_does_not_replace_the_site_index(
    built: Built,
) -> None:
    site = built[0] / "html"
    index = (site / "index.html").read_text(encoding="utf-8")
    chapter = (site / "index-2.html").read_text(encoding="utf-8")
    assert "색인 장의 본문이 자기 쪽에 있다" in chapter
    assert "색인 장의 본문이" not in index
    assert 'href="index-2.html"' in index and "색인이라는 장" in index  # the TOC links it
    assert 'href="index-2.html"' in (site / "01-hostile.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "original",
    [
        '{title: A Book, url: "javascript:alert(1)"}',
        "\n  title: A Book\n  url: data:text/html,hi",
    ],
)
def test_original_url_must_be_http(tmp_path: Path, original: str) -> None:
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "01.md").write_text("# 장\n\n본문.\n", encoding="utf-8")
    metadata = tmp_path / "metadata.yaml"
    metadata.write_text(f"title: 책\noriginal: {original}\n", encoding="utf-8")
    with pytest.raises(KobookError) as caught:
        kobook.build(tmp_path, ["html"], out=tmp_path / "out")
    error = caught.value
    assert error.code == "CFG005" and "original.url" in str(error)
    assert error.location.file == metadata
    url_line = next(n for n, t in enumerate(metadata.read_text().splitlines(), 1) if "url:" in t)
    assert error.location.line == url_line
    assert not (tmp_path / "out").exists()
