"""Remote images: download ``http(s)`` images once into ``.kobook-cache/remote/``.

Every output uses the local copy, so a PDF never loses an image to a network
hiccup and the HTML site works offline.  Downloads reach public addresses only,
checked at every redirect (:mod:`.public_http`), and are bounded: http and https
only (redirects too, at most a few), a size limit, a time limit per request and
for the whole build, and the bytes must really be a PNG, JPEG, GIF, WebP or SVG
image (the file's extension comes from what the bytes are, not from the URL).
The cache key is a hash of the URL, so a second build does no request at all.
"""

from __future__ import annotations

import http.client
import re
import tempfile
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from ..cache import Cache, atomic_write, digest, entry_name
from ..errors import KobookError
from ..version import __version__
from . import public_http

KIND = "remote"
# Image attribute holding the URL a local copy came from (the HTML writer copies those).
REMOTE_ATTR = "kobook-remote"
VERSION = "1"
SUFFIXES = (".png", ".jpg", ".gif", ".webp", ".svg")
# Content types that say nothing either way: the bytes decide.
GENERIC_TYPES = {"", "application/octet-stream", "binary/octet-stream", "text/plain"}
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


@dataclass(frozen=True)
class Limits:
    """Bounds on downloads: bytes per image, seconds per request and per build."""

    max_bytes: int = 20 * 1024 * 1024
    timeout: float = 15.0
    total: float = 300.0
    max_redirects: int = 5


class Budget:
    """The time left for all downloads of one build."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    def remaining(self) -> float:
        return self.deadline - time.monotonic()


class RemoteError(KobookError):
    """A remote image that could not be used; ``reason`` says why in a few words."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(
            f"remote image could not be downloaded: {short(url)} ({reason})", code="IMG002"
        )
        self.url = url
        self.reason = reason


def short(url: str, limit: int = 120) -> str:
    """``url`` for messages and placeholders: without the password it may carry, and cut
    (``data:`` URLs can be megabytes long)."""
    url = public_http.display(url)
    return url if len(url) <= limit else url[: limit - 1] + "…"


def has_scheme(url: str) -> bool:
    """True for ``http:``, ``data:``, ``file:`` ... URLs and ``//host/...``: not a local path."""
    return bool(SCHEME.match(url)) or url.startswith("//")


def is_http(url: str) -> bool:
    return urlsplit(absolute(url)).scheme.lower() in ("http", "https")


def absolute(url: str) -> str:
    """``//host/a.png`` (scheme-relative) is read as ``https://host/a.png``."""
    return "https:" + url if url.startswith("//") else url


def sniff(data: bytes) -> str | None:
    """The file extension for image bytes (``.png`` ...), or None when they are no image."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return ".png"
    if data[:3] == b"\xff\xd8\xff":
        return ".jpg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return ".gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ".webp"
    head = data[:4096].removeprefix(b"\xef\xbb\xbf").decode("utf-8", "ignore").lstrip().lower()
    prolog = r"(?:<\?xml[^>]*>\s*|<!--.*?-->\s*|<!doctype\s+svg[^>]*>\s*)*"
    if re.match(prolog + r"<svg[\s>]", head, re.DOTALL):
        return ".svg"
    return None


def cache_key(url: str) -> str:
    return digest("remote-image", VERSION, url)


def cached(url: str, cache: Cache | None) -> Path | None:
    """The local copy of ``url`` from an earlier download, if there is one.

    A cache entry counts only when its content checks out (``cache.py``): a
    ``.kobook-cache/`` from a repository cannot supply an image for a URL.
    """
    key = cache_key(url)
    for suffix in SUFFIXES:
        found = cache.lookup(KIND, key, suffix) if cache is not None else None
        fallback = fallback_path(key, suffix)
        for path in (found, fallback):
            if path is not None and path.is_file():
                return path
    return None


def store_path(key: str, suffix: str, cache: Cache | None) -> Path | None:
    return cache.path(KIND, key, suffix) if cache is not None else None


def fallback_path(key: str, suffix: str) -> Path:
    """Where downloads go when there is no (writable) cache folder."""
    # Named with this machine's secret: another user of /tmp cannot plant a file there.
    return Path(tempfile.gettempdir()) / "kobook-remote" / f"{entry_name(KIND, key)}{suffix}"


def store(url: str, data: bytes, suffix: str, cache: Cache | None) -> Path:
    key = cache_key(url)
    stored = cache.put(KIND, key, data, suffix) if cache is not None else None
    if stored is None:
        stored = fallback_path(key, suffix)
        atomic_write(stored, data)
    return stored


def fetch(
    url: str,
    cache: Cache | None,
    limits: Limits | None = None,
    budget: Budget | None = None,
) -> Path:
    """The local copy of the image at ``url``: from the cache, else downloaded once.

    Raises :class:`RemoteError` (code IMG002) with the reason when the URL is
    not http(s), its host is not a public address (:mod:`.public_http`), the server
    fails, the time or size limit is reached, or the bytes are not an image.
    """
    limits = limits or Limits()
    if not is_http(url):
        scheme = urlsplit(url).scheme.lower() or "?"
        raise RemoteError(url, f"'{scheme}:' is not downloaded, only http and https are")
    found = cached(url, cache)
    if found is not None:
        return found
    budget = budget or Budget(limits.total)
    left = budget.remaining()
    if left <= 0:
        raise RemoteError(url, f"the {budget.seconds:g} s download budget of this build is spent")
    timeout = min(limits.timeout, left)
    # Non-ASCII paths (한글 파일 이름) are percent-encoded; what is encoded already stays.
    address = quote(absolute(url), safe=":/?#[]@!$&'()*+,;=%~")
    headers = {"User-Agent": f"kobook/{__version__}", "Accept": "image/*"}
    connection = None
    try:
        response, connection = public_http.get(address, headers, timeout, limits.max_redirects)
        data = read_image(response, limits, time.monotonic() + timeout)
    except (RemoteError, public_http.Refused) as exc:
        raise RemoteError(url, getattr(exc, "reason", str(exc))) from None
    except TimeoutError:
        raise RemoteError(url, f"no answer within {timeout:g} s") from None
    except ConnectionError as exc:
        raise RemoteError(url, f"cannot connect: {exc.strerror or exc}") from None
    except (OSError, ValueError, http.client.HTTPException) as exc:
        raise RemoteError(url, f"download failed: {exc or type(exc).__name__}") from None
    finally:
        if connection is not None:
            connection.close()
    suffix = sniff(data)
    if suffix is None:
        raise RemoteError(url, "the file is not a PNG, JPEG, GIF, WebP or SVG image")
    return store(url, data, suffix, cache)


def read_image(response: Any, limits: Limits, deadline: float) -> bytes:
    """The body of ``response``, checked: an image type, within the size and time limits."""
    header = str(response.headers.get("Content-Type", "") or "")
    content_type = header.split(";", 1)[0].strip().lower()
    if not content_type.startswith("image/") and content_type not in GENERIC_TYPES:
        raise RemoteError("", f"content type {content_type} is not an image")
    limit = size_text(limits.max_bytes)
    length = response.headers.get("Content-Length")
    if length and length.isdigit() and int(length) > limits.max_bytes:
        raise RemoteError("", f"{int(length):,} bytes, more than the {limit} limit")
    chunks: list[bytes] = []
    size = 0
    while True:
        if time.monotonic() > deadline:
            raise RemoteError("", f"not downloaded within {limits.timeout:g} s")
        chunk = response.read1(65536)
        if not chunk:
            break
        size += len(chunk)
        if size > limits.max_bytes:
            raise RemoteError("", f"larger than the {limit} limit")
        chunks.append(chunk)
    return b"".join(chunks)


def size_text(size: int) -> str:
    """``20 MB`` for 20 × 2²⁰ bytes; small sizes in bytes."""
    return f"{size / 2**20:g} MB" if size >= 2**20 else f"{size:,} bytes"


class _ImgTags(HTMLParser):
    """The attributes of each ``<img>`` tag in a piece of raw HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.images: list[dict[str, str]] = []
        self.others = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append({k: v or "" for k, v in attrs})
        else:
            self.others += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)  # <img/>: no end tag to count

    def handle_endtag(self, tag: str) -> None:
        self.others += 1

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.others += 1


def img_tags(html: str) -> tuple[list[dict[str, str]], bool]:
    """The ``<img>`` tags in ``html`` and whether the HTML is one lone ``<img>`` tag."""
    if "<img" not in html.lower():
        return [], False
    parser = _ImgTags()
    parser.feed(html)
    parser.close()
    return parser.images, len(parser.images) == 1 and parser.others == 0
