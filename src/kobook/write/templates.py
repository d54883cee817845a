"""Jinja2 environment: built-in templates, overridden file by file from ``templates/``."""

from __future__ import annotations

from pathlib import Path

import jinja2

BUILTIN = Path(__file__).resolve().parent.parent / "templates"


def environment(project: Path) -> jinja2.Environment:
    """Templates from the book's ``templates/`` first, then kobook's own."""
    loaders: list[jinja2.BaseLoader] = []
    own = project / "templates"
    if own.is_dir():
        loaders.append(jinja2.FileSystemLoader(str(own)))
    loaders.append(jinja2.FileSystemLoader(str(BUILTIN)))
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=jinja2.select_autoescape(["html", "j2"], default_for_string=False),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
