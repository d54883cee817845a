#!/usr/bin/env python3
"""kobook benchmarks: cold builds of the sample book and the corpus books.

Prints seconds and peak memory (max RSS of the build process) per measurement,
so figures can be compared across commits:

    python scripts/bench.py            # everything available
    python scripts/bench.py --quick    # sample book only
    python scripts/bench.py --engines  # the PDF engines on the playbook, cold and warm
    python scripts/bench.py --json out.json
    python scripts/bench.py --upstream # kobook upstream on the Rust book and its bundle
    python scripts/bench.py --routes   # every route beside pandoc alone (bench_routes.py)
    python scripts/bench.py --limits   # how fast the hostile inputs are refused

The full run (no option) ends with the routes table (the README's) and the limits.

Each build runs in its own process with an empty cache (a cold build); the
``warm`` rows build the playbook again after one paragraph changed, with the
cache of the first build, for the WeasyPrint and Typst engines.  The plain
pandoc + Typst route (pandoc's default Typst template, then the ``typst``
wheel's compiler: what Quarto's typst format does) is timed as the Typst
engine's reference.  Where
``xelatex`` is installed, the plain ``pandoc ... --pdf-engine=xelatex`` recipe
translation repositories use today is timed on the same corpus file for
comparison.  The two repositories of other dialects (the distill site
``scaling-book-en`` and the mdBook ``rust-book-ko``) are copied, imported in
place (``kobook import``, timed) and built cold as PDF and HTML.  The corpus
lives in ../shared/corpus; without it those rows are skipped with a message.

The ``preview`` rows (``--preview`` runs only them) time ``kobook preview`` on a
copy of the playbook (``bench_preview.py``): the cold start, then edits of one
paragraph, from the call to the pages and the chapter PDF written, from the file
write to the server's ``reload`` event, and to the page shown again in Chromium.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KOBOOK_SHARED", REPO.parent / "shared"))
PLAYBOOK = SHARED / "corpus" / "ultrascale-playbook-ko"
PLAYBOOK_MD = PLAYBOOK / "The UltraScale Playbook.md"
COUNTERS = SHARED / "tools" / "ko_pdf_counters.py"
# Repositories of other dialects: (bench name, corpus folder).
DIALECT_BOOKS = (
    ("scaling", SHARED / "corpus" / "scaling-book-en"),
    ("rust", SHARED / "corpus" / "rust-book-ko"),
)


@dataclass
class Row:
    name: str
    seconds: float
    peak_mb: float
    note: str = ""


def run(
    cmd: list[str], cwd: Path | None = None, timeout: float = 1800
) -> tuple[float, float, int, str]:
    """Run ``cmd``: wall seconds, peak RSS (MB) of it and its children, exit code, stderr tail."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        err.seek(0)
        tail = err.read().decode("utf-8", "replace")[-600:]
    # ru_maxrss of wait4 is the largest process in the tree that was waited for (kB).
    return seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), tail


def kobook_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "kobook", *args]


def bench_build(
    name: str, project: Path, fmt: str, work: Path, extra: list[str] | None = None
) -> Row:
    out = work / f"{name}-out"
    cache = work / f"{name}-cache"
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    cmd = kobook_cmd(
        "build",
        fmt,
        "-q",
        "--project",
        str(project),
        "--out",
        str(out),
        "--cache-dir",
        str(cache),
        *(extra or []),
    )
    seconds, peak, rc, tail = run(cmd)
    note = (
        ""
        if rc == 0
        else f"FAILED rc={rc}: {tail.strip().splitlines()[-1] if tail.strip() else ''}"
    )
    if rc == 0 and fmt == "pdf" and project == PLAYBOOK and COUNTERS.exists():
        note = counters(out / "book.pdf")
    return Row(name, seconds, peak, note)


def bench_search(name: str, site: Path) -> Row:
    """Pagefind indexing the chapter pages of a built site (what ``build html`` adds for
    its search, and what the preview does in the background after an edit): median of 3."""
    from kobook.write.html.search import SEARCH_DIR, index_pages

    pages = sorted(p.name for p in site.glob("*.html") if p.name != "index.html")
    times = []
    for _ in range(3):
        start = time.perf_counter()
        problems = index_pages(site, pages, "ko")
        times.append(time.perf_counter() - start)
    size = sum(f.stat().st_size for f in (site / SEARCH_DIR).rglob("*") if f.is_file())
    note = f"{len(pages)} pages, index {size / 1024:.0f} KB" + (
        f"; FAILED: {problems[0].message}" if problems else ""
    )
    return Row(name, sorted(times)[1], 0.0, note)


def pages(pdf: Path) -> str:
    """The PDF's page count (poppler's pdfinfo), or ``?``."""
    if not shutil.which("pdfinfo"):
        return "?"
    out = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    return next((line.split()[-1] for line in out.splitlines() if line.startswith("Pages:")), "?")


def counters(pdf: Path) -> str:
    out = subprocess.run(
        [sys.executable, str(COUNTERS), str(pdf), str(PLAYBOOK_MD)], capture_output=True, text=True
    ).stdout
    lines = out.strip().splitlines()
    return lines[-1] if lines else "counters: no output"


def bench_plain_xelatex(work: Path) -> Row:
    """The hand-written recipe: pandoc's default LaTeX + xeCJK with a minimal metadata file."""
    pandoc = subprocess.run(
        [sys.executable, "-c", "import pypandoc; print(pypandoc.get_pandoc_path())"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    meta = work / "minimal-metadata.yaml"
    meta.write_text(
        "lang: ko-KR\nmainfont: Noto Serif CJK KR\nCJKmainfont: Noto Serif CJK KR\n",
        encoding="utf-8",
    )
    pdf = work / "plain-xelatex.pdf"
    cmd = [
        pandoc,
        PLAYBOOK_MD.name,
        "-o",
        str(pdf),
        "--pdf-engine=xelatex",
        f"--metadata-file={meta}",
    ]
    seconds, peak, rc, tail = run(cmd, cwd=PLAYBOOK)
    if rc != 0:
        return Row(
            "playbook pdf (plain pandoc+xelatex)",
            seconds,
            peak,
            f"FAILED rc={rc}: {tail.strip()[-200:]}",
        )
    return Row(
        "playbook pdf (plain pandoc+xelatex)",
        seconds,
        peak,
        counters(pdf) if COUNTERS.exists() else "",
    )


PLAIN_TYPST = """
import sys, typst
pdf = typst.compile(sys.argv[1], root=sys.argv[2])
open(sys.argv[3], "wb").write(pdf)
"""


def bench_plain_typst(work: Path) -> Row:
    """The route Quarto's typst format takes: pandoc's Typst writer with its default
    template, then the compiler from the ``typst`` wheel (one process each, timed together)."""
    pandoc = subprocess.run(
        [sys.executable, "-c", "import pypandoc; print(pypandoc.get_pandoc_path())"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    source = work / "plain-typst"
    shutil.rmtree(source, ignore_errors=True)
    shutil.copytree(PLAYBOOK, source)
    typ = source / "plain.typ"
    pdf = work / "plain-typst.pdf"
    name = "playbook pdf (plain pandoc+typst)"
    # markdown-citations: the playbook's @handles are not citations (no bibliography)
    args = [PLAYBOOK_MD.name, "-f", "markdown-citations", "-s", "-t", "typst", "-o", str(typ)]
    first = run([pandoc, *args], cwd=source)
    second = run([sys.executable, "-c", PLAIN_TYPST, str(typ), str(source), str(pdf)])
    seconds, peak = first[0] + second[0], max(first[1], second[1])
    for rc, tail in ((first[2], first[3]), (second[2], second[3])):
        if rc != 0:
            return Row(name, seconds, peak, f"FAILED rc={rc}: {tail.strip()[-200:]}")
    return Row(name, seconds, peak, counters(pdf) if COUNTERS.exists() else "")


def bench_cold_warm(engine: str, work: Path, jobs: int | None = None) -> list[Row]:
    """The playbook cold (an empty cache), then again after one paragraph changed (the
    cache kept): what a translator waits for after saving, and CI on a pull request.
    ``jobs``: the book's ``pdf: {jobs: N}`` (WeasyPrint's layout processes)."""
    label = engine if jobs is None else f"{engine}-jobs{jobs}"
    book = work / f"warm-{label}"
    shutil.rmtree(book, ignore_errors=True)
    shutil.copytree(PLAYBOOK, book)
    if jobs is not None:
        (book / "metadata.yaml").write_text(f"pdf:\n  jobs: {jobs}\n", encoding="utf-8")
    cache, out = work / f"warm-{label}-cache", work / f"warm-{label}-out"
    shutil.rmtree(cache, ignore_errors=True)
    cmd = kobook_cmd(
        *("build", "pdf", "-q", "--project", str(book), "--out", str(out)),
        *("--cache-dir", str(cache), "--engine", engine),
    )
    rows = []
    kind = engine if jobs is None else f"{engine}, pdf.jobs {jobs}"
    for name in (f"playbook pdf (kobook {kind})", f"playbook pdf ({kind}, warm after an edit)"):
        seconds, peak, rc, tail = run(cmd)
        note = "" if rc == 0 else f"FAILED rc={rc}: {tail.strip()[-200:]}"
        if rc == 0 and not rows:
            note = f"{pages(out / 'book.pdf')} pages"
            note += f"; {counters(out / 'book.pdf')}" if COUNTERS.exists() else ""
        rows.append(Row(name, seconds, peak, note))
        source = book / PLAYBOOK_MD.name
        text = source.read_text(encoding="utf-8")
        cut = text.index("\n\n", len(text) // 2)
        source.write_text(text[:cut] + " 한 문장을 더했다." + text[cut:], encoding="utf-8")
    return rows


def bench_kept(engine: str, work: Path) -> Row:
    """The playbook built again after a one-paragraph edit by a process that built it
    before (``kobook.build`` called again, as an editor integration or ``preview`` does):
    what the process keeps (Typst's compiler) on top of the cache.  Median of 3 edits."""
    book = work / f"kept-{engine}"
    shutil.rmtree(book, ignore_errors=True)
    shutil.copytree(PLAYBOOK, book)
    report = work / f"kept-{engine}.json"
    cmd = [sys.executable, str(Path(__file__).resolve()), "--kept-worker", engine, str(book)]
    cmd += [str(work / f"kept-{engine}-cache"), str(report)]
    _seconds, peak, rc, tail = run(cmd)
    name = f"playbook pdf ({engine}, warm after an edit, same process)"
    if rc != 0 or not report.exists():
        last = tail.strip().splitlines()[-1] if tail.strip() else ""
        return Row(name, 0.0, peak, f"FAILED rc={rc}: {last}")
    times = json.loads(report.read_text())
    note = "median of 3 edits: " + " ".join(f"{t:.2f}" for t in times)
    return Row(name, sorted(times)[1], peak, note)


def kept_worker(engine: str, book: Path, cache: Path, report: Path) -> None:
    """Build ``book`` once, then after each of three edits; write the three times."""
    import kobook

    out = book / "dist"
    kobook.build(book, ["pdf"], engine=engine, cache_dir=cache, out=out)
    source = book / PLAYBOOK_MD.name
    times = []
    for n in range(3):
        text = source.read_text(encoding="utf-8")
        cut = text.index("\n\n", len(text) // 2)
        source.write_text(text[:cut] + f" 한 문장을 더했다{n}." + text[cut:], encoding="utf-8")
        start = time.perf_counter()
        kobook.build(book, ["pdf"], engine=engine, cache_dir=cache, out=out)
        times.append(time.perf_counter() - start)
    report.write_text(json.dumps(times), encoding="utf-8")


def bench_engines(work: Path, plain_xelatex: bool) -> list[Row]:
    """Every PDF engine on the playbook, cold and warm, beside the plain routes (README's
    table of engines)."""
    rows = []
    for engine in ("weasyprint", "xelatex", "typst"):
        if engine != "xelatex" or shutil.which("xelatex"):
            rows += bench_cold_warm(engine, work)
            rows.append(bench_kept(engine, work))
        if engine == "weasyprint":  # the same, laid out in one process (before pdf.jobs)
            rows += bench_cold_warm(engine, work, jobs=1)
    rows.append(bench_plain_typst(work))
    if plain_xelatex and shutil.which("xelatex"):
        rows.append(bench_plain_xelatex(work))
    elif plain_xelatex:
        print("(xelatex not installed: plain recipe not measured)")
    return rows


def bench_check(work: Path) -> Row | None:
    """``kobook check`` on the corpus playbook (when the command exists)."""
    probe = subprocess.run(kobook_cmd("check", "--help"), capture_output=True)
    if probe.returncode != 0:
        return None
    copy = work / "check-copy"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(PLAYBOOK, copy)
    seconds, peak, rc, _ = run(
        kobook_cmd("check", "--project", str(copy), str(copy / PLAYBOOK_MD.name))
    )
    return Row("playbook check", seconds, peak, f"rc={rc}")


def bench_dialect_book(name: str, source: Path, work: Path) -> list[Row]:
    """``kobook import`` on a copy of ``source``, then cold PDF and HTML builds of it."""
    copy = work / f"{name}-repo"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(source, copy)
    seconds, peak, rc, tail = run(kobook_cmd("import", str(copy)))
    rows = [
        Row(f"{name} import", seconds, peak, "" if rc == 0 else f"FAILED rc={rc}: {tail[-200:]}")
    ]
    if rc == 0:
        for fmt in ("pdf", "html"):
            rows.append(bench_build(f"{name} {fmt}", copy, fmt, work, ["--keep-going"]))
    return rows


def bench_preview(work: Path, engine: str = "") -> list[Row]:
    """The preview rows, measured in a process of their own (``bench_preview.py``); with
    ``engine``, the book says ``engine:`` and only its chapter PDF rows are kept."""
    copy = work / f"preview-book{engine}"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(PLAYBOOK, copy)
    if engine:
        (copy / "metadata.yaml").write_text(f"engine: {engine}\n", encoding="utf-8")
    for path in [copy, *copy.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    report = work / f"preview{engine}.json"
    cmd = [sys.executable, str(REPO / "scripts" / "bench_preview.py"), str(copy)]
    cmd += [str(work / f"preview-cache{engine}"), str(report)]
    _seconds, peak, rc, tail = run(cmd)
    if rc != 0 or not report.exists():
        last = tail.strip().splitlines()[-1] if tail.strip() else ""
        return [Row("preview", 0.0, peak, f"FAILED rc={rc}: {last}")]
    return [
        Row(name, seconds, peak, note) for name, seconds, note in json.loads(report.read_text())
    ]


def machine_speed() -> Row:
    """A fixed CPU-bound Python loop, timed before the rows (best of three).

    The same commit measured an hour apart on the same virtual machine differed
    twofold (time stolen by the host): compare rows across runs only as ratios
    to this one.
    """
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(3_000_000):
            total += i * i % 7
        best = min(best, time.perf_counter() - start)
    return Row("machine: fixed Python loop", best, 0.0, "divide rows by this to compare runs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sample book only")
    parser.add_argument(
        "--dialects", action="store_true", help="only the distill and mdBook corpus books"
    )
    parser.add_argument("--no-xelatex", action="store_true", help="skip the plain xelatex recipe")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    parser.add_argument("--preview", action="store_true", help="only the kobook preview rows")
    parser.add_argument(
        "--upstream", action="store_true", help="only kobook upstream (scripts/bench_upstream.py)"
    )
    parser.add_argument(
        "--engines",
        action="store_true",
        help="only the PDF engines on the playbook: cold, warm, and the plain routes",
    )
    parser.add_argument(
        "--routes", action="store_true", help="only every route beside pandoc alone (medians)"
    )
    parser.add_argument("--repeats", type=int, default=3, help="runs per route (--routes)")
    parser.add_argument(
        "--limits", action="store_true", help="only how fast the hostile inputs are refused"
    )
    parser.add_argument("--kept-worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.kept_worker:
        engine, *paths = args.kept_worker
        kept_worker(engine, *(Path(p) for p in paths))
        return 0
    sys.path.insert(0, str(REPO / "scripts"))
    from bench_routes import as_installed

    as_installed()
    if args.upstream:
        from bench_upstream import main as upstream_main

        return int(upstream_main())
    if args.routes or args.limits:
        return sides(args.routes, args.limits, args.repeats)
    rows: list[Row] = [machine_speed()]
    with tempfile.TemporaryDirectory(prefix="kobook-bench-") as tmp:
        work = Path(tmp)
        if args.engines and PLAYBOOK_MD.exists():
            rows += bench_engines(work, not args.no_xelatex)
        elif args.engines:
            print(f"(corpus not found at {PLAYBOOK}: engine rows skipped)")
        only = args.dialects or args.preview or args.engines
        for fmt in ("pdf", "html") if not only else ():
            rows.append(bench_build(f"sample {fmt}", REPO, fmt, work))
        if shutil.which("xelatex") and not only:
            rows.append(
                bench_build("sample pdf (xelatex)", REPO, "pdf", work, ["--engine", "xelatex"])
            )
        if not only:
            rows.append(bench_build("sample pdf (typst)", REPO, "pdf", work, ["--engine", "typst"]))
        if args.preview:
            if PLAYBOOK_MD.exists():
                rows += bench_preview(work) + bench_preview(work, "weasyprint")  # default: Typst
            else:
                print(f"(corpus not found at {PLAYBOOK}: preview rows skipped)")
        elif not args.quick and not args.engines:
            if PLAYBOOK_MD.exists() and not args.dialects:
                rows += bench_engines(work, not args.no_xelatex)
                rows.append(bench_build("playbook html", PLAYBOOK, "html", work))
                site = work / "playbook html-out" / "html"
                if site.is_dir():
                    rows.append(bench_search("playbook html: search index", site))
                check = bench_check(work)
                if check:
                    rows.append(check)
                rows += bench_preview(work) + bench_preview(work, "weasyprint")  # default: Typst
            elif not args.dialects:
                print(f"(corpus not found at {PLAYBOOK}: playbook rows skipped)")
            for name, source in DIALECT_BOOKS:
                if source.is_dir():
                    rows += bench_dialect_book(name, source, work)
                else:
                    print(f"(corpus not found at {source}: {name} rows skipped)")
    width = max(len(r.name) for r in rows)
    print(f"{'measurement':<{width}}  {'seconds':>8}  {'peak MB':>8}  note")
    for row in rows:
        print(f"{row.name:<{width}}  {row.seconds:8.2f}  {row.peak_mb:8.0f}  {row.note}")
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=2), encoding="utf-8")
    failed = any("FAILED" in r.note for r in rows)
    if not (args.quick or args.dialects or args.preview or args.engines):
        failed |= bool(sides(PLAYBOOK_MD.exists(), True, args.repeats))
    return 1 if failed else 0


def sides(routes: bool, limits: bool, repeats: int) -> int:
    """The routes table (every kobook route beside pandoc alone) and the refusals' times."""
    import bench_limits
    import bench_routes

    failed = 0
    if routes:
        with tempfile.TemporaryDirectory(prefix="kobook-routes-") as tmp:
            measured = bench_routes.bench_routes(Path(tmp), repeats)
        print(bench_routes.table(measured))
        failed += not all(r.cold.ok and r.bare.ok and r.warm.ok for r in measured)
    if limits:
        failed += bench_limits.main()
    return failed


if __name__ == "__main__":
    sys.exit(main())
