"""How ``status`` and ``diff`` print their findings: text, JSON, GitHub annotations, and
word diffs of the original beside the translation."""

from __future__ import annotations

import json
from collections import Counter

from ..github import annotation
from .compare import word_runs
from .status import Finding

SEVERITY = {"stale": "warning", "new": "warning", "removed": "warning", "missing": "error"}
SEVERITY_WEAK = "notice"


def excerpt(text: str, width: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def message(finding: Finding) -> str:
    grade = f" ({finding.grade})" if finding.kind == "stale" else ""
    what = {
        "stale": f"the original {finding.block} changed{grade}",
        "new": f"a new {finding.block} in the original belongs after this line",
        "removed": f"the original {finding.block} was removed",
        "missing": f"this {finding.block} of the original has no translation",
        "weak": f"unsure which {finding.block} of the original this translates",
    }[finding.kind]
    quoted = finding.new or finding.old
    return f"{what}: {finding.upstream_path}:{finding.upstream_line} «{excerpt(quoted)}»"


def as_text(found: list[Finding]) -> str:
    lines = [f"{f.file}:{f.line}: {f.kind}: {message(f)}" for f in found]
    counts = Counter(f.kind if f.kind != "stale" else f"stale {f.grade}" for f in found)
    summary = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items())) or "in step"
    return "\n".join([*lines, summary]) + "\n"


def as_json(found: list[Finding]) -> str:
    return json.dumps([f.as_json() for f in found], ensure_ascii=False, indent=2) + "\n"


def as_github(found: list[Finding]) -> str:
    rows = [
        annotation(
            SEVERITY.get(f.kind, SEVERITY_WEAK),
            message(f),
            file=f.file,
            line=f.line,
            title=f"upstream {f.kind}",
        )
        for f in found
    ]
    return "".join(row + "\n" for row in rows)


FORMATS = {"text": as_text, "json": as_json, "github": as_github}


def word_diff(old: str, new: str) -> str:
    """``old`` → ``new`` word by word: ``[-removed-]{+added+}``."""
    out: list[str] = []
    for kind, gone, came in word_runs(old, new):
        if kind == "equal":
            out.append(gone)
            continue
        out += [f"[-{gone}-]"] if gone else []
        out += [f"{{+{came}+}}"] if came else []
    return " ".join(out)


def as_diff(found: list[Finding]) -> str:
    """Each stale block: the original's change as a word diff, then the translation."""
    parts: list[str] = []
    for f in found:
        if f.kind != "stale":
            continue
        parts.append(
            f"{f.file}:{f.line} ({f.grade}) ← {f.upstream_path}:{f.upstream_line}\n"
            f"  original:    {word_diff(f.old, f.new)}\n"
            f"  translation: {' '.join(f.korean.split())}\n"
        )
    return "\n".join(parts) if parts else "no stale blocks\n"
