"""Python's cyclic garbage collector, set for the length of a build.

A build holds the book's trees (hundreds of thousands of lists and dicts), and every
full collection walks all of them again: a cold build of a 600-page book ran eighteen,
about a tenth of its Python time, and pypdf's join of a WeasyPrint book's runs (its
two hundred thousand objects) a fifth.  Almost nothing a build makes is a cycle that
outlives the build, so while it runs the youngest generation is collected a hundred
times less often and the oldest in practice not at all; the thresholds the process
had are put back when it ends.

Putting them back is not enough for a process that builds again (a program that
builds in a loop, ``bench.py``'s same-process rebuilds): the last build's cycles sit
in the oldest generation, which CPython collects only when it has grown by a quarter,
and the next build raises the thresholds again before it does.  The playbook's
WeasyPrint build left about 200 MB each time (351 → 557 → 747 MB over three builds;
226 → 239 → 240 MB with a collection between them).  So a build that is not the
process's first starts with one full collection; the first pays nothing, and
``kobook build`` exits without one.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

# (generation 0, 1, 2) as gc.set_threshold takes them; CPython's default: (700, 10, 10).
DURING_A_BUILD = (100_000, 50, 100)


_BUILDS = [0]  # builds this process has started


@contextlib.contextmanager
def few_collections() -> Iterator[None]:
    """Collect rarely while the block runs (also a decorator: ``@few_collections()``),
    after collecting what an earlier build left; forked processes inherit it."""
    if _BUILDS[0]:
        gc.collect()
    _BUILDS[0] += 1
    before = gc.get_threshold()
    gc.set_threshold(*DURING_A_BUILD)
    try:
        yield
    finally:
        gc.set_threshold(*before)
