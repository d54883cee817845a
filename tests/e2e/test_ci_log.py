"""Nothing a book names is printed raw to a CI log (issue 35): a file name holding a line
break and ``::error`` would be a GitHub Actions command at the start of a line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from kobook.errors import printable
from tests.conftest import BookMaker

EVIL = "02 b\n::error file=evil::x.md"


def kobook(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kobook", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, CI="true"),
        timeout=600,
    )


def lines_of(result: subprocess.CompletedProcess[str]) -> list[str]:
    return (result.stdout + result.stderr).splitlines()


def test_printable_keeps_text_on_one_line() -> None:
    assert printable("plain 한글 text") == "plain 한글 text"
    assert printable(EVIL) == "02 b\\n::error file=evil::x.md"
    assert "\n" not in printable("a\r\n\u2028\u0085\x1b[31mb") and "\x1b" not in printable("\x1b")


def test_a_chapter_file_name_cannot_start_a_line_of_the_log(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 처음\n\n본문.\n", f"book/{EVIL}": "# 둘\n\nGPU을 쓴다.\n"})
    for command in (["build", "html"], ["check"]):
        result = kobook(*command, "--project", str(root))
        text = lines_of(result)
        assert not [line for line in text if line.startswith("::")], (command, text)
        assert any("::error file=evil::x.md" in line for line in text), (command, text)


def test_github_format_stays_escaped(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 처음\n\n본문.\n", f"book/{EVIL}": "# 둘\n\nGPU을 쓴다.\n"})
    result = kobook("check", "--format", "github", "--project", str(root))
    commands = [line for line in lines_of(result) if line.startswith("::")]
    assert commands and all(
        line.startswith(("::warning", "::error", "::notice")) for line in commands
    )
    assert not [line for line in commands if line.startswith("::error file=evil")]
    assert Path(root / "book" / EVIL).is_file()
