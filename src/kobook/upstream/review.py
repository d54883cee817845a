"""The bilingual review pages: each translated file beside its original, block by block.

One row a pair of the alignment (the original at the lock's base on the left, the
translation as it is now on the right), with badges for what ``status`` and the
SYNC rules found: a stale block shows the original's change as a word diff.  The
blocks are drawn by pandoc's HTML writer with nothing of the source's own markup
passed through: raw HTML and images become text, links only to web addresses stay
links.  The pages carry no inline script (``review.js`` beside them, under a strict
Content-Security-Policy).  ``kobook preview --review`` serves them with buttons that
post to the preview server; ``kobook build html --review`` writes them read-only.
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..parse import api_version
from ..parse.pandoc import ast_to
from .blocks import Block
from .compare import word_runs
from .invariants import Problem, file_problems
from .project import Project
from .status import Finding, aligned, file_findings

SAFE_LINK = re.compile(r"^(?:https?://|mailto:)", re.I)
MARK = "<!--kobook-block {}-->"
CSP = (
    "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'"
)
LABEL = {
    "stale": "바뀜",
    "new": "새 원문",
    "removed": "원문에서 지움",
    "missing": "번역 없음",
    "weak": "짝 불확실",
}


@dataclass
class Row:
    """One pair of the alignment and what was found on it."""

    upstream: tuple[int, ...]
    korean: tuple[int, ...]
    place: str  # the translated file:line the row's buttons name
    findings: list[Finding] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    reviewed: bool = False


def safe(value: Any) -> Any:
    """A copy of pandoc AST with nothing that could run or load: raw HTML as code, images
    as their source named in text, links to anything but the web as their text."""
    if isinstance(value, list):
        return [safe(item) for item in value]
    if not isinstance(value, dict):
        return value
    kind: Any = value.get("t")
    content: Any = value.get("c")
    if kind == "RawInline":
        return {"t": "Code", "c": [["", [], []], content[1]]}
    if kind == "RawBlock":
        return {"t": "CodeBlock", "c": [["", [], []], content[1]]}
    if kind == "Image":
        return {"t": "Code", "c": [["", ["image"], []], f"[image: {content[2][0]}]"]}
    if kind == "Link":
        inner = safe(content[1])
        if SAFE_LINK.match(content[2][0]):
            return {"t": "Link", "c": [["", [], []], inner, [content[2][0], ""]]}
        return {"t": "Span", "c": [["", [], []], inner]}
    if kind in ("Span", "Div", "Header", "CodeBlock", "Code"):  # no ids, classes or styles
        return {"t": kind, "c": strip_attr(kind, safe(content))}
    return {"t": kind, "c": safe(content)} if "c" in value else dict(value)


def strip_attr(kind: str, content: Any) -> Any:
    if kind == "Header":
        return [content[0], ["", [], []], content[2]]
    return [["", [], []], *content[1:]]


def render(blocks: list[Block]) -> list[str]:
    """Each block's HTML, by one pandoc run for the whole list."""
    if not blocks:
        return []
    body: list[Any] = []
    for number, block in enumerate(blocks):
        body.append({"t": "RawBlock", "c": ["html", MARK.format(number)]})
        body.append(safe(block.ast))
    doc = {"pandoc-api-version": api_version(), "meta": {}, "blocks": body}
    out = ast_to(doc, "html", ["--wrap=none", "--mathml"])
    parts = re.split(r"<!--kobook-block (\d+)-->", out)
    shown = [""] * len(blocks)
    for index in range(1, len(parts) - 1, 2):
        shown[int(parts[index])] = parts[index + 1].strip()
    return shown


def word_diff(old: str, new: str) -> str:
    """``old`` → ``new`` as HTML: removed words in ``<del>``, added in ``<ins>``."""
    out: list[str] = []
    for kind, gone, came in word_runs(old, new):
        if kind == "equal":
            out.append(html.escape(gone))
            continue
        out += [f"<del>{html.escape(gone)}</del>"] if gone else []
        out += [f"<ins>{html.escape(came)}</ins>"] if came else []
    return " ".join(out)


def rows_of(project: Project, file: str, target: str) -> tuple[list[Row], list[str], list[str]]:
    """The rows of one translated file, and the HTML of its original and translated blocks."""
    lock = project.lock(file)
    korean = project.korean[file]
    assert lock is not None
    original = project.original(lock.base)[lock.upstream]
    pairs = aligned(project, korean, original, lock, lock.base).pairs
    found = file_findings(project, file, target)
    problems = file_problems(project, file)
    by_index: dict[int, list[Finding]] = defaultdict(list)
    for finding in found:
        by_index[finding.index if finding.index is not None else -1].append(finding)
    by_line: dict[int, list[Problem]] = defaultdict(list)
    for problem in problems:
        by_line[problem.line].append(problem)
    rows: list[Row] = []
    last_line = korean.lines[0] if korean.lines else 1
    for pair in pairs:
        line = korean.lines[pair.korean[0]] if pair.korean else last_line
        last_line = line
        row = Row(pair.upstream, pair.korean, f"{file}:{line}")
        for index in pair.upstream:
            row.findings += by_index.pop(index, [])
            row.reviewed |= "reviewed" in lock.marks_of(original.blocks[index].key)
        if pair.korean:
            row.problems += by_line.pop(line, [])
        rows.append(row)
    if rows and by_index.get(-1):
        rows[0].findings += by_index.pop(-1)
    return rows, render(original.blocks), render(korean.blocks)


def badges(row: Row) -> str:
    parts = []
    for finding in row.findings:
        grade = f" · {finding.grade}" if finding.kind == "stale" else ""
        text = f"{LABEL[finding.kind]}{grade}"
        parts.append(f'<span class="badge {finding.kind}">{html.escape(text)}</span>')
        if finding.kind == "stale":
            parts.append(f'<div class="diff">{word_diff(finding.old, finding.new)}</div>')
        elif finding.kind == "new":
            parts.append(f'<div class="diff"><ins>{html.escape(finding.new)}</ins></div>')
    for problem in row.problems:
        parts.append(
            f'<span class="badge rule" title="{html.escape(problem.message)}">{problem.rule}</span>'
        )
    if row.reviewed:
        parts.append('<span class="badge reviewed">검토함</span>')
    return "".join(parts)


def buttons(row: Row, live: bool) -> str:
    if not live or not row.korean:
        return ""
    kinds = {f.kind for f in row.findings}
    shown = ['<button type="button" data-action="reviewed">검토함</button>']
    if "weak" in kinds:
        shown.append('<button type="button" data-action="confirm">짝 맞음</button>')
    if kinds - {"weak"}:
        shown.append('<button type="button" data-action="ack">반영함</button>')
    return '<div class="actions">' + "".join(shown) + "</div>"


def page(project: Project, file: str, target: str, *, live: bool, files: list[str]) -> str:
    """The review page of one translated file."""
    rows, up_html, ko_html = rows_of(project, file, target)
    lock = project.lock(file)
    assert lock is not None
    lang = project.config.get("lang") or "ko"
    body: list[str] = []
    for number, row in enumerate(rows):
        flagged = bool(row.findings or row.problems)
        classes = " ".join(
            ["row", *(["finding"] if flagged else []), *(f.kind for f in row.findings)]
        )
        left = "".join(up_html[i] for i in row.upstream)
        right = "".join(ko_html[j] for j in row.korean)
        body.append(
            f'<tr id="r{number}" class="{classes}" data-place="{html.escape(row.place)}">'
            f'<td class="up" lang="en">{badges(row)}{left}</td>'
            f'<td class="ko" lang="{html.escape(str(lang))}" tabindex="0">{right}'
            f"{buttons(row, live)}</td></tr>"
        )
    index = files.index(file)
    nav = [f'<a href="{page_name(f)}">{html.escape(f)}</a>' for f in files[index - 1 : index]]
    after = [f'<a href="{page_name(f)}">{html.escape(f)}</a>' for f in files[index + 1 : index + 2]]
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        for finding in row.findings:
            counts[finding.kind] += 1
    summary = ", ".join(f"{LABEL[k]} {n}" for k, n in sorted(counts.items())) or "모두 맞음"
    return TEMPLATE.format(
        title=html.escape(f"검토: {file}"),
        csp=CSP,
        live="1" if live else "0",
        file=html.escape(file),
        upstream=html.escape(f"{lock.upstream} @ {lock.base[:10]}"),
        summary=html.escape(summary),
        prev=" ".join(nav),
        next=" ".join(after),
        rows="\n".join(body),
    )


def page_name(file: str) -> str:
    """The review page of a translated file: its path with ``/`` as ``__``."""
    return re.sub(r"[^\w.-]", "_", file.replace("/", "__")) + ".html"


def index_page(project: Project, files: list[str]) -> str:
    items = []
    for file in files:
        lock = project.lock(file)
        done = sum(1 for e in lock.entries if "reviewed" in e.marks) if lock else 0
        total = len(lock.entries) if lock else 0
        items.append(
            f'<li><a href="{page_name(file)}">{html.escape(file)}</a> '
            f"<span>검토 {done}/{total}</span></li>"
        )
    return INDEX.format(csp=CSP, items="\n".join(items))


def write_pages(
    project: Project, folder: Path, *, live: bool, target: str | None = None
) -> list[Path]:
    """Every review page, the index and the assets into ``folder``; the pages written."""
    from ..cache import atomic_write

    commit = project.commit(target)
    files = [f for f in sorted(project.upstream.chapters) if project.lock(f)]
    files = [f for f in files if f in project.korean]
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for file in files:
        path = folder / page_name(file)
        atomic_write(path, page(project, file, commit, live=live, files=files).encode(), folder)
        written.append(path)
    atomic_write(folder / "index.html", index_page(project, files).encode(), folder)
    for asset in ("review.css", "review.js"):
        data = resources.files("kobook.upstream").joinpath(asset).read_bytes()
        atomic_write(folder / asset, data, folder)
    return written


def answer(project: Project, request: dict[str, Any]) -> dict[str, Any]:
    """What the preview server does with a button's post: the lock written, or why not."""
    from .ack import ack, mark

    action, place = request.get("action"), request.get("place")
    if not isinstance(place, str) or action not in ("reviewed", "confirm", "ack"):
        return {"ok": False, "message": "action must be reviewed, confirm or ack, with a place"}
    if action == "ack":
        report = ack(project, [place])
        return {"ok": True, "message": f"acked {len(report.acked)}"}
    count = mark(project, [place], "reviewed" if action == "reviewed" else "confirmed")
    return {"ok": True, "message": f"marked {count}"}


TEMPLATE = """<!DOCTYPE html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<title>{title}</title>
<link rel="stylesheet" href="review.css">
<script src="review.js" defer></script>
</head>
<body data-live="{live}">
<header><nav><a href="index.html">목록</a> {prev} · {next}</nav>
<h1>{file}</h1><p>원문 {upstream} · {summary} · <kbd>j</kbd>/<kbd>k</kbd> 다음/이전 찾은 곳</p>
<p id="where" role="status" aria-live="polite"></p></header>
<main><table class="review"><thead><tr><th scope="col">원문</th><th scope="col">번역</th></tr>
</thead><tbody>
{rows}
</tbody></table></main>
</body>
</html>
"""

INDEX = """<!DOCTYPE html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<title>원문 대조 검토</title>
<link rel="stylesheet" href="review.css">
</head>
<body><header><h1>원문 대조 검토</h1></header>
<main><ul class="files">
{items}
</ul></main></body>
</html>
"""
