"""A translation and its original, opened once for every ``kobook upstream`` command.

``metadata.yaml``'s ``upstream:`` block says where the original is::

    upstream:
      repository: ../book        # a path (relative to the book) or an https URL
      ref: main                  # what "the upstream's head" means (default HEAD)
      dialect: mdbook            # the original's dialect
      chapters:                  # translated file → the original's file
        src/ch01-01-installation.md: src/ch01-01-installation.md

Each translated file's lock (``lock.py``) says which commit it was brought in step
with.  Both texts are read through the same stages (``sides.py``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..boundary import inside
from ..cache import Cache
from ..errors import KobookError
from ..load import load_config
from ..model import Config
from .align import Scorer
from .lock import Lock, read_lock, save
from .repo import Repo, commit_of, open_repo, tree
from .sides import Text, read_texts


@dataclass
class Upstream:
    """The ``upstream:`` block of metadata.yaml."""

    repository: str
    ref: str = ""
    dialect: str = "pandoc"
    chapters: dict[str, str] = field(default_factory=dict)

    def as_yaml(self) -> dict[str, Any]:
        data: dict[str, Any] = {"repository": self.repository}
        if self.ref:
            data["ref"] = self.ref
        data["dialect"] = self.dialect
        data["chapters"] = dict(sorted(self.chapters.items()))
        return data


def upstream_of(config: Config) -> Upstream:
    """The book's ``upstream:`` block (UPS004 when there is none)."""
    raw = config.raw.get("upstream")
    if not isinstance(raw, dict) or not raw.get("repository"):
        raise KobookError(
            "the book has no upstream: block in metadata.yaml",
            code="UPS004",
            file=config.path,
            hint="run `kobook upstream init PATH-TO-THE-ORIGINAL` first",
        )
    chapters = raw.get("chapters") or {}
    return Upstream(
        str(raw["repository"]),
        str(raw.get("ref") or ""),
        str(raw.get("dialect") or "pandoc"),
        {str(k): str(v) for k, v in chapters.items()},
    )


TOP_KEY = re.compile(r"^(?:upstream\s*:.*)$")


def write_upstream(path: Path, upstream: Upstream) -> None:
    """Put ``upstream`` into metadata.yaml: the old block replaced, the rest kept as written."""
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    lines = text.splitlines()
    kept: list[str] = []
    skipping = False
    for line in lines:
        if TOP_KEY.match(line):
            skipping = True
            continue
        if skipping and (line.startswith((" ", "\t", "#")) or not line.strip()):
            continue
        skipping = False
        kept.append(line)
    block = yaml.safe_dump({"upstream": upstream.as_yaml()}, allow_unicode=True, sort_keys=False)
    body = "\n".join(kept).rstrip("\n")
    save(path.parent, path, (body + "\n\n" if body else "") + block)


@dataclass
class Project:
    """A translation with its original: the book, the repository, the cache."""

    root: Path
    config: Config
    upstream: Upstream
    repo: Repo
    cache_dir: Path
    _originals: dict[str, dict[str, Text]] = field(default_factory=dict, repr=False)
    _ratios: dict[str, float] = field(default_factory=dict, repr=False)

    @functools.cached_property
    def cache(self) -> Cache:
        return Cache(self.cache_dir)

    @functools.cached_property
    def korean(self) -> dict[str, Text]:
        return read_texts(self.root, self.cache)

    def unmapped(self) -> list[str]:
        """The book's files no original is mapped to (added after ``init``)."""
        return sorted(set(self.korean) - set(self.upstream.chapters))

    def commit(self, ref: str | None = None) -> str:
        return commit_of(self.repo, self.upstream.ref if ref is None else ref)

    def original(self, commit: str) -> dict[str, Text]:
        """The original's files at ``commit``, as blocks (read once per command)."""
        if commit not in self._originals:
            self._originals[commit] = self.read_original(commit)
        return self._originals[commit]

    def read_original(self, commit: str) -> dict[str, Text]:
        """The original's files at ``commit``, read again (not kept)."""
        folder = tree(self.repo, commit, self.cache_dir)
        config = Config(raw={"dialect": self.upstream.dialect})
        return read_texts(folder, self.cache, config)

    def lock(self, file: str) -> Lock | None:
        return read_lock(self.root, file)

    def scorer(self, commit: str, confirmed: frozenset[tuple[str, str]] = frozenset()) -> Scorer:
        """A scorer with the book's length ratio (translated prose / original prose)."""
        return Scorer(self.ratio(commit), confirmed)

    def ratio(self, commit: str) -> float:
        """Translated prose per original prose: the median over the mapped files that are
        translated (every file of the same name before a map exists), so files left
        in the original's language or abridged do not move it."""
        if commit not in self._ratios:
            original = self.original(commit)
            pairs = self.upstream.chapters.items() or [(f, f) for f in self.korean]
            shares = sorted(
                self.korean[k].prose_length / original[u].prose_length
                for k, u in pairs
                if k in self.korean
                and u in original
                and original[u].prose_length
                and self.korean[k].translated
            )
            self._ratios[commit] = shares[len(shares) // 2] if shares else 1.0
        return self._ratios[commit]


def open_project(
    project: Path,
    *,
    offline: bool = False,
    cache_dir: Path | None = None,
    repository: str | None = None,
) -> Project:
    """The book at ``project`` with its ``upstream:`` block and repository (``repository``:
    a checkout named on the command line instead of metadata.yaml's)."""
    root = project.resolve()
    config = load_config(root / "metadata.yaml")
    upstream = upstream_of(config)
    cache = cache_dir or inside(root / ".kobook-cache", root, what="cache folder")
    if repository:
        repo = open_repo(str(Path(repository).resolve()), root, cache, offline=offline)
    else:
        repo = open_repo(upstream.repository, root, cache, offline=offline, given=False)
    return Project(root, config, upstream, repo, cache)
