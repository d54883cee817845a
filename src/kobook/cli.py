"""The ``kobook`` command: thin click commands over the Python API."""

from __future__ import annotations

import errno
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from . import __version__
from .dialect import DIALECTS
from .errors import Diagnostic, KobookError, printable
from .importer.detect import DIALECT_OF
from .write.registry import formats as registry_formats
from .write.registry import pdf_engines

format_option = click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="github: GitHub Actions annotations (::warning file=…,line=…::…).",
)
if TYPE_CHECKING:
    from .upstream import Project

project_option = click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="The book's folder (with metadata.yaml).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kobook")
def main() -> None:
    """kobook: build Korean translations of technical books into PDF and HTML."""


@main.command()
@click.argument("formats", nargs=-1, type=click.Choice([*registry_formats(), "all"]))
@project_option
@click.option(
    "--engine",
    type=click.Choice(pdf_engines()),
    default=None,
    help=(
        f"PDF engine (default: metadata 'engine', else the one the book's templates/ "
        f"style, else {pdf_engines()[0]})."
    ),
)
@click.option("--chapter", default=None, help="Build one chapter (id, number or file name).")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder (default: PROJECT/dist).",
)
@click.option("--keep-going", is_flag=True, help="Turn recoverable errors into warnings.")
@click.option(
    "--strict",
    is_flag=True,
    help="Fail when typography findings or leaked syntax (LEAK001/LEAK002) remain, "
    "or an output lost a construct of the book (LOST001-003).",
)
@click.option(
    "--offline",
    is_flag=True,
    help="Download no remote (http/https) image: each one is an error (IMG002).",
)
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Cache folder (default: PROJECT/.kobook-cache).",
)
@click.option(
    "--trust",
    is_flag=True,
    help="Pass the book's raw LaTeX to XeLaTeX unscreened (SEC003 otherwise). "
    "Only for sources you trust: never for pull requests from strangers.",
)
@click.option(
    "--review",
    is_flag=True,
    help="Also write the bilingual review pages (kobook upstream) to OUT/review/, read-only.",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress output.")
def build(
    formats: tuple[str, ...],
    project: Path,
    engine: str | None,
    chapter: str | None,
    out: Path | None,
    keep_going: bool,
    strict: bool,
    offline: bool,
    cache_dir: Path | None,
    trust: bool,
    review: bool,
    quiet: bool,
) -> None:
    """Build the book: pdf, html, epub or all (default: metadata 'formats', else pdf)."""
    from .api import build as run_build
    from .progress import progress_for_terminal

    with progress_for_terminal(quiet) as progress:
        result = run_build(
            project,
            formats or None,  # none given: metadata's 'formats:' (default pdf)
            engine=engine,
            chapter=chapter,
            out=out,
            keep_going=keep_going,
            strict=strict,
            cache_dir=cache_dir,
            progress=progress,
            offline=offline,
            trust=trust,
            review=review,
        )
    for note in result.notes:
        click.echo(printable(note), err=True)
    print_diagnostics(result.diagnostics)
    if result.check_findings:
        counts: dict[str, int] = {}
        for finding in result.check_findings:
            counts[finding.code] = counts.get(finding.code, 0) + 1
        summary = ", ".join(f"{code} ×{n}" for code, n in sorted(counts.items()))
        click.echo(
            f"{len(result.check_findings)} typography finding(s) left after the build's fixes "
            f"({summary}): run kobook check",
            err=True,
        )
    for kind, path in result.outputs.items():
        click.echo(f"{kind}: {printable(str(path))}")


def print_diagnostics(diagnostics: list[Diagnostic], per_code: int = 5) -> None:
    """Print warnings, at most ``per_code`` of each kind, then a count of the rest."""
    shown: dict[str, int] = {}
    for diagnostic in diagnostics:
        shown[diagnostic.code] = shown.get(diagnostic.code, 0) + 1
        if shown[diagnostic.code] <= per_code:
            click.echo(diagnostic.format(), err=True)
    for code, count in sorted(shown.items()):
        if count > per_code:
            click.echo(f"… and {count - per_code} more {code}", err=True)
    if diagnostics:
        summary = ", ".join(f"{code} ×{count}" for code, count in sorted(shown.items()))
        infos = sum(1 for d in diagnostics if d.severity == "info")
        counted = f"{len(diagnostics) - infos} warning(s)" + (f", {infos} note(s)" if infos else "")
        click.echo(f"{counted}: {summary}", err=True)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@project_option
@click.option("--fix", is_flag=True, help="Apply the safe fixes to the files.")
@click.option("--diff", is_flag=True, help="Show the fixes as a diff; write nothing.")
@format_option
@click.option("--select", multiple=True, help="Only these rules (repeatable, e.g. KO009).")
@click.option("--ignore", multiple=True, help="Skip these rules (repeatable).")
@click.option("--stats", is_flag=True, help="Print translation progress per chapter.")
def check(
    paths: tuple[Path, ...],
    project: Path,
    fix: bool,
    diff: bool,
    output_format: str,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    stats: bool,
) -> None:
    """Check Korean typography, figures and glossary in the book's sources."""
    from .check.report import run_check

    sys.exit(
        run_check(
            project,
            list(paths),
            fix=fix,
            diff=diff,
            output_format=output_format,
            select=list(select),
            ignore=list(ignore),
            stats=stats,
        )
    )


@main.group()
def glossary() -> None:
    """Work with glossary.yaml (source term → Korean term)."""


@glossary.command("extract")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@project_option
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["table", "yaml"]),
    default="table",
    show_default=True,
)
@click.option("--min-count", default=1, show_default=True, help="Skip rarer pairs.")
def glossary_extract(
    paths: tuple[Path, ...], project: Path, output_format: str, min_count: int
) -> None:
    """List 한국어(English) pairs found in the book, with counts and conflicts."""
    from .check.report import run_glossary_extract

    click.echo(run_glossary_extract(project, list(paths), output_format, min_count), nl=False)


@main.group()
def upstream() -> None:
    """Keep the translation in step with the original it translates."""


offline_option = click.option(
    "--offline", is_flag=True, help="Never reach the network (a remote upstream must be cached)."
)
repository_option = click.option(
    "--repository",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The original's checkout, instead of the one metadata.yaml names.",
)


def upstream_project(project: Path, offline: bool, repository: Path | None) -> Project:
    """The book and its original for an upstream command."""
    from .upstream import open_project

    named = str(repository) if repository else None
    return open_project(project, offline=offline, repository=named)


@upstream.command("init")
@click.argument("source")
@project_option
@click.option(
    "--dialect",
    type=click.Choice(["auto", "html", *DIALECTS]),
    default="auto",
    show_default=True,
    help="The original's dialect; auto: told from its files (html: published pages).",
)
@click.option("--guess-commit", is_flag=True, help="Lock at the commit the translation matches.")
@offline_option
def upstream_init(
    source: str, project: Path, dialect: str, guess_commit: bool, offline: bool
) -> None:
    """Record SOURCE[@REF] (a git checkout, file: or https URL) as the original."""
    from .upstream import upstream_init as run

    report = run(project, source, dialect=dialect, guess_commit=guess_commit, offline=offline)
    best = max((score for _, score in report.scores), default=0)
    for commit, score in report.scores:
        mark = "  ← the best run ends here" if commit == report.commit else ""
        mark = mark or ("  (best)" if score == best else "")
        click.echo(f"  {commit[:10]}: {score} blocks match{mark}", err=True)
    click.echo(f"locked {len(report.mapped)} file(s) at {report.described}")
    for file in report.unmapped:
        click.echo(f"  no original for {file}", err=True)
    for file in report.untranslated:
        click.echo(f"  not translated: {file}", err=True)


@upstream.command("status")
@project_option
@click.option("--to", "target", default=None, help="Compare with this ref (default: head).")
@format_option
@offline_option
@repository_option
def upstream_status(
    project: Path,
    target: str | None,
    output_format: str,
    offline: bool,
    repository: Path | None,
) -> None:
    """List stale, new, removed, missing and weak blocks; exit 1 on substantive ones."""
    from .upstream import findings
    from .upstream.report import FORMATS

    opened = upstream_project(project, offline, repository)
    found = findings(opened, target)
    for file in opened.unmapped():
        click.echo(f"{file}: no original mapped (kobook upstream init maps it)", err=True)
    click.echo(FORMATS[output_format](found), nl=False)
    sys.exit(1 if any(f.failing for f in found) else 0)


@upstream.command("diff")
@click.argument("chapter", required=False)
@project_option
@click.option("--to", "target", default=None, help="Compare with this ref (default: head).")
@offline_option
@repository_option
def upstream_diff(
    chapter: str | None,
    project: Path,
    target: str | None,
    offline: bool,
    repository: Path | None,
) -> None:
    """Each stale block: the original's change word by word, beside the translation."""
    from .upstream import findings
    from .upstream.report import as_diff

    found = findings(upstream_project(project, offline, repository), target)
    if chapter:
        found = [f for f in found if chapter in (f.chapter, f.file) or f.file.endswith(chapter)]
    click.echo(as_diff(found), nl=False)


@upstream.command("ack")
@click.argument("places", nargs=-1)
@project_option
@click.option("--cosmetic", is_flag=True, help="Ack every cosmetic change at once.")
@click.option("--reviewed", is_flag=True, help="Mark the blocks at PLACES reviewed.")
@click.option("--confirm", is_flag=True, help="Confirm the pairs at PLACES (weak findings).")
@click.option("--to", "target", default=None, help="The ref acked up to (default: head).")
@offline_option
@repository_option
def upstream_ack(
    places: tuple[str, ...],
    project: Path,
    cosmetic: bool,
    reviewed: bool,
    confirm: bool,
    target: str | None,
    offline: bool,
    repository: Path | None,
) -> None:
    """Mark findings at FILE:LINE dealt with (or review marks); locks move on when done."""
    from .upstream import ack, mark

    opened = upstream_project(project, offline, repository)
    if reviewed or confirm:
        count = mark(opened, list(places), "reviewed" if reviewed else "confirmed")
        click.echo(f"marked {count} block(s)")
        return
    if not places and not cosmetic:
        raise click.UsageError("name FILE:LINE places, or give --cosmetic")
    report = ack(opened, list(places), cosmetic=cosmetic, target=target)
    click.echo(f"acked {len(report.acked)} finding(s)")
    for file in report.moved:
        click.echo(f"  {file}: in step, lock moved to the new commit")


@main.command("import")
@click.argument("source", type=click.Path(path_type=Path))
@click.option(
    "--to",
    type=click.Path(path_type=Path),
    default=None,
    help="Write a plain kobook project here (converted chapters) instead of "
    "metadata.yaml in SOURCE.",
)
@click.option(
    "--from",
    "dialect",
    type=click.Choice(["auto", *DIALECT_OF]),
    default="auto",
    show_default=True,
    help="The repository's format (auto: detect it).",
)
@click.option("--force", is_flag=True, help="Replace a metadata.yaml edited by hand.")
def import_command(source: Path, to: Path | None, dialect: str, force: bool) -> None:
    """Make a distill site, an mdBook book, an MkDocs site or Markdown files a kobook book."""
    from .importer import import_repository

    result = import_repository(source, to=to, dialect=dialect, force=force)
    for line in result.lines():
        click.echo(line)


@main.command()
@click.argument("chapter", required=False)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port (the next free one if taken; 0: any free port).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Anything but loopback lets the network read the book.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the book in the web browser.")
@click.option(
    "--review",
    is_flag=True,
    help="Also serve the bilingual review pages (kobook upstream) at /review/.",
)
@click.option("--pdf", is_flag=True, help="Also keep dist/preview/CHAPTER.pdf up to date.")
@project_option
def preview(
    chapter: str | None,
    port: int,
    host: str,
    open_browser: bool,
    review: bool,
    pdf: bool,
    project: Path,
) -> None:
    """Serve the HTML book, rebuild on each save and reload the page (Ctrl-C stops)."""
    from .preview import run as run_preview

    run_preview(
        project,
        chapter=chapter,
        host=host,
        port=port,
        open_browser=open_browser,
        pdf=pdf,
        review=review,
        echo=click.echo,
    )


@main.command()
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--title", default=None, help="The book's title (default: a placeholder).")
@click.option(
    "--lang",
    type=click.Choice(["ko", "en", "ja", "zh"]),
    default="ko",
    show_default=True,
    help="The sample chapter's language (lang: in metadata.yaml).",
)
@click.option("--force", is_flag=True, help="Write into a non-empty folder (other files are kept).")
def init(folder: Path, title: str | None, lang: str, force: bool) -> None:
    """Start a new book in FOLDER: metadata, a sample chapter and a CI workflow."""
    from .scaffold import init_book

    for path in init_book(folder, title=title, lang=lang, force=force):
        click.echo(f"wrote {path}")
    click.echo(f"next: kobook build all --project {folder}", err=True)


@main.command()
@project_option
def doctor(project: Path) -> None:
    """Show what is installed (pandoc, Korean and emoji fonts, TeX) and what is missing."""
    from .doctor import report
    from .load import load_config

    ok, text = report(load_config(project / "metadata.yaml").language)
    click.echo(text)
    sys.exit(0 if ok else 1)


def run() -> None:
    """Entry point that turns :class:`KobookError` into a message and exit code 1.

    Ctrl-C, SIGTERM and SIGHUP stop the build cleanly (``tools.stop_on_signals``):
    temporary outputs are removed, the message is "interrupted", the exit code
    128 + the signal's number (130 for Ctrl-C).
    """
    from .tools import raise_if_stopped, stop_on_signals

    stop_on_signals()
    try:
        main(standalone_mode=False)
        raise_if_stopped()  # a signal a library swallowed still ends the run as stopped
    except KobookError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except click.exceptions.Abort as exc:  # click turns KeyboardInterrupt into Abort
        cause = exc.__cause__ or exc.__context__
        if isinstance(cause, KeyboardInterrupt):
            interrupted(cause)
        click.echo("aborted", err=True)
        sys.exit(130)
    except KeyboardInterrupt as exc:
        interrupted(exc)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    # The last resort for what the limits (LIMIT001) did not catch first: a message, no traceback.
    except RecursionError:
        click.echo(f"error: {TOO_DEEP}", err=True)
        sys.exit(1)
    except MemoryError:
        click.echo(f"error: {TOO_LARGE}", err=True)
        sys.exit(1)
    except OSError as exc:
        click.echo(f"error: {os_error_message(exc)}", err=True)
        sys.exit(1)


def interrupted(exc: KeyboardInterrupt) -> NoReturn:
    """End after Ctrl-C or a signal: one line, no traceback, exit 128 + signal number."""
    signum = getattr(exc, "signum", signal.SIGINT)
    name = "" if signum == signal.SIGINT else f" ({signal.Signals(signum).name})"
    click.echo(f"interrupted{name}", err=True)
    sys.exit(128 + signum)


TOO_DEEP = (
    "the book nests too deeply to process (Python's recursion limit was reached)\n"
    "  → flatten the most deeply nested block quotes (> > >) or lists; "
    "build one chapter at a time with --chapter to find it"
)
TOO_LARGE = (
    "out of memory: the book, or one of its files or images, is too large to process\n"
    "  → split very large chapters into several files, or shrink the largest images"
)
OS_HINTS = {
    errno.EACCES: "check the permissions of the file and its folder, or build with --out elsewhere",
    errno.EPERM: "check the permissions of the file and its folder, or build with --out elsewhere",
    errno.EROFS: "the file system is read-only: build with --out on a writable one",
    errno.ENOENT: "check that the path and its folders exist",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EEXIST: "a file is in the way: move it, or choose another --out",
    errno.ENOSPC: "the disk is full: free some space",
}


def os_error_message(exc: OSError) -> str:
    """An :class:`OSError` (permissions, a missing folder, a full disk) as one clear line.

    It is the machine's answer, not a bug in kobook, so the user sees the file
    and the reason rather than a traceback.
    """
    paths = " → ".join(str(p) for p in (exc.filename, exc.filename2) if p is not None)
    reason = exc.strerror or str(exc) or type(exc).__name__
    text = f"cannot read or write {paths}: {reason}" if paths else f"{reason}"
    hint = OS_HINTS.get(exc.errno or 0)
    return f"{text}\n  → {hint}" if hint else text
