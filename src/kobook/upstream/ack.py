"""``kobook upstream ack``: mark findings dealt with, and review marks on blocks.

An ack is kept in the file's lock as ``ack KIND HASH`` (the hash of the original
block at the target).  Once nothing stale, new or removed is left in a file, its
lock moves to the target commit: the pairs are aligned again and the marks carried
over; acked omissions stay marked ``omitted``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import KobookError
from .init import lock_file
from .lock import write_lock
from .project import Project
from .status import Finding, aligned, file_findings

MOVING = ("stale", "new", "removed")


@dataclass
class AckReport:
    acked: list[Finding]
    moved: list[str]  # files whose lock moved to the target commit


def parse_place(place: str) -> tuple[str, int]:
    file, _, line = place.rpartition(":")
    if not file or not line.isdigit():
        raise KobookError(
            f"'{place}' is not FILE:LINE",
            code="UPS006",
            hint="name a block as status prints it, e.g. src/ch01-01-installation.md:12",
        )
    return file, int(line)


def chosen(found: list[Finding], places: list[tuple[str, int]], cosmetic: bool) -> list[Finding]:
    picked = []
    for finding in found:
        is_cosmetic = finding.kind == "stale" and finding.grade == "cosmetic"
        if (cosmetic and is_cosmetic) or (finding.file, finding.line) in places:
            picked.append(finding)
    return picked


def ack(
    project: Project, places: list[str], *, cosmetic: bool = False, target: str | None = None
) -> AckReport:
    """Ack the findings at ``places`` (``FILE:LINE``) and, with ``cosmetic``, every
    cosmetic stale block; move each file's lock on when nothing is left to do."""
    wanted = [parse_place(p) for p in places]
    unknown = [f for f, _ in wanted if f not in project.upstream.chapters]
    if unknown:
        raise KobookError(
            f"{unknown[0]} is not a translated file the upstream block maps",
            code="UPS006",
            hint="files: " + ", ".join(sorted(project.upstream.chapters)[:5]) + " ...",
        )
    commit = project.commit(target)
    report = AckReport([], [])
    files = sorted({f for f, _ in wanted} if wanted and not cosmetic else project.upstream.chapters)
    for file in files:
        lock = project.lock(file)
        if lock is None:
            continue
        found = file_findings(project, file, commit)
        picked = chosen(found, wanted, cosmetic)
        if not picked:
            continue
        lock.acks |= {(f.kind, f.key) for f in picked}
        report.acked += picked
        left = [f for f in found if f not in picked and f.kind in MOVING]
        if not left and lock.base != commit:
            lock = lock_file(project, file, lock.upstream, commit, lock)
            report.moved.append(file)
        write_lock(project.root, lock)
    if wanted and not report.acked:
        raise KobookError(
            "nothing to ack at " + ", ".join(places),
            code="UPS006",
            hint="`kobook upstream status` lists the findings with their FILE:LINE",
        )
    return report


def mark(project: Project, places: list[str], what: str) -> int:
    """Put the ``reviewed`` or ``confirmed`` mark on the original blocks paired with the
    translated blocks at ``places``; the number of blocks marked."""
    count = 0
    for file, line in (parse_place(p) for p in places):
        lock = project.lock(file)
        korean = project.korean.get(file)
        if lock is None or korean is None:
            raise KobookError(f"{file} has no upstream lock", code="UPS006")
        original = project.original(lock.base)[lock.upstream]
        pairs = aligned(project, korean, original, lock, lock.base).pairs
        starts = [i for i, at in enumerate(korean.lines) if at <= line]
        if not starts:
            continue
        index = starts[-1]
        for pair in pairs:
            if index in pair.korean:
                for upstream in pair.upstream:
                    key = original.blocks[upstream].key
                    for entry in lock.entries:
                        if entry.upstream == key:
                            entry.marks.add(what)
                            entry.korean = korean.blocks[index].key
                            count += 1
        write_lock(project.root, lock)
    return count
