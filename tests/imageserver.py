"""A tiny image server on 127.0.0.1 for the remote-image tests (never the internet).

It counts requests per path, so a test can tell that a second build asked for
nothing.  Paths: ``/pixel.png`` (image/png), ``/octet.png`` (a PNG sent as
application/octet-stream), ``/raw.png`` (another PNG), ``/image.svg``,
``/missing.png`` (404), ``/page.png`` (text/html), ``/fake.png`` (image/png
that is not an image), ``/big.png`` (5,000 bytes with Content-Length),
``/big-stream.png`` (5,000 bytes without it), ``/slow.png`` (answers after
1.5 s), ``/redirect.png`` (→ ``/pixel.png``), ``/to-file.png`` (→ ``file:``),
``/loop.png`` (→ itself).
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PIXEL = (Path(__file__).parent / "data" / "pixel.png").read_bytes()
SVG = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
    b'<rect width="40" height="20" fill="red"/></svg>\n'
)
ROUTES: dict[str, tuple[int, str, bytes]] = {
    "/pixel.png": (200, "image/png", PIXEL),
    "/octet.png": (200, "application/octet-stream", PIXEL),
    "/raw.png": (200, "image/png", PIXEL),
    "/image.svg": (200, "image/svg+xml", SVG),
    "/missing.png": (404, "text/html", b"<h1>Not Found</h1>"),
    "/page.png": (200, "text/html; charset=utf-8", b"<!doctype html><p>login</p>"),
    "/fake.png": (200, "image/png", b"this is not a png at all"),
    "/big.png": (200, "image/png", PIXEL[:8] + bytes(5000)),
}


class ImageServer:
    """``url(path)`` gives a full URL; ``requests[path]`` counts what was asked.

    Each server's URLs start with a folder of their own (``/s1a2b3…/pixel.png``):
    a download is kept by its URL, also in a folder shared by the machine's builds
    (``remote.fallback_path``), so a later test whose server got the same port
    must not find an earlier test's copy.
    """

    def __init__(self, server: ThreadingHTTPServer, requests: Counter[str], prefix: str) -> None:
        self.server = server
        self.requests = requests
        self.port = server.server_address[1]
        self.prefix = prefix

    def url(self, path: str) -> str:
        host = self.server.server_address[0]
        return f"http://{host}:{self.port}{self.prefix}{path}"

    @property
    def total(self) -> int:
        return sum(self.requests.values())


@contextmanager
def image_server(
    host: str = "127.0.0.1", redirects: dict[str, str] | None = None
) -> Iterator[ImageServer]:
    """A running server on ``host``; ``redirects`` adds paths that answer 302 to a URL."""
    requests: Counter[str] = Counter()
    more = dict(redirects or {})
    prefix = "/s" + secrets.token_hex(6)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0].removeprefix(prefix)
            requests[path] += 1
            if path in ("/redirect.png", "/to-file.png", "/loop.png", *more):
                target = {
                    "/redirect.png": prefix + "/pixel.png",
                    "/to-file.png": "file:///etc/passwd",
                    "/loop.png": prefix + "/loop.png",
                    **more,
                }[path]
                self.send_response(302)
                self.send_header("Location", target)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if path == "/slow.png":
                time.sleep(1.5)
                with contextlib.suppress(OSError):  # the client gave up long ago
                    self.send(200, "image/png", PIXEL)
                return
            if path == "/big-stream.png":
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                with contextlib.suppress(OSError):  # the client stops reading at its limit
                    self.wfile.write(PIXEL[:8] + bytes(5000))
                return
            status, content_type, body = ROUTES.get(path, (404, "text/plain", b"no"))
            self.send(status, content_type, body)

        def send(self, status: int, content_type: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer((host, 0), Handler)
    server.daemon_threads = True
    server.block_on_close = False
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield ImageServer(server, requests, prefix)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
