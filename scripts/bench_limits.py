"""How fast kobook refuses the hostile inputs of ``tests/e2e/test_limits.py`` (``bench.py
--limits``).

The tests assert that each limit exists, by its error (``LIMITnnn`` with the file and
line); how long the refusal takes is a figure of this machine, so it is measured here,
against the budget each was given: seconds, where pandoc alone ran for minutes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ALIAS_BOMB = "\n".join(
    [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        *(
            f"{name}: &{name} [{','.join([f'*{prev}'] * 9)}]"
            for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
        ),
    ]
)


def chapter(text: str) -> Callable[[Path], None]:
    def write(root: Path) -> None:
        (root / "book").mkdir(parents=True)
        (root / "book" / "01.md").write_text(text, encoding="utf-8")

    return write


def alias_bomb(root: Path) -> None:
    chapter("# 제목\n\n본문\n")(root)
    (root / "metadata.yaml").write_text(ALIAS_BOMB + "\ntitle: 책\n", encoding="utf-8")


def big_chapter(root: Path) -> None:
    line = "# 장 제목\n" + "본문 문장입니다. " * 10 + "\n"
    chapter(line * (50 * 2**20 // len(line.encode())))(root)


def footnotes(root: Path) -> None:
    body = "".join(f"문장 {n}입니다.[^n{n}]\n\n" for n in range(20_000))
    notes = "".join(f"[^n{n}]: 각주 {n}.\n" for n in range(20_000))
    chapter("# 장\n\n" + body + notes)(root)


# name → (how the book is made, the format built, the code expected, the budget in seconds)
CASES: dict[str, tuple[Callable[[Path], None], str, str, float]] = {
    "250 nested quotes": (chapter("# 제목\n\n" + "> " * 250 + "깊다\n"), "pdf", "LIMIT001", 15),
    "100,000 list levels": (chapter("# 제목\n\n" + "- " * 100_000 + "x\n"), "html", "LIMIT001", 15),
    "20 unclosed brackets": (chapter("# 제목\n\n" + "[" * 20 + "x\n"), "html", "LIMIT002", 15),
    "YAML alias bomb": (alias_bomb, "html", "LIMIT008", 15),
    "a 50 MB chapter": (big_chapter, "html", "LIMIT003", 15),
    "20,000 footnotes": (footnotes, "pdf", "LIMIT005", 30),
    "16,000 one-line chapters": (
        chapter("".join(f"# 장 {n}\n" for n in range(16_000))),
        "html",
        "LIMIT004",
        15,
    ),
}


def refusal(name: str, work: Path) -> tuple[float, float, bool]:
    """Seconds until kobook refused the case, its budget, and whether the error was right."""
    make, fmt, code, budget = CASES[name]
    root = work / name.replace(" ", "-").replace(",", "")
    make(root)
    command = [sys.executable, "-m", "kobook", "build", fmt, "-q", "--project", str(root)]
    start = time.perf_counter()
    result = subprocess.run(
        command, capture_output=True, text=True, env=dict(os.environ, CI="true"), timeout=600
    )
    seconds = time.perf_counter() - start
    return seconds, budget, result.returncode == 1 and code in result.stderr


def main() -> int:
    failed = 0
    with tempfile.TemporaryDirectory(prefix="kobook-limits-") as tmp:
        print(f"{'hostile input':<26} {'seconds':>8} {'budget':>7}  refused as expected")
        for name in CASES:
            seconds, budget, right = refusal(name, Path(tmp))
            slow = seconds > budget
            failed += slow or not right
            mark = ("yes" if right else "NO") + ("  OVER BUDGET" if slow else "")
            print(f"{name:<26} {seconds:8.2f} {budget:7.0f}  {mark}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
