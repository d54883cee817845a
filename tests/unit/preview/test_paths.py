"""The preview server's pure parts: request paths, script injection, host names, status."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.errors import Diagnostic, Location
from kobook.preview.command import host_warning
from kobook.preview.server import (
    SCRIPT_TAG,
    host_allowed,
    inject_script,
    resolve_request,
    status_json,
)
from kobook.preview.session import Update


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<p>index</p>")
    (root / "01-one.html").write_text("<p>one</p>")
    (root / "assets" / "style.css").write_text("p {}")
    (root / "sub").mkdir()
    (root / "sub" / "index.html").write_text("<p>sub</p>")
    (root / "페이지.html").write_text("<p>한글</p>")
    (tmp_path / "secret.txt").write_text("secret")
    (root / "out.txt").symlink_to(tmp_path / "secret.txt")
    (root / "in.html").symlink_to(root / "01-one.html")
    return root


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/", "index.html"),
        ("/index.html", "index.html"),
        ("/01-one.html?v=1", "01-one.html"),
        ("/01-one.html#sec", "01-one.html"),
        ("/assets/style.css", "assets/style.css"),
        ("/sub/", "sub/index.html"),
        ("/sub", "sub/index.html"),
        ("/%ED%8E%98%EC%9D%B4%EC%A7%80.html", "페이지.html"),
        ("/in.html", "01-one.html"),
    ],
)
def test_files_in_the_folder_are_found(site: Path, target: str, expected: str) -> None:
    assert resolve_request(site, target) == (site / expected).resolve()


@pytest.mark.parametrize(
    "target",
    [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2e/secret.txt",
        "/..%2fsecret.txt",
        "/..%2Fsecret.txt",
        "/..%5csecret.txt",
        "/..\\secret.txt",
        "/assets/../../secret.txt",
        "/assets/../index.html",
        "/./index.html",
        "//etc/passwd",
        "/assets//style.css",
        "/%2fetc%2fpasswd",
        "/out.txt",
        "/index.html%00",
        "/%ff.html",
        "/c:/windows/win.ini",
        "/.hidden",
        "/missing.html",
        "etc/passwd",
        "http://127.0.0.1/index.html",
        "*",
    ],
)
def test_anything_else_is_refused(site: Path, target: str) -> None:
    (site / ".hidden").write_text("x")
    assert resolve_request(site, target) is None


def test_an_absolute_path_is_refused(site: Path) -> None:
    assert resolve_request(site, "/" + str(site.parent / "secret.txt")) is None
    assert resolve_request(site, str(site / "index.html")) is None


def test_the_script_goes_before_the_last_body_end() -> None:
    html = b"<html><body><p>x</p><pre>&lt;/body&gt;</pre></BODY></html>"
    assert inject_script(html) == (
        b"<html><body><p>x</p><pre>&lt;/body&gt;</pre>" + SCRIPT_TAG + b"\n</BODY></html>"
    )
    assert inject_script(b"<p>fragment</p>") == b"<p>fragment</p>" + SCRIPT_TAG


@pytest.mark.parametrize(
    ("host", "bound", "allowed"),
    [
        ("127.0.0.1:8000", "127.0.0.1", True),
        ("localhost:8000", "127.0.0.1", True),
        ("LOCALHOST", "127.0.0.1", True),
        ("[::1]:8000", "::1", True),
        ("127.0.0.2:8000", "127.0.0.1", True),
        ("evil.example:8000", "127.0.0.1", False),
        ("evil.example", "127.0.0.1", False),
        ("localhost.evil.example", "127.0.0.1", False),
        (None, "127.0.0.1", False),
        ("book.lan:8000", "0.0.0.0", True),  # served to the network on purpose
    ],
)
def test_host_names(host: str | None, bound: str, allowed: bool) -> None:
    assert host_allowed(host, bound) is allowed


def test_status_names_files_relative_to_the_book(tmp_path: Path) -> None:
    error = Diagnostic(
        "REF001",
        "cross-reference to unknown id 'fig:x'",
        Location(tmp_path / "book" / "01.md", 7, 3),
        hint="check the spelling",
    )
    finding = Diagnostic("KO009", "<b>quoted</b> source", Location(tmp_path / "book" / "01.md", 2))
    status = status_json(
        Update(error=error, findings={"01.html": [finding]}, seconds=0.1234), tmp_path
    )
    assert status["ok"] is False
    assert status["error"]["text"] == "book/01.md:7:3: REF001 cross-reference to unknown id 'fig:x'"
    assert status["error"]["hint"] == "check the spelling"
    assert status["findings"]["01.html"][0]["text"] == "book/01.md:2: KO009 <b>quoted</b> source"
    assert status["seconds"] == 0.123
    outside = Diagnostic("CFG001", "bad", Location(Path("/elsewhere/x.yaml"), 1))
    assert status_json(Update(error=outside), tmp_path)["error"]["file"] == "/elsewhere/x.yaml"
    assert status_json(None, tmp_path)["ok"] is True


@pytest.mark.parametrize(
    ("host", "warned"),
    [
        ("127.0.0.1", False),
        ("localhost", False),
        ("::1", False),
        ("0.0.0.0", True),
        ("192.168.0.10", True),
        ("::", True),
    ],
)
def test_a_host_other_than_loopback_is_warned_about(host: str, warned: bool) -> None:
    warning = host_warning(host)
    assert (warning is not None) is warned
    if warning:
        assert host in warning and "--host 127.0.0.1" in warning
