"""A plain socket listener on 127.0.0.1 that counts every connection (never the internet).

The no-network tests point a book at it in every way a page can name a URL;
whatever connects is recorded with the request line and User-Agent it sent (if
any), so a test tells kobook's own image download (``kobook/<version>``) from a
PDF engine's request.  ``/*.png`` paths get a PNG, anything else a 404.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

PIXEL = (Path(__file__).parent / "data" / "pixel.png").read_bytes()


@dataclass
class Listener:
    """``url(path)`` gives a full URL; ``connections`` lists ``(path, user_agent)``."""

    port: int
    connections: list[tuple[str, str]] = field(default_factory=list)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    @property
    def count(self) -> int:
        return len(self.connections)


def answer(conn: socket.socket, listener: Listener, lock: threading.Lock) -> None:
    """Record what one connection asks for, and answer it."""
    with conn:
        conn.settimeout(5)
        data = b""
        with contextlib.suppress(OSError):
            while b"\r\n\r\n" not in data and len(data) < 65536:
                chunk = conn.recv(4096)
                if not chunk:
                    break
                data += chunk
        head = data.decode("latin-1").split("\r\n")
        parts = head[0].split() if head and head[0] else []
        path = parts[1] if len(parts) > 1 else ""
        agent = next(
            (h.split(":", 1)[1].strip() for h in head if h.lower().startswith("user-agent:")), ""
        )
        with lock:
            listener.connections.append((path, agent))
        if path.endswith(".png"):
            status, kind, body = "200 OK", "image/png", PIXEL
        else:
            status, kind, body = "404 Not Found", "text/plain", b"no"
        reply = f"HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
        with contextlib.suppress(OSError):
            conn.sendall(reply.encode() + b"Connection: close\r\n\r\n" + body)


@contextmanager
def listening() -> Iterator[Listener]:
    """A running :class:`Listener` for the duration of the ``with`` block."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.2)
    listener = Listener(server.getsockname()[1])
    lock = threading.Lock()
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=answer, args=(conn, listener, lock), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener
    finally:
        stop.set()
        thread.join(timeout=5)
        server.close()
