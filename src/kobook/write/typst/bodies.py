"""Each chapter's Typst, kept in the cache: a build after an edit makes only that chapter's.

The Typst engine's passes and pandoc's Typst writer took about three seconds of a
six-second playbook build, most of it on chapters that had not changed.  A chapter's
Typst is a function of

* its transformed AST, its id, language, file and line offset (its warnings name them),
  and the part it opens;
* the book's metadata (fonts, layout, numbering, line breaking, the math font);
* the code that makes it (kobook's ``write`` package, pandoc, the ``typst`` wheel, whose
  evaluator decides which formulas ziamath draws);
* two things from the rest of the book: which of its links point to no label anywhere
  (:func:`~kobook.write.typst.passes.dangling_links`), and the image files it names
  (a converted image's name follows its bytes).

:func:`chapter_key` hashes the first three; an :class:`Entry` records the other two, and
:func:`load` returns it only when they still hold.  The entry also keeps what the build
needs of the chapter without its AST: its labels and link targets (for the other
chapters' dangling links), its characters (for GLYPH001), its warnings, and the files it
gives the compiler.  Entries go through :class:`~kobook.cache.Cache` (named and tagged
with this machine's secret), so a repository cannot plant one.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...cache import Cache, digest
from ...cache import code_digest as cache_code_digest
from ...errors import Diagnostic, Location
from ...model import Book, Doc
from ...parse.pandoc import pandoc_version

KIND = "typst-chapter"


@functools.cache
def code_digest() -> str:
    """kobook, pandoc and the ``typst`` wheel (whose evaluator decides which formulas
    ziamath draws): an entry made by other code is a miss."""
    import typst

    return digest(cache_code_digest(), pandoc_version(), str(getattr(typst, "__version__", "")))


def chapter_key(doc: Doc, book: Book, part: str) -> str:
    """The key of ``doc``'s entry: everything its Typst depends on but the rest of the book."""
    chapter = doc.chapter
    config = json.dumps(
        {"raw": book.config.raw, "extra": book.config.extra}, sort_keys=True, default=str
    )
    return digest(
        KIND,
        code_digest(),
        config,
        str(book.root),
        chapter.id,
        chapter.lang,
        str(chapter.path),
        str(chapter.line_offset),
        repr(chapter.origins),
        part,
        json.dumps([doc.blocks, doc.meta], ensure_ascii=False, separators=(",", ":")),
    )


def stamp(path: Path) -> list[Any]:
    """What says a file is unchanged: its size and modification time (None: missing)."""
    try:
        info = path.stat()
    except OSError:
        return [str(path), None, None]
    return [str(path), info.st_size, info.st_mtime_ns]


@dataclass
class Entry:
    """One chapter's Typst and what the rest of the build needs of it."""

    typst: str
    labels: list[str]
    targets: list[str]  # the ids its internal links point to
    dangling: list[str]  # those no chapter labelled when ``typst`` was made
    chars: str  # its text's characters, each once
    problems: list[Diagnostic]
    assets: dict[str, str]  # the compiler's names → the files they link to
    sources: list[list[Any]] = field(default_factory=list)  # stamps of the images it names

    def fresh(self, labels: set[str]) -> bool:
        """Whether the entry still holds: the same links dangle and its files are unchanged."""
        if sorted(set(self.targets) - labels) != self.dangling:
            return False
        if not all(os.path.exists(path) for path in self.assets.values()):
            return False
        return all(stamp(Path(s[0])) == s for s in self.sources)


def dump(entry: Entry) -> bytes:
    data = {
        "typst": entry.typst,
        "labels": entry.labels,
        "targets": entry.targets,
        "dangling": entry.dangling,
        "chars": entry.chars,
        "problems": [diagnostic_data(d) for d in entry.problems],
        "assets": entry.assets,
        "sources": entry.sources,
    }
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def diagnostic_data(diagnostic: Diagnostic) -> dict[str, Any]:
    location = diagnostic.location
    return {
        "code": diagnostic.code,
        "message": diagnostic.message,
        "file": str(location.file) if location.file is not None else None,
        "line": location.line,
        "col": location.col,
        "hint": diagnostic.hint,
        "severity": diagnostic.severity,
    }


def diagnostic_of(data: dict[str, Any]) -> Diagnostic:
    file = Path(data["file"]) if data.get("file") else None
    return Diagnostic(
        str(data["code"]),
        str(data["message"]),
        Location(file, int(data.get("line") or 0), int(data.get("col") or 0)),
        str(data.get("hint") or ""),
        str(data.get("severity") or "error"),
    )


def load(cache: Cache, key: str) -> Entry | None:
    """The entry kept under ``key`` (None: none, or unreadable)."""
    data = cache.get(KIND, key, ".json")
    if data is None:
        return None
    try:
        raw = json.loads(data)
        return Entry(
            typst=str(raw["typst"]),
            labels=list(raw["labels"]),
            targets=list(raw["targets"]),
            dangling=list(raw["dangling"]),
            chars=str(raw["chars"]),
            problems=[diagnostic_of(d) for d in raw["problems"]],
            assets=dict(raw["assets"]),
            sources=list(raw["sources"]),
        )
    except (ValueError, KeyError, TypeError):
        return None


def store(cache: Cache, key: str, entry: Entry) -> None:
    cache.put(KIND, key, dump(entry), ".json")


def split_output(text: str, mark: str, count: int) -> list[str] | None:
    """pandoc's Typst for several chapters, cut at the ``mark`` lines put before each (a
    nonce: no text of the book can hold it); None when there are not ``count`` of them."""
    pieces = text.split(f"{mark}\n")
    if len(pieces) != count + 1 or pieces[0].strip():
        return None
    return [normal(piece) for piece in pieces[1:]]


def normal(piece: str) -> str:
    """A chapter's Typst as it is joined to the others: one blank line after it."""
    return piece.rstrip() + "\n\n"
