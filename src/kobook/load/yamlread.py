"""One YAML reader for metadata, front matter and the glossary.

Errors name the file, line and column (shifted by ``line_offset`` when the
YAML sits inside a larger file), never a PyYAML traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..errors import KobookError


def parse_yaml(text: str, path: Path | None, what: str, code: str, *, line_offset: int = 0) -> Any:
    """``yaml.safe_load`` with a :class:`KobookError` (file:line:col) for bad YAML."""
    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise KobookError(
            f"{what} is not valid YAML: {exc.problem}",
            code=code,
            file=path,
            line=(mark.line + 1 + line_offset) if mark else 0,
            col=(mark.column + 1) if mark else 0,
            hint="check indentation and quote values that contain ':' or '#'",
        ) from None
    except yaml.YAMLError as exc:
        raise KobookError(f"{what} is not valid YAML: {exc}", code=code, file=path) from None
