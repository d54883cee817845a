"""Python's cyclic garbage collector, set for the length of a build.

A build holds the book's trees (hundreds of thousands of lists and dicts), and every
full collection walks all of them again: a cold build of a 600-page book ran eighteen,
about a tenth of its Python time, and pypdf's join of a WeasyPrint book's runs (its
two hundred thousand objects) a fifth.  Almost nothing a build makes is a cycle that
outlives the build, so while it runs the youngest generation is collected a hundred
times less often and the oldest in practice not at all; the thresholds the process
had are put back when it ends, so a program that builds in a loop (or the preview,
which freezes what it keeps: ``preview.session``) collects between builds as before.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

# (generation 0, 1, 2) as gc.set_threshold takes them; CPython's default: (700, 10, 10).
DURING_A_BUILD = (100_000, 50, 100)


@contextlib.contextmanager
def few_collections() -> Iterator[None]:
    """Collect rarely while the block runs (also a decorator: ``@few_collections()``);
    forked processes (WeasyPrint's runs) inherit it."""
    before = gc.get_threshold()
    gc.set_threshold(*DURING_A_BUILD)
    try:
        yield
    finally:
        gc.set_threshold(*before)
