"""WeasyPrint's URL fetcher for a book: files inside the book and the cache, ``data:`` URLs.

WeasyPrint fetches whatever the HTML names: images, ``<link>`` and ``@import``
stylesheets, CSS ``url()``, ``<object>``/``<embed>``, an SVG's ``<image>``, and
the targets of ``rel=attachment`` links, which it embeds into the PDF.  With
its default fetcher a chapter could make the PDF engine reach the network or
read any file of the machine that builds the book.  :class:`BookFetcher`
serves only files that resolve (symlinks followed) inside the allowed folders,
and ``data:`` URLs; everything else (http, https, ftp, a file outside) is
refused without a request, and kept in :attr:`BookFetcher.refused` so the
build reports it (SEC002).  Remote images are downloaded before, on purpose,
by :mod:`kobook.transform.remote` into the cache.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from weasyprint.urls import URLFetcher

from ...boundary import within
from ...errors import Diagnostic, Location
from ...model import Book


def local_path(url: str) -> Path | None:
    """The file a ``file:`` URL names (None for another host or scheme)."""
    parts = urlsplit(url)
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        return None
    return Path(url2pathname(parts.path))


class BookFetcher(URLFetcher):
    """A WeasyPrint URL fetcher that reads only inside ``roots`` (and ``data:`` URLs)."""

    def __init__(self, roots: Iterable[Path]) -> None:
        super().__init__(allowed_protocols=("file", "data"), allow_redirects=False)
        self.roots = [Path(root).resolve() for root in roots]
        self.refused: list[str] = []

    def allowed(self, url: str) -> bool:
        if url.lower().startswith("data:"):
            return True
        path = local_path(url)
        return path is not None and any(within(path, root) for root in self.roots)

    def fetch(self, url: str, headers: Any = None) -> Any:
        if not self.allowed(url):
            if url not in self.refused:
                self.refused.append(url)
            raise ValueError(f"kobook does not let the PDF engine read {url[:120]}")
        return super().fetch(url, headers)


def refused_problems(book: Book, urls: list[str]) -> list[Diagnostic]:
    """SEC002 for each URL the fetcher refused, placed where the book writes it."""
    problems = []
    for url in urls:
        shown = url if len(url) <= 120 else url[:119] + "…"
        problems.append(
            Diagnostic(
                "SEC002",
                f"the PDF engine was not allowed to read {shown}",
                locate(book, url),
                "the PDF uses only files inside the book (and downloaded images): copy the "
                "file into the book and link it by a relative path",
                "warning",
            )
        )
    return problems


def locate(book: Book, url: str) -> Location:
    """Where the book writes ``url``: as fetched, unquoted, or its path (``../../x``)."""
    parts = urlsplit(url)
    candidates = [url, unquote(url)]
    path = unquote(parts.path)
    if parts.scheme.lower() == "file":
        # WeasyPrint resolved a relative URL against the book folder: try it as written.
        candidates += [os.path.relpath(path, book.root), path]
    for needle in candidates:
        found = book.locate(needle)
        if found.file is not None:
            return found
    return Location()
