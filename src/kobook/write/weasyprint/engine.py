"""WeasyPrint as kobook runs it: patched, quiet, counting its tofu boxes.

The build's process sets it up here, and so does each process that lays out a run of
a long book (``parallel``).  Those processes are fresh interpreters that import
WeasyPrint and nothing of the build: they inherit none of the parent's patches,
context variables or logging, so what a layout depends on is listed once here and
set up alike on both sides.  (A process forked from the build itself would share its
pages until it writes them, and be counted, and stopped by a memory limit, for all
of them.)
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import re
from collections.abc import Iterator
from typing import Any

from . import (
    breaks,
    figures,
    fontfiles,
    images,
    justify,
    linebreak,
    relayout,
    reproducible,
    subset,
    svgreplay,
)

# The settings a layout reads from context variables, by a name that survives pickling.
# A caller (the writer, a test, the preview) sets them; a run's process gets the values.
CARRIED: dict[str, contextvars.ContextVar[Any]] = {
    "keep_all": linebreak.KEEP_ALL,
    "fast_png": images.FAST_PNG,
    "float_figures": figures.FLOAT,
    "growing_subsets": subset.GROWING,
    "line_shrink": breaks.SHRINK,
    "balance": breaks.BALANCE,
}


def install() -> None:
    """Every patch kobook makes to WeasyPrint (each applied once, each idempotent)."""
    linebreak.install()
    images.install()
    reproducible.install()
    justify.install()
    breaks.install()
    svgreplay.install()
    subset.install()
    relayout.install()
    figures.install()
    fontfiles.install()


def carried() -> dict[str, Any]:
    """This context's values of :data:`CARRIED`, to set up a run's process with."""
    return {name: var.get() for name, var in CARRIED.items()}


def enter(values: dict[str, Any]) -> None:
    """A run's process: WeasyPrint patched and the context set as the build's was."""
    install()
    for name, value in values.items():
        CARRIED[name].set(value)


class MissingGlyphs(logging.Handler):
    """Collect WeasyPrint's ".notdef glyph rendered" warnings: each one is a tofu box."""

    PATTERN = re.compile(r'unsupported by fonts: "(.+)" \(U\+([0-9A-F]+)\)')

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.characters: dict[str, int] = {}

    def emit(self, record: logging.LogRecord) -> None:
        match = self.PATTERN.search(record.getMessage())
        if match:
            char = chr(int(match.group(2), 16))
            self.characters[char] = self.characters.get(char, 0) + 1


@contextlib.contextmanager
def listening() -> Iterator[MissingGlyphs]:
    """WeasyPrint's warnings go to a :class:`MissingGlyphs` only: kobook reports what
    they mean (GLYPH001, with the file and line) instead of printing them, and
    fontTools keeps its notes on subsetting to itself."""
    logger = logging.getLogger("weasyprint")
    glyphs = MissingGlyphs()
    logger.addHandler(glyphs)
    level, propagate = logger.level, logger.propagate
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    try:
        yield glyphs
    finally:
        logger.removeHandler(glyphs)
        logger.setLevel(level)
        logger.propagate = propagate
