"""Dates as the book's language writes them, reproducibly.

``date: \\today`` (LaTeX) and ``date: today`` (Quarto) mean the build date;
it comes from ``SOURCE_DATE_EPOCH`` when set, so two builds of one commit
carry the same date.  ISO dates print as ``2026년 11월 21일``, ``November 21,
2026`` or ``2026年11月21日``; any other text is printed as written.
"""

from __future__ import annotations

import datetime
import re

from ..reproducible import as_datetime, source_date_epoch

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
TODAY = {"\\today", "today", "now", "last-modified"}
ISO = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.+-Z]*)?\s*$")


def build_date() -> datetime.date:
    """Today, or the day of ``SOURCE_DATE_EPOCH`` (UTC) for reproducible builds
    (ENV002 when it is malformed: see :mod:`kobook.reproducible`)."""
    epoch = source_date_epoch()
    if epoch is not None:
        return as_datetime(epoch).date()
    return datetime.date.today()


def as_date(value: object) -> datetime.date | None:
    """A date for ``value`` when it is one (``today``, ISO text, a YAML date), else None."""
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    text = str(value).strip()
    if text.lower() in TODAY:
        return build_date()
    match = ISO.match(text)
    if match:
        try:
            return datetime.date(*(int(g) for g in match.groups()))
        except ValueError:
            return None
    return None


def format_date(value: object, language: str) -> str:
    """``value`` (see :func:`as_date`) written the way ``language`` writes dates."""
    if value is None or value == "":
        return ""
    date = as_date(value)
    if date is None:
        return str(value)
    if language == "ko":
        return f"{date.year}년 {date.month}월 {date.day}일"
    if language in ("ja", "zh-Hans", "zh-Hant"):
        return f"{date.year}年{date.month}月{date.day}日"
    return f"{MONTHS[date.month - 1]} {date.day}, {date.year}"
