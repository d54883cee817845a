"""``mkdocs.yml``: the site's name, author, language, pages folder and ``nav``.

MkDocs files carry tags for Python (``!!python/name:material.extensions.emoji.twemoji``)
and its own (``!ENV [VAR, default]``, ``!relative``): kobook runs none of them, so
they read as their default (``!ENV``) or nothing.  ``INHERIT: ../en/mkdocs.yml``
(a translation's file over the original's) is followed inside the book, the
child's keys winning.  What it states are defaults: ``metadata.yaml`` overrides
each of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...boundary import inside
from ...errors import KobookError
from ...files.reading import read_text
from ...files.yamlread import ToolLoader, parse_yaml

NAMES = ("mkdocs.yml", "mkdocs.yaml")
MAX_INHERIT = 8  # INHERIT chains longer than this are a loop or a mistake


def config_file(root: Path) -> Path | None:
    """The book's ``mkdocs.yml`` (or ``mkdocs.yaml``), if it has one."""
    return next((root / n for n in NAMES if (root / n).is_file()), None)


def read_config(root: Path) -> dict[str, Any]:
    """``mkdocs.yml`` parsed, ``INHERIT`` merged (``{}`` when there is none); DIA301 if bad."""
    path = config_file(root)
    if path is None:
        return {}
    return _read(path, root.resolve(), 0)


def _read(path: Path, root: Path, depth: int) -> dict[str, Any]:
    data = parse_yaml(read_text(path), path, path.name, "DIA301", loader=ToolLoader)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise KobookError(
            f"{path.name} should be a mapping of settings",
            code="DIA301",
            file=path,
            line=1,
            hint="MkDocs reads site_name:, nav:, docs_dir: … at the top level",
        )
    parent = data.pop("INHERIT", None)
    if isinstance(parent, str) and parent.strip() and depth < MAX_INHERIT:
        base = inside(path.parent / parent.strip(), root, what="INHERIT", file=path, written=parent)
        if base.is_file():
            return merged(_read(base, root, depth + 1), data)
    return data


def merged(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """MkDocs' INHERIT: mappings merge key by key, anything else the child's."""
    out = dict(parent)
    for key, value in child.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = value
    return out


def docs_folder(root: Path, config: dict[str, Any]) -> Path:
    """The pages folder (``docs_dir``, default ``docs``), relative to ``mkdocs.yml``, inside
    the book."""
    name = config.get("docs_dir") or "docs"
    return inside(root / str(name), root, what="mkdocs.yml docs_dir", written=str(name))


def language(config: dict[str, Any]) -> str:
    """The site's language: ``theme.language``, else ``extra.lang``-style i18n default."""
    theme = config.get("theme")
    if isinstance(theme, dict) and isinstance(theme.get("language"), str):
        return theme["language"].strip()
    for plugin in config.get("plugins") or []:
        if isinstance(plugin, dict) and isinstance(plugin.get("i18n"), dict):
            for entry in plugin["i18n"].get("languages") or []:
                if isinstance(entry, dict) and entry.get("default") and entry.get("locale"):
                    return str(entry["locale"])
    return ""


def site_metadata(config: dict[str, Any]) -> dict[str, Any]:
    """``title``, ``author``, ``rights``, ``description`` and ``lang`` in kobook's keys."""
    found: dict[str, Any] = {}
    for key, ours in (
        ("site_name", "title"),
        ("site_author", "author"),
        ("copyright", "rights"),
        ("site_description", "description"),
    ):
        value = config.get(key)
        if isinstance(value, str) and value.strip():
            found[ours] = " ".join(value.split())
    lang = language(config)
    if lang:
        found["lang"] = lang
    return found
