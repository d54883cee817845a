"""Run rules over a source, apply fixes safely, and write files atomically."""

from __future__ import annotations

import difflib
import os
import re
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Diagnostic, Location
from ..files.textfile import TextFile
from ..lang import is_korean
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


def alone_on_file_names(findings: list[Finding]) -> list[Finding]:
    """``findings`` without typography (KO…) findings inside a FIG002 alt text.

    An alt text that is a file name (``스크린샷 2025-01-01 오후 3.12.png``) is
    dropped by the build; the one thing to do is to replace it, so FIG002 says
    so alone instead of KO001 twice more for the same decomposed words.  Only
    the report drops them: ``--fix`` still composes the NFD name (harmless, and
    the file reads the same in every editor).
    """
    names = [(f.start, f.end) for f in findings if f.rule == "FIG002"]
    if not names:
        return findings
    return [
        f
        for f in findings
        if not (
            f.rule.startswith("KO") and any(f.start < end and start < f.end for start, end in names)
        )
    ]


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
        lines = difflib.unified_diff(
            self.doc_text.splitlines(keepends=True),
            self.fixed_text.splitlines(keepends=True),
            fromfile=str(self.path),
            tofile=str(self.path),
        )
        return "".join(
            line if line.startswith(("---", "+++")) or line[:1] not in "-+" else shown(line)
            for line in lines
        )


# Characters a terminal draws as nothing or as a plain space.
UNSEEN_CATEGORIES = {"Cf", "Zs", "Zl", "Zp", "Cc"}
# Conjoining jamo: what decomposed (NFD) Hangul is made of.
JAMO = re.compile(r"[\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]+")


def shown(line: str) -> str:
    """A diff line with invisible differences made visible.

    ``--diff`` of a KO001 or KO003 fix would otherwise print two lines that
    look the same: decomposed (NFD) words get ``⟨NFD⟩`` before them, and each
    invisible or odd space character becomes ``⟨U+00A0⟩`` (its code point)
    instead of being printed.
    """
    body, end = (line[1:-1], "\n") if line.endswith("\n") else (line[1:], "")
    out = [line[:1]]
    for word in re.split(r"(\s+)", body):
        if word and not unicodedata.is_normalized("NFC", word):
            marked = JAMO.sub(lambda m: f"⟨NFD⟩{m.group(0)}", word)
            word = marked if marked != word else f"⟨NFD⟩{word}"  # é as e + U+0301
        out.append(
            "".join(
                f"⟨U+{ord(c):04X}⟩"
                if c not in " \t" and unicodedata.category(c) in UNSEEN_CATEGORIES
                else c
                for c in word
            )
        )
    return "".join(out) + end


def read_source(path: Path) -> str:
    """The text of ``path`` with LF line ends (see :mod:`kobook.files.textfile`)."""
    from ..files.textfile import read_text_file

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
