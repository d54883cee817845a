"""Shared fixtures: tiny books in temporary folders, the sample book, the corpus."""

from __future__ import annotations

import ipaddress
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

import kobook
from kobook.transform import public_http
from tests.imageserver import ImageServer, image_server

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KOBOOK_SHARED", REPO.parent / "shared"))
CORPUS = SHARED / "corpus"
PLAYBOOK = CORPUS / "ultrascale-playbook-ko"
SCALING = CORPUS / "scaling-book-en"
RUST_BOOK = CORPUS / "rust-book-ko"
COUNTERS = SHARED / "tools" / "ko_pdf_counters.py"


def need_corpus(path: Path) -> None:
    """Fail, saying where, when ../shared is absent: ``make test`` runs every test, and
    the corpus lies beside the project on CI and on a developer's machine alike."""
    if not path.exists():
        pytest.fail(
            f"the corpus is not at {path}: put ../shared beside the project "
            "(or point KOBOOK_SHARED at it)"
        )


BookMaker = Callable[..., Path]
# What the sample book is made of (a copy builds as the repository does).
SAMPLE = ["book", "images", "templates", "metadata.yaml", "references.bib", "glossary.yaml"]


def sample_copy(folder: Path) -> Path:
    """A copy of the sample book in ``folder/project``."""
    project = folder / "project"
    project.mkdir(parents=True)
    for name in SAMPLE:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, project / name)
        else:
            shutil.copyfile(source, project / name)
    return project


@pytest.fixture(scope="session")
def sample_build(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[str], kobook.BuildResult]:
    """The sample book's PDF through an engine, built once per engine for the whole run:
    a WeasyPrint build takes about 40 s on CI's two cores, and several test modules read it
    (read-only)."""
    built: dict[str, kobook.BuildResult] = {}
    cache = tmp_path_factory.mktemp("sample-cache")

    def build(engine: str) -> kobook.BuildResult:
        if engine not in built:
            out = tmp_path_factory.mktemp(f"sample-{engine}")
            built[engine] = kobook.build(REPO, ["pdf"], engine=engine, cache_dir=cache, out=out)
        return built[engine]

    return build


@pytest.fixture(scope="session")
def playbook_build(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[str], tuple[kobook.BuildResult, Path]]:
    """The corpus playbook through an engine, built once per engine for the whole run,
    and the cache folder the engines share (so the front stages run once).  The
    WeasyPrint build also writes the site and the EPUB, as ``kobook build all`` does."""
    built: dict[str, kobook.BuildResult] = {}
    cache = tmp_path_factory.mktemp("playbook-cache")

    def build(engine: str) -> tuple[kobook.BuildResult, Path]:
        need_corpus(PLAYBOOK)
        if engine not in built:
            out = tmp_path_factory.mktemp(f"playbook-{engine}")
            formats = ["pdf", "html", "epub"] if engine == "weasyprint" else ["pdf"]
            built[engine] = kobook.build(PLAYBOOK, formats, engine=engine, cache_dir=cache, out=out)
        return built[engine], cache

    return build


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample book's HTML site, built once for the whole run (read-only)."""
    root = tmp_path_factory.mktemp("sample-site")
    result = kobook.build(sample_copy(root), ["html"], out=root / "out", cache_dir=root / "c")
    return result.outputs["html"].parent


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless Chromium for the whole run (``tests/browser.py``)."""
    from tests.browser import chromium

    with chromium() as driver:
        yield driver


@pytest.fixture
def pandoc_inputs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What each pandoc run read on its standard input, in order (the runs still happen):
    how a test counts the processes a build starts and what each was given."""
    from kobook.parse import pandoc

    seen: list[str] = []
    original = pandoc.run_pandoc

    def recorded(args: list[str], stdin: str, **kwargs: Any) -> str:
        seen.append(stdin)
        return original(args, stdin, **kwargs)

    monkeypatch.setattr(pandoc, "run_pandoc", recorded)
    return seen


@pytest.fixture
def make_book(tmp_path: Path) -> BookMaker:
    """Write a small book: ``make_book({"book/01.md": "# 제목"}, metadata={...})``."""

    def make(
        files: dict[str, str | bytes],
        metadata: dict[str, object] | None = None,
        images: list[str] | None = None,
    ) -> Path:
        root = tmp_path / "book-project"
        root.mkdir(exist_ok=True)
        if metadata is not None:
            (root / "metadata.yaml").write_text(
                yaml.safe_dump(metadata, allow_unicode=True), encoding="utf-8"
            )
        for name, content in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        for name in images or []:
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REPO / "tests" / "data" / "pixel.png", path)
        return root

    return make


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ImageServer]:
    """A counting image server on 127.0.0.1 for one test, which downloads may reach (a
    build reaches public addresses only: loopback is allowed for this test alone)."""
    allow_loopback(monkeypatch)
    with image_server() as running:
        yield running


def allow_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let downloads reach 127.0.0.0/8 (the tests' servers) for one test."""
    monkeypatch.setattr(public_http, "ALLOWED_NETWORKS", (ipaddress.ip_network("127.0.0.0/8"),))


def spy(
    monkeypatch: pytest.MonkeyPatch, owner: object, name: str, note: Callable[..., object]
) -> list[object]:
    """Wrap the function or method ``owner.name`` (undone after the test): each call
    still runs, and ``note(*args)`` of it (``self`` first for a method) is appended
    to the returned list."""
    original = getattr(owner, name)
    calls: list[object] = []

    def wrapper(*args: object, **kwargs: object) -> object:
        calls.append(note(*args))
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)
    return calls
