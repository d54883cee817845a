"""The ``pandoc`` dialect: kobook's own Markdown, built as it is (the default)."""

from __future__ import annotations

from . import Dialect

DIALECT = Dialect()
