"""The Typst compiler, kept between builds of one process.

A ``typst.Compiler`` keeps the fonts it loaded, the files it read and, through
Typst's memoization, the layout of what did not change: compiling the playbook
again after a one-paragraph edit takes 0.35 s with the same compiler, 1.2 s with a
new one and 2 s in a new process.  ``kobook preview --pdf`` typesets in a process
kept warm (:mod:`kobook.preview.typesetter`) and a program that calls
:func:`kobook.build` again gets the same.  The PDF does not depend on it: the same
source gives the same bytes either way (tests/e2e/test_typst.py).

One compiler is kept, for the last (main file, root, font folders): a process that
builds many books (the tests) holds one at a time.
"""

from __future__ import annotations

import threading
from datetime import datetime
from pathlib import Path
from typing import Any

_LOCK = threading.Lock()
_KEPT: dict[tuple[str, str, tuple[str, ...]], Any] = {}


def compile_pdf(
    main: Path, root: Path, font_paths: list[str], timestamp: datetime | int | None
) -> tuple[bytes, list[Any]]:
    """``main``'s PDF and Typst's warnings (raises ``typst.TypstError``)."""
    import typst

    key = (str(main), str(root), tuple(font_paths))
    with _LOCK:
        compiler = _KEPT.get(key)
        if compiler is None:
            _KEPT.clear()
            compiler = typst.Compiler(input=str(main), root=str(root), font_paths=font_paths)
            _KEPT[key] = compiler
        pdf, warnings = compiler.compile_with_warnings(timestamp=timestamp)
    assert isinstance(pdf, bytes)
    return pdf, list(warnings)


def forget() -> None:
    """Drop the kept compiler (and what it holds)."""
    with _LOCK:
        _KEPT.clear()
