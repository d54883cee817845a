"""``kobook check``: Korean typography and translation checks over the book's sources.

Rules (``rules.py``) look at the prose the source layer finds; ``runner.py``
applies their safe fixes to a fixed point and writes files atomically.  The
build's normalize stage uses the same fixes on the text it reads.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from ..boundary import inside
from ..errors import KobookError
from ..files.frontmatter import split_front_matter
from ..files.textfile import read_text_file
from ..lang import language_of
from ..lang.script import UNTRANSLATED_MIN_WORDS
from ..load import load_config
from ..load.book import chapter_files, with_dialect_metadata
from ..load.schema import CHECK_KEYS, as_choice
from ..model import Config
from ..source import parse_source
from .dialects import kept_leaks, leaks_left
from .glossary import book_glossary, terms_from, terms_used
from .model import SEVERITIES, Finding, Rule, Settings
from .original import wanted, with_sync
from .proof import CHK005, proven_fix
from .rules import BY_ID, RULES
from .runner import FileReport, alone_on_file_names, check_text, fix_text, save_fixed


def settings_from(config: Config, root: Path) -> Settings:
    """``check:`` from metadata.yaml (validated), the glossary, particle readings."""
    raw: dict[str, Any] = dict(config.get("check") or {})
    import difflib

    for key in raw:
        if key not in CHECK_KEYS:
            close = difflib.get_close_matches(str(key), sorted(CHECK_KEYS), n=1)
            raise KobookError(
                f"unknown key 'check.{key}'"
                + (f": did you mean 'check.{close[0]}'?" if close else ""),
                code="CFG008",
                file=config.path,
                hint="check takes: " + ", ".join(sorted(CHECK_KEYS)),
            )
    settings = Settings(
        project=root, number_by_chapter=config.number_by_chapter, language=config.language
    )
    if raw.get("select"):
        settings.select = {str(r) for r in raw["select"]}
    settings.ignore = {str(r) for r in raw.get("ignore") or []}
    settings.quotes = str(as_choice(raw.get("quotes", "curly")))  # YAML reads off as false
    settings.ellipsis = str(as_choice(raw.get("ellipsis", "…")))  # YAML reads off as false
    settings.fail_on = str(raw.get("fail-on", "warning"))
    settings.glossary_first_use = bool(raw.get("glossary-first-use", True))
    settings.fix_emphasis = bool(raw.get("fix-emphasis", False))
    settings.untranslated_min_words = int(raw.get("untranslated-min-words", UNTRANSLATED_MIN_WORDS))
    for name, allowed in (
        ("quotes", ("curly", "straight", "off")),
        ("ellipsis", ("…", "...", "off")),
        ("fail-on", (*SEVERITIES, "never")),
    ):
        value = getattr(settings, name.replace("-", "_"))
        if value not in allowed:
            raise KobookError(
                f"check.{name} is '{value}'",
                code="CFG009",
                file=config.path,
                hint=f"use one of: {', '.join(allowed)}",
            )
    words = (config.get("particles") or {}).get("words") or {}
    settings.particle_words = {str(k): str(v) for k, v in words.items()}
    found = book_glossary(root, config)
    if found is not None:
        settings.glossary = {"terms": found[0], "path": found[1]}
    return settings


def source_files(
    root: Path, paths: list[Path] | None = None, config: Config | None = None
) -> list[Path]:
    """The files to check: the given ones (folders expanded), else the book's chapters.

    Each one must resolve inside the project (SEC001): ``--fix`` never writes
    elsewhere, whatever path or symlink it is given.
    """
    if paths:
        found: list[Path] = []
        hint = "kobook check reads and fixes only files inside the project folder (--project)"
        for given in paths:
            path = inside(given, root, what="path to check", hint=hint)
            if path.is_dir():
                for file in sorted(path.rglob("*.md")):
                    inside(file, root, what="file to check", file=file, hint=hint)
                    found.append(file)
            elif path.is_file():
                found.append(path)
            else:
                raise KobookError(f"no such file: {path}", code="CHK001", file=path)
        return found
    return chapter_files(root, config or load_config(root / "metadata.yaml"))


def check_files(
    root: Path,
    paths: list[Path] | None = None,
    *,
    fix: bool = False,
    write: bool = False,
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    settings: Settings | None = None,
) -> list[FileReport]:
    """Check (and with ``fix`` compute fixed text; with ``write`` save it) each file.

    ``settings`` (from :func:`settings_from`) saves reading metadata.yaml again
    when the caller already has them.
    """
    root = root.resolve()
    # The book's language from book.toml too: check and build apply the same rules.
    config = with_dialect_metadata(root, load_config(root / "metadata.yaml"))
    if settings is None:
        settings = settings_from(config, root)
    if select:
        settings.select = set(select)
    if ignore:
        settings.ignore |= set(ignore)
    for name in (settings.select or set()) | settings.ignore:
        if name not in BY_ID and not any(r.startswith(name) for r in BY_ID):
            raise KobookError(
                f"unknown rule '{name}'", code="CHK002", hint="rules: " + ", ".join(BY_ID)
            )
    reports = []
    # A distill/mdBook book: LEAK001 only for what its dialect leaves (check/dialects.py).
    left = leaks_left(root, config) if settings.enabled("LEAK001") else None
    earlier = EarlierChapters(root, config, settings)
    for path in source_files(root, paths, config):
        source = read_text_file(path)
        text = source.text
        report = FileReport(path=path, doc_text=text)
        try:
            file_settings = dataclasses.replace(settings, glossary_seen=earlier.terms_before(path))
            own_lang = split_front_matter(text, path).meta.get("lang")
        except KobookError as error:  # its front matter (FM001): said, and the others go on
            report.findings = [unchecked(text, error)]
            reports.append(report)
            continue
        if own_lang:
            file_settings = dataclasses.replace(settings, language=language_of(str(own_lang)))
        if fix:
            # pandoc proves each fix changed only prose (proof.py); refused ones are CHK004.
            proven = proven_fix(text, path, file_settings)
            report.fixed_text = proven.text
            report.findings = proven.findings
            problem = save_fixed(source, proven.text) if write and proven.text != text else None
            if problem:
                report.fixed_text = text
                report.findings = [
                    Finding(CHK005, 0, 0, f"not written: {problem}", None, "error"),
                    *check_text(text, path, file_settings),
                ]
        else:
            report.findings = check_text(text, path, file_settings)
        report.findings = alone_on_file_names(
            kept_leaks(report.findings, path, report.fixed_text or report.doc_text, left)
        )
        earlier.read(path, report.fixed_text or report.doc_text)
        reports.append(report)
    if wanted(config, settings):  # the translation against its original (kobook upstream)
        reports = with_sync(root, config, settings, reports)
    return reports


def unchecked(text: str, error: KobookError) -> Finding:
    """A file that could not be checked (its front matter is not YAML): the error, at its
    line, as the file's one finding."""
    line = max(error.diagnostic.location.line, 1)
    offset = len("\n".join(text.split("\n")[: line - 1])) + (1 if line > 1 else 0)
    message = f"not checked: {error.code} {error.diagnostic.message}"
    return Finding("CHK006", offset, offset, message, None, "error")


class EarlierChapters:
    """Which glossary terms the chapters before a file use (KO012: first use per book).

    The book's chapter order comes from load/ (``chapter_files``); a file that is
    not a chapter has no earlier chapters.  Chapters already checked in this run
    are read as fixed; the others are read from disk once, when first needed.
    """

    def __init__(self, root: Path, config: Config, settings: Settings) -> None:
        self.settings = settings
        self.used: dict[Path, set[str]] = {}
        self.order: list[Path] = []
        active = settings.glossary_first_use and settings.enabled("KO012")
        if active and terms_from(settings):
            try:
                self.order = [p.resolve() for p in chapter_files(root, config)]
            except KobookError:
                self.order = []  # no book here: each file is its own first use

    def read(self, path: Path, text: str) -> None:
        if path.resolve() in self.order:
            try:
                used = terms_used(parse_source(text, path), self.settings)
            except KobookError:  # reported where that file is checked
                used = set()
            self.used[path.resolve()] = used

    def terms_before(self, path: Path) -> frozenset[str]:
        path = path.resolve()
        if path not in self.order:
            return frozenset()
        seen: set[str] = set()
        for chapter in self.order[: self.order.index(path)]:
            if chapter not in self.used:
                self.read(chapter, read_text_file(chapter).text)
            seen |= self.used[chapter]
        return frozenset(seen)


__all__ = [
    "RULES",
    "FileReport",
    "Finding",
    "Rule",
    "Settings",
    "check_files",
    "check_text",
    "fix_text",
    "settings_from",
]
