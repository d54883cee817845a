"""The book's own ``pandoc`` command: which files it reads, in which order.

A pandoc book often has no folder kobook would guess: its chapters are
``.markdown`` files in sub-folders, a ``title.yaml`` lies beside them, and the
true order is in a ``pandoc`` call in the README, a ``Makefile`` or a build
script::

    pandoc -o book.epub title.yaml ch01/intro.markdown ch02/*.markdown

That command is the book's table of contents.  The files searched are the
README, ``Makefile``, shell scripts at the top and in ``scripts/``; a command
may span lines (``\\``).  Its positional arguments that name Markdown files
inside the book are the chapters (shell globs expanded in name order), YAML
files and ``--metadata-file`` are metadata.  Options and their values are
skipped; a ``$(VAR)`` it cannot expand is skipped too.  Of several commands,
the one naming the most chapters wins.
"""

from __future__ import annotations

import glob
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from ...boundary import within

TEXT_SUFFIXES = (".md", ".markdown", ".txt", ".text", ".mdown", ".mkd", ".mkdn")
META_SUFFIXES = (".yaml", ".yml")
PLACES = (
    "README*",
    "readme*",
    "Makefile",
    "makefile",
    "GNUmakefile",
    "*.sh",
    "build*",
    "scripts/*.sh",
)
MAX_BYTES = 512 * 1024  # a build script or README longer than this is not read
# pandoc options whose value is the next argument (written without ``=``).
TAKES_VALUE = {
    "-o", "--output", "-f", "--from", "-r", "--read", "-t", "--to", "-w", "--write",
    "-c", "--css", "--template", "--metadata-file", "-L", "--lua-filter", "-F", "--filter",
    "--resource-path", "--bibliography", "--csl", "--epub-cover-image", "--epub-metadata",
    "-H", "--include-in-header", "-B", "--include-before-body", "-A",
    "--include-after-body", "--data-dir", "--reference-doc", "--pdf-engine",
    "--pdf-engine-opt", "--toc-depth", "--number-offset", "--shift-heading-level-by",
    "--top-level-division", "-V", "--variable", "-M", "--metadata", "--highlight-style",
    "--syntax-highlighting", "--epub-embed-font", "--extract-media", "--log", "--wrap",
    "--columns", "--dpi", "--eol", "--tab-stop", "--split-level", "--epub-chapter-level",
    "--chunk-template", "--epub-subdirectory", "--abbreviations", "--id-prefix",
    "--title-prefix", "-T", "--default-image-extension", "--email-obfuscation",
    "--citation-abbreviations", "--reference-location", "--markdown-headings",
    "--slide-level", "-d", "--defaults",
}  # fmt: skip


@dataclass
class Command:
    """One ``pandoc`` call: where it is written and the files it reads."""

    file: Path
    line: int
    chapters: list[Path] = field(default_factory=list)
    metadata: list[Path] = field(default_factory=list)

    def shown(self, root: Path) -> str:
        return f"{self.file.relative_to(root).as_posix()}:{self.line}"


def logical_lines(text: str) -> list[tuple[int, str]]:
    """``(first line number, text)`` with ``\\``-continued lines joined."""
    out: list[tuple[int, str]] = []
    pending: list[str] = []
    start = 0
    for number, line in enumerate(text.splitlines(), 1):
        if not pending:
            start = number
        if line.rstrip().endswith("\\"):
            pending.append(line.rstrip()[:-1])
            continue
        pending.append(line)
        out.append((start, " ".join(pending)))
        pending = []
    if pending:
        out.append((start, " ".join(pending)))
    return out


def arguments(line: str) -> list[str] | None:
    """The arguments of a ``pandoc`` call on ``line`` (None when it holds none)."""
    match = re.search(r"(?:^|[\s;&|(`$>])(?:\S*/)?pandoc(?=\s)", line)
    if match is None:
        return None
    rest = line[match.end() :]
    rest = re.split(r"\s(?:&&|\|\||;|\|)\s|\s#", rest)[0]  # up to the next command
    try:
        return shlex.split(rest, comments=False)
    except ValueError:
        return rest.split()


def read_command(root: Path, file: Path, line: int, args: list[str]) -> Command:
    """The chapters and metadata files ``args`` name (relative to the book's folder)."""
    command = Command(file, line)
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg.startswith("-"):
            name, eq, value = arg.partition("=")
            if not eq and name in TAKES_VALUE:
                value = args[index] if index < len(args) else ""
                index += 1
            if name == "--metadata-file" and value:
                command.metadata += expand(root, value)
            continue
        if "$" in arg or "`" in arg:
            continue
        for path in expand(root, arg):
            if path.suffix.lower() in TEXT_SUFFIXES:
                command.chapters.append(path)
            elif path.suffix.lower() in META_SUFFIXES:
                command.metadata.append(path)
    return command


def expand(root: Path, written: str) -> list[Path]:
    """The files inside ``root`` an argument names (a glob in name order)."""
    if any(c in written for c in "*?["):
        names = sorted(glob.glob(written, root_dir=root, recursive=True))
    else:
        names = [written]
    out = []
    for name in names:
        path = root / name
        if path.is_file() and within(path, root):
            out.append(path.resolve())
    return out


def book_command(root: Path) -> Command | None:
    """The ``pandoc`` call of the book's own files naming the most chapters, if any."""
    best: Command | None = None
    seen: set[Path] = set()
    for pattern in PLACES:
        for file in sorted(root.glob(pattern)):
            if file in seen or not file.is_file() or file.stat().st_size > MAX_BYTES:
                continue
            seen.add(file)
            text = file.read_text(encoding="utf-8", errors="replace")
            if "pandoc" not in text:
                continue
            for number, line in logical_lines(text):
                args = arguments(line)
                if not args:
                    continue
                command = read_command(root, file, number, args)
                if command.chapters and (
                    best is None or len(command.chapters) > len(best.chapters)
                ):
                    best = command
    return best
