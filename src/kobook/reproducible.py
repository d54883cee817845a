"""Reproducible outputs: the one date a build may carry, taken from the sources.

Two builds of the same sources give the same bytes (PDF from either engine,
every file of the HTML site), so CI can tell a real change from noise.  The
only thing a build may not take from the sources is a date, and this module
decides which one it is (https://reproducible-builds.org/specs/source-date-epoch/):

* ``SOURCE_DATE_EPOCH`` set (CI sets it to the commit time,
  ``git log -1 --format=%ct``): it is *the* date — the PDF's
  ``CreationDate``/``ModDate`` (both engines), ``date: today`` on the title
  page, ``\\today`` in raw LaTeX.  A value that is not an integer (digits, as
  ``date +%s`` prints them) is an error (ENV002), as the specification asks:
  a silently ignored typo would make a build quietly unreproducible.
* not set: the build carries **no build time**.  The PDF is dated by the
  book's ``date`` (00:00 UTC that day) when it parses as a date
  (``2026-11-21``, a YAML date); otherwise the WeasyPrint and Typst PDFs have no date at
  all, and the XeLaTeX one says 1970-01-01 (epoch 0, the usual "no date":
  xdvipdfmx always writes a ``CreationDate``).  The one exception is asked
  for in the sources: ``date: today`` (or ``\\today`` in raw LaTeX) prints the
  day of the build, as the author wrote.

Everything else that used to change between builds is pinned where it is made:
WeasyPrint's image names (``write/weasyprint/reproducible.py``: a hash of the bytes,
not of the absolute URL) and the emoji font's ``head.modified`` (kept as in the
font file); xdvipdfmx's font subset tags and ``/ID`` (it derives them from
``SOURCE_DATE_EPOCH``, which :func:`latex_environment` always sets; the
file names it hashes are the fixed ``book.xdv``/``book.pdf``).  The site
carries no date; file modes are fixed (0644/0755, ``write/shared/common.py``).
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Mapping

from .errors import KobookError

VARIABLE = "SOURCE_DATE_EPOCH"
DIGITS = re.compile(r"[0-9]+")


def source_date_epoch() -> int | None:
    """``SOURCE_DATE_EPOCH`` as seconds, None when unset or empty; ENV002 when malformed."""
    value = os.environ.get(VARIABLE)
    if value is None or value == "":
        return None
    problem = "" if DIGITS.fullmatch(value) else "is not an integer"
    if not problem:
        try:
            as_datetime(int(value))
        except (OverflowError, ValueError, OSError):
            problem = "is too large to be a date"
    if problem:
        raise KobookError(
            f"{VARIABLE}={value!r} {problem} (seconds since 1970-01-01 00:00 UTC)",
            code="ENV002",
            hint=f"set it as `date +%s` or `git log -1 --format=%ct` print it, or unset {VARIABLE}",
        )
    return int(value)


def as_datetime(epoch: int) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(epoch, tz=datetime.timezone.utc)


def output_epoch(book_date: datetime.date | None) -> int | None:
    """The time the outputs carry: ``SOURCE_DATE_EPOCH``, else the book's date at
    00:00 UTC (``book_date``: the metadata ``date`` when it parses), else None."""
    epoch = source_date_epoch()
    if epoch is not None:
        return epoch
    if book_date is None:
        return None
    midnight = datetime.datetime.combine(book_date, datetime.time(), tzinfo=datetime.timezone.utc)
    return int(midnight.timestamp())


def w3c_datetime(epoch: int) -> str:
    """``2026-11-21T00:00:00Z``: what HTML's ``dcterms.created`` holds (WeasyPrint
    turns it into the PDF's ``CreationDate``)."""
    return as_datetime(epoch).strftime("%Y-%m-%dT%H:%M:%SZ")


def latex_environment(environ: Mapping[str, str], epoch: int | None) -> dict[str, str]:
    """``environ`` with what XeLaTeX and xdvipdfmx read: ``SOURCE_DATE_EPOCH`` always (it
    also fixes the font subset tags and the ``/ID``, random otherwise), and
    ``FORCE_SOURCE_DATE`` (``\\today`` follows it) only when it is a real date."""
    env = {k: v for k, v in environ.items() if k != "FORCE_SOURCE_DATE"}
    if epoch is None:
        return {**env, VARIABLE: "0"}
    return {**env, VARIABLE: str(epoch), "FORCE_SOURCE_DATE": "1"}
