"""``kobook upstream``: the translation kept in step with the original it translates.

The original is a git repository read through its own dialect; both texts are
flattened into blocks (``blocks.py``), aligned without a language model
(``align.py``), and each translated file's pairs are locked (``lock.py``) at the
original's commit they match.  ``status`` lists what the original's later changes
made stale (``compare.py``, ``status.py``), ``ack`` records what was dealt with.
"""

from __future__ import annotations

from pathlib import Path

from ..load import load_config
from .ack import AckReport, ack, mark
from .init import InitReport, init, new_upstream
from .project import Project, Upstream, open_project, upstream_of
from .repo import REMOTE, is_branch, open_repo
from .status import Finding, findings

__all__ = [
    "AckReport",
    "Finding",
    "InitReport",
    "Project",
    "Upstream",
    "ack",
    "findings",
    "mark",
    "open_project",
    "upstream_init",
]


def upstream_init(
    project: Path,
    source: str,
    *,
    dialect: str = "auto",
    guess_commit: bool = False,
    offline: bool = False,
    cache_dir: Path | None = None,
) -> InitReport:
    """``kobook upstream init SOURCE[@REF]``: record the upstream, write the locks."""
    from ..boundary import inside

    root = project.resolve()
    config = load_config(root / "metadata.yaml")
    upstream = new_upstream(source, dialect)
    if not REMOTE.match(upstream.repository) and not upstream.repository.startswith("file:"):
        upstream.repository = str(Path(upstream.repository).resolve())  # as the shell meant it
    if isinstance(config.raw.get("upstream"), dict):
        upstream.chapters = upstream_of(config).chapters
    cache = cache_dir or inside(root / ".kobook-cache", root, what="cache folder")
    repo = open_repo(upstream.repository, root, cache, offline=offline)
    upstream.repository = repo.source
    if upstream.ref and not is_branch(repo, upstream.ref):
        upstream.ref = ""  # a commit or tag locks there; the head stays the default branch
    return init(Project(root, config, upstream, repo, cache), source, guess_commit=guess_commit)
