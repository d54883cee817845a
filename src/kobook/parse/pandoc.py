"""Run the ``pandoc`` binary that ships with pypandoc-binary (no system pandoc needed)."""

from __future__ import annotations

import functools
import json
import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

from .. import limits, tools
from ..cache import Cache, digest
from ..errors import KobookError

# pandoc's own markdown (not commonmark): ``**“강조”**를`` is bold there.
# east_asian_line_breaks stays off: Korean separates words with spaces, so a soft
# line break between two Hangul words must remain a space.
READER = "markdown-east_asian_line_breaks"


@functools.cache
def pandoc_path() -> str:
    """Path of the pandoc binary: ``PYPANDOC_PANDOC`` (pypandoc's own override), else the
    one pypandoc-binary ships, else pypandoc's search, else one on PATH.

    The shipped binary is found beside pypandoc without importing it: pypandoc's search
    runs ``pandoc --version`` on every candidate (one on PATH too, which it prefers when
    newer), and its import takes a few hundredths of a second of every build.
    """
    chosen = os.environ.get("PYPANDOC_PANDOC")
    if chosen and Path(chosen).is_file():
        return chosen
    shipped = shipped_pandoc()
    if shipped is not None:
        return str(shipped)
    try:
        import pypandoc

        path = pypandoc.get_pandoc_path()
        if path and Path(path).exists():
            return str(path)
    except (ImportError, OSError):
        pass
    found = shutil.which("pandoc")
    if found:
        return found
    raise KobookError(
        "pandoc not found",
        code="ENV001",
        hint="pip install pypandoc-binary (kobook's own dependency; reinstall kobook)",
    )


def shipped_pandoc() -> Path | None:
    """pypandoc-binary's pandoc (``pypandoc/files/pandoc``), if it is installed."""
    import importlib.util

    spec = importlib.util.find_spec("pypandoc")
    if spec is None or spec.origin is None:
        return None
    files = Path(spec.origin).parent / "files"
    for name in ("pandoc", "pandoc.exe"):
        binary = files / name
        if binary.is_file() and os.access(binary, os.X_OK):
            return binary
    return None


T = TypeVar("T")


class Once(Generic[T]):
    """``functools.cache`` of a function without arguments that runs it once even when two
    threads ask at the same moment (the prefetch's two pandoc runs start together: each
    ran ``pandoc --version`` and the ``+RTS`` probe of its own).  A failure is not kept."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._value: list[T] = []
        functools.update_wrapper(self, make)

    def __call__(self) -> T:
        with self._lock:
            if not self._value:
                self._value.append(self._make())
            return self._value[0]

    def cache_clear(self) -> None:
        with self._lock:
            self._value.clear()


@Once
def memory_options() -> tuple[str, ...]:
    """GHC runtime options: pandoc's heap capped at :data:`~kobook.limits.PANDOC_MEMORY`.

    ``-A`` gives the young generation :data:`~kobook.limits.PANDOC_NURSERY`
    instead of GHC's 4 MB: a chapter-sized parse collects garbage far less
    often and takes 30 % less time (``kobook preview`` parses on each save);
    a whole book or the HTML writer is not slower.  pypandoc-binary's pandoc
    takes them; a pandoc built without ``-rtsopts``
    refuses to start with them, and then runs without the cap.
    """
    options = ("+RTS", f"-M{limits.PANDOC_MEMORY}", f"-A{limits.PANDOC_NURSERY}", "-RTS")
    try:
        proc = tools.run(
            [pandoc_path(), *options, "--version"],
            timeout=limits.TOOL_TIMEOUT,
            what="pandoc --version",
        )
    except OSError:
        return ()
    return options if proc.returncode == 0 else ()


@Once
def pandoc_version() -> str:
    proc = tools.run(
        [pandoc_path(), "--version"],
        timeout=limits.TOOL_TIMEOUT,
        what="pandoc --version",
        text=True,
    )
    if proc.returncode != 0:
        raise KobookError(
            f"pandoc --version failed: {proc.stderr.strip()[:300]}",
            code="ENV001",
            hint="pip install pypandoc-binary (kobook's own dependency; reinstall kobook)",
        )
    return str(proc.stdout).split("\n", 1)[0].split()[-1]


def run_pandoc(
    args: list[str],
    stdin: str,
    *,
    what: str = "pandoc",
    file: Path | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    hint: str = "",
) -> str:
    """Run pandoc with ``args`` on ``stdin``; a failure becomes a :class:`KobookError`.
    ``env``: variables added to the environment (``SOURCE_DATE_EPOCH`` for the EPUB);
    ``cwd``: the folder it runs in.

    Each run has a time limit and a heap limit (``limits.py``): Markdown that
    sends pandoc's parser into exponential backtracking is stopped (LIMIT006,
    LIMIT007), not waited for.
    """
    proc = tools.run(
        [pandoc_path(), *memory_options(), *args],
        input=stdin.encode("utf-8"),
        timeout=limits.PANDOC_TIMEOUT,
        what=f"pandoc ({what})",
        file=file,
        env={**os.environ, **env} if env else None,
        cwd=cwd,
        hint=hint
        or "look for long runs of unclosed [, <, ' or * in one paragraph, "
        "or split the chapter; build it alone with --chapter to find it",
    )
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip()
        if "Heap exhausted" in message:
            raise KobookError(
                f"pandoc ({what}) reached its memory limit ({limits.PANDOC_MEMORY}) "
                "and was stopped",
                code="LIMIT007",
                file=file,
                hint=hint
                or "split the chapter into smaller files; look for long runs of "
                "unclosed [ or [^ in one paragraph",
            )
        raise KobookError(f"{what} failed: {message}", code="PANDOC001", file=file)
    return proc.stdout.decode("utf-8")


def markdown_to_ast(
    text: str,
    extra_args: list[str] | None = None,
    *,
    reader: str = READER,
    what: str = "parse",
    file: Path | None = None,
) -> dict[str, Any]:
    """Parse Markdown into pandoc's JSON AST (a dict with ``blocks`` and ``meta``)."""
    out = run_pandoc(["-f", reader, "-t", "json", *(extra_args or [])], text, what=what, file=file)
    return dict(load_json(out, file))


def load_json(data: str | bytes, file: Path | None = None) -> Any:
    """``json.loads`` of pandoc's JSON; nesting too deep for Python is LIMIT001, not a crash."""
    try:
        return json.loads(data)
    except RecursionError:
        raise too_deep(file) from None


def too_deep(file: Path | None) -> KobookError:
    return KobookError(
        "the text nests too deeply to process",
        code="LIMIT001",
        file=file,
        hint=f"at most {limits.MAX_AST_DEPTH} levels of elements inside each other "
        "(quotes, lists, divs, emphasis, links, spans): flatten the deepest ones",
    )


# ``pandoc lua``: read each text of a JSON list with one reader, write each AST as one
# line of JSON (pandoc's JSON holds no raw newline), ``null`` for a text it failed on.
MANY = """
local jobs = pandoc.json.decode(io.read("a"), false)
for _, text in ipairs(jobs.texts) do
  local ok, doc = pcall(pandoc.read, text, jobs.reader)
  io.write(ok and pandoc.write(doc, "json") or "null", "\\n")
end
"""


def markdown_to_json(texts: list[str], reader: str = READER) -> list[str | None]:
    """Parse many texts in one pandoc process: pandoc's JSON of each (what
    :func:`markdown_to_ast` decodes), or None where this could not say (pandoc failed on
    the text, or the whole run).  :func:`decoded` makes each an AST: one at a time, as
    the caller keeps it, since a whole book's ASTs at once hold hundreds of MB.

    Each pandoc process costs about as much again as parsing a chapter (its heap is
    made anew), so a book's chapters parsed one process each cost twice what pandoc
    needs.  The caller parses a None again on its own, which reports pandoc's error
    with the chapter's file; the texts must have passed :mod:`.guard` already.

    Not for ``+east_asian_line_breaks`` (Chinese and Japanese): pandoc's command line
    applies it after the reader, ``pandoc.read`` does not, so those are all None.
    """
    if not texts:
        return []
    if "+east_asian_line_breaks" in reader:
        return [None] * len(texts)
    payload = json.dumps({"texts": texts, "reader": reader})
    lines = lua_lines(MANY, payload, len(texts), "parsing the chapters")
    return [None if line == "null" else line for line in lines]


def lua_lines(script: str, payload: str, count: int, what: str) -> list[str | None]:
    """The first ``count`` lines ``pandoc lua`` writes running ``script`` on ``payload``;
    all None when the run failed or wrote fewer (the callers then do each alone)."""
    try:
        out = run_pandoc(["lua", "-e", script], payload, what=what)
    except KobookError:
        return [None] * count
    lines = out.split("\n")[:count]
    return list(lines) if len(lines) == count else [None] * count


def decoded(data: str | None) -> dict[str, Any] | None:
    """An AST of :func:`markdown_to_json`; None when it is none (or nests too deeply for
    Python: the chapter's own parse then says LIMIT001 with its file)."""
    if data is None:
        return None
    try:
        ast = json.loads(data)
    except (ValueError, RecursionError):
        return None
    return ast if isinstance(ast, dict) and "blocks" in ast else None


def written_key(
    payload: str, to: str, args: list[str] | None, inputs: dict[str, str] | None
) -> str:
    """The cache's name for pandoc's ``to`` of the JSON ``payload`` (see :func:`ast_to`)."""
    named = [(inputs or {}).get(arg, arg) for arg in args or []]
    return digest("written", pandoc_version(), to, *named, payload)


# ``pandoc lua``: each JSON document of a list written as HTML5 with the options the
# command line's ``--mathml --wrap=none --syntax-highlighting=THEME`` give, one JSON
# string a line (``null`` where pandoc failed).
MANY_HTML = """
local jobs = pandoc.json.decode(io.read("a"), false)
local options = {html_math_method = "mathml", wrap_text = "none", highlight_method = jobs.theme}
for _, text in ipairs(jobs.docs) do
  local ok, html = pcall(function ()
    return pandoc.write(pandoc.read(text, "json"), "html5", options)
  end)
  io.write(ok and pandoc.json.encode(html .. "\\n") or "null", "\\n")
end
"""


def json_to_html5s(payloads: list[str], theme: dict[str, Any]) -> list[str | None]:
    """pandoc's HTML5 of many JSON documents in one process, as ``pandoc -f json -t html5
    --mathml --wrap=none --syntax-highlighting=THEME`` writes each (``theme``: the
    highlighting theme's JSON); None where this could not say (the caller writes that one
    alone, which reports pandoc's error)."""
    if not payloads:
        return []
    jobs = json.dumps({"docs": payloads, "theme": theme})
    found: list[str | None] = []
    for line in lua_lines(MANY_HTML, jobs, len(payloads), "writing the chapters"):
        try:
            html = json.loads(line) if line is not None else None
        except ValueError:
            html = None
        found.append(html if isinstance(html, str) else None)
    return found


def ast_to(
    doc: dict[str, Any],
    to: str,
    args: list[str] | None = None,
    *,
    cache: Cache | None = None,
    inputs: dict[str, str] | None = None,
) -> str:
    """Render a JSON AST with one of pandoc's writers (``html5``, ``latex``, ...).

    ``cache``: pandoc's output is kept under a key of the document, the writer, the
    arguments and pandoc's version, so an unchanged chapter is not written again;
    ``inputs``: an argument → what stands for it in the key (an option naming a
    temporary file, whose path changes between runs, by the file's content).
    """
    try:
        payload = json.dumps(doc)
    except RecursionError:
        raise too_deep(None) from None
    key = ""
    if cache is not None:
        key = written_key(payload, to, args, inputs)
        found = cache.get("written", key, f".{to}")
        if found is not None:
            return found.decode("utf-8")
    out = run_pandoc(["-f", "json", "-t", to, *(args or [])], payload, what=f"{to}")
    if cache is not None:
        cache.put("written", key, out.encode("utf-8"), f".{to}")
    return out
