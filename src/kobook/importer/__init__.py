"""``kobook import``: make a repository in its own format (distill, mdBook, Markdown) a kobook book.

In place (the default) it writes ``SOURCE/metadata.yaml`` naming the dialect,
so ``kobook build`` reads the repository as it is and translators keep editing
it in its own format.  With ``--to DIR`` it writes a plain kobook project
instead: ``metadata.yaml`` (``dialect: pandoc``) and one converted Markdown
file per chapter (``convert.py``).  Either way it prints a report: each
construct converted and how often, and every one it could not, with
file:line (the dialect's :class:`~kobook.dialect.Report`).

Nothing is overwritten by surprise: a ``metadata.yaml`` that differs from what
the import would write now (a translator edited it) is refused without
``--force``; one that is the same is left untouched (bytes and time stamp),
so importing twice changes nothing.  Error codes: IMP001 (bad SOURCE),
IMP002/IMP003 (format not found), IMP004 (hand-edited metadata.yaml), IMP005
(``--to`` not empty), IMP006 (``--to`` overlaps SOURCE), IMP007 (the made
metadata does not validate: a bug), IMP008 (info: a part ``--to`` drops).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..cache import atomic_write
from ..dialect import Report, convert_book
from ..errors import Diagnostic, KobookError
from ..load.book import load_book
from ..load.config import load_config
from ..model import Book, Config
from .convert import Written, chapter_file_name, check_target, write_project
from .detect import FROM_CHOICES, Detection, detect, dialect_named
from .metadata import Gathered, checked, gather, render

METADATA = "metadata.yaml"


@dataclass
class ImportResult:
    """What an import found, wrote and converted."""

    source: Path
    detection: Detection
    metadata_path: Path
    status: str  # "written" | "up to date" | "overwritten"
    chapters: list[str] = field(default_factory=list)  # chapter titles, in reading order
    report: Report = field(default_factory=Report)
    notes: list[Diagnostic] = field(default_factory=list)  # info: the layout's and the dialect's
    to: Path | None = None
    written: Written | None = None

    def lines(self) -> list[str]:
        """The report as ``kobook import`` prints it."""
        out = [f"format: {self.detection.name} ({self.detection.reason})"]
        if self.status == "up to date":
            out.append(f"{self.metadata_path.name} is up to date: {self.metadata_path}")
        else:
            out.append(f"{self.metadata_path.name} {self.status}: {self.metadata_path}")
        if self.written is not None and self.to is not None:
            out.append(
                f"wrote {len(self.written.chapters)} chapter file(s) and copied "
                f"{len(self.written.assets)} file(s) they use into {self.to}"
            )
        out.append(f"chapters: {len(self.chapters)}")
        converted = self.report.converted
        if converted:
            out.append("converted:")
            out += [f"  {name}: {n}" for name, n in sorted(converted.items())]
        else:
            out.append("converted: nothing needed converting")
        problems = self.report.problems
        out.append(f"could not convert: {len(problems)}")
        out += [f"  {d.format()}" for d in problems]
        if self.notes:
            codes = sorted({d.code for d in self.notes})
            out.append(
                f"notes: {len(self.notes)} ({', '.join(codes)}; kobook build lists each one)"
            )
        return out


def import_repository(
    source: str | Path, to: str | Path | None = None, dialect: str = "auto", force: bool = False
) -> ImportResult:
    """Import the repository ``source`` (see the module docstring); raise KobookError on mistakes.

    ``dialect``: ``auto`` (detect) or one of ``distill``, ``mdbook``, ``mkdocs``, ``markdown``.
    """
    root = source_folder(Path(source))
    detection = detect(root, dialect)
    found = gather(root, detection, dialect_named(detection.name))
    header = (
        f"metadata.yaml written by `kobook import` ({detection.name}: {detection.reason}).\n"
        "Edit it freely: kobook import will not overwrite it again without --force."
    )
    if to is None:
        return in_place(root, detection, found, header, force)
    return converted_copy(root, Path(to), detection, found, header, force)


def source_folder(path: Path) -> Path:
    """``path`` as a folder to import (IMP001 when it is missing or a file)."""
    if not path.exists():
        raise KobookError(
            f"no such folder: {path}",
            code="IMP001",
            file=path,
            hint="give the repository's folder: kobook import path/to/repository",
        )
    if not path.is_dir():
        raise KobookError(
            f"{path} is a file, not a folder",
            code="IMP001",
            file=path,
            hint="give the repository's folder (the one holding book.toml, _config.yml "
            "or the Markdown files), not a file in it",
        )
    return path.resolve()


def in_place(
    root: Path, detection: Detection, found: Gathered, header: str, force: bool
) -> ImportResult:
    """Write ``root/metadata.yaml`` (unless it is already what it would be), then report."""
    path = root / METADATA
    text = checked(render(found, header), path)
    data = text.encode("utf-8")
    status = "written"
    if path.is_file() or path.is_symlink():
        old = path.read_bytes() if path.is_file() else b""
        if old == data:
            status = "up to date"
        elif not force:
            raise KobookError(
                f"{path} exists and differs from what kobook import would write "
                "(edited by hand?): left as it is",
                code="IMP004",
                file=path,
                hint="keep it (kobook build already reads it), or run kobook import --force "
                "to replace it",
            )
        else:
            status = "overwritten"
    if status != "up to date":
        atomic_write(path, data)  # a symlink is replaced by the file, never written through
    book = load_book(root)
    return finish(ImportResult(root, detection, path, status), book)


def converted_copy(
    root: Path, target: Path, detection: Detection, found: Gathered, header: str, force: bool
) -> ImportResult:
    """Write a plain kobook project into ``target`` from the converted chapters."""
    target = target.resolve()
    check_target(root, target, force)
    config = Config(raw=dict(load_config(root / METADATA).raw))  # the repository's own, if any
    for key, value in found.values.items():
        config.raw.setdefault(key, value)
    config.raw["dialect"] = detection.dialect
    book = load_book(root, config)
    result = finish(ImportResult(root, detection, target / METADATA, "written", to=target), book)
    values = {k: v for k, v in config.raw.items() if k not in ("chapter-level", "chapters")}
    values["dialect"] = "pandoc"
    values["chapters"] = [
        chapter_file_name(index, chapter) for index, chapter in enumerate(book.chapters, 1)
    ]
    copy = Gathered(
        values=values, notes={"lang": found.notes["lang"]} if "lang" in found.notes else {}
    )
    header = (
        f"metadata.yaml of the kobook project `kobook import --to` made "
        f"({detection.name}: {detection.reason})."
    )
    text = checked(render(copy, header), target / METADATA)
    bibliography = [str(b) for b in as_names(values.get("bibliography"))]
    result.written = write_project(book, target, text, bibliography, force)
    result.notes += result.written.notes
    return result


def as_names(value: object) -> list[object]:
    if value in (None, ""):
        return []
    return list(value) if isinstance(value, list) else [value]


def finish(result: ImportResult, book: Book) -> ImportResult:
    """Run the dialect over the loaded book (as the build does) and keep its report."""
    report = convert_book(book)
    result.chapters = [chapter.title for chapter in book.chapters]
    result.report = report
    result.notes = list(book.notes) + list(report.notes)
    return result


__all__ = ["FROM_CHOICES", "ImportResult", "import_repository"]
