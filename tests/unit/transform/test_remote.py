"""kobook.transform.remote: bounded downloads, type sniffing, and the IMG002 pass.

The server is ``tests/imageserver.py`` on 127.0.0.1; nothing here touches the internet.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kobook.cache import Cache
from kobook.errors import KobookError
from kobook.load import load_book
from kobook.model import Doc
from kobook.parse import parse_book
from kobook.parse.ast import iter_nodes, keyval, stringify
from kobook.transform import Context, transform_book
from kobook.transform.remote import (
    REMOTE_ATTR,
    Budget,
    Limits,
    RemoteError,
    fetch,
    img_tags,
    is_http,
    sniff,
)
from tests.conftest import allow_loopback
from tests.imageserver import PIXEL, SVG, ImageServer

BookMaker = Callable[..., Path]


@pytest.fixture
def cache(tmp_path: Path) -> Cache:
    return Cache(tmp_path / "cache")


def reason(url: str, cache: Cache, **limits: Any) -> str:
    with pytest.raises(RemoteError) as info:
        fetch(url, cache, Limits(**limits))
    assert info.value.code == "IMG002"
    return info.value.reason


# --- fetch ----------------------------------------------------------------------------


def test_fetch_downloads_once_into_the_cache(server: ImageServer, cache: Cache) -> None:
    path = fetch(server.url("/pixel.png"), cache)
    assert path.read_bytes() == PIXEL and path.suffix == ".png"
    assert cache.root is not None and path.is_relative_to(cache.root / "remote")
    assert fetch(server.url("/pixel.png"), cache) == path
    assert server.requests["/pixel.png"] == 1


def test_extension_comes_from_the_bytes(server: ImageServer, cache: Cache) -> None:
    assert fetch(server.url("/octet.png"), cache).suffix == ".png"  # octet-stream, PNG bytes
    svg = fetch(server.url("/image.svg"), cache)
    assert svg.suffix == ".svg" and svg.read_bytes() == SVG


def test_redirects_are_followed_to_http_only(server: ImageServer, cache: Cache) -> None:
    assert fetch(server.url("/redirect.png"), cache).read_bytes() == PIXEL
    assert "non-http(s) address: file:///etc/passwd" in reason(server.url("/to-file.png"), cache)
    assert "too many redirects" in reason(server.url("/loop.png"), cache, max_redirects=2)
    assert server.requests["/loop.png"] <= 3


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/missing.png", "HTTP 404 Not Found"),
        ("/page.png", "content type text/html is not an image"),
        ("/fake.png", "not a PNG, JPEG, GIF, WebP or SVG image"),
    ],
)
def test_bad_answers(server: ImageServer, cache: Cache, path: str, expected: str) -> None:
    assert expected in reason(server.url(path), cache)
    assert cache.root is not None and not (cache.root / "remote").exists()


def test_size_limit_with_and_without_content_length(server: ImageServer, cache: Cache) -> None:
    assert "5,008 bytes, more than the 1,000 bytes limit" in reason(
        server.url("/big.png"), cache, max_bytes=1000
    )
    assert "larger than the 1,000 bytes limit" in reason(
        server.url("/big-stream.png"), cache, max_bytes=1000
    )
    assert fetch(server.url("/big.png"), cache).stat().st_size == 5008  # default: 20 MB


def test_time_limits(server: ImageServer, cache: Cache) -> None:
    assert "no answer within 0.3 s" in reason(server.url("/slow.png"), cache, timeout=0.3)
    spent = Budget(0)
    with pytest.raises(RemoteError) as info:
        fetch(server.url("/pixel.png"), cache, Limits(), spent)
    assert "download budget" in info.value.reason
    assert server.requests["/pixel.png"] == 0


@pytest.mark.parametrize(
    "url", ["ftp://127.0.0.1/a.png", "file:///etc/passwd", "data:image/png;base64,iVBORw0K"]
)
def test_other_schemes_are_refused_without_a_request(url: str, cache: Cache) -> None:
    assert "only http and https" in reason(url, cache)


def test_no_cache_folder_still_downloads(server: ImageServer) -> None:
    path = fetch(server.url("/raw.png"), Cache(None))
    assert path.read_bytes() == PIXEL


def test_connection_refused(cache: Cache, monkeypatch: pytest.MonkeyPatch) -> None:
    allow_loopback(monkeypatch)
    assert "cannot connect" in reason("http://127.0.0.1:1/x.png", cache)


# --- helpers ----------------------------------------------------------------------------


def test_sniff() -> None:
    assert sniff(PIXEL) == ".png"
    assert sniff(b"\xff\xd8\xff\xe0rest") == ".jpg"
    assert sniff(b"GIF89a....") == ".gif"
    assert sniff(b"RIFF\x10\x00\x00\x00WEBPVP8 ") == ".webp"
    assert sniff(SVG) == ".svg"
    assert sniff(b"\xef\xbb\xbf<!-- x -->\n<!DOCTYPE svg PUBLIC 'a' 'b'>\n<svg>") == ".svg"
    assert sniff(b"<!doctype html><html><svg></svg></html>") is None
    assert sniff(b"%PDF-1.7") is None


def test_is_http_and_img_tags() -> None:
    assert is_http("https://a/b.png") and is_http("//cdn.example/b.png")
    assert not is_http("images/a.png") and not is_http("ftp://a/b.png")
    tags, lone = img_tags("<img src='https://a/b.png' alt=\"x &amp; y\"/>")
    assert lone and tags == [{"src": "https://a/b.png", "alt": "x & y"}]
    tags, lone = img_tags('<p><img src="https://a/b.png"> 글</p>')
    assert not lone and tags[0]["src"] == "https://a/b.png"
    assert img_tags("<b>굵게</b>") == ([], False)


# --- the transform pass -----------------------------------------------------------------


def transform(
    make_book: BookMaker, text: str, metadata: dict[str, object] | None = None, **options: Any
) -> tuple[list[Doc], Context]:
    root = make_book({"book/01.md": text}, metadata=metadata)
    book = load_book(root)
    docs = parse_book(book, Cache(None))
    return transform_book(book, docs, cache=Cache(root / ".kobook-cache"), **options)


def nodes(docs: list[Doc], kind: str) -> list[dict[str, Any]]:
    return [n for d in docs for n in iter_nodes(d.blocks) if n["t"] == kind]


def test_images_point_at_the_local_copy(make_book: BookMaker, server: ImageServer) -> None:
    url = server.url("/pixel.png")
    docs, ctx = transform(make_book, f"# 장\n\n![그림]({url}){{#fig:a}}\n")
    [image] = nodes(docs, "Image")
    target = image["c"][2][0]
    assert target.startswith(".kobook-cache/remote/") and target.endswith(".png")
    assert keyval(image["c"][0], REMOTE_ATTR) == url
    assert ctx.diagnostics == []


def test_lone_raw_img_is_downloaded_like_an_image(
    make_book: BookMaker, server: ImageServer
) -> None:
    url = server.url("/raw.png")
    docs, _ = transform(make_book, f'# 장\n\n<img src="{url}" alt="날것" width="40">\n')
    [image] = nodes(docs, "Image")
    assert image["c"][2][0].startswith(".kobook-cache/remote/")
    assert keyval(image["c"][0], "width") == "40" and stringify(image["c"][1]) == "날것"
    assert server.requests["/raw.png"] == 1


def test_img_inside_larger_raw_html_is_reported(make_book: BookMaker) -> None:
    text = (
        '# 장\n\n```{=html}\n<figure>\n<img src="https://example.invalid/a.png">\n'
        "<figcaption>설명</figcaption>\n</figure>\n```\n"
    )
    # Offline: an error, and with --keep-going the tag becomes the placeholder.
    with pytest.raises(KobookError) as info:
        transform(make_book, text, offline=True)
    assert info.value.code == "IMG002" and info.value.location.line == 5
    docs, ctx = transform(make_book, text, offline=True, keep_going=True)
    raw = "".join(n["c"][1] for n in nodes(docs, "RawInline") + nodes(docs, "RawBlock"))
    assert "example.invalid" not in raw.replace("그림 없음: https://example.invalid", "")
    assert 'class="missing-image remote-image"' in raw
    assert [d.code for d in ctx.diagnostics] == ["IMG002"]
    # Downloads on: not downloaded (only lone tags are), so a warning says so.
    docs, ctx = transform(make_book, text)
    [warning] = ctx.diagnostics
    assert warning.code == "IMG002" and warning.severity == "warning"
    assert "inside raw HTML" in warning.message and warning.location.line == 5


def test_offline_keep_going_placeholder(make_book: BookMaker, server: ImageServer) -> None:
    url = server.url("/pixel.png")
    docs, ctx = transform(
        make_book, f"# 장\n\n본문.\n\n![그림]({url})\n", offline=True, keep_going=True
    )
    assert nodes(docs, "Image") == []
    [span] = [s for s in nodes(docs, "Span") if "missing-image" in s["c"][0][1]]
    assert stringify(span) == f"[그림 없음: {url}]"
    [problem] = ctx.diagnostics
    assert problem.code == "IMG002" and problem.location.line == 5
    assert "--offline" in problem.message and "without --offline" in problem.hint
    assert server.total == 0


@pytest.mark.parametrize("value", ["sometimes", 3])
def test_remote_images_metadata_is_validated(make_book: BookMaker, value: object) -> None:
    root = make_book({"book/01.md": "# 장\n"}, metadata={"remote-images": value})
    with pytest.raises(KobookError) as info:
        load_book(root)
    assert info.value.code in ("CFG003", "CFG005") and "remote-images" in str(info.value)


def test_remote_images_on_is_accepted(make_book: BookMaker) -> None:
    for value in (True, "on", False, "off"):
        root = make_book({"book/01.md": "# 장\n"}, metadata={"remote-images": value})
        load_book(root)
