"""The original's git repository: where it is, its commits, and its files at a commit.

The original is read only through git's objects (``git archive``), never through a
work tree: a checkout's symlinks and ignored files do not count, and the tree at a
commit is extracted into the cache once, through :mod:`tarfile`'s ``data`` filter
(no link or path that leaves it).  git runs with no system or global config, no
hooks and no fsmonitor, so a repository's own config runs nothing.  A remote URL is
cloned into the cache, the one step that reaches the network: https only, to a
public address, refused with ``--offline``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .. import limits
from ..errors import KobookError

GIT_SAFE = (
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "protocol.allow=never",
    "-c",
    "protocol.https.allow=always",
    "-c",
    "protocol.file.allow=always",
    "-c",
    "http.followRedirects=false",
)
TREE_BYTES = limits.MAX_EXPANDED_BYTES * 16  # an original's tree at one commit, as a tar
REMOTE = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)


@dataclass(frozen=True)
class Repo:
    """A git repository kobook reads the original from."""

    git_dir: Path  # the repository (its .git folder, or a bare clone)
    source: str  # as metadata.yaml records it: a path relative to the book, or a URL


def git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_TERMINAL_PROMPT="0")
    return env


def git(repo: Path, *args: str, binary: bool = False, timeout: float = 120.0) -> str | bytes:
    """Run ``git`` on ``repo``'s objects; a failure is UPS002 with git's own words."""
    command = ["git", *GIT_SAFE, f"--git-dir={repo}", *args]
    try:
        done = subprocess.run(command, capture_output=True, env=git_env(), timeout=timeout)
    except FileNotFoundError:
        raise KobookError(
            "git is not installed", code="UPS002", hint="install git (apt-get install git)"
        ) from None
    except subprocess.TimeoutExpired:
        raise KobookError(f"git {args[0]} took over {timeout:.0f} s", code="UPS002") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise KobookError(
            f"git {args[0]} failed in {repo}: {message[-1] if message else 'no message'}",
            code="UPS002",
            hint="check the upstream repository and the ref (a branch, tag or commit)",
        )
    return done.stdout if binary else done.stdout.decode("utf-8", "replace")


def split_ref(source: str) -> tuple[str, str]:
    """``SOURCE[@REF]`` → (source, ref); ``git@host:x`` and URLs' user parts stay whole."""
    head, at, tail = source.rpartition("@")
    if at and head and tail and re.fullmatch(r"[\w./^~-]+", tail) and "/" not in head[-1:]:
        return head, tail
    return source, ""


def git_dir_of(path: Path) -> Path | None:
    """The git directory of a work tree or bare repository at ``path``, if it is one."""
    if (path / ".git").is_dir():
        return path / ".git"
    if (path / "objects").is_dir() and (path / "HEAD").is_file():
        return path
    return None


def open_repo(source: str, root: Path, cache: Path, *, offline: bool, given: bool = True) -> Repo:
    """The repository ``source`` names (a path, a ``file:`` URL or a remote URL).

    ``given``: named on the command line.  A path metadata.yaml names (which a pull
    request may change) must lie beside the book, in the folder that holds it, as a
    CI workspace holds the book and its original: never anywhere else on the machine.
    """
    if source.startswith("file:"):
        source = urlsplit(source).path
    if REMOTE.match(source):
        return Repo(clone(source, cache, offline=offline), source)
    path = (root / source).resolve() if not Path(source).is_absolute() else Path(source)
    if not given and not path.resolve().is_relative_to(root.parent.resolve()):
        raise KobookError(
            f"the upstream repository {source} is not beside the book",
            code="UPS001",
            file=root / "metadata.yaml",
            hint="check out the original next to the book, or name it on the command line "
            "with --repository PATH",
        )
    found = git_dir_of(path)
    if found is None:
        raise KobookError(
            f"not a git repository: {path}",
            code="UPS001",
            file=root / "metadata.yaml",
            hint="give the original's git checkout (a folder with .git), a file: URL or an "
            "https URL",
        )
    recorded = os.path.relpath(path, root) if path.anchor == root.anchor else str(path)
    return Repo(found, Path(recorded).as_posix())


def clone(url: str, cache: Path, *, offline: bool) -> Path:
    """A bare clone of ``url`` in the cache, fetched again unless ``offline``."""
    from ..transform.public_http import Refused, target

    where = cache / "upstream" / "repos" / (hashlib.sha256(url.encode()).hexdigest()[:16] + ".git")
    if offline:
        if where.is_dir():
            return where
        raise KobookError(
            f"the upstream {url} is not in the cache and --offline forbids cloning it",
            code="UPS003",
            hint="run once without --offline, or give a local checkout of the original",
        )
    if urlsplit(url).scheme.lower() != "https":
        raise KobookError(
            f"only https URLs are cloned, not {url}",
            code="UPS003",
            hint="clone it yourself and give the folder",
        )
    try:
        target(url)
    except Refused as why:
        raise KobookError(f"the upstream {url} is refused: {why}", code="UPS003") from None
    if where.is_dir():
        git(where, "fetch", "--quiet", "--prune", "origin", "+refs/heads/*:refs/heads/*")
        return where
    where.parent.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(dir=where.parent, prefix=".clone."))
    try:
        command = ["git", *GIT_SAFE, "clone", "--bare", "--quiet", url, str(temp / "r.git")]
        done = subprocess.run(command, capture_output=True, env=git_env(), timeout=600)
        if done.returncode != 0:
            raise KobookError(
                f"cloning {url} failed: {done.stderr.decode('utf-8', 'replace').strip()}",
                code="UPS003",
            )
        (temp / "r.git").rename(where)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    return where


def commit_of(repo: Repo, ref: str) -> str:
    """The full commit id ``ref`` names (HEAD when empty)."""
    text = str(git(repo.git_dir, "rev-parse", "--verify", "--quiet", f"{ref or 'HEAD'}^{{commit}}"))
    return text.strip()


def is_branch(repo: Repo, name: str) -> bool:
    """Does ``name`` name a branch (what "the upstream's head" follows), not a commit?"""
    try:
        git(repo.git_dir, "show-ref", "--verify", "--quiet", f"refs/heads/{name}")
    except KobookError:
        return False
    return True


def history(repo: Repo, ref: str, limit: int = 400) -> list[str]:
    """The commits of ``ref``'s first-parent history, newest first (at most ``limit``)."""
    text = str(
        git(repo.git_dir, "rev-list", "--first-parent", f"--max-count={limit}", ref or "HEAD")
    )
    return text.split()


def describe(repo: Repo, commit: str) -> str:
    """A commit's short id and subject, for messages."""
    return str(git(repo.git_dir, "log", "-1", "--format=%h %s", commit)).strip()


def tree(repo: Repo, commit: str, cache: Path) -> Path:
    """The original's files at ``commit``, extracted once into the cache."""
    where = cache / "upstream" / "trees" / commit
    if where.is_dir():
        return where
    where.parent.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(dir=where.parent, prefix=".tree."))
    try:
        archive_file = temp / "tree.tar"  # on disk, not in memory: a large original fits
        git(repo.git_dir, "archive", "--format=tar", "-o", str(archive_file), commit, timeout=300)
        if archive_file.stat().st_size > TREE_BYTES:
            raise KobookError(
                f"the upstream tree at {commit[:10]} is too large to read", code="UPS002"
            )
        files = temp / "files"
        with tarfile.open(archive_file) as archive:
            members = [m for m in archive.getmembers() if m.isfile() or m.isdir()]
            archive.extractall(files, members=members, filter="data")
        with contextlib.suppress(OSError):  # another run extracted it meanwhile: theirs stays
            files.rename(where)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    return where
