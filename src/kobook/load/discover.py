"""Which files are the book's chapters, and why those.

``chapters:`` in metadata.yaml decides when it is there.  Otherwise kobook
looks, in order, for ``book/``, an mdBook ``src/SUMMARY.md``, ``docs/``,
``chapters/`` and finally the Markdown files at the top of the project.  A
repository's own papers (``README*``, ``LICENSE*``, ``CONTRIBUTING*``,
``CHANGELOG*``, ``CODE_OF_CONDUCT*``) are never chapters unless listed.  The
reason is returned with the files so the build can say what it chose.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..boundary import inside
from ..dialect.mdbook.summary import summary_link
from ..errors import KobookError
from ..model.config import Config

NOT_CHAPTERS = (
    "readme",
    "license",
    "licence",
    "contributing",
    "changelog",
    "code_of_conduct",
    "notice",
)


@dataclass(frozen=True)
class Discovery:
    files: list[Path]
    reason: str


def is_repository_paper(path: Path) -> bool:
    """``README.md``, ``README_en.md``, ``LICENSE-MIT.md``, ``CODE_OF_CONDUCT.md`` ..."""
    stem = path.stem.lower().replace("-", "_")
    return any(
        stem == name or stem.startswith(name + "_") or stem.startswith(name + ".")
        for name in NOT_CHAPTERS
    )


def markdown_in(folder: Path, *, recursive: bool = False, root: Path | None = None) -> list[Path]:
    """The Markdown files (``.md``, ``.markdown``) in ``folder``, in path order; with
    ``root``, each must resolve inside it (SEC001)."""
    prefix = "**/" if recursive else ""
    candidates = [*folder.glob(f"{prefix}*.md"), *folder.glob(f"{prefix}*.markdown")]
    found = sorted(
        p
        for p in candidates
        if p.is_file()
        and not p.name.startswith((".", "_"))
        and not is_repository_paper(p)
        and not any(part.startswith((".", "_")) for part in p.relative_to(folder).parts[:-1])
    )
    if root is not None:
        for path in found:  # a symlink committed into book/ must not lead out of the book
            inside(path, root, what="chapter file", file=path)
    return found


def summary_files(summary: Path, root: Path | None = None) -> list[Path]:
    """The chapter files an mdBook ``SUMMARY.md`` links, in its order (drafts skipped).

    With ``root``, a link that resolves outside it is SEC001 at its line.
    """
    found: list[Path] = []
    lines = summary.read_text(encoding="utf-8", errors="replace").split("\n")
    for number, line in enumerate(lines, 1):
        link = summary_link(line)
        if link is None or not link[1]:
            continue  # not a link, or a draft chapter: [Title]()
        target = link[1]
        path = (summary.parent / target).resolve()
        if root is not None and path.is_file():
            inside(summary.parent / target, root, what="chapter", file=summary, line=number)
        if path.is_file() and path.suffix.lower() == ".md" and path not in found:
            found.append(path)
    return found


def listed_files(root: Path, config: Config) -> list[Path]:
    files = []
    for name in config.get("chapters"):
        line = config.entry_line("chapters", name)
        what = "chapter listed under 'chapters:'"
        path = inside(root / name, root, what=what, file=config.path, line=line, written=name)
        if not path.is_file():
            raise KobookError(
                f"chapter file not found: {name}",
                code="LOAD004",
                file=config.path,
                hint="fix the name under 'chapters:' in metadata.yaml",
            )
        files.append(path)
    return files


def discover(root: Path, config: Config) -> Discovery:
    """The chapter files in reading order, with the reason they were chosen."""
    if config.get("chapters"):
        files = listed_files(root, config)
        where = config.sources.get("chapters")
        if where:
            return Discovery(files, f"{len(files)} file(s), in the order of {where}")
        return Discovery(files, f"{len(files)} file(s) listed under 'chapters:' in metadata.yaml")
    absent = "no 'chapters:' in metadata.yaml"
    book_dir = root / "book"
    if book_dir.is_dir() and (files := markdown_in(book_dir, root=root)):
        return Discovery(files, f"book/*.md, in file name order ({absent})")
    summary = root / "src" / "SUMMARY.md"
    if summary.is_file() and (files := summary_files(summary, root)):
        return Discovery(files, f"the files src/SUMMARY.md links, in its order ({absent})")
    for name in ("docs", "chapters"):
        folder = root / name
        if folder.is_dir() and (files := markdown_in(folder, recursive=True, root=root)):
            return Discovery(files, f"{name}/**/*.md, in path order ({absent})")
    files = markdown_in(root, root=root)
    skipped = sorted(p.name for p in root.glob("*.md") if is_repository_paper(p))
    reason = f"the Markdown files at the top of the project ({absent}; no book/, docs/, chapters/)"
    if skipped:
        reason += "; not chapters: " + ", ".join(skipped)
    return Discovery(files, reason)
