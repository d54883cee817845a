"""The translation checked against its original: the SYNC rules' findings, and the
review marks ``check --stats`` counts.

They need the whole book and its original (``kobook upstream``), so they run after
the per-file rules, once, when ``metadata.yaml`` has an ``upstream:`` block; their
findings join each file's report at the translated block's line.
"""

from __future__ import annotations

from pathlib import Path

from ..model import Config
from .glossary import terms_from
from .model import Finding, Settings
from .runner import FileReport
from .sync import SEVERITY, SYNC000, SYNC_RULES


def wanted(config: Config, settings: Settings) -> bool:
    return isinstance(config.raw.get("upstream"), dict) and any(
        settings.enabled(rule.id) for rule in SYNC_RULES
    )


def with_sync(
    root: Path, config: Config, settings: Settings, reports: list[FileReport]
) -> list[FileReport]:
    """``reports`` with the SYNC findings of the files they cover added, in line order."""
    from ..errors import KobookError
    from ..upstream import open_project
    from ..upstream.invariants import file_problems, glossary_problems

    try:
        project = open_project(root)
    except KobookError as error:  # no original here (not checked out): the rest still counts
        if reports:
            message = f"SYNC rules not run: {error.code} {error.diagnostic.message}"
            reports[0].findings.insert(0, Finding(SYNC000, 0, 0, message, None, "warning"))
        return reports
    by_path = {report.path.resolve(): report for report in reports}
    problems = [
        p for file in sorted(project.upstream.chapters) for p in file_problems(project, file)
    ]
    terms = [(t.source, [t.korean, *t.variants]) for t in terms_from(settings)]
    if terms and settings.enabled("SYNC008"):
        problems += glossary_problems(project, terms)
    for problem in problems:
        report = by_path.get((root / problem.file).resolve())
        if report is None or not settings.enabled(problem.rule):
            continue
        text = report.fixed_text or report.doc_text
        start = offset_of(text, problem.line)
        finding = Finding(problem.rule, start, start, problem.message, None, SEVERITY[problem.rule])
        report.findings.append(finding)
    for report in reports:
        report.findings.sort(key=lambda f: (f.start, f.rule))
    return reports


def offset_of(text: str, line: int) -> int:
    """The offset where 1-based ``line`` starts in ``text``."""
    at = 0
    for _ in range(max(line, 1) - 1):
        found = text.find("\n", at)
        if found < 0:
            break
        at = found + 1
    return at


def reviewed(root: Path, report_paths: list[Path]) -> dict[Path, tuple[int, int]]:
    """(reviewed blocks, blocks) per file from the upstream locks."""
    from ..upstream.lock import read_lock

    shares: dict[Path, tuple[int, int]] = {}
    for path in report_paths:
        try:
            file = path.resolve().relative_to(root).as_posix()
        except ValueError:
            continue
        lock = read_lock(root, file)
        if lock is not None:
            done = sum(1 for e in lock.entries if "reviewed" in e.marks)
            shares[path] = (done, len(lock.entries))
    return shares
