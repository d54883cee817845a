"""Every kobook route beside its bare pandoc route, in one run (``bench.py --routes``).

For each output (HTML, EPUB, and the PDF of each engine) the playbook is built
cold by kobook (an empty cache, a fresh copy of the book) and by pandoc alone,
the pair interleaved, ``--repeats`` times; then kobook again after a
one-paragraph edit with the cache of the cold build (warm), as many times.
Each figure is the median of its runs, in CPU seconds of the whole process
tree (what a loaded, shared machine disturbs least) and the peak resident
memory of its largest process.  The bare routes are what a translation
repository does without kobook:

* HTML: ``pandoc -s -t html``;
* EPUB: ``pandoc -t epub3``;
* Typst: ``pandoc -s -t typst``, then the ``typst`` wheel's compiler (Quarto's route);
* WeasyPrint: ``pandoc -s -t html5 --pdf-engine=weasyprint``;
* XeLaTeX: the seed recipe, ``pandoc --pdf-engine=xelatex`` with xeCJK's fonts.

The targets are issue 33's ratios (kobook ÷ bare, CPU, cold) and the warm
build's share of the cold one.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KOBOOK_SHARED", REPO.parent / "shared"))
PLAYBOOK = SHARED / "corpus" / "ultrascale-playbook-ko"
SOURCE = "The UltraScale Playbook.md"
WARM_TARGET = 0.5  # a warm build after a one-paragraph edit, as a share of the cold one
MEMORY_TARGET = 1.2  # kobook's largest process ÷ the bare route's


@dataclass
class Measure:
    """One run: wall and CPU seconds of the process tree, its largest process (MB)."""

    wall: float
    cpu: float
    peak_mb: float
    ok: bool = True
    tail: str = ""

    def __add__(self, other: Measure) -> Measure:  # two processes run one after the other
        return Measure(
            self.wall + other.wall,
            self.cpu + other.cpu,
            max(self.peak_mb, other.peak_mb),
            self.ok and other.ok,
            self.tail or other.tail,
        )


def measure(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> Measure:
    """Run ``cmd`` and wait for it; wait4's usage covers its children once they are waited
    for (pandoc, the Typst worker, WeasyPrint's layout processes)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        err.seek(0)
        tail = err.read().decode("utf-8", "replace")[-300:]
    code = os.waitstatus_to_exitcode(status)
    return Measure(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code == 0, tail)


def median(runs: list[Measure]) -> Measure:
    ok = all(run.ok for run in runs)
    tail = next((run.tail for run in runs if not run.ok), "")
    return Measure(
        statistics.median(r.wall for r in runs),
        statistics.median(r.cpu for r in runs),
        statistics.median(r.peak_mb for r in runs),
        ok,
        tail,
    )


def pandoc_path() -> str:
    import pypandoc

    return str(pypandoc.get_pandoc_path())


PLAIN_TYPST = (
    "import sys, typst\n"
    "open(sys.argv[3], 'wb').write(typst.compile(sys.argv[1], root=sys.argv[2]))\n"
)
# The playbook's @handles are no citations (it has no bibliography).
READ = ["-f", "markdown-citations"]


def bare_routes(work: Path) -> dict[str, Callable[[Path], Measure]]:
    """Each route's pandoc-alone command, run in a fresh copy of the book."""
    pandoc = pandoc_path()
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    meta = work / "xecjk.yaml"
    meta.write_text(
        "lang: ko-KR\nmainfont: Noto Serif CJK KR\nCJKmainfont: Noto Serif CJK KR\n",
        encoding="utf-8",
    )

    def html(book: Path) -> Measure:
        return measure([pandoc, SOURCE, *READ, "-s", "-t", "html", "-o", "bare.html"], book)

    def epub(book: Path) -> Measure:
        return measure([pandoc, SOURCE, *READ, "-t", "epub3", "-o", "bare.epub"], book)

    def typst(book: Path) -> Measure:
        first = measure([pandoc, SOURCE, *READ, "-s", "-t", "typst", "-o", "bare.typ"], book)
        compile_ = [sys.executable, "-c", PLAIN_TYPST, "bare.typ", str(book), "bare.pdf"]
        return first + measure(compile_, book)

    def weasyprint(book: Path) -> Measure:
        cmd = [pandoc, SOURCE, *READ, "-s", "-t", "html5", "--pdf-engine=weasyprint"]
        return measure([*cmd, "-o", "bare.pdf"], book, env)

    def xelatex(book: Path) -> Measure:
        cmd = [pandoc, SOURCE, *READ, "--pdf-engine=xelatex", f"--metadata-file={meta}"]
        return measure([*cmd, "-o", "bare.pdf"], book)

    return {
        "html": html,
        "epub": epub,
        "typst": typst,
        "weasyprint": weasyprint,
        "xelatex": xelatex,
    }


# route → (kobook build arguments, target ratio to the bare route)
ROUTES: dict[str, tuple[list[str], float]] = {
    "html": (["html"], 1.5),
    "epub": (["epub"], 1.5),
    "typst": (["pdf", "--engine", "typst"], 1.5),
    "weasyprint": (["pdf", "--engine", "weasyprint"], 3.0),
    "xelatex": (["pdf", "--engine", "xelatex"], 1.2),
}


def kobook(book: Path, cache: Path, args: list[str]) -> Measure:
    cmd = [sys.executable, "-m", "kobook", "build", *args, "-q", "--project", str(book)]
    return measure([*cmd, "--out", str(book / "out"), "--cache-dir", str(cache)])


def fresh(work: Path, name: str) -> Path:
    book = work / name
    shutil.rmtree(book, ignore_errors=True)
    shutil.copytree(PLAYBOOK, book)
    return book


def edit(book: Path, n: int) -> None:
    """Change one paragraph (a different one each time) in the middle of the book."""
    source = book / SOURCE
    text = source.read_text(encoding="utf-8")
    cut = text.index("\n\n", len(text) // 2 + 2000 * n)
    source.write_text(text[:cut] + f" 문장 {n}을 더했다." + text[cut:], encoding="utf-8")


@dataclass
class Route:
    name: str
    target: float
    cold: Measure
    bare: Measure
    warm: Measure

    @property
    def ratio(self) -> float:
        return self.cold.cpu / self.bare.cpu if self.bare.cpu else float("inf")

    @property
    def warm_share(self) -> float:
        return self.warm.cpu / self.cold.cpu if self.cold.cpu else float("inf")

    @property
    def memory(self) -> float:
        return self.cold.peak_mb / self.bare.peak_mb if self.bare.peak_mb else float("inf")


def bench_route(name: str, work: Path, repeats: int) -> Route:
    args, target = ROUTES[name]
    bare_run = bare_routes(work)[name]
    cold, bare, warm = [], [], []
    for i in range(repeats):  # each pair interleaved: a load that comes and goes hits both
        book = fresh(work, f"{name}-{i}")
        cache = work / f"{name}-{i}-cache"
        shutil.rmtree(cache, ignore_errors=True)
        cold.append(kobook(book, cache, args))
        bare.append(bare_run(fresh(work, f"{name}-bare")))
        edit(book, i)
        warm.append(kobook(book, cache, args))
    return Route(name, target, median(cold), median(bare), median(warm))


def table(routes: list[Route]) -> str:
    """The routes as the README's Markdown table."""
    lines = [
        "| route | kobook cold CPU s | pandoc alone CPU s | ratio (target) | warm CPU s "
        "(share of cold) | peak MB kobook / alone |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in routes:
        failed = " FAILED" if not (r.cold.ok and r.bare.ok and r.warm.ok) else ""
        lines.append(
            f"| {r.name}{failed} | {r.cold.cpu:.1f} | {r.bare.cpu:.1f} | "
            f"{r.ratio:.1f}× (≤ {r.target:g}×) | {r.warm.cpu:.1f} ({r.warm_share:.2f}) | "
            f"{r.cold.peak_mb:.0f} / {r.bare.peak_mb:.0f} |"
        )
    return "\n".join(lines)


def as_installed() -> None:
    """Measure kobook as pip installs it: its modules compiled once.  A shell that sets
    PYTHONDONTWRITEBYTECODE would have every run compile every kobook module again
    (a few tenths of a CPU second per process, none of it kobook's work)."""
    import compileall

    import kobook

    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    compileall.compile_dir(Path(kobook.__file__).parent, quiet=1)


def bench_routes(work: Path, repeats: int = 3, names: list[str] | None = None) -> list[Route]:
    """Every route (``names``: some of them) on the playbook; xelatex only where installed."""
    chosen = names or [n for n in ROUTES if n != "xelatex" or shutil.which("xelatex")]
    routes = []
    for name in chosen:
        route = bench_route(name, work, repeats)
        print(f"  {name}: {route.cold.cpu:.1f} / {route.bare.cpu:.1f} CPU s", file=sys.stderr)
        for run in (route.cold, route.bare, route.warm):
            if not run.ok:
                print(f"  {name} FAILED: {run.tail.strip()[-200:]}", file=sys.stderr)
        routes.append(route)
    return routes


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("routes", nargs="*", help=f"some of {', '.join(ROUTES)} (default: all)")
    args = parser.parse_args()
    unknown = [name for name in args.routes if name not in ROUTES]
    if unknown:
        parser.error(f"unknown route(s) {', '.join(unknown)}: known are {', '.join(ROUTES)}")
    if not (PLAYBOOK / SOURCE).exists():
        print(f"(corpus not found at {PLAYBOOK})")
        return 1
    as_installed()
    with tempfile.TemporaryDirectory(prefix="kobook-routes-") as tmp:
        routes = bench_routes(Path(tmp), args.repeats, args.routes or None)
    print(table(routes))
    return 0 if all(r.cold.ok and r.bare.ok and r.warm.ok for r in routes) else 1


if __name__ == "__main__":
    sys.exit(main())
