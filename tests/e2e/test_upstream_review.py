"""The bilingual review pages: ``kobook build html --review`` (read-only) and
``kobook preview --review`` (buttons that post to the loopback server, which writes the
lock), driven in Chromium."""

from __future__ import annotations

import http.client
import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kobook.cli import main
from kobook.preview import PreviewServer, Session, start
from kobook.preview.review import Reviewer
from kobook.upstream.lock import read_lock
from kobook.upstream.review import page_name
from tests.browser import SHOTS, fresh, until
from tests.e2e.test_upstream_pandoc import CHAPTER, DATA, korean_line
from tests.upstream_repo import commit_edit, new_repo, replace_in

PAGE = page_name(CHAPTER)


@pytest.fixture
def stale(tmp_path: Path) -> Path:
    """The pandoc pair, locked, then the original edited and the translation changed."""
    original = tmp_path / "original"
    new_repo(original, DATA / "original")
    korean = tmp_path / "korean"
    shutil.copytree(DATA / "korean", korean)
    result = CliRunner().invoke(main, ["upstream", "init", str(original), "--project", str(korean)])
    assert result.exit_code == 0, result.output
    commit_edit(original, lambda repo: replace_in(repo / CHAPTER, "24 hours", "2 days"))
    replace_in(korean / CHAPTER, "rows * cols  # 온전한", "rows + cols  # 온전한")
    return korean


def test_build_writes_read_only_review_pages(stale: Path) -> None:
    hostile = (
        "\n\n<script>alert(1)</script> [누르기](javascript:alert(2)) "
        '![그림](images/x.png) <img src=x onerror="alert(3)">\n'
    )
    replace_in(stale / CHAPTER, "# 타일 깔기\n", "# 타일 깔기\n" + hostile)
    (stale / "images").mkdir()
    shutil.copyfile(DATA.parents[1] / "pixel.png", stale / "images" / "x.png")
    result = CliRunner().invoke(main, ["build", "html", "--review", "-q", "--project", str(stale)])
    assert result.exit_code == 0, result.output
    page = (stale / "dist" / "review" / PAGE).read_text(encoding="utf-8")
    assert 'data-live="0"' in page and "Content-Security-Policy" in page
    assert "<del>24 hours.</del> <ins>2 days.</ins>" in page
    assert 'class="badge rule" title="code differs' in page  # SYNC002 on the code row
    for bad in ("<script>alert", 'href="javascript:', "<img"):
        assert bad not in page
    assert not re.search(r"<[^<>]*\bonerror\s*=", page)  # shown as text, never a tag
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("<script") == 1 and '<script src="review.js" defer></script>' in page
    index = (stale / "dist" / "review" / "index.html").read_text(encoding="utf-8")
    assert f'href="{PAGE}"' in index
    assert (stale / "dist" / "review" / "review.js").is_file()


@dataclass
class Running:
    root: Path
    server: PreviewServer

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}/review/"


@pytest.fixture
def running(stale: Path, tmp_path: Path) -> Iterator[Running]:
    session = Session(stale, cache_dir=tmp_path / "cache")
    first = session.build()
    assert first.ok, first.error
    server = start(session, port=0)
    server.publish(first)
    server.review = Reviewer(session.root, session.out / "review")
    assert server.review.render() == [f"review/{PAGE}"]
    try:
        yield Running(stale, server)
    finally:
        server.close()
        session.close()


def post(port: int, body: Any, headers: dict[str, str]) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        connection.request("POST", "/__kobook/review", body=data, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_the_server_takes_posts_from_its_own_pages_only(running: Running) -> None:
    port = running.server.port
    place = f"{CHAPTER}:{korean_line(running.root, '줄눈은 이음매를')}"
    good = {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port}"}
    body = {"action": "reviewed", "place": place}
    assert post(port, body, {**good, "Origin": "http://evil.example"})[0] == 403
    assert post(port, body, {**good, "Origin": f"http://127.0.0.1:{port + 1}"})[0] == 403
    assert post(port, body, {k: v for k, v in good.items() if k != "Origin"})[0] == 403
    assert post(port, body, {**good, "Content-Type": "text/plain"})[0] == 400
    assert post(port, b"{not json", good)[0] == 400
    assert post(port, {"action": "rm -rf", "place": place}, good)[0] == 422
    lock = read_lock(running.root, CHAPTER)
    assert lock is not None and not any(e.marks for e in lock.entries)
    status, answer = post(port, body, good)
    assert status == 200 and json.loads(answer)["ok"] is True
    lock = read_lock(running.root, CHAPTER)
    assert lock is not None
    assert [e.kind for e in lock.entries if "reviewed" in e.marks] == ["para"]


def test_review_page_in_chromium(running: Running, browser: Any) -> None:
    fresh(browser, running.url + PAGE)
    rows = browser.find_elements("css selector", "tr.finding")
    assert len(rows) == 2  # the stale paragraph, the changed code
    browser.find_element("css selector", "body").send_keys("j")
    where = browser.find_element("id", "where")
    first = rows[0].get_attribute("data-place")
    assert until(lambda: where.text, first) == first
    browser.find_element("css selector", "body").send_keys("j")
    assert until(lambda: where.text, rows[1].get_attribute("data-place")) != first
    browser.save_screenshot(str(SHOTS / "review-light.png"))
    line = korean_line(running.root, "줄눈은 이음매를")
    row = browser.find_element("css selector", f'tr[data-place="{CHAPTER}:{line}"]')
    row.find_element("css selector", 'button[data-action="reviewed"]').click()

    def marked() -> bool:
        found = browser.find_elements(
            "css selector", f'tr[data-place="{CHAPTER}:{line}"] .badge.reviewed'
        )
        return bool(found)

    assert until(marked, True) is True  # the page was read again, with the mark
    lock = read_lock(running.root, CHAPTER)
    assert lock is not None
    reviewed = [e for e in lock.entries if "reviewed" in e.marks]
    assert len(reviewed) == 1
    browser.refresh()
    assert marked()
    stats = CliRunner().invoke(
        main, ["check", "--project", str(running.root), "--select", "SYNC001", "--stats"]
    )
    assert f"reviewed 1/{len(lock.entries)} (" in stats.stdout
    browser.find_element("css selector", f'tr[data-place="{CHAPTER}:{line}"] td.ko').click()
    shown = browser.find_element("id", "where")  # the page was read again: a new element
    assert until(lambda: shown.text, f"{CHAPTER}:{line}") == f"{CHAPTER}:{line}"
    fresh(browser, running.url + PAGE, scheme="dark")
    browser.set_window_size(390, 900)
    browser.save_screenshot(str(SHOTS / "review-dark-phone.png"))
    browser.set_window_size(1400, 1000)


def test_preview_review_keeps_the_translation_live(stale: Path) -> None:
    import threading

    from kobook.preview import run
    from tests.preview_client import get_text, served_text, wait_until

    lines: list[str] = []
    stop = threading.Event()

    def edit_then_stop() -> None:
        try:
            wait_until(lambda: any("review pages:" in line for line in lines), timeout=60)
            url = next(line for line in lines if "review pages:" in line).split()[2]
            port = int(url.split("http://127.0.0.1:")[1].split("/")[0])
            page = get_text(port, f"/review/{PAGE}")
            lines.append(f"before:{'이음매를 채운다' in page}")
            replace_in(stale / CHAPTER, "이음매를 채운다", "이음매를 메운다")
            shown = f"/review/{PAGE}"
            wait_until(lambda: "이음매를 메운다" in served_text(port, shown), timeout=60)
            lines.append("live:True")
        finally:
            stop.set()

    helper = threading.Thread(target=edit_then_stop)
    helper.start()
    run(stale, port=0, review=True, echo=lines.append, until=stop.is_set)
    helper.join()
    assert "before:True" in lines and "live:True" in lines, lines
