"""A small HTTP client for the preview tests: raw requests and the event stream.

``http.client`` sends the request target exactly as given (no normalising of
``..`` or ``%2e``), which is what the traversal tests need.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import socket
import threading
import time
from collections.abc import Callable
from typing import Any


def request(
    port: int,
    target: str,
    method: str = "GET",
    host: str | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One request to 127.0.0.1:``port``: status, headers (lower-case names), body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest(method, target, skip_host=host is not None)
        if host is not None:
            connection.putheader("Host", host)
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        body = response.read()
        headers = {name.lower(): value for name, value in response.getheaders()}
        return response.status, headers, body
    finally:
        connection.close()


def get_text(port: int, target: str) -> str:
    status, _, body = request(port, target)
    assert status == 200, (target, status)
    return body.decode("utf-8")


def served_text(port: int, target: str) -> str:
    """The page's text, or "" while it is not served (a save caught half-written: an empty
    chapter file has no page until the rest of the save arrives)."""
    status, _, body = request(port, target)
    return body.decode("utf-8") if status == 200 else ""


class EventStream:
    """The server-sent events of ``/__kobook/events``, read by a thread into a queue."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.connection.request("GET", "/__kobook/events")
        self.sock = self.connection.sock  # getresponse() hands it to the response
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")
        self.events: queue.Queue[tuple[str, Any] | None] = queue.Queue()
        self.ended = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        event, data = "message", ""
        try:
            while True:
                line = self.response.readline()
                if not line:
                    break
                text = line.decode("utf-8").rstrip("\n")
                if text == "":
                    if data:
                        self.events.put((event, json.loads(data)))
                    event, data = "message", ""
                elif text.startswith("event: "):
                    event = text[len("event: ") :]
                elif text.startswith("data: "):
                    data += text[len("data: ") :]
        except (OSError, ValueError, AttributeError):
            pass
        finally:
            self.ended.set()
            self.events.put(None)

    def next(
        self, name: str, where: Callable[[Any], bool] = lambda data: True, timeout: float = 20
    ) -> Any:
        """The data of the next ``name`` event that satisfies ``where`` (others are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {name} event within {timeout} s")
            try:
                item = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if item is None:
                raise AssertionError(f"the event stream ended before a {name} event")
            if item[0] == name and where(item[1]):
                return item[1]

    def close(self) -> None:
        """Hang up, as a closed browser tab does (the reading thread ends)."""
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
        self.thread.join(5)  # it sees the end of the stream and stops
        with contextlib.suppress(OSError):
            self.response.close()
        self.connection.close()


def wait_until(condition: Callable[[], bool], timeout: float = 20, step: float = 0.05) -> None:
    """Poll ``condition`` until it holds (fail after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s")
        time.sleep(step)
