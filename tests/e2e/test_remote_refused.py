"""A build never requests an address of this machine or of its network (issue 27): every
spelling of loopback, a redirect from a reachable host to one, raw ``<img>`` tags, and a
URL's password never printed.  A listener on 127.0.0.1 sees whether anything connected."""

from __future__ import annotations

import ipaddress
import zipfile
from pathlib import Path

import pytest

import kobook
from kobook.transform import public_http
from tests.checks import pdf_pages
from tests.conftest import BookMaker
from tests.imageserver import image_server
from tests.listener import listening

SPELLINGS = [
    "127.0.0.1",
    "localhost",
    "0.0.0.0",
    "2130706433",
    "0x7f.1",
    "127.1",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "user:secret-word@127.0.0.1",
]


def chapter(port: int, hop: str) -> str:
    lines = ["# 원격 그림", ""]
    for index, host in enumerate(SPELLINGS):
        lines += [f"![그림 {index}](http://{host}:{port}/m{index}.png)", ""]
    lines += [
        f'문단 안의 <img src="http://127.1:{port}/inline.png"> 그림.',
        "",
        f'<img src="http://localhost:{port}/lone.png">',
        "",
        f"![넘겨주기]({hop})",
        "",
        "끝.",
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.slow
def test_no_request_reaches_this_machine(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 127.0.0.2 stands for a public host: it answers with a redirect to the listener.
    monkeypatch.setattr(public_http, "ALLOWED_NETWORKS", (ipaddress.ip_network("127.0.0.2/32"),))
    with listening() as listener:
        trap = f"http://127.0.0.1:{listener.port}/after-redirect.png"
        with image_server("127.0.0.2", {"/hop.png": trap}) as hop:
            root = make_book({"book/01.md": chapter(listener.port, hop.url("/hop.png"))})
            result = kobook.build(root, ["pdf", "html", "epub"], keep_going=True)
            assert hop.requests["/hop.png"] == 1  # the reachable host was asked, once
        assert listener.connections == [], listener.connections
    refused = [d for d in result.diagnostics if d.code == "IMG002"]
    assert len(refused) == len(SPELLINGS) + 3
    for diagnostic in refused:
        assert diagnostic.location.file is not None and diagnostic.location.line > 1
        assert "secret-word" not in diagnostic.message
    assert any("redirect" not in d.message and "loopback" in d.message for d in refused)
    assert any("after-redirect.png" in d.message or "loopback" in d.message for d in refused)
    lines = {d.location.line for d in refused}
    assert lines >= {3 + 2 * i for i in range(len(SPELLINGS))}, sorted(lines)
    text = "\n".join(pdf_pages(result.outputs["pdf"]))
    assert "secret-word" not in text
    assert "그림 없음" in text  # --keep-going leaves a visible placeholder
    site = "".join(
        p.read_text(encoding="utf-8") for p in result.outputs["html"].parent.glob("*.html")
    )
    assert "secret-word" not in site
    with zipfile.ZipFile(result.outputs["epub"]) as epub:
        assert not any(b"secret-word" in epub.read(name) for name in epub.namelist())


def test_a_refused_image_is_an_error_without_keep_going(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 장\n\n![x](http://169.254.169.254/latest/x.png)\n"})
    with pytest.raises(kobook.KobookError) as info:
        kobook.build(root, ["html"], out=Path(root) / "out")
    messages = " ".join(d.message for d in [info.value.diagnostic, *info.value.diagnostics])
    assert "IMG002" in str(info.value) or "link-local" in messages
