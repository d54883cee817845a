"""``kobook check --format github``: findings as GitHub Actions workflow commands.

A line like ``::warning file=book/01.md,line=3,col=7,title=KO009::message`` on
a workflow's output becomes an annotation on that line of the pull request.
GitHub reads the command up to ``::``, so a message or a file name holding
``%``, a newline, ``:`` or ``,`` must be escaped the way its runner expects
(``%25``, ``%0A``, ``%3A``, ``%2C``), or the annotation lands on the wrong
line or loses the end of its text.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePath

# Our severities → GitHub's commands (GitHub has no "info": its lowest is "notice").
COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    """The message after ``::``: ``%``, CR and LF escaped (``%`` first, or it escapes twice)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A ``key=value`` property: as data, and ``:`` and ``,`` too (they end a value)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_path(path: Path, cwd: Path | None = None) -> str:
    """``path`` relative to ``cwd`` (POSIX), as GitHub wants it; outside it, absolute.

    A workflow runs at the repository's root, and GitHub places an annotation
    by the path from there, whatever ``--project`` pointed at.
    """
    base = (cwd or Path(os.getcwd())).resolve()
    full = Path(os.path.normpath(base / path))  # an absolute ``path`` stays as it is
    try:
        return PurePath(full.relative_to(base)).as_posix()
    except ValueError:
        try:
            return PurePath(full.resolve().relative_to(base)).as_posix()
        except ValueError:
            return full.as_posix()


def annotation(
    severity: str, message: str, *, file: str = "", line: int = 0, col: int = 0, title: str = ""
) -> str:
    """One workflow command; ``line``/``col`` 0 (unknown) are left out, as GitHub allows."""
    properties = []
    if file:
        properties.append(f"file={escape_property(file)}")
    if file and line > 0:
        properties.append(f"line={line}")
        if col > 0:
            properties.append(f"col={col}")
    if title:
        properties.append(f"title={escape_property(title)}")
    command = COMMANDS.get(severity, "warning")
    head = f"{command} {','.join(properties)}" if properties else command
    return f"::{head}::{escape_data(message)}"
