"""Issue 8's denial-of-service reproducers through the ``kobook`` command, and a killed build.

Each tiny hostile input ends with ``error: FILE:LINE: LIMITnnn`` and exit 1 (no
traceback, no hang): the limit is asserted by its error, never by a clock (how
fast each is refused is measured by ``scripts/bench_limits.py``); a document
exactly at the limits builds; a build stopped by SIGTERM or Ctrl-C leaves no
temporary file and keeps the previous outputs; a ``.kobook-cache/`` from a
repository cannot change what the Markdown says.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import kobook
from kobook import cache as cache_module
from kobook import limits
from kobook.cache import digest
from kobook.load import load_book
from kobook.parse import guard, reader_for
from kobook.parse.pandoc import markdown_to_ast, pandoc_version
from tests.conftest import BookMaker
from tests.e2e.test_cli import kobook as cli
from tests.unit.test_limits import ALIAS_BOMB, nest


def refused(result: subprocess.CompletedProcess[str], code: str, where: str) -> str:
    """Exit 1 with ``error: WHERE...: CODE``, no traceback; returns stderr."""
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert re.search(rf"error: \S*{re.escape(where)}\S*: {code} ", result.stderr), result.stderr
    return result.stderr


# --- the reproducers --------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["html", "pdf"])
def test_500_bytes_of_quotes_are_refused_with_the_line(make_book: BookMaker, fmt: str) -> None:
    root = make_book({"book/01.md": "# 제목\n\n" + "> " * 250 + "깊다\n"})
    result = cli("build", fmt, "-q", "--project", str(root))
    refused(result, "LIMIT001", "book/01.md:3:")


@pytest.mark.parametrize("marker", ["> ", "- "])
def test_a_hundred_thousand_levels_never_reach_pandoc(make_book: BookMaker, marker: str) -> None:
    root = make_book({"book/01.md": "# 제목\n\n" + marker * 100_000 + "x\n"})
    result = cli("build", "html", "-q", "--project", str(root))
    refused(result, "LIMIT001", "book/01.md:3:")


def test_twenty_unclosed_brackets_never_reach_pandoc(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 제목\n\n본문\n" + "[" * 20 + "x\n"})
    result = cli("build", "html", "-q", "--project", str(root))
    refused(result, "LIMIT002", "book/01.md:4:")


def test_the_alias_bomb_in_metadata_is_refused_fast(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 제목\n\n본문\n"})
    (root / "metadata.yaml").write_text(ALIAS_BOMB + "\ntitle: 책\n", encoding="utf-8")
    result = cli("build", "html", "-q", "--project", str(root))
    refused(result, "LIMIT008", "metadata.yaml:")
    check = cli("check", "--project", str(root))
    assert "LIMIT008" in check.stderr and "Traceback" not in check.stderr


def test_a_50_mb_chapter_is_refused_before_it_is_read(make_book: BookMaker) -> None:
    line = "# 장 제목\n" + "본문 문장입니다. " * 10 + "\n"
    root = make_book({"book/01.md": line * (50 * 2**20 // len(line.encode()))})
    # A small wrapper process runs kobook and reports its child's peak memory: measured
    # from pytest itself, a forked child's peak would include pytest's own pages.
    wrapper = (
        "import resource, subprocess, sys\n"
        "proc = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "sys.stderr.write(proc.stderr)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.exit(proc.returncode)\n"
    )
    command = [sys.executable, "-m", "kobook", "build", "html", "-q", "--project", str(root)]
    result = subprocess.run(
        [sys.executable, "-c", wrapper, *command],
        capture_output=True,
        text=True,
        env=dict(os.environ, CI="true"),
        timeout=120,
    )
    peak_kb = int(result.stdout.strip().splitlines()[-1])
    assert "50.0 MiB" in refused(result, "LIMIT003", "book/01.md")
    assert peak_kb < 400 * 1024, f"peak {peak_kb} KB"  # it was 7.8 GB


def test_twenty_thousand_footnotes_are_refused_fast(make_book: BookMaker) -> None:
    count = 20_000
    body = "".join(f"문장 {n}입니다.[^n{n}]\n\n" for n in range(count))
    notes = "".join(f"[^n{n}]: 각주 {n}.\n" for n in range(count))
    root = make_book({"book/01.md": "# 장\n\n" + body + notes})
    result = cli("build", "pdf", "-q", "--project", str(root))
    first_past = 3 + 2 * limits.MAX_FOOTNOTES  # the line of note number MAX + 1
    refused(result, "LIMIT005", f"book/01.md:{first_past}:")


def test_128_kb_of_one_line_chapters_is_refused_fast(make_book: BookMaker) -> None:
    text = "".join(f"# 장 {n}\n" for n in range(16_000))
    assert len(text.encode()) < 200_000
    root = make_book({"book/01.md": text})
    result = cli("build", "html", "-q", "--project", str(root))
    stderr = refused(result, "LIMIT004", f"book/01.md:{limits.MAX_AUTO_CHAPTERS + 1}")
    assert "chapter-level" in stderr


def test_pandoc_that_runs_too_long_is_stopped_and_named(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 제목\n\n본문\n"})
    driver = (
        "import sys\n"
        "from kobook import limits\n"
        "limits.PANDOC_TIMEOUT = 0.001\n"
        "from kobook.cli import run\n"
        "sys.argv = ['kobook', *sys.argv[1:]]\n"
        "run()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", driver, "build", "html", "-q", "--project", str(root)],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, CI="true"),
    )
    stderr = refused(result, "LIMIT006", "book/01.md")
    assert "pandoc (parsing 01.md) took longer than 0.001 s" in stderr


# --- exactly at the limits ----------------------------------------------------------------


@pytest.fixture(scope="module")
def at_the_limits(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A book whose chapters nest exactly ``MAX_NESTING`` deep, built to HTML and PDF."""
    root = tmp_path_factory.mktemp("limits")
    (root / "book").mkdir()
    for number, kind in enumerate(["quote", "list", "indented", "mixed", "divs"], 1):
        text = f"# {kind}\n\n" + nest(kind, limits.MAX_NESTING).replace("항목", f"바닥{number}")
        text = text.replace("깊다", f"바닥{number}").replace("본문", f"바닥{number}")
        (root / "book" / f"0{number}.md").write_text(text, encoding="utf-8")
    brackets = "[" * limits.MAX_BRACKET_DEPTH + "괄호" + "]" * limits.MAX_BRACKET_DEPTH
    (root / "book" / "06.md").write_text(f"# brackets\n\n{brackets}\n", encoding="utf-8")
    (root / "book" / "07.md").write_text(deepest_ast(limits.MAX_AST_DEPTH), encoding="utf-8")
    result = cli("build", "html", "pdf", "-q", "--project", str(root))
    assert result.returncode == 0, result.stderr
    return root


def deepest_ast(depth: int) -> str:
    """A chapter whose AST is exactly ``depth`` deep: the deepest lists, then raw ``<b>``s."""
    for count in range(depth):
        bold = "<b>" * count + "바닥7" + "</b>" * count
        text = "# ast\n\n" + "- " * limits.MAX_NESTING + bold + "\n"
        if guard.depth_of(markdown_to_ast(text)["blocks"])[0] == depth:
            return text
    raise AssertionError(f"no chapter {depth} deep")


def test_one_element_past_the_ast_limit_is_refused(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": deepest_ast(limits.MAX_AST_DEPTH + 1)})
    result = cli("build", "html", "-q", "--project", str(root))
    refused(result, "LIMIT001", "book/01.md:3:")


def test_the_deepest_allowed_book_builds_to_html(at_the_limits: Path) -> None:
    site = "".join(p.read_text("utf-8") for p in (at_the_limits / "dist/html").glob("0*.html"))
    for number in (1, 2, 3, 4, 5, 7):  # 6 holds the brackets
        assert f"바닥{number}" in site
    assert "괄호" in site


def test_the_deepest_allowed_book_builds_to_pdf(at_the_limits: Path) -> None:
    from tests.checks import pdf_pages

    text = "".join(pdf_pages(at_the_limits / "dist" / "book.pdf"))
    for number in (1, 2, 3, 4, 5, 7):  # 6 holds the brackets
        assert f"바닥{number}" in text
    assert "괄호" in text


def test_one_level_past_the_limit_is_refused(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 장\n\n" + nest("list", limits.MAX_NESTING + 1)})
    result = cli("build", "html", "-q", "--project", str(root))
    refused(result, "LIMIT001", "book/01.md:3:")


@pytest.mark.slow
def test_the_site_grows_linearly_with_the_chapter_count(make_book: BookMaker) -> None:
    count = 400
    root = make_book(
        {"book/all.md": "".join(f"# 장 {n}\n\n본문 {n}.\n\n" for n in range(count))},
        metadata={"chapter-level": 1},
    )
    result = cli("build", "html", "-q", "--project", str(root))
    assert result.returncode == 0, result.stderr
    pages = list((root / "dist" / "html").glob("*.html"))
    assert len(pages) == count + 1
    total = sum(page.stat().st_size for page in pages)
    # With every chapter in every sidebar it was ~100 bytes × count² (16 MB here).
    assert total < count * 20_000, total
    index = (root / "dist" / "html" / "index.html").read_text("utf-8")
    assert index.count('href="ch') >= count  # the index still lists them all


# --- a killed build leaves nothing behind -----------------------------------------------


SLOW_DRIVER = """
import sys, time
import weasyprint
import kobook.write.html.writer as html

original = html.write_site

def slow_site(*args, **kwargs):
    found = original(*args, **kwargs)
    if {slow_html}:
        time.sleep(120)  # the complete site sits in .html.*/ while we wait
    return found

def slow_pdf(self, target=None, **kwargs):
    open(target, "wb").write(b"%PDF-half")
    time.sleep(120)

html.write_site = slow_site
weasyprint.HTML.write_pdf = slow_pdf
from kobook.cli import run
sys.argv = ["kobook", *sys.argv[1:]]
run()
"""


def leftovers(dist: Path) -> list[str]:
    return sorted(p.name for p in dist.iterdir() if p.name.startswith("."))


def wait_for(dist: Path, pattern: str, proc: subprocess.Popen[str]) -> None:
    for _ in range(1200):
        if any(re.fullmatch(pattern, p.name) for p in dist.iterdir()):
            return
        assert proc.poll() is None, proc.communicate()[1]
        time.sleep(0.05)
    raise AssertionError(f"{pattern} never appeared in {dist}")


@pytest.fixture
def built(make_book: BookMaker) -> Iterator[Path]:
    """A small book with a finished build in dist/ (what must survive an interrupted one)."""
    chapters = {f"book/{n:02d}.md": f"# 장 {n}\n\n본문입니다. 문단 {n}.\n" for n in range(1, 4)}
    root = make_book(chapters)
    result = cli("build", "pdf", "html", "-q", "--project", str(root))
    assert result.returncode == 0, result.stderr
    yield root


# The temporary PDF these wait for is WeasyPrint's, which writes it page by page.
WEASYPRINT = ("--engine", "weasyprint")


def interrupt(root: Path, signum: int, wait: str, slow_html: bool) -> tuple[int, str]:
    """Start a build, send ``signum`` once ``wait`` appears in dist/; its exit code and stderr."""
    (root / "book" / "01.md").write_text("# 장 1\n\n바뀐 본문입니다.\n", encoding="utf-8")
    driver = SLOW_DRIVER.format(slow_html=slow_html)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            driver,
            "build",
            "pdf",
            "html",
            "-q",
            *WEASYPRINT,
            "--project",
            root,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, CI="true"),
    )
    try:
        wait_for(root / "dist", wait, proc)
        proc.send_signal(signum)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, stderr


def test_sigterm_while_the_site_is_written_removes_it(built: Path) -> None:
    dist = built / "dist"
    before = (dist / "html" / "01.html").read_bytes()
    code, stderr = interrupt(built, signal.SIGTERM, r"\.html\..+", slow_html=True)
    assert code == 128 + signal.SIGTERM, stderr
    assert "interrupted (SIGTERM)" in stderr and "Traceback" not in stderr
    assert leftovers(dist) == []
    assert (dist / "html" / "01.html").read_bytes() == before  # the last site, untouched


def test_sigterm_while_the_pdf_is_laid_out_removes_the_temporary_pdf(built: Path) -> None:
    dist = built / "dist"
    before = (dist / "book.pdf").read_bytes()
    code, stderr = interrupt(built, signal.SIGTERM, r"\.book\.pdf\..+\.tmp", slow_html=False)
    assert code == 128 + signal.SIGTERM, stderr
    assert leftovers(dist) == []
    assert (dist / "book.pdf").read_bytes() == before
    assert "바뀐 본문" in (dist / "html" / "01.html").read_text("utf-8")  # the site was done


def test_ctrl_c_is_interrupted_not_a_traceback(built: Path) -> None:
    code, stderr = interrupt(built, signal.SIGINT, r"\.html\..+", slow_html=True)
    assert code == 130, stderr
    assert stderr.strip().endswith("interrupted") and "Traceback" not in stderr
    assert leftovers(built / "dist") == []


@pytest.mark.slow
def test_sigterm_during_a_real_pdf_layout(make_book: BookMaker) -> None:
    paragraph = "한국어 문장이 여기에 있습니다. 레이아웃에 시간이 걸리도록 조금 길게 씁니다. " * 3
    chapters = {f"book/{n:02d}.md": f"# 장 {n}\n\n" + f"{paragraph}\n\n" * 40 for n in range(1, 31)}
    root = make_book(chapters)
    proc = subprocess.Popen(
        [sys.executable, "-m", "kobook", "build", "pdf", "-q", *WEASYPRINT, "--project", str(root)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, CI="true"),
    )
    (root / "dist").mkdir(exist_ok=True)
    try:
        wait_for(root / "dist", r"\.book\.pdf\..+\.tmp", proc)
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    assert leftovers(root / "dist") == [] and not (root / "dist" / "book.pdf").exists()


LIMITED_LAYOUT = """
import sys
from kobook import limits
from kobook.cli import run
limits.WEASYPRINT_TIMEOUT = 1.0
sys.argv = ["kobook", *sys.argv[1:]]
run()
"""


def test_a_weasyprint_layout_past_its_limit_is_stopped(make_book: BookMaker) -> None:
    """WeasyPrint lays out in Python, in this process and in its layout processes: past
    WEASYPRINT_TIMEOUT (here 1 s, for a book that takes far longer) the build ends with
    LIMIT006 naming the book, and leaves no PDF and no temporary file."""
    paragraph = "한국어 문장이 여기에 있습니다. 레이아웃에 시간이 걸리도록 조금 길게 씁니다. " * 3
    chapters = {f"book/{n:02d}.md": f"# 장 {n}\n\n" + f"{paragraph}\n\n" * 40 for n in range(1, 31)}
    root = make_book(chapters)
    (root / "dist").mkdir()
    result = subprocess.run(
        [sys.executable, "-c", LIMITED_LAYOUT, "build", "pdf", *WEASYPRINT, "--project", str(root)],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, CI="true"),
    )
    stderr = refused(result, "LIMIT006", root.name)
    assert "WeasyPrint (laying out the PDF) took longer than 1 s" in stderr
    assert leftovers(root / "dist") == [] and not (root / "dist" / "book.pdf").exists()


# --- a cache from a repository ------------------------------------------------------------


INNOCENT = "# 장\n\n무해한 문장입니다.\n"
CRAFTED = "# 장\n\n악성 문장입니다.\n"


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """This test's own user cache folder, so its own machine secret."""
    home = tmp_path / "user-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    cache_module.machine_secret.cache_clear()
    yield home
    cache_module.machine_secret.cache_clear()


def site(root: Path) -> str:
    """The chapter pages of the built site."""
    pages = sorted((root / "dist" / "html").glob("*.html"))
    return "".join(page.read_text("utf-8") for page in pages if page.name != "index.html")


def test_a_crafted_entry_at_the_old_path_is_ignored(make_book: BookMaker, machine: Path) -> None:
    root = make_book({"book/01.md": INNOCENT})
    chapter = load_book(root).chapters[0]
    # What the issue did: the AST of other text, where the old key derivation put it.
    key = digest("ast", pandoc_version(), reader_for(chapter), chapter.text)
    planted = root / ".kobook-cache" / "ast" / key[:2] / f"{key}.json"
    planted.parent.mkdir(parents=True)
    planted.write_text(json_of(CRAFTED), encoding="utf-8")
    kobook.build(root, ["html"])
    assert "무해한" in site(root) and "악성" not in site(root)


def json_of(markdown: str) -> str:
    return json.dumps(markdown_to_ast(markdown))


def test_an_entry_edited_after_it_was_written_is_ignored(
    make_book: BookMaker, machine: Path
) -> None:
    root = make_book({"book/01.md": INNOCENT})
    kobook.build(root, ["html"])
    # This machine's own cache, committed, then changed in a pull request.
    entries = [p for p in (root / ".kobook-cache" / "ast").rglob("*.json")]
    assert entries
    for entry in entries:
        text = json.dumps(json.loads(entry.read_bytes()), ensure_ascii=False)
        entry.write_text(text.replace("무해한", "악성"), encoding="utf-8")
    assert any("악성" in entry.read_text("utf-8") for entry in entries)
    kobook.build(root, ["html"])
    assert "무해한" in site(root) and "악성" not in site(root)


def test_a_cache_from_another_machine_is_not_used(
    make_book: BookMaker, machine: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_book({"book/01.md": INNOCENT})
    kobook.build(root, ["html"])
    entries = {p.name for p in (root / ".kobook-cache" / "ast").rglob("*.json")}
    monkeypatch.setenv("XDG_CACHE_HOME", str(machine.parent / "another-machine"))
    cache_module.machine_secret.cache_clear()
    kobook.build(root, ["html"])
    again = {p.name for p in (root / ".kobook-cache" / "ast").rglob("*.json")}
    # The second machine found none of the first one's entries: it wrote its own beside them.
    assert entries and entries < again and len(again - entries) == len(entries)
