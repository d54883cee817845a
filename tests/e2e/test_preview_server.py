"""``kobook preview`` through a real HTTP client: pages, live reload, errors, traversal, leaks.

Each test starts the server on 127.0.0.1 with an ephemeral port (and the
watcher with a short debounce) over a tiny book, and stops both at the end.
"""

from __future__ import annotations

import gc
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kobook.errors import KobookError
from kobook.preview import PreviewServer, Session, Update, Watcher, run, start
from kobook.preview.server import SCRIPT_TAG
from tests.conftest import BookMaker
from tests.preview_client import EventStream, get_text, request, served_text, wait_until

CHAPTER_ONE = "# 하나\n\n첫 문단은 원래 문장이다.\n\n둘째 문단.\n"
CHAPTER_TWO = "# 둘\n\n다른 장의 문단.\n"
METADATA = {"title": "미리 보기 책"}
SCRIPT = SCRIPT_TAG.decode()


@dataclass
class Preview:
    root: Path
    session: Session
    server: PreviewServer
    watcher: Watcher

    @property
    def port(self) -> int:
        return self.server.port

    def page(self, name: str) -> str:
        return get_text(self.port, "/" + name)

    def write(self, name: str, text: str) -> None:
        (self.root / name).write_text(text, encoding="utf-8")


@pytest.fixture
def book(make_book: BookMaker) -> Path:
    return make_book(
        {"book/01-one.md": CHAPTER_ONE, "book/02-two.md": CHAPTER_TWO}, metadata=METADATA
    )


def open_preview(root: Path, cache: Path) -> Preview:
    session = Session(root, cache_dir=cache)
    first = session.build()
    assert first.ok, first.error
    server = start(session, port=0, keepalive=0.3)
    server.publish(first)
    watcher = Watcher(session, server.publish, step_ms=30, debounce_ms=300, idle_ms=100).start()
    assert watcher.wait_ready()
    return Preview(root, session, server, watcher)


@pytest.fixture
def preview(book: Path, tmp_path: Path) -> Iterator[Preview]:
    running = open_preview(book, tmp_path / "cache")
    try:
        yield running
    finally:
        running.watcher.stop()
        running.server.close()


@pytest.fixture
def events(preview: Preview) -> Iterator[EventStream]:
    stream = EventStream(preview.port)
    assert stream.next("status")["ok"] is True  # the current status comes first
    try:
        yield stream
    finally:
        stream.close()


def test_index_and_chapter_are_served_with_the_script(preview: Preview) -> None:
    out = preview.session.out
    for target, file in (("/", "index.html"), ("/01-one.html", "01-one.html")):
        status, headers, body = request(preview.port, target)
        assert status == 200
        assert headers["content-type"] == "text/html; charset=utf-8"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["cache-control"] == "no-cache"  # kept, and asked for again each time
        assert headers["etag"]
        on_disk = (out / file).read_text(encoding="utf-8")
        assert SCRIPT not in on_disk  # the built page stays clean
        served = body.decode("utf-8")
        assert served.count(SCRIPT) == 1
        assert served.replace(SCRIPT + "\n", "") == on_disk
        assert served.index(SCRIPT) < served.rindex("</body>")
    assert "첫 문단은 원래 문장이다" in preview.page("01-one.html")
    status, headers, body = request(preview.port, "/01-one.html", method="HEAD")
    assert (status, body) == (200, b"")
    assert int(headers["content-length"]) == len(preview.page("01-one.html").encode())
    css = request(preview.port, "/assets/style.css")
    assert css[0] == 200 and css[1]["content-type"].startswith("text/css")
    assert SCRIPT.encode() not in css[2]


def test_live_script_and_status_are_served(preview: Preview) -> None:
    status, headers, body = request(preview.port, "/__kobook/live.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    script = body.decode()
    assert 'EventSource("/__kobook/events")' in script
    assert "innerHTML" not in script  # messages quote the sources: textContent only
    assert "http://" not in script and "https://" not in script  # nothing external
    assert headers["cache-control"] == "no-store"  # the live script is never kept
    status, headers, body = request(preview.port, "/__kobook/live.css")
    assert status == 200 and headers["content-type"].startswith("text/css")
    status, headers, body = request(preview.port, "/__kobook/status")
    assert status == 200 and headers["content-type"].startswith("application/json")
    assert b'"ok": true' in body
    assert request(preview.port, "/__kobook/nothing")[0] == 404


def test_only_get_and_head(preview: Preview) -> None:
    for method in ("POST", "PUT", "DELETE"):
        status, headers, _ = request(preview.port, "/index.html", method=method)
        assert status == 405
        assert headers["allow"] == "GET, HEAD"
        assert headers["x-content-type-options"] == "nosniff"


def test_a_foreign_host_name_is_refused(preview: Preview) -> None:
    """DNS rebinding: a page of evil.example resolving to 127.0.0.1 reads nothing."""
    assert request(preview.port, "/", host="evil.example")[0] == 403
    assert request(preview.port, "/", host=f"evil.example:{preview.port}")[0] == 403
    assert request(preview.port, "/", host=f"localhost:{preview.port}")[0] == 200
    assert request(preview.port, "/", host=f"127.0.0.1:{preview.port}")[0] == 200


def test_editing_a_paragraph_reloads_that_page(preview: Preview, events: EventStream) -> None:
    before_two = preview.page("02-two.html")
    preview.write("book/01-one.md", CHAPTER_ONE.replace("원래 문장", "고친 문장"))
    reload = events.next("reload", lambda data: "01-one.html" in data["pages"])
    assert "02-two.html" not in reload["pages"]
    assert events.next("status")["ok"] is True
    page = preview.page("01-one.html")
    assert "첫 문단은 고친 문장이다" in page and "원래 문장" not in page
    assert page.count(SCRIPT) == 1
    assert preview.page("02-two.html") == before_two


def test_a_reload_after_an_edit_fetches_only_what_changed(
    preview: Preview, events: EventStream
) -> None:
    """The browser's conditional requests: "not modified" for the style sheet and the page
    no edit touched, the edited page in full (a reload refetched every file)."""
    tags = {}
    for target in ("/01-one.html", "/02-two.html", "/assets/style.css"):
        status, headers, _ = request(preview.port, target)
        tags[target] = headers["etag"]
        again = request(preview.port, target, headers={"If-None-Match": headers["etag"]})
        assert (again[0], again[2], again[1]["etag"]) == (304, b"", headers["etag"])
        assert "content-length" not in again[1] and again[1]["cache-control"] == "no-cache"
    preview.write("book/01-one.md", CHAPTER_ONE.replace("원래 문장", "고친 문장"))
    events.next("reload", lambda data: "01-one.html" in data["pages"])
    for target in ("/02-two.html", "/assets/style.css"):
        assert request(preview.port, target, headers={"If-None-Match": tags[target]})[0] == 304
    status, headers, body = request(
        preview.port, "/01-one.html", headers={"If-None-Match": tags["/01-one.html"]}
    )
    assert status == 200 and headers["etag"] != tags["/01-one.html"]
    assert "고친 문장" in body.decode() and body.decode().count(SCRIPT) == 1


def test_a_broken_reference_shows_the_error_and_keeps_the_page(
    preview: Preview, events: EventStream
) -> None:
    good = preview.page("01-one.html")
    broken = CHAPTER_ONE.replace("둘째 문단.", "둘째 문단은 @fig:nothere 를 본다.")
    preview.write("book/01-one.md", broken)
    status = events.next("status", lambda data: not data["ok"])
    error = status["error"]
    assert error["code"] == "REF001"
    assert (error["file"], error["line"]) == ("book/01-one.md", 5)
    assert error["text"].startswith("book/01-one.md:5")
    assert "REF001" in error["text"] and "nothere" in error["text"]
    assert error["hint"]
    served = request(preview.port, "/__kobook/status")[2].decode()
    assert '"code": "REF001"' in served and '"line": 5' in served
    assert preview.page("01-one.html") == good  # the last good page is still served

    preview.write("book/01-one.md", CHAPTER_ONE.replace("둘째 문단.", "둘째 문단은 고쳤다."))
    assert events.next("status", lambda data: data["ok"])["error"] is None
    assert '"error": null' in request(preview.port, "/__kobook/status")[2].decode()
    assert "둘째 문단은 고쳤다" in preview.page("01-one.html")


def test_unclosed_yaml_shows_the_error_until_fixed(preview: Preview, events: EventStream) -> None:
    good = preview.page("index.html")
    preview.write("metadata.yaml", 'title: "닫지 않은 제목\nlang: ko\n')
    error = events.next("status", lambda data: not data["ok"])["error"]
    assert error["file"] == "metadata.yaml" and error["line"] >= 1
    assert error["text"].startswith(f"metadata.yaml:{error['line']}")
    assert preview.page("index.html") == good

    preview.write("metadata.yaml", "title: 새 제목\n")
    events.next("reload", lambda data: "index.html" in data["pages"])
    assert events.next("status")["ok"] is True
    assert "새 제목" in preview.page("index.html")


def test_writes_to_the_output_start_no_build(preview: Preview, events: EventStream) -> None:
    """dist/ and .kobook-cache/ are not sources: writing there would loop the build."""
    batches = preview.watcher.batches
    (preview.session.out / "stray.html").write_text("<p>x</p>", encoding="utf-8")
    (preview.root / ".kobook-cache").mkdir(exist_ok=True)
    (preview.root / ".kobook-cache" / "x").write_text("x", encoding="utf-8")
    time.sleep(0.6)
    assert preview.watcher.batches == batches
    preview.write("book/02-two.md", CHAPTER_TWO + "\n추가 문단.\n")
    events.next("reload", lambda data: "02-two.html" in data["pages"])
    time.sleep(0.6)  # the build's own writes must not start another one
    assert preview.watcher.batches == batches + 1


TRAVERSALS = [
    "/../../metadata.yaml",
    "/../../../secret.txt",
    "/%2e%2e/%2e%2e/metadata.yaml",
    "/%2E%2E/%2E%2E/%2E%2E/secret.txt",
    "/.%2e/.%2e/metadata.yaml",
    "/..%2f..%2fmetadata.yaml",
    "/..%2F..%2F..%2Fsecret.txt",
    "/..%5c..%5cmetadata.yaml",
    "/..\\..\\metadata.yaml",
    "/assets/../../../metadata.yaml",
    "//etc/passwd",
    "/%2fetc%2fpasswd",
    "/etc/passwd",
    "/index.html%00.png",
    "/%252e%252e/%252e%252e/metadata.yaml",
    "http://127.0.0.1/../../metadata.yaml",
    "/link-out.txt",
    "/dir-out/secret.txt",
    "/dir-out/",
    "/.hidden",
]


def test_traversal_attempts_get_404(preview: Preview, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("secret", encoding="utf-8")
    out = preview.session.out
    (out / "link-out.txt").symlink_to(secret)
    (out / "dir-out").symlink_to(tmp_path)
    (out / ".hidden").write_text("hidden", encoding="utf-8")
    (out / "link-in.html").symlink_to(out / "02-two.html")
    # The traversal targets, made absolute:
    absolute = ["/" + str(preview.root / "metadata.yaml"), "/" + str(secret)]
    for target in [*TRAVERSALS, *absolute]:
        status, headers, body = request(preview.port, target)
        assert status in (400, 404), (target, status)
        assert b"secret" not in body and b"title" not in body and b"root:" not in body
        assert headers["x-content-type-options"] == "nosniff"
    # … while the files that are in the folder are served (the test can fail):
    assert "다른 장의 문단" in preview.page("link-in.html")
    assert request(preview.port, "/01-one.html?x=1#y")[0] == 200
    assert request(preview.port, "/assets/../01-one.html")[0] == 404  # any "..": refused


def count_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_200_rapid_saves_leak_nothing(book: Path, tmp_path: Path) -> None:
    threads, fds = threading.active_count(), count_fds()
    running = open_preview(book, tmp_path / "cache")
    try:
        stream = EventStream(running.port)
        stream.next("status")
        chapter = book / "book" / "01-one.md"
        for n in range(200):
            chapter.write_text(f"# 하나\n\n저장 번호 {n}번의 문단.\n", encoding="utf-8")
            if n % 20 == 0:  # pages read and streams opened and dropped while it builds
                request(running.port, "/01-one.html")
                EventStream(running.port).close()
            time.sleep(0.002)
        wait_until(lambda: "저장 번호 199번" in served_text(running.port, "/01-one.html"), 60)
        stream.next("reload", lambda data: "01-one.html" in data["pages"])
        assert 1 <= running.watcher.batches < 200  # saves were batched
        stream.close()
        wait_until(lambda: running.server.clients == 0, timeout=10)
        # Still serving, still watching:
        chapter.write_text("# 하나\n\n마지막 문단.\n", encoding="utf-8")
        wait_until(lambda: "마지막 문단" in served_text(running.port, "/01-one.html"), 20)
    finally:
        running.watcher.stop()
        running.server.close()
    wait_until(lambda: threading.active_count() <= threads + 1, timeout=10)
    wait_until(lambda: count_fds() <= fds + 3, timeout=10)


def test_close_ends_the_event_streams(preview: Preview) -> None:
    streams = [EventStream(preview.port) for _ in range(3)]
    for stream in streams:
        stream.next("status")
    wait_until(lambda: preview.server.clients == 3)
    preview.server.close()
    for stream in streams:
        assert stream.ended.wait(5)  # each stream ends, not left open until a client leaves
        stream.close()
    with pytest.raises(OSError):
        request(preview.port, "/")


def test_a_gone_client_is_dropped(preview: Preview) -> None:
    stream = EventStream(preview.port)
    stream.next("status")
    wait_until(lambda: preview.server.clients == 1)
    stream.close()
    wait_until(lambda: preview.server.clients == 0, timeout=5)  # the keep-alive notices


def test_a_taken_port_moves_to_the_next(book: Path, tmp_path: Path) -> None:
    session = Session(book, cache_dir=tmp_path / "cache")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        try:
            server = start(session, port=port, tries=5)
        except KobookError:
            pytest.fail("the next ports were free")
        try:
            assert port < server.port < port + 5
            assert server.url == f"http://127.0.0.1:{server.port}/"
        finally:
            server.close()
        with pytest.raises(KobookError) as caught:
            start(session, port=port, tries=1)
        assert caught.value.code == "PREVIEW002"
        assert "--port" in caught.value.diagnostic.hint


class Exploding(Session):
    """A session whose rebuild is a bug in kobook (not a KobookError)."""

    def rebuild(self, changed: set[Path]) -> Update:
        if any(path.name == "boom.md" for path in changed):
            raise RuntimeError("something went wrong\nsecond line")
        return Update(pages=["01-one.html"])

    def rebuild_pdf(self) -> Update:
        return Update(pdf="01-one.pdf", seconds=0.1)


def test_an_internal_error_is_shown_and_the_watcher_goes_on(
    book: Path, caplog: pytest.LogCaptureFixture
) -> None:
    published: list[Update] = []
    watcher = Watcher(Exploding(book), published.append)
    update = watcher.handle({book / "book" / "boom.md"})
    assert update.error is not None and update.error.code == "PREVIEW003"
    assert update.error.message == "internal error: RuntimeError: something went wrong"
    assert "bug in kobook" in update.error.hint
    assert "Traceback" in caplog.text  # logged in full for the terminal
    assert published == [update]
    assert watcher.handle({book / "book" / "01-one.md"}).ok  # the next save builds again


def test_pdf_is_published_after_a_good_build(book: Path) -> None:
    published: list[Update] = []
    watcher = Watcher(Exploding(book), published.append, pdf=True)
    assert watcher.pdf_worker is not None
    watcher.pdf_worker.start()
    try:
        watcher.handle({book / "book" / "01-one.md"})
        assert watcher.pdf_worker.wait_idle(10)
        assert [u.pdf for u in published] == [None, "01-one.pdf"]
        assert published[1].pages == []  # the pages need no second reload
        watcher.handle({book / "book" / "boom.md"})
        assert watcher.pdf_worker.wait_idle(10)
        assert len(published) == 3  # no PDF after a failed build
    finally:
        watcher.pdf_worker.stop()


class SlowPdf(Exploding):
    """A session whose chapter PDF takes until the test lets it finish."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.release = threading.Event()
        self.typesetting = threading.Event()
        self.pdfs = 0

    def rebuild_pdf(self) -> Update:
        self.typesetting.set()
        assert self.release.wait(10)
        self.pdfs += 1
        return Update(pdf="01-one.pdf", seconds=0.1)


def test_saves_during_a_pdf_are_built_at_once_and_typeset_once_more(book: Path) -> None:
    published: list[Update] = []
    session = SlowPdf(book)
    watcher = Watcher(session, published.append, pdf=True)
    assert watcher.pdf_worker is not None
    watcher.pdf_worker.start()
    try:
        watcher.handle({book / "book" / "01-one.md"})
        assert session.typesetting.wait(10)  # the first PDF is under way ...
        for _ in range(3):  # ... and three saves get their pages without waiting for it
            assert watcher.handle({book / "book" / "01-one.md"}).ok
        assert [u.pages for u in published] == [["01-one.html"]] * 4
        session.release.set()
        assert watcher.pdf_worker.wait_idle(10)
        # The three saves asked for one more PDF between them, not three.
        assert session.pdfs == 2 and watcher.pdf_worker.runs == 2
        assert [u.pdf for u in published].count("01-one.pdf") == 2
    finally:
        session.release.set()
        watcher.pdf_worker.stop()


class QuickPdf(Session):
    """A real session whose chapter PDF is instant (what it typesets is recorded)."""

    def __init__(self, root: Path, cache: Path) -> None:
        super().__init__(root, cache_dir=cache)
        self.typeset: list[str | None] = []

    def rebuild_pdf(self) -> Update:
        assert self._typesettable is not None
        self.typeset.append(self._typesettable[2])
        return Update(pdf="01-one.pdf", seconds=0.01)


def test_the_pdf_starts_before_the_pages_are_made_and_waits_for_them(
    book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--pdf`` asks for the chapter PDF once the chapters are transformed (it is
    typeset beside the pages); it is published after the pages, and not at all when
    the rebuild failed after the transforms (the error stays on the pages)."""
    session = QuickPdf(book, tmp_path / "cache")
    assert session.build().ok
    published: list[Update] = []
    watcher = Watcher(session, published.append, pdf=True)
    assert watcher.pdf_worker is not None
    worker = watcher.pdf_worker.start()
    making_pages: list[bool] = []
    original_site = session._site

    def site(*args: Any) -> Any:
        making_pages.append(worker._latest is not None)  # asked for before the pages
        if (book / "book" / "02-two.md").read_text(encoding="utf-8").startswith("# 깨짐"):
            raise KobookError("the pages failed", code="TEST001")
        return original_site(*args)

    monkeypatch.setattr(session, "_site", site)
    try:
        chapter = book / "book" / "01-one.md"
        chapter.write_text(chapter.read_text(encoding="utf-8") + "\n덧붙인 문단.\n", "utf-8")
        assert watcher.handle({chapter}).ok
        assert worker.wait_idle(10)
        assert making_pages == [True]
        assert [(bool(u.pages), u.pdf) for u in published] == [(True, None), (False, "01-one.pdf")]
        assert session.typeset == ["01-one"]

        published.clear()
        second = book / "book" / "02-two.md"
        second.write_text("# 깨짐\n\n본문.\n", encoding="utf-8")
        failed = watcher.handle({second})
        assert failed.error is not None and failed.error.code == "TEST001"
        assert worker.wait_idle(10)
        assert session.typeset == ["01-one", "02-two"]  # typeset, but never published
        assert [u.pdf for u in published] == [None] and published[0].error is not None
    finally:
        worker.stop()


def test_pdf_event_and_status_through_the_server(preview: Preview, events: EventStream) -> None:
    preview.server.publish(Update(pdf="01-one.pdf"))
    assert events.next("pdf") == {"pdf": "01-one.pdf", "url": "/01-one.pdf"}
    preview.server.publish(Update(pages=["01-one.html"]))
    assert events.next("status", lambda data: data["ok"])["pdf"] == "01-one.pdf"  # still linked


def test_run_serves_until_told_to_stop(book: Path) -> None:
    lines: list[str] = []
    stop = threading.Event()

    def fetch_then_stop() -> None:
        wait_until(lambda: any("http://" in line for line in lines))
        url = next(line for line in lines if "http://" in line)
        port = int(url.split("http://127.0.0.1:")[1].split("/")[0])
        lines.append("fetched:" + str("원래 문장" in get_text(port, "/01-one.html")))
        # the first build's objects are out of the cyclic collector's walks while it runs
        lines.append(f"frozen:{gc.get_freeze_count() > 1000}")
        stop.set()

    helper = threading.Thread(target=fetch_then_stop)
    helper.start()
    run(book, port=0, echo=lines.append, until=stop.is_set)
    helper.join()
    assert lines[0].startswith("built in")
    assert "fetched:True" in lines
    assert "frozen:True" in lines
    assert gc.get_freeze_count() == 0  # and back in them once it stopped
    assert lines[-1] == "stopped"


# --- the command ---------------------------------------------------------------------------


def start_cli(root: Path) -> tuple[subprocess.Popen[str], int, str]:
    """``kobook preview --port 0``: the process, its port, what it printed up to the URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "kobook", "preview", "--port", "0", "--project", str(root)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, CI="true", NO_PROXY="127.0.0.1"),
    )
    assert process.stdout is not None
    head = ""
    for line in process.stdout:
        head += line
        if "http://127.0.0.1:" in line:
            return process, int(line.split("http://127.0.0.1:")[1].split("/")[0]), head
    process.kill()
    raise AssertionError("no URL printed: " + (process.stderr.read() if process.stderr else ""))


def stop_cli(process: subprocess.Popen[str]) -> tuple[str, str]:
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 0, err
    assert "Traceback" not in err and "Traceback" not in out
    assert "stopped" in out
    return out, err


def test_cli_preview_serves_and_stops_on_ctrl_c(book: Path) -> None:
    process, port, head = start_cli(book)
    assert head.startswith("built in")
    try:
        assert "첫 문단은 원래 문장이다" in get_text(port, "/01-one.html")
        assert SCRIPT in get_text(port, "/")
    finally:
        if process.poll() is None:
            stop_cli(process)


def test_cli_preview_starts_on_a_broken_book(book: Path) -> None:
    (book / "metadata.yaml").write_text("title: [닫지 않음\n", encoding="utf-8")
    process, port, head = start_cli(book)
    assert "build failed: metadata.yaml:" in head
    try:
        status = get_text(port, "/__kobook/status")
        assert '"file": "metadata.yaml"' in status and '"ok": false' in status
        (book / "metadata.yaml").write_text("title: 고친 책\n", encoding="utf-8")
        wait_until(lambda: '"ok": true' in get_text(port, "/__kobook/status"))
        assert "고친 책" in get_text(port, "/")
    finally:
        if process.poll() is None:
            out, _ = stop_cli(process)
            assert "rebuilt" in out
