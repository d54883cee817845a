"""What ``kobook check`` and ``kobook glossary extract`` print (thin over the check API)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import click

from ..errors import printable
from ..github import annotation, github_path
from ..source import parse_source
from . import check_files
from .glossary import extract_pairs, glossary_yaml
from .model import SEVERITIES, Finding
from .original import reviewed
from .rules import BY_ID
from .runner import FileReport, read_source
from .untranslated import progress


def relative(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def text_row(path: str, line: int, col: int, finding: Finding) -> str:
    """``book/01.md:3:9: warning KO009 message``: where, how bad, which rule, what.

    The severity sits where compilers put it, so editors that read
    ``file:line:col: severity`` lines (and people) tell errors from notes; it is
    the same word as ``--format json``'s ``severity`` (GitHub's ``notice`` is
    this ``info``).
    """
    where = printable(path)  # a file name from the book never starts a line of the log
    return f"{where}:{line}:{col}: {finding.severity} {finding.rule} {printable(finding.message)}"


def failing(reports: list[FileReport], fail_on: str) -> bool:
    if fail_on == "never":
        return False
    limit = SEVERITIES.index(fail_on)
    return any(SEVERITIES.index(f.severity) <= limit for r in reports for f in r.findings)


def run_check(
    project: Path,
    paths: list[Path],
    *,
    fix: bool,
    diff: bool,
    output_format: str,
    select: list[str],
    ignore: list[str],
    stats: bool,
) -> int:
    """Run the checks, print them; the exit code follows ``check.fail-on``."""
    from ..load import load_config
    from ..load.book import with_dialect_metadata
    from . import settings_from

    root = project.resolve()
    config = with_dialect_metadata(root, load_config(root / "metadata.yaml"))  # as build does
    settings = settings_from(config, root)
    reports = check_files(
        root,
        paths or None,
        fix=fix or diff,
        write=fix and not diff,
        select=select or None,
        ignore=ignore or None,
        settings=settings,
    )
    changed = [r for r in reports if r.fixed_text is not None and r.fixed_text != r.doc_text]
    if diff:
        for report in reports:
            text = report.diff()
            if text:
                click.echo(text, nl=False)
    rows = []
    for report in reports:
        shown = FileReport(report.path, report.findings, report.fixed_text or report.doc_text)
        for diagnostic, finding in zip(shown.diagnostics(), report.findings, strict=True):
            rows.append((report.path, diagnostic, finding))
    if output_format == "json":
        click.echo(
            json.dumps(
                [
                    {
                        "path": relative(path, root),
                        "line": d.location.line,
                        "col": d.location.col,
                        "rule": f.rule,
                        "severity": f.severity,
                        "message": f.message,
                        "fixable": f.replacement is not None,
                    }
                    for path, d, f in rows
                ],
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        for path, d, f in rows:
            fixable = " [*]" if f.replacement is not None else ""
            if output_format == "github":
                fixable = " (kobook check --fix fixes it)" if fixable else ""
                click.echo(
                    annotation(
                        f.severity,
                        f"{f.message}{fixable}",
                        file=github_path(path),
                        line=d.location.line,
                        col=d.location.col,
                        title=f.rule,
                    )
                )
                continue
            click.echo(text_row(relative(path, root), d.location.line, d.location.col, f) + fixable)
        if fix and not diff:
            click.echo(f"fixed {len(changed)} file(s)", err=True)
        if diff and changed:
            click.echo(f"--fix would change {len(changed)} file(s)", err=True)
        counts = Counter(f.rule for _, _, f in rows)
        if counts:
            fixable_count = sum(1 for _, _, f in rows if f.replacement is not None)
            summary = ", ".join(f"{rule} ×{n}" for rule, n in sorted(counts.items()))
            click.echo(
                f"{len(rows)} problem(s) ({fixable_count} fixable with --fix): {summary}", err=True
            )
            for rule, _n in sorted(counts.items()):
                click.echo(f"  {rule}: {BY_ID[rule].summary}", err=True)
        elif not (diff and changed):
            click.echo("no problems found", err=True)
    if stats:
        click.echo("\ntranslation progress (prose paragraphs with Hangul):")
        shares = reviewed(root, [report.path for report in reports])
        for report in reports:
            numbers = progress(parse_source(report.fixed_text or report.doc_text, report.path))
            done, blocks = shares.get(report.path, (0, 0))
            review = f", reviewed {done}/{blocks} ({100 * done / blocks:.0f}%)" if blocks else ""
            click.echo(
                f"  {relative(report.path, root)}: {numbers.translated}/{numbers.paragraphs}"
                f" ({numbers.percent:.0f}%){review}"
            )
    # --diff is a dry run of --fix: pending fixes fail it like the findings they fix.
    return 1 if failing(reports, settings.fail_on) or (diff and changed) else 0


def run_glossary_extract(
    project: Path, paths: list[Path], output_format: str, min_count: int
) -> str:
    from . import source_files

    root = project.resolve()
    texts = []
    for path in source_files(root, paths or None):
        doc = parse_source(read_source(path), path)
        texts += [text for _, text in doc.prose()]
    candidates = extract_pairs(texts)
    if output_format == "yaml":
        return glossary_yaml(candidates, min_count)
    lines = [f"{'count':>5}  {'English':<32} Korean (count)"]
    for candidate in sorted(candidates.values(), key=lambda c: (-c.count, c.source.lower())):
        if candidate.count < min_count:
            continue
        translations = ", ".join(f"{k} ({n})" for k, n in candidate.translations.most_common())
        conflict = "  ← conflicting translations" if len(candidate.translations) > 1 else ""
        lines.append(f"{candidate.count:>5}  {candidate.source:<32} {translations}{conflict}")
    return "\n".join(lines) + "\n"
