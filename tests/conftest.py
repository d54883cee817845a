"""Shared fixtures: tiny books in temporary folders, the sample book, the corpus."""

from __future__ import annotations

import fcntl
import functools
import ipaddress
import json
import os
import pickle
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

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
T = TypeVar("T")


def need_corpus(path: Path) -> None:
    """Fail, saying where, when ../shared is absent: ``make test`` runs every test, and
    the corpus lies beside the project on CI and on a developer's machine alike."""
    if not path.exists():
        pytest.fail(
            f"the corpus is not at {path}: put ../shared beside the project "
            "(or point KOBOOK_SHARED at it)"
        )


# ``make test`` runs a worker per core (pytest-xdist, ``--dist loadfile``): a module's
# tests stay on one worker.  The modules that take minutes go first, so that neither
# worker is left alone with one of them at the end.
FIRST = (
    "tests/e2e/test_corpus_mdbook.py",
    "tests/e2e/test_corpus_distill.py",
    "tests/e2e/test_reproducible.py",
    "tests/e2e/test_corpus_playbook.py",
    "tests/e2e/test_weasy_runs.py",
    "tests/e2e/test_upstream_rust.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules of :data:`FIRST` first (``--no-loadscope-reorder`` keeps this order)."""
    rank = {module: place for place, module in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(FIRST)))


def once_per_run(
    factory: pytest.TempPathFactory, worker: str, name: str, make: Callable[[], T]
) -> T:
    """``make()``, run once for the whole test run even when several pytest-xdist workers
    ask for it (pytest-xdist's recipe): the first worker makes it under a lock in the
    folder the workers share and pickles it there; the others wait and read it.  What
    ``make`` returns must stay valid for the run (files under ``factory``'s folders)."""
    if worker == "master":  # no pytest-xdist
        return make()
    shared = factory.getbasetemp().parent / f"once-{name}"
    with (shared.parent / f"once-{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if shared.exists():
            return cast(T, pickle.loads(shared.read_bytes()))
        made = make()
        shared.with_suffix(".tmp").write_bytes(pickle.dumps(made))
        shared.with_suffix(".tmp").rename(shared)
        return made


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
    tmp_path_factory: pytest.TempPathFactory, worker_id: str
) -> Callable[[str], kobook.BuildResult]:
    """The sample book's PDF through an engine, built once per engine for the whole run
    (:func:`once_per_run`): a WeasyPrint build takes about 40 s on CI's two cores, and
    several test modules read it (read-only).  The WeasyPrint build (the default engine's)
    also writes the site, as ``make pdf html`` does."""
    cache = tmp_path_factory.mktemp("sample-cache")

    @functools.cache
    def build(engine: str) -> kobook.BuildResult:
        def make() -> kobook.BuildResult:
            from kobook.write.weasyprint import parallel

            out = tmp_path_factory.mktemp(f"sample-{engine}")
            formats = ["pdf", "html"] if engine == "weasyprint" else ["pdf"]
            with pytest.MonkeyPatch.context() as patch:
                joins = spy(patch, parallel, "join", lambda *args: len(args[1]))
                result = kobook.build(REPO, formats, engine=engine, cache_dir=cache, out=out)
            runs_of(result).write_text(json.dumps(joins), encoding="utf-8")
            return result

        return once_per_run(tmp_path_factory, worker_id, f"sample-{engine}", make)

    return build


def runs_of(result: kobook.BuildResult) -> Path:
    """Where :func:`sample_build` notes how many runs each join of WeasyPrint's runs
    (``write/weasyprint/parallel``) put together: ``[3]``, or ``[]`` for one process."""
    pdf = result.outputs["pdf"]
    return pdf.parent.with_name(pdf.parent.name + "-runs.json")


@pytest.fixture(scope="session")
def playbook_build(
    tmp_path_factory: pytest.TempPathFactory, worker_id: str
) -> Callable[[str], tuple[kobook.BuildResult, Path]]:
    """The corpus playbook through an engine, built once per engine for the whole run
    (:func:`once_per_run`), and the cache folder of its build (the engines a worker builds
    share one, so the front stages run once there).  The WeasyPrint build also writes the
    site and the EPUB, as ``kobook build all`` does."""
    cache = tmp_path_factory.mktemp("playbook-cache")

    @functools.cache
    def build(engine: str) -> tuple[kobook.BuildResult, Path]:
        need_corpus(PLAYBOOK)

        def make() -> tuple[kobook.BuildResult, Path]:
            out = tmp_path_factory.mktemp(f"playbook-{engine}")
            formats = ["pdf", "html", "epub"] if engine == "weasyprint" else ["pdf"]
            result = kobook.build(PLAYBOOK, formats, engine=engine, cache_dir=cache, out=out)
            return result, cache

        return once_per_run(tmp_path_factory, worker_id, f"playbook-{engine}", make)

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
