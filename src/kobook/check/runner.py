"""Run rules over a source, apply fixes safely, and write files atomically."""

from __future__ import annotations

import difflib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Diagnostic, Location
from ..lang import is_korean
from ..load.textfile import TextFile
from ..source import parse_source
from .model import Finding, Settings
from .rules import RULES

MAX_PASSES = 5


def check_text(
    text: str, path: Path | None, settings: Settings, *, build_only: bool = False
) -> list[Finding]:
    """Findings for one source text, in position order, suppressions applied."""
    doc = parse_source(text, path)
    found: list[Finding] = []
    korean: dict[str, bool] = {}  # paragraph prose → is it Korean

    def in_korean(offset: int) -> bool:
        prose = doc.paragraph_prose(offset)
        if prose not in korean:
            korean[prose] = is_korean(prose, settings.language)
        return korean[prose]

    for rule in RULES:
        if not settings.enabled(rule.id) or (build_only and not rule.in_build):
            continue
        for finding in rule.check(doc, settings):
            if doc.suppressed(rule.id, finding.start):
                continue
            if rule.korean and not in_korean(finding.start):
                continue
            severity = finding.severity if finding.severity != "warning" else rule.severity
            if finding.severity == "error":
                severity = "error"
            found.append(
                Finding(
                    finding.rule,
                    finding.start,
                    finding.end,
                    finding.message,
                    finding.replacement,
                    severity,
                )
            )
    found.sort(key=lambda f: (f.start, f.rule))
    return found


def apply_fixes(text: str, findings: list[Finding]) -> str:
    """Apply non-overlapping fixes (the first of overlapping ones wins)."""
    out = []
    position = 0
    for finding in sorted(findings, key=lambda f: (f.start, f.end)):
        if finding.replacement is None or finding.start < position:
            continue
        out.append(text[position : finding.start])
        out.append(finding.replacement)
        position = finding.end
    out.append(text[position:])
    return "".join(out)


def fix_text(
    text: str, path: Path | None, settings: Settings, *, build_only: bool = False
) -> tuple[str, list[Finding]]:
    """Text with every safe fix applied (to a fixed point), and what is left to report."""
    for _ in range(MAX_PASSES):
        findings = check_text(text, path, settings, build_only=build_only)
        fixable = [f for f in findings if f.replacement is not None]
        if not fixable:
            return text, findings
        fixed = apply_fixes(text, fixable)
        if fixed == text:
            break
        text = fixed
    return text, check_text(text, path, settings, build_only=build_only)


@dataclass
class FileReport:
    path: Path
    findings: list[Finding] = field(default_factory=list)
    doc_text: str = ""
    fixed_text: str | None = None

    def diagnostics(self) -> list[Diagnostic]:
        doc = parse_source(self.doc_text, self.path)
        out = []
        for finding in self.findings:
            line, col = doc.position(finding.start)
            fix = " [*]" if finding.replacement is not None else ""
            out.append(
                Diagnostic(
                    finding.rule,
                    finding.message + fix,
                    Location(self.path, line, col),
                    "",
                    finding.severity,
                )
            )
        return out

    def diff(self) -> str:
        if self.fixed_text is None or self.fixed_text == self.doc_text:
            return ""
        return "".join(
            difflib.unified_diff(
                self.doc_text.splitlines(keepends=True),
                self.fixed_text.splitlines(keepends=True),
                fromfile=str(self.path),
                tofile=str(self.path),
            )
        )


def read_source(path: Path) -> str:
    """The text of ``path`` with LF line ends (see :mod:`kobook.load.textfile`)."""
    from ..load.textfile import read_text_file

    return read_text_file(path).text


def write_atomic(path: Path, text: str | bytes) -> None:
    """Replace ``path`` through a temporary file in the same folder; keep its mode.

    A symlink is followed: its target gets the new text and the link stays a link.
    """
    path = path.resolve()
    mode = path.stat().st_mode & 0o7777
    data = text.encode("utf-8") if isinstance(text, str) else text
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_only(path: Path) -> bool:
    """No write permission for us, or none for anyone (0444 stays 0444, even for root)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return True
    return not os.access(path, os.W_OK) or not mode & 0o222


def save_fixed(source: TextFile, text: str) -> str | None:
    """Write fixed LF-only ``text`` over ``source``; return why it was not written, if so.

    The file keeps its line endings, BOM and mode, a symlink's target is
    updated, a read-only file or folder is left alone, and a file that changed
    since it was read (another program appended to it) is not overwritten.
    """
    target = source.path.resolve()
    if read_only(target):
        return "file is read-only (its permissions do not allow writing)"
    if read_only(target.parent):
        return f"folder {target.parent} is read-only"
    data = source.encode(text)
    try:
        if target.read_bytes() != source.data:
            return "file changed while kobook was fixing it; run kobook check --fix again"
        write_atomic(target, data)
    except OSError as exc:
        return f"could not write the file: {exc.strerror or exc}"
    return None
