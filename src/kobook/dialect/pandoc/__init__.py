"""The ``pandoc`` dialect: kobook's own Markdown, and pandoc books as their authors build them.

The text is built as it is.  What a pandoc book's repository states besides its
files is read as defaults that ``metadata.yaml`` overrides (``command.py``):
the chapter list of its own ``pandoc`` call (README, Makefile, build script),
and the metadata files that call reads (``title.yaml``, ``--metadata-file``,
a ``title.txt`` holding only a YAML block), whose structured ``title:`` and
``creator:`` are pandoc's own forms (``model/pandocmeta.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...files.frontmatter import split_front_matter
from ...files.reading import read_text
from ...files.yamlread import parse_yaml
from ...model.pandocmeta import pandoc_forms
from .. import Dialect
from .command import Command, book_command


def metadata_of(path: Path) -> dict[str, Any] | None:
    """A metadata input's values: a YAML file, or a text file that is only a YAML block
    (None when the file is a chapter)."""
    text = read_text(path)
    if path.suffix.lower() in (".yaml", ".yml"):
        data = parse_yaml(text, path, path.name, "CFG001")
        return data if isinstance(data, dict) else {}
    front = split_front_matter(text, path)
    return front.meta if front.meta and not front.body.strip() else None


class Pandoc(Dialect):
    """pandoc Markdown: kobook's discovery, or the book's own ``pandoc`` command."""

    name = "pandoc"

    def stated_in(self, root: Path) -> str:
        command = book_command(root)
        return f"the pandoc command in {command.shown(root)}" if command else ""

    def metadata(self, root: Path) -> dict[str, Any]:
        command = book_command(root)
        if command is None:
            return {}
        return command_metadata(root, command)


def command_metadata(root: Path, command: Command) -> dict[str, Any]:
    """The chapters ``command`` reads and the metadata its YAML inputs state (later files
    overriding earlier ones, as pandoc merges them)."""
    found: dict[str, Any] = {}
    chapters = []
    for path in command.metadata:
        found.update(metadata_of(path) or {})
    for path in command.chapters:
        meta = metadata_of(path)
        if meta is None:
            chapters.append(path.relative_to(root.resolve()).as_posix())
        else:
            found.update(meta)
    pandoc_forms(found)
    found.pop("chapters", None)
    found.pop("dialect", None)
    if chapters:
        found["chapters"] = chapters
    return found


DIALECT = Pandoc()
