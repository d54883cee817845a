"""What the writers share: TOC entries, pandoc HTML rendering, highlight CSS, atomic output."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...cache import Cache
from ...lang import Words
from ...model import Doc
from ...parse import api_version
from ...parse.ast import iter_nodes, keyval, stringify
from ...parse.pandoc import ast_to, json_to_html5s, run_pandoc, written_key
from ...tools import raise_if_stopped
from .highlight import dark_css, highlight_option, theme


@dataclass(frozen=True)
class TocEntry:
    level: int
    id: str
    number: str
    title: str
    chapter_id: str


def toc_entries(docs: list[Doc], depth: int, words: Words) -> list[TocEntry]:
    """Headings up to ``depth`` with their printed numbers, in reading order."""
    entries = []
    for doc in docs:
        for block in doc.blocks:
            if block["t"] != "Header" or block["c"][0] > depth:
                continue
            level, attrs, inlines = block["c"]
            number = keyval(attrs, "number") or ""
            if level == 1 and number:
                number = words.label("chapter", number)
            title = stringify(inlines).strip()
            entries.append(TocEntry(level, attrs[0], number, title, doc.chapter.id))
    return entries


def part_titles(docs: list[Doc], words: Words) -> dict[str, str]:
    """Chapter id → the title of the part it opens (a part page, a TOC group).

    A chapter's ``part`` (mdBook ``# Part`` lines) opens a part; the first
    appendix opens one titled 부록 (Appendices) unless it opens its own.
    """
    parts: dict[str, str] = {}
    appendix_seen = False
    for doc in docs:
        chapter = doc.chapter
        if chapter.part:
            parts[chapter.id] = chapter.part
        elif chapter.kind == "appendix" and not appendix_seen:
            parts[chapter.id] = words.word("appendices")
        appendix_seen = appendix_seen or chapter.kind == "appendix"
    return parts


def blocks_to_html(
    blocks: list[dict[str, Any]],
    extra_args: list[str] | None = None,
    cache: Cache | None = None,
) -> str:
    """pandoc's HTML5 for a list of blocks (math as MathML unless already replaced);
    ``cache``: kept there, so an unchanged chapter is not written by pandoc again."""
    document = {"pandoc-api-version": api_version(), "meta": {}, "blocks": blocks}
    args, inputs = html_args()
    return ast_to(document, "html5", [*args, *(extra_args or [])], cache=cache, inputs=inputs)


def html_args() -> tuple[list[str], dict[str, str]]:
    """pandoc's arguments for a chapter's HTML, and what stands for the highlight theme's
    temporary file in a cache key (its content, not its path)."""
    highlight = highlight_option()
    return ["--mathml", highlight, "--wrap=none"], {highlight: json.dumps(theme(), sort_keys=True)}


def chapters_to_html(chapters: list[list[dict[str, Any]]], cache: Cache | None) -> list[str]:
    """:func:`blocks_to_html` of each chapter's blocks, the same bytes, in two pandoc
    processes for the whole book instead of one per chapter (each process costs about as
    much again as writing a chapter); a chapter in ``cache`` is not written again."""
    args, inputs = html_args()
    version = api_version()
    try:
        payloads = [
            json.dumps({"pandoc-api-version": version, "meta": {}, "blocks": blocks})
            for blocks in chapters
        ]
    except RecursionError:  # blocks_to_html says which (LIMIT001)
        payloads = []
    keys = [written_key(payload, "html5", args, inputs) for payload in payloads]
    found: list[str | None] = [None] * len(chapters)
    if cache is not None:
        for i, key in enumerate(keys):
            data = cache.get("written", key, ".html5")
            found[i] = data.decode("utf-8") if data is not None else None
    todo = [i for i, html in enumerate(found) if html is None] if payloads else []
    if len(todo) > 1:
        halves = [todo[0::2], todo[1::2]]
        with ThreadPoolExecutor(max_workers=2) as pool:
            written = pool.map(
                lambda half: json_to_html5s([payloads[i] for i in half], theme()), halves
            )
            for half, htmls in zip(halves, written, strict=True):
                for i, html in zip(half, htmls, strict=True):
                    if html is not None and cache is not None:
                        cache.put("written", keys[i], html.encode("utf-8"), ".html5")
                    found[i] = html
    return [
        html if html is not None else blocks_to_html(blocks, cache=cache)
        for html, blocks in zip(found, chapters, strict=True)
    ]


@functools.cache
def highlight_css() -> str:
    """The CSS of kobook's code highlighting (``highlight.py``): pandoc's rules for the
    light palette (pandoc only emits them standalone), then the dark palette's."""
    with scratch("highlight") as tmp:
        template = tmp / "hl.html"
        template.write_text("$highlighting-css$", encoding="utf-8")
        light = run_pandoc(
            [
                "-f",
                "markdown",
                "-t",
                "html5",
                f"--template={template}",
                highlight_option(),
            ],
            "```python\nx = 1\n```\n",
            what="highlight css",
        )
    return light + dark_css()


# Outputs are made to be published (a site served as is, a PDF attached to a release):
# readable by everyone whatever the umask, like ``cp`` and ``install -m 644`` would leave them.
# (The cache under .kobook-cache/ stays private: mkstemp's 0600.)
PUBLIC_FILE = 0o644
PUBLIC_FOLDER = 0o755


def public_modes(root: Path) -> None:
    """Give every file under ``root`` mode 0644 and every folder 0755 (``root`` too).

    Symbolic links are left alone (kobook writes none; chmod would follow them).
    """
    os.chmod(root, PUBLIC_FOLDER)
    for folder, subfolders, files in os.walk(root):
        for name in subfolders:
            if not os.path.islink(os.path.join(folder, name)):
                os.chmod(os.path.join(folder, name), PUBLIC_FOLDER)
        for name in files:
            if not os.path.islink(os.path.join(folder, name)):
                os.chmod(os.path.join(folder, name), PUBLIC_FILE)


# --- temporary files: named by the process that made them, swept when it is gone -------


def alive(pid: int) -> bool:
    """Whether a process ``pid`` runs (one of another user counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep(folder: Path, stem: str, *, any_kind: bool = False) -> None:
    """Remove what a killed kobook left in ``folder``: entries named ``STEM.PID.…`` of this
    user whose process is gone (``kill -9`` runs no ``finally``: a 0-byte
    ``.book.pdf.*.tmp`` stayed in ``dist/`` and a ``kobook-runs-*`` folder in /tmp).
    ``any_kind``: ``STEM-KIND.PID.…`` for every kind of :func:`scratch` folder."""
    kind = r"-[a-z]+" if any_kind else ""
    pattern = re.compile(re.escape(stem) + kind + r"\.(\d+)\.")
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        found = pattern.match(entry.name)
        if found is None or int(found.group(1)) == os.getpid() or alive(int(found.group(1))):
            continue
        with contextlib.suppress(OSError):
            if entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)


def owned(stem: str) -> str:
    """The prefix of a temporary name :func:`sweep` can tell is this process's."""
    return f"{stem}.{os.getpid()}."


@contextmanager
def scratch(kind: str) -> Iterator[Path]:
    """A temporary folder for ``kind`` of work, removed after; one a killed run left is
    removed by the next build (:func:`sweep_scratch`)."""
    with tempfile.TemporaryDirectory(prefix=owned(f"kobook-{kind}")) as folder:
        yield Path(folder)


def sweep_scratch() -> None:
    """Remove the :func:`scratch` folders killed kobook runs left (a build does, first)."""
    sweep(Path(tempfile.gettempdir()), "kobook", any_kind=True)


def beside(path: Path, suffix: str = "") -> Path:
    """A new temporary name beside ``path`` that :func:`sweep` can tell is this process's.

    Named before anything is made under it, and made inside the ``try`` whose
    ``finally`` removes it: a signal that lands just after the file or folder is made
    (a loaded machine stops a process anywhere) found the name not yet known there,
    and an ``.html.*`` folder stayed behind.
    """
    return path.parent / f"{owned(f'.{path.name}')}{secrets.token_hex(6)}{suffix}"


@contextmanager
def atomic_output(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; move it into place only on success."""
    path.parent.mkdir(parents=True, exist_ok=True)
    sweep(path.parent, f".{path.name}")
    tmp_path = beside(path, ".tmp")
    try:
        tmp_path.touch(mode=0o600, exist_ok=False)
        yield tmp_path
        raise_if_stopped()  # an interruption a library swallowed writes nothing
        os.chmod(tmp_path, PUBLIC_FILE)
        os.replace(tmp_path, path)
    finally:
        tmp_path.unlink(missing_ok=True)


@contextmanager
def atomic_directory(path: Path) -> Iterator[Path]:
    """Build a folder next to ``path`` and swap it in only when complete."""
    path.parent.mkdir(parents=True, exist_ok=True)
    sweep(path.parent, f".{path.name}")
    tmp = beside(path)
    try:
        tmp.mkdir(mode=0o700)
        yield tmp
        raise_if_stopped()
        os.chmod(tmp, PUBLIC_FOLDER)
        old = None
        if path.exists():
            old = path.parent / f".{path.name}.old"
            shutil.rmtree(old, ignore_errors=True)
            os.replace(path, old)
        os.replace(tmp, path)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def chapter_at(source: str, line: int, mark: str) -> str:
    """The id of the chapter whose ``mark`` line (``% kobook-chapter: id``) is closest above
    ``line`` of a generated source: where an engine's error came from."""
    chapter = ""
    for number, text in enumerate(source.splitlines(), 1):
        if number > line:
            break
        if text.startswith(mark):
            chapter = text[len(mark) :].strip()
    return chapter


def text_chars(blocks: list[Any]) -> set[str]:
    """Every character of the chapter's text and code."""
    chars: set[str] = set()
    for node in iter_nodes(blocks):
        if node["t"] == "Str":
            chars.update(node["c"])
        elif node["t"] in ("Code", "CodeBlock"):
            chars.update(node["c"][1])
    return chars
