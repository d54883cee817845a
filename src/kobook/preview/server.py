"""The preview's HTTP server: the files of the preview folder, and nothing else.

A ``ThreadingHTTPServer`` on 127.0.0.1 that

* serves only regular files under ``session.out``: a request path is decoded
  once and refused (404) when it has ``..``/``.`` segments, encoded slashes
  (``%2f``), empty segments (``//etc/passwd``), NUL bytes, hidden names, or
  when it resolves (through a symlink) outside the folder;
* adds ``<script src="/__kobook/live.js">`` to the HTML it sends (the pages on
  disk stay as ``kobook build html`` would write them);
* pushes events to the open pages (server-sent events on ``/__kobook/events``):
  ``reload`` with the changed pages, ``status`` with the current error and
  typography findings, ``pdf`` when the chapter PDF was rewritten;
* answers ``/__kobook/status`` with the same status as JSON (a page opened
  while the build is broken, and the tests, read it);
* with ``--review``, takes the review pages' button posts on ``/__kobook/review``
  (loopback only, from its own origin, JSON only) and has the lock written.

The server thread only reads files and the published status; the watcher
thread (:mod:`.watch`) builds and calls :meth:`PreviewServer.publish`.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import json
import logging
import mimetypes
import queue
import re
import socket
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ..errors import Diagnostic, KobookError
from .review import Reviewer
from .session import Session, Update

log = logging.getLogger("kobook.preview")

DEFAULT_PORT = 8000
PORT_TRIES = 10  # 8000, 8001, … 8009: the next free port when 8000 is taken
KEEPALIVE_SECONDS = 5.0  # an idle event stream sends a comment this often (finds gone clients)
LIVE_PREFIX = "/__kobook/"
SCRIPT_TAG = b'<script src="/__kobook/live.js"></script>'
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "SAMEORIGIN",
    "Cross-Origin-Resource-Policy": "same-origin",
}
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}
REVIEW_PATH = "/__kobook/review"


def live_asset(name: str) -> bytes:
    """The live-reload script or its style sheet (package data beside this module)."""
    return resources.files("kobook.preview").joinpath(name).read_bytes()


# --- request paths -------------------------------------------------------------------------

ENCODED_SEPARATOR = re.compile(r"%(2f|5c)", re.IGNORECASE)


def resolve_request(root: Path, target: str) -> Path | None:
    """The file under ``root`` a request target names, or None (→ 404).

    Pure apart from the file system look-up.  The target is decoded once, and
    any doubt is a refusal: a preview serves the pages kobook wrote, whose
    names are plain, so refusing odd names costs nothing.
    """
    raw = target.split("#", 1)[0].split("?", 1)[0]
    if not raw.startswith("/") or ENCODED_SEPARATOR.search(raw):
        return None  # "http://…" absolute-form, "*", or an encoded / or \
    try:
        decoded = unquote(raw, errors="strict")
    except UnicodeDecodeError:
        return None
    if "\x00" in decoded or "\\" in decoded:
        return None
    segments = decoded.split("/")[1:]
    directory = segments[-1] == ""
    if directory:
        segments = segments[:-1]
    for segment in segments:
        # "" is "//" (an absolute path once joined); "." and ".." walk; hidden names
        # are the atomic writes' temporary files and editors' droppings, never pages.
        if segment == "" or segment.startswith(".") or ":" in segment:
            return None
    base = root.resolve()
    candidate = base.joinpath(*segments)
    if directory or candidate.is_dir():
        candidate = candidate / "index.html"
    try:
        real = candidate.resolve(strict=True)
        real.relative_to(base)
    except (OSError, ValueError, RuntimeError):
        return None  # missing, a symlink loop, or a symlink out of the folder
    return real if real.is_file() else None


def inject_script(html: bytes) -> bytes:
    """``html`` with the live-reload script before its last ``</body>`` (or at the end)."""
    index = html.lower().rfind(b"</body>")
    if index < 0:
        return html + SCRIPT_TAG
    return html[:index] + SCRIPT_TAG + b"\n" + html[index:]


def entity_tag(path: Path) -> str:
    """What names this version of a served file: the preview writes every file anew
    (a new inode, a new time) when it changes, and only then."""
    info = path.stat()
    return f'"{info.st_ino:x}-{info.st_mtime_ns:x}-{info.st_size:x}"'


def content_type(path: Path) -> str:
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    textual = kind.startswith("text/") or kind in ("application/javascript", "image/svg+xml")
    return f"{kind}; charset=utf-8" if textual else kind


def host_allowed(host_header: str | None, bound_host: str) -> bool:
    """Whether a request's ``Host`` may reach a server bound to ``bound_host``.

    Bound to loopback, only loopback names are answered: a web page the
    translator opens elsewhere cannot make its own domain resolve to 127.0.0.1
    (DNS rebinding) and read the book through the browser.
    """
    if not is_loopback(bound_host):
        return True
    if not host_header:
        return False
    name = host_header.strip().lower()
    if name.startswith("["):
        name = name[1:].split("]", 1)[0]
    elif name.count(":") == 1:
        name = name.split(":", 1)[0]
    return name in LOOPBACK_NAMES or is_loopback(name)


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


# --- status --------------------------------------------------------------------------------


def diagnostic_json(diagnostic: Diagnostic, root: Path) -> dict[str, Any]:
    """A diagnostic for the page: its parts, and the ``file:line: CODE message`` line."""
    location = diagnostic.location
    file = ""
    if location.file is not None:
        file = str(location.file)
        with contextlib.suppress(ValueError):
            file = Path(location.file).resolve().relative_to(root).as_posix()
    where = file
    if file and location.line:
        where += f":{location.line}"
        if location.col:
            where += f":{location.col}"
    head = f"{where}: " if where else ""
    return {
        "code": diagnostic.code,
        "message": diagnostic.message,
        "file": file,
        "line": location.line,
        "col": location.col,
        "hint": diagnostic.hint,
        "severity": diagnostic.severity,
        "text": f"{head}{diagnostic.code} {diagnostic.message}",
    }


def status_json(update: Update | None, root: Path) -> dict[str, Any]:
    """What ``/__kobook/status`` answers and the ``status`` event carries."""
    if update is None:
        return {"ok": True, "error": None, "findings": {}, "pdf": None, "seconds": 0.0}
    return {
        "ok": update.error is None,
        "error": diagnostic_json(update.error, root) if update.error else None,
        "findings": {
            page: [diagnostic_json(d, root) for d in found]
            for page, found in update.findings.items()
        },
        "pdf": update.pdf,
        "seconds": round(update.seconds, 3),
    }


def sse_message(event: str, data: object) -> bytes:
    """One server-sent event (JSON data on one line)."""
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


# --- the server ----------------------------------------------------------------------------


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # event streams end through close(); a stray socket must not hang it
    preview: PreviewServer


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    protocol_version = "HTTP/1.0"  # one request per connection: no idle keep-alive threads

    def version_string(self) -> str:
        return "kobook-preview"

    timeout = 30  # a client that sends nothing (or stops reading) is dropped

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s - %s", self.address_string(), format % args)

    def end_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    def do_GET(self) -> None:
        self.answer(body=True)

    def do_HEAD(self) -> None:
        self.answer(body=False)

    def refuse_method(self) -> None:
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Length", "0")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = refuse_method

    def do_POST(self) -> None:
        """Only the review pages' buttons post (``--review``), and only from this server's
        own pages: the Host and the Origin are its own, the body is a small JSON object
        (a form on another site cannot send ``application/json`` without asking)."""
        preview = self.server.preview
        reviewer = preview.review
        path = self.path.split("?", 1)[0]
        if reviewer is None or path != REVIEW_PATH:
            self.refuse_method()
            return
        origin = self.headers.get("Origin")
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        length = int(self.headers.get("Content-Length") or 0)
        if (
            not is_loopback(preview.host)  # the lock is written for loopback pages only
            or not host_allowed(self.headers.get("Host"), preview.host)
            or not origin
            or not host_allowed(origin.split("://", 1)[-1], preview.host)
            or origin.split("://", 1)[-1].rsplit(":", 1)[-1] != str(preview.port)
        ):
            self.send_bytes(HTTPStatus.FORBIDDEN, b"forbidden origin\n", "text/plain", True)
            return
        if kind != "application/json" or not 0 < length <= 4096:
            self.send_bytes(HTTPStatus.BAD_REQUEST, b"bad request\n", "text/plain", True)
            return
        try:
            request = json.loads(self.rfile.read(length))
        except ValueError:
            request = None
        if not isinstance(request, dict):
            self.send_bytes(HTTPStatus.BAD_REQUEST, b"bad request\n", "text/plain", True)
            return
        answer = reviewer.act(request)
        data = json.dumps(answer, ensure_ascii=False).encode()
        status = HTTPStatus.OK if answer.get("ok") else HTTPStatus.UNPROCESSABLE_ENTITY
        self.send_bytes(status, data, "application/json", True)

    def answer(self, body: bool) -> None:
        preview = self.server.preview
        if not host_allowed(self.headers.get("Host"), preview.host):
            self.send_bytes(HTTPStatus.FORBIDDEN, b"forbidden host\n", "text/plain", body)
            return
        path = self.path.split("?", 1)[0]
        if path.startswith(LIVE_PREFIX):
            self.answer_live(path[len(LIVE_PREFIX) :], body)
            return
        file = resolve_request(preview.session.out, self.path)
        if file is None:
            self.send_bytes(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain", body)
            return
        try:
            tag = entity_tag(file)
            if tag == self.headers.get("If-None-Match"):
                self.send_bytes(HTTPStatus.NOT_MODIFIED, b"", "", False, tag)
                return
            data = file.read_bytes()
        except OSError:
            self.send_bytes(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain", body)
            return
        kind = content_type(file)
        if kind.startswith("text/html"):
            data = inject_script(data)
        self.send_bytes(HTTPStatus.OK, data, kind, body, tag)

    def answer_live(self, name: str, body: bool) -> None:
        preview = self.server.preview
        if name == "events":
            if body:
                self.stream_events()
            else:
                self.send_bytes(HTTPStatus.OK, b"", "text/event-stream", body)
        elif name == "status":
            data = json.dumps(preview.status(), ensure_ascii=False).encode()
            self.send_bytes(HTTPStatus.OK, data, "application/json", body)
        elif name in ("live.js", "live.css"):
            kind = "text/javascript" if name.endswith(".js") else "text/css"
            self.send_bytes(HTTPStatus.OK, live_asset(name), kind, body)
        else:
            self.send_bytes(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain", body)

    def send_bytes(
        self, status: HTTPStatus, data: bytes, kind: str, body: bool, tag: str = ""
    ) -> None:
        """One answer.  ``tag``: the served file's :func:`entity_tag`; the browser keeps the
        file and asks again each time (``no-cache``), so a reload after an edit fetches the
        page that changed and hears "not modified" for its style sheets, scripts and
        images.  Anything else (messages, the live script) is never kept."""
        if "charset" not in kind and (kind.startswith("text/") or kind == "application/json"):
            kind += "; charset=utf-8"
        with contextlib.suppress(OSError):
            self.send_response(status)
            if kind:
                self.send_header("Content-Type", kind)
            if tag:
                self.send_header("ETag", tag)
            self.send_header("Cache-Control", "no-cache" if tag else "no-store")
            if status != HTTPStatus.NOT_MODIFIED:
                self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if body:
                self.wfile.write(data)

    def stream_events(self) -> None:
        """Server-sent events until the client goes or the server closes.

        Each client has its own queue, filled by :meth:`PreviewServer.broadcast`;
        an idle stream writes a comment every few seconds, so a client that has
        gone is noticed (the write fails) and its thread ends.
        """
        preview = self.server.preview
        client = preview.subscribe()
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(b"retry: 1000\n\n" + sse_message("status", preview.status()))
            self.wfile.flush()
            while True:
                try:
                    message = client.get(timeout=preview.keepalive)
                except queue.Empty:
                    message = b": keep-alive\n\n"
                if message is None:
                    break  # the server is closing
                self.wfile.write(message)
                self.wfile.flush()
        except OSError:
            pass  # the page was closed or reloaded
        finally:
            preview.unsubscribe(client)
            self.close_connection = True


class PreviewServer:
    """A running preview server: ``url``, ``broadcast``, ``publish``, ``close``."""

    def __init__(self, session: Session, httpd: _HTTPServer, keepalive: float) -> None:
        self.session = session
        self.keepalive = keepalive
        self._httpd = httpd
        httpd.preview = self
        address = httpd.server_address
        self.host = str(address[0])
        self.port = int(address[1])
        self._clients: set[queue.Queue[bytes | None]] = set()
        self._lock = threading.Lock()
        self._status = status_json(session.last, session.root)
        self._pdf: str | None = self._status["pdf"]
        self._closed = False
        self.review: Reviewer | None = None  # kobook preview --review: takes the pages' posts
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.2},
            name="kobook-preview-http",
            daemon=True,
        )
        self._thread.start()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    @property
    def clients(self) -> int:
        """How many pages listen to the event stream now."""
        with self._lock:
            return len(self._clients)

    def status(self) -> dict[str, Any]:
        with self._lock:
            return self._status

    def subscribe(self) -> queue.Queue[bytes | None]:
        client: queue.Queue[bytes | None] = queue.Queue(maxsize=256)
        with self._lock:
            if self._closed:
                client.put(None)
            self._clients.add(client)
        return client

    def unsubscribe(self, client: queue.Queue[bytes | None]) -> None:
        with self._lock:
            self._clients.discard(client)

    def broadcast(self, event: str, data: object) -> None:
        """Send one event to every open page (a page too slow to take it loses it)."""
        message = sse_message(event, data)
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            with contextlib.suppress(queue.Full):
                client.put_nowait(message)

    def publish(self, update: Update) -> None:
        """Tell the pages what a (re)build did: ``reload``, ``status``, then ``pdf``."""
        status = status_json(update, self.session.root)
        with self._lock:
            self._pdf = update.pdf or self._pdf
            status["pdf"] = self._pdf  # the chapter PDF stays linked after later builds
            self._status = status
        if update.pages:
            self.broadcast("reload", {"pages": list(update.pages)})
        self.broadcast("status", status)
        if update.pdf:
            self.broadcast("pdf", {"pdf": update.pdf, "url": "/" + update.pdf})

    def close(self) -> None:
        """End the event streams, stop serving and free the port (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            clients = list(self._clients)
        for client in clients:
            with contextlib.suppress(queue.Full):
                client.put_nowait(None)
            if client.full():  # a stuck client: make room for the sentinel
                with contextlib.suppress(queue.Empty):
                    client.get_nowait()
                with contextlib.suppress(queue.Full):
                    client.put_nowait(None)
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    def __enter__(self) -> PreviewServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start(
    session: Session,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    *,
    tries: int = PORT_TRIES,
    keepalive: float = KEEPALIVE_SECONDS,
) -> PreviewServer:
    """Serve ``session.out`` on ``host``: ``port``, or the next free one (0: any free port)."""
    return PreviewServer(session, bind(host, port, tries), keepalive)


def bind(host: str, port: int, tries: int = PORT_TRIES) -> _HTTPServer:
    """A server listening on ``port`` or one of the next ``tries - 1`` ports."""
    candidates = [port] if port == 0 else list(range(port, min(port + tries, 65536)))
    last: OSError | None = None
    for candidate in candidates:
        try:
            if ":" in host:
                return _IPv6Server((host, candidate), _Handler)
            return _HTTPServer((host, candidate), _Handler)
        except OSError as error:
            if error.errno not in (errno.EADDRINUSE, errno.EACCES):
                raise KobookError(
                    f"cannot serve on {host}:{candidate}: {error.strerror or error}",
                    code="PREVIEW001",
                    hint="check --host (an address of this machine, e.g. 127.0.0.1)",
                ) from error
            last = error
    raise KobookError(
        f"no free port for the preview: {host}:{candidates[0]}–{candidates[-1]} are in use "
        f"({last.strerror if last else 'busy'})",
        code="PREVIEW002",
        hint="stop the other server, or choose another port with --port",
    )


class _IPv6Server(_HTTPServer):
    address_family = socket.AF_INET6
