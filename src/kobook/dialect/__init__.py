"""Stage 1b, dialect: distill / mdBook / … sources turned into pandoc Markdown.

Between load and normalize.  ``dialect:`` in metadata.yaml names one of
:data:`DIALECTS` (default ``pandoc``: nothing to do).  A dialect may plan the
chapters (which files, in what order, which are parts, prefaces, appendices)
and rewrites each chapter's text keeping every line's origin; a further
dialect (Quarto, d2lbook, MyST) is one new module registered here.
"""

from __future__ import annotations

from .base import Dialect, Lines, Report

DIALECTS: dict[str, Dialect] = {}


def register(dialect: Dialect) -> Dialect:
    DIALECTS[dialect.name] = dialect
    return dialect


def dialect_named(name: str) -> Dialect | None:
    return DIALECTS.get(name)


__all__ = ["DIALECTS", "Dialect", "Lines", "Report", "dialect_named", "register"]
