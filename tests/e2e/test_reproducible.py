"""Reproducible artifacts: the same sources give the same bytes (kobook.reproducible).

The sample book is copied to two folders (so every absolute path differs),
and built with its own cache and output folder each, with one
``SOURCE_DATE_EPOCH``: the PDFs of both engines and every file of the site
must be equal byte for byte, carry that date, and name no folder of the build.
A third build reuses the first copy's warm cache: a cache hit gives the same
bytes as a miss.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import StreamObject

import kobook
from tests.conftest import BookMaker, sample_copy

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
EPOCH = 1700000000  # 2023-11-14 22:13:20 UTC: not the sample book's date (2026-11-21)
OTHER_EPOCH = 1600000000  # 2020-09-13 12:26:40 UTC


@contextmanager
def source_date(epoch: int | str | None) -> Iterator[None]:
    """Set (or unset) SOURCE_DATE_EPOCH for one in-process build."""
    before = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        os.environ.pop("SOURCE_DATE_EPOCH", None)
    else:
        os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before


class Build:
    """One build of a copy of the sample book: where it ran and what it wrote."""

    def __init__(self, root: Path, project: Path, cache: Path, formats: list[str], engine: str):
        self.root, self.project, self.cache = root, project, cache
        self.out = root / f"out-{engine}"
        with source_date(EPOCH):
            self.result = kobook.build(
                project, formats, engine=engine, out=self.out, cache_dir=cache
            )

    def site(self) -> dict[str, tuple[int, bytes]]:
        """Every file and folder of the site: relative path → (mode, bytes)."""
        html = self.result.outputs["html"].parent
        return {
            path.relative_to(html).as_posix(): (
                path.stat().st_mode & 0o7777,
                path.read_bytes() if path.is_file() else b"",
            )
            for path in sorted(html.rglob("*"))
        }


@pytest.fixture(scope="module")
def weasy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Build, Build, Build]:
    """Two cold builds (PDF + site) in two copies, and a warm rebuild of the first."""
    builds = []
    for name in ("first", "second"):
        root = tmp_path_factory.mktemp(f"repro-{name}")
        builds.append(Build(root, sample_copy(root), root / "cache", ["pdf", "html"], "weasyprint"))
    first = builds[0]
    warm_root = tmp_path_factory.mktemp("repro-warm")
    warm = Build(warm_root, first.project, first.cache, ["pdf", "html"], "weasyprint")
    return builds[0], builds[1], warm


@pytest.fixture(scope="module")
def xelatex(weasy: tuple[Build, Build, Build]) -> tuple[Build, Build]:
    """XeLaTeX PDFs of the same two copies, each with a cache of its own."""
    first, second, _ = weasy
    return (
        Build(first.root, first.project, first.root / "xe-cache", ["pdf"], "xelatex"),
        Build(second.root, second.project, second.root / "xe-cache", ["pdf"], "xelatex"),
    )


def pdf_bytes(build: Build) -> bytes:
    return build.result.outputs["pdf"].read_bytes()


def creation_date(pdf: Path) -> int:
    info = PdfReader(pdf).metadata
    assert info is not None and info.creation_date is not None
    return int(info.creation_date.timestamp())


def test_weasyprint_pdf_is_the_same_from_two_folders(weasy: tuple[Build, Build, Build]) -> None:
    first, second, _ = weasy
    assert first.project != second.project
    assert pdf_bytes(first) == pdf_bytes(second)


def test_xelatex_pdf_is_the_same_from_two_folders(xelatex: tuple[Build, Build]) -> None:
    first, second = xelatex
    assert pdf_bytes(first) == pdf_bytes(second)


def test_site_is_the_same_from_two_folders(weasy: tuple[Build, Build, Build]) -> None:
    first, second, _ = weasy
    site = first.site()
    assert len(site) >= 10 and "index.html" in site and "images/gpu-memory.png" in site
    assert site == second.site()  # names, modes and bytes


def test_a_warm_cache_gives_the_same_bytes(weasy: tuple[Build, Build, Build]) -> None:
    first, _, warm = weasy
    assert any(first.cache.rglob("*.png"))  # the rebuild did find something in the cache
    assert pdf_bytes(warm) == pdf_bytes(first)
    assert warm.site() == first.site()


def test_the_pdfs_are_dated_by_source_date_epoch(
    weasy: tuple[Build, Build, Build], xelatex: tuple[Build, Build]
) -> None:
    for build in (weasy[0], xelatex[0]):
        assert creation_date(build.result.outputs["pdf"]) == EPOCH


def byte_strings(path: Path) -> list[bytes]:
    """A file's bytes, and for a PDF also every object with its stream decoded."""
    found = [path.read_bytes()]
    if path.suffix != ".pdf":
        return found
    reader = PdfReader(path)
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(number)
        except Exception:  # a free entry
            continue
        if isinstance(obj, StreamObject):
            found.append(obj.get_data())
        elif obj is not None:
            buffer = io.BytesIO()
            obj.write_to_stream(buffer)
            found.append(buffer.getvalue())
    return found


def test_no_absolute_path_of_the_build_is_in_any_output(
    weasy: tuple[Build, Build, Build], xelatex: tuple[Build, Build]
) -> None:
    first = weasy[0]
    html = first.result.outputs["html"].parent
    outputs = [first.result.outputs["pdf"], xelatex[0].result.outputs["pdf"]]
    outputs += [p for p in html.rglob("*") if p.is_file()]
    paths = {first.root, first.project, first.cache, REPO, Path.home(), Path(sys.prefix)}
    needles = {str(p).encode() for p in paths} | {str(p.resolve()).encode() for p in paths}
    for output in outputs:
        for data in byte_strings(output):
            for needle in needles:
                assert needle not in data, f"{needle!r} in {output.name}"


def tiny_pdf(
    make_book: BookMaker, epoch: int | None, engine: str | None = None, **metadata: object
) -> Path:
    project = make_book(
        {"book/01.md": "# 제목\n\n본문 한 줄."}, metadata={"title": "책", **metadata}
    )
    with source_date(epoch):
        result = kobook.build(project, ["pdf"], engine=engine, out=project / f"dist-{epoch}")
    return result.outputs["pdf"]


@pytest.mark.parametrize("engine", ["typst", "weasyprint"])
def test_the_pdf_date_follows_source_date_epoch(make_book: BookMaker, engine: str) -> None:
    first = tiny_pdf(make_book, EPOCH, engine)
    second = tiny_pdf(make_book, OTHER_EPOCH, engine)
    assert creation_date(first) == EPOCH and creation_date(second) == OTHER_EPOCH
    info = PdfReader(second).metadata
    assert info is not None and info.modification_date == info.creation_date


@pytest.mark.parametrize("engine", ["typst", "weasyprint"])
def test_without_source_date_epoch_no_build_time(make_book: BookMaker, engine: str) -> None:
    """The book's date when it is one, else no date at all (kobook.reproducible)."""
    dated = tiny_pdf(make_book, None, engine, date="2025-02-04")
    assert creation_date(dated) == 1738627200  # 2025-02-04 00:00 UTC
    undated = tiny_pdf(make_book, None, engine)
    info = PdfReader(undated).metadata
    assert info is not None and "/CreationDate" not in info and "/ModDate" not in info


TINY = """# 제목

💡 이모지(색 글꼴을 다시 쓴다)와 그림(이름이 경로에서 나오면 안 된다)이 있는 본문.

![점 하나](images/pixel.png){#fig:pixel}
"""


@pytest.mark.parametrize("engine", ["weasyprint", "xelatex"])
def test_without_source_date_epoch_two_folders_give_the_same_pdf(
    make_book: BookMaker, tmp_path: Path, engine: str
) -> None:
    """No SOURCE_DATE_EPOCH: still the same bytes (WeasyPrint rewrites the emoji font,
    xdvipdfmx draws subset tags and /ID), dated by the book's date."""
    project = make_book(
        {"book/01.md": TINY}, {"title": "책", "date": "2025-02-04"}, ["images/pixel.png"]
    )
    other = shutil.copytree(project, tmp_path / "elsewhere" / "copy")
    pdfs = []
    for folder in (project, other):
        with source_date(None):
            result = kobook.build(
                folder, ["pdf"], engine=engine, out=folder / "dist", cache_dir=folder / "cache"
            )
        pdfs.append(result.outputs["pdf"])
    assert pdfs[0].read_bytes() == pdfs[1].read_bytes()
    assert creation_date(pdfs[0]) == 1738627200  # 2025-02-04 00:00 UTC


def test_a_malformed_source_date_epoch_is_a_clear_error(make_book: BookMaker) -> None:
    project = make_book({"book/01.md": "# 제목\n\n본문."}, metadata={"title": "책"})
    env = dict(os.environ, SOURCE_DATE_EPOCH="2026-11-21")
    result = subprocess.run(
        [sys.executable, "-m", "kobook", "build", "html", "--project", str(project)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "ENV002" in result.stderr and "SOURCE_DATE_EPOCH='2026-11-21'" in result.stderr
    assert not (project / "dist").exists()
