"""A book laid out in runs (two processes) is the book laid out in one process.

write/weasyprint/parallel.py cuts the book between chapters, lays each run out in
a process of its own, and joins the PDFs.  These tests build the same book both
ways (``pdf: {jobs: 1}`` is one process) and compare what a reader sees: every
page's text (running heads, folios, footnote numbers, contents), every page's
pixels, the bookmarks and where every link goes.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from pypdf import PdfReader

import kobook
from kobook.write.weasyprint import engine, parallel
from kobook.write.weasyprint.parallel import planning
from tests.checks import tag_tree
from tests.conftest import BookMaker, runs_of, sample_copy, spy


def page_texts(pdf: Path) -> list[str]:
    count = len(PdfReader(pdf).pages)
    return [
        subprocess.run(
            ["pdftotext", "-layout", "-f", str(n), "-l", str(n), str(pdf), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for n in range(1, count + 1)
    ]


def bookmarks(reader: PdfReader, items: Any = None, depth: int = 0) -> list[tuple[Any, ...]]:
    """(depth, title, page, x, y) of every outline item, in order."""
    found: list[tuple[Any, ...]] = []
    for item in reader.outline if items is None else items:
        if isinstance(item, list):
            found += bookmarks(reader, item, depth + 1)
        else:
            place = (round(float(item.left or 0), 1), round(float(item.top or 0), 1))
            found.append((depth, item.title, reader.get_destination_page_number(item), *place))
    return found


def links(reader: PdfReader) -> list[tuple[Any, ...]]:
    """(page, rectangle, where it goes) of every link: a page and spot, or a URI."""
    names = reader.named_destinations
    found = []
    for number, page in enumerate(reader.pages):
        for annotation in page.get("/Annots") or []:
            link = annotation.get_object()
            if link.get("/Subtype") != "/Link":
                continue
            rect = tuple(round(float(v), 1) for v in link["/Rect"])
            if "/Dest" in link:
                target = names[str(link["/Dest"])]  # KeyError: a link to nowhere
                spot = (round(float(target.left), 1), round(float(target.top), 1))
                found.append((number, rect, reader.get_destination_page_number(target), spot))
            else:
                found.append((number, rect, link["/A"]["/URI"]))
    return found


def pixels(pdf: Path, folder: Path) -> list[bytes]:
    from PIL import Image

    folder.mkdir()
    subprocess.run(["pdftoppm", "-r", "30", "-png", str(pdf), str(folder / "p")], check=True)
    return [Image.open(png).convert("RGB").tobytes() for png in sorted(folder.glob("*.png"))]


def assert_same_book(runs: Path, one: Path, tmp_path: Path) -> None:
    assert page_texts(runs) == page_texts(one)
    first, second = PdfReader(runs), PdfReader(one)
    assert bookmarks(first) == bookmarks(second)
    assert links(first) == links(second)
    assert pixels(runs, tmp_path / "png-runs") == pixels(one, tmp_path / "png-one")
    # One structure tree (tagged PDF): the runs' trees joined are the one process's.
    assert structure(runs) == structure(one)


def structure(pdf: Path) -> list[tuple[int, str, str, tuple[object, ...]]]:
    """The PDF's tag tree (``tests.checks.tag_tree``): every element's role, /Alt and the
    marked content and objects it holds, page by page.  Each file's own numbers are
    left out; a table header's ID must be unique (a run's get their own prefix)."""
    from pypdf import PdfReader

    rows = tag_tree(pdf)
    ids: list[str] = []
    stack = [PdfReader(pdf).trailer["/Root"]["/StructTreeRoot"]]
    while stack:
        node = stack.pop().get_object()
        if hasattr(node, "get"):
            if node.get("/S") == "/TH" and "/ID" in node:
                ids.append(str(node["/ID"]))
            kids = node.get("/K")
            kids = kids.get_object() if kids is not None else []
            stack += kids if isinstance(kids, list) else [kids]
    assert len(ids) == len(set(ids)), "a table header's ID is used twice"
    return rows


def copy_with(project: Path, root: Path, **pdf: object) -> Path:
    """A copy of ``project`` whose metadata.yaml has ``pdf:`` settings added."""
    shutil.copytree(project, root, ignore=shutil.ignore_patterns("dist", ".kobook-cache"))
    meta = root / "metadata.yaml"
    data = yaml.safe_load(meta.read_text(encoding="utf-8")) if meta.is_file() else {}
    data["pdf"] = {**(data.get("pdf") or {}), **pdf}
    meta.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sample_copy(tmp_path_factory.mktemp("runs-sample"))


def build_counting_runs(
    project: Path, out: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, list[object]]:
    """Build the PDF; the second value lists each join of runs (none: one process)."""
    joins = spy(monkeypatch, parallel, "join", lambda *args: args[1])
    result = kobook.build(
        project, ["pdf"], engine="weasyprint", out=out, cache_dir=project.parent / "cache"
    )
    return result.outputs["pdf"], joins


def test_the_sample_book_in_two_runs_is_the_book_in_one_process(
    sample: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    sample_build: Callable[[str], kobook.BuildResult],
) -> None:
    built = sample_build("weasyprint")  # the run's own build of the sample (conftest)
    runs = built.outputs["pdf"]
    # Two runs of chapters, then the index (찾아보기) and the copyright page, laid out once
    # the runs have counted their pages.
    assert json.loads(runs_of(built).read_text(encoding="utf-8")) == [3]
    single = copy_with(sample, tmp_path / "single" / "book", jobs=1)
    one, none = build_counting_runs(single, tmp_path / "one", monkeypatch)
    assert none == []
    assert_same_book(runs, one, tmp_path)
    # Every run subsets a font to the glyphs of the whole book, and the join keeps one
    # copy: no more font programs than one process embeds, and a file barely larger.
    assert len(font_programs(runs)) <= len(font_programs(one))
    assert runs.stat().st_size < 1.35 * one.stat().st_size


def font_programs(pdf: Path) -> set[int]:
    """The embedded font files (object numbers) the pages' fonts use."""
    reader = PdfReader(pdf)
    found = set()
    for page in reader.pages:
        fonts = page["/Resources"].get("/Font")
        for font in fonts.get_object().values() if fonts is not None else []:
            font = font.get_object()
            for descendant in font.get("/DescendantFonts") or [font]:
                descriptor = descendant.get_object().get("/FontDescriptor")
                for key in ("/FontFile", "/FontFile2", "/FontFile3"):
                    if descriptor is not None and key in descriptor.get_object():
                        found.add(descriptor.get_object().raw_get(key).idnum)
    return found


CHAPTERS = {
    "book/01-a.md": (
        "# 첫째 장 {#sec:a}\n\n본문에 각주가 있다.[^1] 둘째 장(@sec:b)을 보라.\n\n"
        "[^1]: 첫째 각주.\n\n"
        + "긴 문단을 여러 번 쓴다. " * 400
        + "\n\n## 첫 절 {#sec:a1}\n\n마지막.\n"
    ),
    "book/02-b.md": (
        "# 둘째 장 {#sec:b}\n\n다시 각주.[^2] 첫 절(@sec:a1)로 돌아가고, "
        '<a href="#nowhere">없는 곳</a>도 있다.\n\n[^2]: 둘째 각주.\n\n'
        + "다른 문단도 길다. " * 300
        + "\n"
    ),
    "book/03-c.md": "# 셋째 장 {#sec:c}\n\n셋째 각주.[^3]\n\n[^3]: 셋째.\n",
}


@pytest.mark.parametrize("classoption", [None, "oneside"])
def test_footnotes_links_and_contents_cross_the_cut(
    make_book: BookMaker,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    classoption: str | None,
) -> None:
    monkeypatch.setattr(planning, "MIN_WEIGHT", 0.0)
    metadata: dict[str, object] = {"title": '책 "제목" </style>', "lang": "ko", "toc": True}
    if classoption:
        metadata["classoption"] = classoption
    project = make_book(CHAPTERS, metadata=metadata)
    runs, joins = build_counting_runs(project, tmp_path / "runs", monkeypatch)
    assert len(joins) == 1 and len(joins[0]) >= 2  # type: ignore[arg-type]
    single = copy_with(project, tmp_path / "single" / "book", jobs=1)
    one, none = build_counting_runs(single, tmp_path / "one", monkeypatch)
    assert none == []
    assert_same_book(runs, one, tmp_path)
    text = "\f".join(page_texts(runs))
    assert "3. 셋째." in text  # footnotes numbered through the book
    assert '책 "제목" </style>' in text  # the title in the running heads of later runs
    assert not any(target == "nowhere" for *_, target in links(PdfReader(runs)))


def test_a_run_that_fails_leaves_the_book_to_one_process(
    make_book: BookMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(planning, "MIN_WEIGHT", 0.0)
    given = parallel.sent

    def broken(settings: dict[str, Any]) -> dict[str, Any]:
        """Every run's process is told to set a setting WeasyPrint's set-up does not have:
        it fails there (a monkeypatch would not reach a process of its own)."""
        return {**given(settings), "prepare": functools.partial(engine.enter, {"nothing": 1})}

    monkeypatch.setattr(parallel, "sent", broken)
    project = make_book(CHAPTERS, metadata={"title": "책", "lang": "ko"})
    written = spy(monkeypatch, parallel, "write", lambda *args: args[0])
    pdf, joins = build_counting_runs(project, tmp_path / "out", monkeypatch)
    assert len(written) == 1 and joins == []  # tried, then laid out in one process
    text = "\f".join(page_texts(pdf))
    assert "셋째 장" in text and "3. 셋째." in text
    assert not list((tmp_path / "out").glob(".*.tmp"))


def test_a_process_with_other_threads_still_lays_out_in_runs(
    make_book: BookMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runs' processes come from a fork server, not from the build (whose other
    threads, a preview server's, could leave a forked child deadlocked)."""
    monkeypatch.setattr(planning, "MIN_WEIGHT", 0.0)
    project = make_book(CHAPTERS, metadata={"title": "책", "lang": "ko"})
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        pdf, joins = build_counting_runs(project, tmp_path / "out", monkeypatch)
    finally:
        stop.set()
        thread.join()
    assert len(joins) == 1
    assert "3. 셋째." in "\f".join(page_texts(pdf))


SCRIPT = """
import sys
from pathlib import Path

import kobook
from kobook.write.weasyprint import engine, parallel
from kobook.write.weasyprint.parallel import planning

planning.MIN_WEIGHT = 0.0
join = parallel.join
joined = []
parallel.join = lambda *args: joined.append(len(args[1])) or join(*args)
result = kobook.build(Path(sys.argv[1]), ["pdf"], engine="weasyprint", out=Path(sys.argv[2]))
print("built", joined, result.outputs["pdf"].name)
"""


def test_a_script_that_builds_at_its_top_level_is_not_run_again_by_the_runs(
    make_book: BookMaker, tmp_path: Path
) -> None:
    """A run's process does not import the caller's main module (as ``multiprocessing``'s
    spawned processes do): a script without ``if __name__ == "__main__"`` builds once."""
    import sys

    project = make_book(CHAPTERS, metadata={"title": "책", "lang": "ko"})
    script = tmp_path / "build.py"
    script.write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), str(project), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["built [2] book.pdf"]  # once, in two runs


def test_a_book_stylesheet_counting_across_chapters_is_one_process(
    make_book: BookMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(planning, "MIN_WEIGHT", 0.0)
    files = {**CHAPTERS, "templates/pdf/extra.css.j2": "h1 { counter-increment: chap; }\n"}
    project = make_book(files, metadata={"title": "책", "lang": "ko"})
    _, joins = build_counting_runs(project, tmp_path / "out", monkeypatch)
    assert joins == []


def test_a_missing_glyph_fails_before_layout_and_is_counted_once_in_runs(
    make_book: BookMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(planning, "MIN_WEIGHT", 0.0)
    files = {**CHAPTERS, "book/03-c.md": "# 셋째 장\n\n이 문자 \U000f0000 는 어느 글꼴에도 없다.\n"}
    project = make_book(files, metadata={"title": "책", "lang": "ko"})
    joins = spy(monkeypatch, parallel, "join", lambda *args: args[1])
    with pytest.raises(kobook.KobookError) as info:
        kobook.build(project, ["pdf"], engine="weasyprint", out=tmp_path / "out")
    assert joins == []  # refused before any layout (issue 29: seconds, not minutes)
    assert info.value.code == "GLYPH001"
    assert "U+F0000" in str(info.value) and "03-c.md:3" in str(info.value)
    assert not (tmp_path / "out" / "book.pdf").exists()
    result = kobook.build(
        project, ["pdf"], engine="weasyprint", out=tmp_path / "kept", keep_going=True
    )
    assert len(joins) == 1 and result.outputs["pdf"].is_file()  # laid out in runs
    glyphs = [d for d in result.diagnostics if d.code == "GLYPH001"]
    assert len(glyphs) == 1 and "drawn 1×" in glyphs[0].message  # the run's own count
