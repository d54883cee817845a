"""A real browser for the HTML book's tests: Debian's Chromium, driven by Selenium
through Debian's chromedriver (nothing downloaded), pages served from 127.0.0.1."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.conftest import REPO

SHOTS = REPO / "dist" / "screenshots"


@contextlib.contextmanager
def serve(site: Path) -> Iterator[str]:
    """``site`` served on 127.0.0.1 (a port of its own), quietly: its address."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        timeout = 2  # a connection Chromium opens ahead and never uses ends

        def log_message(self, *args: Any) -> None:
            pass

    class Server(http.server.ThreadingHTTPServer):
        # server_close() waits for every request's thread: none outlives the server
        # (kobook forks work ahead only in a process without other threads: forked.py).
        daemon_threads = False
        block_on_close = True

    handler = functools.partial(Quiet, directory=str(site))
    server = Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """Headless Chromium, 1400×1000; screenshots go to :data:`SHOTS`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    assert binary and driver_path, "scripts/install-system-deps.sh --dev installs both"
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not download anything
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument("--window-size=1400,1000")
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()


def fresh(browser: Any, address: str, scheme: str = "light") -> None:
    """Open ``address`` as a first visit, the system theme set to ``scheme``."""
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
    )
    browser.get(address)
    browser.execute_script("localStorage.clear()")
    browser.get(address)


def until(read: Callable[[], Any], wanted: Any, seconds: float = 10.0) -> Any:
    """``read()`` again and again until it gives ``wanted`` or ``seconds`` pass; the
    last value (the page's scripts run on their own time, slower on a busy machine)."""
    deadline = time.monotonic() + seconds
    value = read()
    while value != wanted and time.monotonic() < deadline:
        time.sleep(0.1)
        value = read()
    return value
