"""The 12 tracebacks of issue 8, as the user meets them now: ``error:`` lines, exit 1.

Each test runs the ``kobook`` command on a tiny book holding one mistake and
checks the message names the file (and line, where there is one) and that no
Python traceback reaches the terminal.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import BookMaker
from tests.e2e.test_cli import kobook

CHAPTER = "# 제목\n\n본문입니다. 한국어 문장이 있습니다.\n"


def fails_with(result: object, *words: str) -> str:
    """Exit 1, an ``error:`` line holding ``words``, no traceback; returns stderr."""
    stderr = getattr(result, "stderr", "")
    assert getattr(result, "returncode", None) == 1, stderr
    assert "Traceback" not in stderr, stderr
    assert "error: " in stderr, stderr
    for word in words:
        assert word in stderr, stderr
    return stderr


def no_traceback(result: object) -> None:
    stderr = getattr(result, "stderr", "")
    assert "Traceback" not in stderr, stderr


def site_text(root: Path) -> str:
    """Every page of the HTML site, as one text."""
    pages = sorted((root / "dist" / "html").glob("*.html"))
    return "\n".join(page.read_text(encoding="utf-8") for page in pages)


def book_with(make_book: BookMaker, metadata: str, chapter: str = CHAPTER) -> Path:
    root = make_book({"book/01.md": chapter})
    (root / "metadata.yaml").write_text(metadata, encoding="utf-8")
    return root


# --- 1–2: nesting and memory (the limits catch these first; the CLI is the last resort) ---


def test_deep_quotes_never_show_a_traceback(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 제목\n\n" + "> " * 250 + "깊다\n"})
    html = kobook("build", "html", "-q", "--project", str(root))
    no_traceback(html)
    if html.returncode == 0:  # no depth limit in front: the HTML writer copes
        assert "깊다" in site_text(root)
    else:
        fails_with(html)
    pdf = kobook("build", "pdf", "-q", "--project", str(root))
    no_traceback(pdf)  # WeasyPrint's layout recursion is deeper than Python allows
    if pdf.returncode:
        fails_with(pdf)


# --- 3: original without some keys, and a book's own template ---------------------------


def test_original_title_only_builds(make_book: BookMaker) -> None:
    root = book_with(make_book, "title: 책\noriginal: {title: The Original}\n")
    result = kobook("build", "html", "-q", "--project", str(root))
    assert result.returncode == 0, result.stderr
    assert "The Original" in (root / "dist" / "html" / "index.html").read_text(encoding="utf-8")


def test_template_mistake_names_template_and_line(make_book: BookMaker) -> None:
    root = book_with(make_book, "title: 책\n")
    own = root / "templates" / "html" / "index.html.j2"
    own.parent.mkdir(parents=True)
    own.write_text("<p>\n{{ book_title }}\n{{ nothing.here }}\n", encoding="utf-8")
    result = kobook("build", "html", "-q", "--trust", "--project", str(root))
    fails_with(result, "TPL001", "index.html.j2:3", "'nothing' is undefined")


# --- 4–9: metadata values ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("metadata", "words"),
    [
        ("title: 책\ncheck: {ignore: 5}\n", ("metadata.yaml:2", "CFG003", "check.ignore")),
        ("normalize: {ignore: 5}\n", ("metadata.yaml:1", "CFG003", "normalize.ignore")),
        (
            "title: 책\ncheck:\n  untranslated-min-words: abc\n",
            ("metadata.yaml:3", "CFG009", "abc"),
        ),
        ("linestretch: abc\n", ("metadata.yaml:1", "CFG005", "linestretch")),
        ("title: 책\ndate: 2024-13-45\n", ("metadata.yaml:2", "CFG005", "2024-13-45")),
        ("particles: {words: [a]}\n", ("metadata.yaml:1", "CFG003", "particles.words")),
    ],
)
def test_metadata_value_mistakes(
    make_book: BookMaker, metadata: str, words: tuple[str, ...]
) -> None:
    root = book_with(make_book, metadata)
    fails_with(kobook("build", "html", "-q", "--project", str(root)), *words)


def test_metadata_mistake_stops_check_too(make_book: BookMaker) -> None:
    root = book_with(make_book, "check: {ignore: 5}\n")
    fails_with(kobook("check", "--project", str(root)), "CFG003", "metadata.yaml:1")


def test_duplicate_key_and_duplicate_chapter(make_book: BookMaker) -> None:
    root = book_with(make_book, "title: 하나\nlang: ko\ntitle: 둘\n")
    fails_with(
        kobook("build", "html", "-q", "--project", str(root)),
        "CFG014",
        "metadata.yaml:3",
        "lines 1 and 3",
    )
    (root / "metadata.yaml").write_text(
        "chapters:\n  - book/01.md\n  - book/01.md\n", encoding="utf-8"
    )
    fails_with(
        kobook("build", "html", "-q", "--project", str(root)),
        "CFG015",
        "metadata.yaml:3",
        "lines 2 and 3",
    )


# --- 10: files kobook cannot write ------------------------------------------------------


def test_out_in_proc_is_a_message(make_book: BookMaker) -> None:
    root = book_with(make_book, "title: 책\n")
    fails_with(kobook("build", "html", "-q", "--out", "/proc/kobook-x", "--project", str(root)))


def test_dist_that_is_a_file_is_a_message(make_book: BookMaker) -> None:
    root = book_with(make_book, "title: 책\n")
    (root / "dist").write_text("not a folder", encoding="utf-8")
    fails_with(kobook("build", "html", "-q", "--project", str(root)), str(root / "dist"))
    assert (root / "dist").read_text(encoding="utf-8") == "not a folder"


NOBODY = 65534


def as_user(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """``kobook *args``, as an unprivileged user when the tests run as root (root writes
    into read-only folders, so the mistake would not happen)."""
    if os.geteuid() != 0:
        return kobook(*args)
    drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    return subprocess.run(
        [*drop, sys.executable, "-m", "kobook", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, HOME=str(home)),
        timeout=300,
    )


def test_read_only_folders_are_messages(make_book: BookMaker) -> None:
    made = book_with(make_book, "title: 책\n", "# 제목\n\nGPU을 쓴다.\n")
    # A folder the unprivileged user owns and every user may reach (pytest's is root's own).
    home = Path(tempfile.mkdtemp(prefix="kobook-ro-"))
    home.chmod(0o755)
    root = Path(shutil.copytree(made, home / "book-project"))
    if os.geteuid() == 0:
        for path in [home, *home.rglob("*")]:
            os.chown(path, NOBODY, NOBODY)
    (root / "dist").mkdir()
    (root / "dist").chmod(0o555)
    (root / "book").chmod(0o555)
    try:
        fails_with(as_user("build", "html", "-q", "--project", str(root), home=home), "dist")
        result = as_user("check", "--fix", "--project", str(root), home=home)
        no_traceback(result)
        assert result.returncode == 1
    finally:
        (root / "dist").chmod(0o755)
        (root / "book").chmod(0o755)
        shutil.rmtree(home, ignore_errors=True)


# --- 11: a corrupt image -----------------------------------------------------------------

CORRUPT = "# 제목\n\n본문입니다.\n\n![그림](images/bad.gif)\n"


def test_corrupt_gif_with_xelatex_is_img003_at_its_line(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": CORRUPT, "images/bad.gif": b"GIF89a\x01\x00garbage"})
    result = kobook("build", "pdf", "--engine", "xelatex", "-q", "--project", str(root))
    fails_with(result, "IMG003", "01.md:5", "images/bad.gif")
    assert not (root / "dist" / "book.pdf").exists()


def test_corrupt_gif_with_keep_going_is_a_warning(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": CORRUPT, "images/bad.gif": b"GIF89a\x01\x00garbage"})
    result = kobook("build", "html", "-q", "--keep-going", "--project", str(root))
    assert result.returncode == 0, result.stderr
    assert "IMG003" in result.stderr and "Traceback" not in result.stderr
    assert "images/bad.gif" in site_text(root)


# --- 12: U+2028 / U+2029 -----------------------------------------------------------------

SEPARATED = "# 제목\n\n첫 문장 \u2029 둘째 문장 \u2028 셋째 문장.\n"


@pytest.mark.parametrize(
    ("normalize", "engine"), [(True, "weasyprint"), (False, "weasyprint"), (False, "xelatex")]
)
def test_separators_reach_no_pdf_engine(make_book: BookMaker, normalize: bool, engine: str) -> None:
    # normalize: false keeps them in the text: the writers must still not pass them on.
    root = make_book({"book/01.md": SEPARATED}, metadata={"title": "책", "normalize": normalize})
    result = kobook("build", "pdf", "--engine", engine, "-q", "--project", str(root))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "GLYPH001" not in result.stderr
    assert (root / "dist" / "book.pdf").is_file()


def test_check_reports_and_fixes_separators(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": SEPARATED}, metadata={"title": "책"})
    result = kobook("check", "--project", str(root))
    assert "01.md:3:5: warning KO014" in result.stdout + result.stderr
    kobook("check", "--fix", "--project", str(root))
    fixed = (root / "book" / "01.md").read_text(encoding="utf-8")
    assert fixed == "# 제목\n\n첫 문장 둘째 문장 셋째 문장.\n"


# --- encodings ----------------------------------------------------------------------------


def test_utf16_chapter_is_refused_with_the_right_hint(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# Title\n\nplain ASCII\n".encode("utf-16-le")})
    stderr = fails_with(kobook("build", "html", "-q", "--project", str(root)), "ENC001")
    assert "UTF-16LE" in stderr and "CP949" not in stderr
    assert not (root / "dist").exists()


def test_broken_utf8_is_not_called_cp949(make_book: BookMaker) -> None:
    good = ("가나다라마 " * 8 + "\n").encode()
    root = make_book({"book/01.md": b"# x\n\n" + good + "바".encode()[:2] + b"\n" + good})
    stderr = fails_with(
        kobook("build", "html", "-q", "--project", str(root)), "ENC001", "01.md:4", "broken UTF-8"
    )
    assert "CP949" not in stderr
