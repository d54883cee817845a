"""The preview's rows of ``bench.py`` (``bench.py --preview``), measured in a process of
their own: ``python scripts/bench_preview.py BOOK CACHE REPORT`` writes them to REPORT.

On a copy of the playbook: the cold start (an empty cache), then a few edits of
one paragraph of chapter 3, each timed from the call to the pages written (HTML),
to the chapter PDF written, and the CPU time of the pages (a figure a busy,
shared machine disturbs less than wall time); then from the file write to the
``reload`` event a client of the server's event stream receives (and, with
``--pdf``, to the ``pdf`` event); and from the file write to the edited page
shown again in headless Chromium (Debian's, through Selenium and chromedriver, as
the browser tests drive it): what the translator sees.  Each edit row is the
median of the edits.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

EDITS = 5
CHAPTER = "ch03"  # the chapter edited: long, with figures, formulas and notes
Rows = list[tuple[str, float, str]]

# The page's own clock (ms since the epoch): when its new document was parsed
# (DOMContentLoaded), first painted and loaded, on the same clock as time.time().
NAVIGATION = """
const n = performance.getEntriesByType("navigation")[0];
const paint = performance.getEntriesByName("first-contentful-paint")[0];
const origin = performance.timeOrigin;
return [origin + n.domContentLoadedEventEnd, paint ? origin + paint.startTime : 0,
        origin + n.loadEventEnd];
"""


def cpu_seconds() -> float:
    """CPU time of this process (all threads) and of its children waited for (pandoc)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def median_row(name: str, values: list[float], extra: str = "") -> tuple[str, float, str]:
    note = f"median of {len(values)}: " + " ".join(f"{x:.2f}" for x in values)
    return (name, statistics.median(values), note + extra)


def worker(book: Path, cache: Path, report: Path) -> None:
    """Time the preview on ``book`` (a copy of the playbook); write the rows to ``report``."""
    start = time.perf_counter()
    from kobook.preview import Session
    from kobook.write.registry import engine_for

    session = Session(book, cache_dir=cache, pdf=True)
    first = session.build()
    if not first.ok:
        raise SystemExit(f"preview build failed: {first.error}")
    session.settle()  # as kobook preview does after its first build
    cold = time.perf_counter() - start
    chapter = next(c for c in session.good.book.chapters if c.id == CHAPTER)  # type: ignore[union-attr]
    engine = engine_for(session.good.book.config, session.good.book.root)  # type: ignore[union-attr]
    suffix = "" if engine == "weasyprint" else f" ({engine})"
    source = chapter.path
    lines = source.read_text(encoding="utf-8").split("\n")
    line = next(i for i in range(chapter.line_offset + 1, len(lines)) if len(lines[i]) > 200)

    def edit(n: int) -> None:
        lines[line] += f" 편집{n}."
        source.write_text("\n".join(lines), encoding="utf-8")

    html, cpu, pdf, modes, laid = [], [], [], set(), []
    confirmed = 0  # edits whose AST was foretold and was pandoc's (preview/predict.py)
    for n in range(EDITS):
        edit(n)
        before = cpu_seconds()
        update = session.rebuild({source})
        cpu.append(cpu_seconds() - before)
        confirmed += session.stages.foretold[1]
        if not update.ok or update.pages != [f"{CHAPTER}.html"]:
            raise SystemExit(f"unexpected rebuild: {update.error or update.pages}")
        html.append(update.seconds)
        modes.add(update.mode)
        typeset = session.rebuild_pdf()
        if not typeset.ok or typeset.pdf != f"{CHAPTER}.pdf":
            raise SystemExit(f"chapter PDF failed: {typeset.error}")
        pdf.append(typeset.seconds)
        laid.append(getattr(typeset, "pages_laid", None))
    reused = " (pages laid out/reused: " + " ".join(f"{m}/{r}" for m, r in laid) + ")"
    rows: Rows = [
        ("preview cold start (playbook)", cold, f"{len(first.pages)} files"),
        median_row(
            "preview edit → pages written",
            html,
            f" ({'/'.join(modes)}; AST foretold {confirmed}/{len(html)})",
        ),
        (
            "preview edit → pages written, CPU",
            statistics.median(cpu),
            "CPU seconds of kobook and its pandoc runs (steadier than wall time when the "
            "machine is shared): " + " ".join(f"{x:.2f}" for x in cpu),
        ),
        median_row(
            "preview edit → chapter PDF written" + suffix,
            pdf,
            reused if all(laid) and not suffix else "",
        ),
    ]
    if engine == "weasyprint":
        rows += end_to_end(session, edit)
    else:  # another engine's rows: its chapter PDF (the pages are the same either way)
        rows = rows[-1:]
    session.close()
    report.write_text(json.dumps(rows), encoding="utf-8")


@contextlib.contextmanager
def served(session: Any, pdf: bool) -> Iterator[tuple[str, Any]]:
    """The preview's server and watcher over ``session``, as ``kobook preview`` runs them."""
    from kobook.preview.server import start
    from kobook.preview.watch import Watcher

    server = start(session, "127.0.0.1", 0)
    watcher = Watcher(session, server.publish, pdf=pdf).start()
    try:
        watcher.wait_ready()
        yield server.url.rstrip("/"), watcher
    finally:
        watcher.stop()
        server.close()


def end_to_end(session: Any, edit: Callable[[int], None]) -> Rows:
    """File write → ``reload`` event on the server's event stream, as ``kobook preview``
    runs (pages only) and as ``kobook preview --pdf`` runs (where the same write also ends
    in a ``pdf`` event); then file write → the page shown again in Chromium."""

    def measure(pdf: bool, first: int) -> dict[str, list[float]]:
        seconds: dict[str, list[float]] = {"reload": [], "pdf": []}
        with served(session, pdf) as (url, _watcher):
            port = int(url.rsplit(":", 1)[1])
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", "/__kobook/events")
            stream = conn.getresponse()
            seen: dict[str, float] = {}
            arrived = threading.Event()
            wanted = ("reload", "pdf") if pdf else ("reload",)

            def read() -> None:
                for raw in stream:
                    for kind in wanted:
                        if raw.startswith(f"event: {kind}".encode()):
                            seen.setdefault(kind, time.perf_counter())
                    if all(kind in seen for kind in wanted):
                        arrived.set()

            threading.Thread(target=read, daemon=True).start()
            for n in range(EDITS):
                time.sleep(1.0)  # the previous batch is done
                seen.clear()
                arrived.clear()
                written = time.perf_counter()
                edit(first + n)
                if not arrived.wait(120):
                    raise RuntimeError(f"no {' and '.join(wanted)} event")
                for kind in wanted:
                    seconds[kind].append(seen[kind] - written)
            conn.close()
        return seconds

    try:
        pages = measure(False, 100)
        with_pdf = measure(True, 200)
    except RuntimeError as error:
        return [("preview edit → reload event", 0.0, f"FAILED: {error}")]
    return [
        median_row("preview edit → reload event", pages["reload"]),
        median_row("preview --pdf edit → reload event", with_pdf["reload"]),
        median_row("preview --pdf edit → pdf event", with_pdf["pdf"]),
        *in_chromium(session, edit, 300),
    ]


# Set before each edit: the time of the first frame after the edited text is in the page
# (the preview's script puts a chapter's new text in place, without a new page).  A page
# loaded anew has lost it: its navigation timing says when it was shown.
WATCH_TEXT = """
const mark = arguments[0];
window.__benchShown = 0;
new MutationObserver((records, observer) => {
  if (!document.body.textContent.includes(mark)) return;
  observer.disconnect();
  requestAnimationFrame(() => {
    window.__benchShown = performance.timeOrigin + performance.now();
  });
}).observe(document.body, {childList: true, subtree: true, characterData: true});
"""
SHOWN = "return window.__benchShown"


def in_chromium(session: Any, edit: Callable[[int], None], first: int) -> Rows:
    """File write → the edited chapter's page shown again in Chromium, which has it open: by
    the page's own clock, which is the epoch's as ``time.time()``.  The preview's script
    puts the new text in place (the first frame drawn after it, :data:`WATCH_TEXT`), or
    reloads the page (then when its new text was parsed, DOMContentLoaded); the note says
    which, and for reloads the first paint and the load event."""
    shown, painted, loaded, in_place = [], [], [], 0
    try:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.browser import chromium  # as the browser tests drive it

        with served(session, False) as (url, _watcher), chromium() as browser:
            browser.get(f"{url}/{CHAPTER}.html")
            for n in range(EDITS):
                time.sleep(1.0)  # the previous batch is done, the page idle
                mark = f"편집{first + n}"
                browser.execute_script(WATCH_TEXT, mark)
                written = time.time()
                edit(first + n)
                deadline = time.monotonic() + 60
                while not browser.execute_script(
                    "return document.readyState === 'complete' && "
                    "document.body.textContent.includes(arguments[0]) && "
                    "window.__benchShown !== 0",
                    mark,
                ):
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"the page never showed {mark}")
                    time.sleep(0.01)
                frame = browser.execute_script(SHOWN)
                if frame:  # put in place
                    in_place += 1
                    shown.append(frame / 1000 - written)
                    continue
                ready, paint, load = browser.execute_script(NAVIGATION)
                shown.append(ready / 1000 - written)
                painted.append(paint / 1000 - written if paint else 0.0)
                loaded.append(load / 1000 - written)
    except Exception as error:  # no browser here, or it failed: the row says so
        return [("preview edit → page shown (Chromium)", 0.0, f"FAILED: {error}"[:300])]
    extra = f"; {in_place} put in place, {len(shown) - in_place} reloaded"
    if painted:
        extra += (
            " (first paint "
            + " ".join(f"{x:.2f}" for x in painted)
            + "; loaded "
            + " ".join(f"{x:.2f}" for x in loaded)
            + ")"
        )
    return [median_row("preview edit → page shown (Chromium)", shown, extra)]


if __name__ == "__main__":
    worker(*(Path(arg) for arg in sys.argv[1:4]))
