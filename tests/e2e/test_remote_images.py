"""Remote images end to end: downloaded once, used by every output, never dropped in silence.

A server on 127.0.0.1 (``tests/imageserver.py``) stands in for the internet and
counts requests, so "a second build asks for nothing" is checked, not assumed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import kobook
from kobook.errors import KobookError
from tests.checks import html_problems, pdf_pages, squash
from tests.conftest import BookMaker
from tests.imageserver import ImageServer


def chapter(server: ImageServer, *paths: str) -> str:
    """A chapter whose line 5 holds the first image (line 7 the second ...)."""
    lines = ["# 원격 그림", "", "본문이다.", ""]
    for index, path in enumerate(paths):
        lines += [f"![그림 {index}]({server.url(path)})", ""]
    lines += ["끝."]
    return "\n".join(lines) + "\n"


def kobook_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, CI="true", NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1")
    return subprocess.run(
        [sys.executable, "-c", "from kobook.cli import run; run()", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def pdf_image_count(pdf: Path) -> int:
    """Raster images drawn in the PDF (poppler's pdfimages, one line per use)."""
    listing = subprocess.run(
        ["pdfimages", "-list", str(pdf)], capture_output=True, text=True, check=True
    ).stdout
    return len(listing.splitlines()[2:])


def img_sources(site: Path) -> list[str]:
    pages = "".join(p.read_text(encoding="utf-8") for p in sorted(site.glob("*.html")))
    return re.findall(r'<img[^>]*\ssrc="([^"]*)"', pages)


def test_downloaded_once_and_used_by_pdf_and_html(
    make_book: BookMaker, server: ImageServer
) -> None:
    text = chapter(server, "/pixel.png", "/pixel.png", "/image.svg")
    text += f'\n<img src="{server.url("/raw.png")}" alt="날 HTML" width="40">\n'
    root = make_book({"book/01.md": text}, metadata={"title": "원격"})

    result = kobook.build(root, ["pdf", "html"])

    assert [d for d in result.diagnostics if d.code.startswith("IMG")] == []
    assert dict(server.requests) == {"/pixel.png": 1, "/image.svg": 1, "/raw.png": 1}
    cached = sorted(p.suffix for p in (root / ".kobook-cache" / "remote").rglob("*.*"))
    assert cached == [".png", ".png", ".svg"]  # extensions from the bytes
    # The PDF has the pictures: the PNG twice and the raw <img> (the SVG is vector).
    assert pdf_image_count(result.outputs["pdf"]) == 3
    # The site has its own copies and never points at the server.
    site = result.outputs["html"].parent
    sources = img_sources(site)
    assert len(sources) == 4
    assert all(s.startswith("images/remote/") for s in sources), sources
    assert html_problems(site) == []
    assert "127.0.0.1" not in "".join(p.read_text() for p in site.glob("*.html"))

    again = kobook.build(root, ["pdf", "html"])
    assert server.total == 3  # the second build asked for nothing
    assert pdf_image_count(again.outputs["pdf"]) == 3
    assert html_problems(again.outputs["html"].parent) == []


def test_cache_outside_the_project(
    make_book: BookMaker, server: ImageServer, tmp_path: Path
) -> None:
    root = make_book({"book/01.md": chapter(server, "/octet.png")})
    cache = tmp_path / "elsewhere-cache"
    result = kobook.build(root, ["pdf", "html"], cache_dir=cache)
    assert list((cache / "remote").rglob("*.png"))
    assert pdf_image_count(result.outputs["pdf"]) == 1
    site = result.outputs["html"].parent
    assert html_problems(site) == []
    assert all(s.startswith("images/remote/") for s in img_sources(site))


def test_offline_is_img002_with_file_and_line(make_book: BookMaker, server: ImageServer) -> None:
    root = make_book({"book/01.md": chapter(server, "/pixel.png")})
    result = kobook_cli("build", "pdf", "--project", str(root), "--offline", "-q")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "IMG002" in result.stderr
    assert "01.md:5" in result.stderr
    assert server.url("/pixel.png") in result.stderr
    assert "--offline" in result.stderr
    assert server.total == 0
    assert not (root / "dist" / "book.pdf").exists()


@pytest.mark.parametrize(
    "engine",
    [
        "weasyprint",
        "xelatex",
    ],
)
def test_offline_keep_going_shows_placeholders(
    make_book: BookMaker, server: ImageServer, engine: str
) -> None:
    root = make_book({"book/01.md": chapter(server, "/pixel.png")})
    result = kobook_cli(
        "build", "all", "--project", str(root), "--engine", engine, "--offline", "--keep-going"
    )
    assert result.returncode == 0, result.stderr
    assert "IMG002" in result.stderr and "01.md:5" in result.stderr
    assert server.total == 0
    text = squash("\n".join(pdf_pages(root / "dist" / "book.pdf")))
    assert "[그림없음:http://127.0.0.1" in text
    assert pdf_image_count(root / "dist" / "book.pdf") == 0
    site = root / "dist" / "html"
    page = "".join(p.read_text(encoding="utf-8") for p in site.glob("ch*.html"))
    assert 'class="missing-image remote-image"' in page and "그림 없음" in page
    assert img_sources(site) == []
    assert html_problems(site) == []


def test_xelatex_uses_the_downloaded_copy(make_book: BookMaker, server: ImageServer) -> None:
    root = make_book({"book/01.md": chapter(server, "/pixel.png", "/missing.png")})
    result = kobook.build(root, ["pdf"], engine="xelatex", keep_going=True)
    pdf = result.outputs["pdf"]
    assert pdf_image_count(pdf) == 1
    assert "그림없음" in squash("\n".join(pdf_pages(pdf)))
    [problem] = [d for d in result.diagnostics if d.code == "IMG002"]
    assert "HTTP 404" in problem.message and problem.location.line == 7


@pytest.mark.parametrize("value", [False, "off"])
def test_metadata_remote_images_off_acts_like_offline(
    make_book: BookMaker, server: ImageServer, value: object
) -> None:
    root = make_book(
        {"book/01.md": chapter(server, "/pixel.png")},
        metadata={"title": "책", "remote-images": value},
    )
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["html"])
    assert info.value.code == "IMG002"
    assert "remote-images: off" in str(info.value)
    assert info.value.location.line == 5
    assert server.total == 0


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("/missing.png", "HTTP 404"),
        ("/page.png", "content type text/html is not an image"),
        ("/fake.png", "not a PNG, JPEG, GIF, WebP or SVG image"),
    ],
)
def test_download_failures_are_img002_with_the_reason(
    make_book: BookMaker, server: ImageServer, path: str, reason: str
) -> None:
    root = make_book({"book/01.md": chapter(server, path)})
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["html"])
    error = info.value
    assert error.code == "IMG002"
    assert reason in str(error) and server.url(path) in str(error)
    assert error.location.file is not None and error.location.file.name == "01.md"
    assert error.location.line == 5
    assert not list((root / ".kobook-cache").rglob("remote/*/*.*"))  # failures are not cached


def test_other_schemes_are_not_fetched(make_book: BookMaker, server: ImageServer) -> None:
    url = server.url("/pixel.png").replace("http://", "ftp://")
    root = make_book({"book/01.md": f"# 장\n\n![그림]({url})\n"})
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["html"])
    assert info.value.code == "IMG002"
    assert "not http(s), not downloaded" in str(info.value) and url in str(info.value)
    assert info.value.location.line == 3
    assert server.total == 0
