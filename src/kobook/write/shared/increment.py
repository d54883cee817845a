"""A PDF changed by an incremental update: new versions of a few objects appended after
the file's last byte, with a cross-reference section that points at them and back at
the file's own (ISO 32000-1, 7.5.6), as a PDF editor saves.

The pages' bytes and the reproducible ``/ID`` stay as the engine wrote them, and the
cost is that of the objects changed.  pypdf's incremental writer clones and hashes
every object of the file first, which took longer than laying out a chapter: half a
minute for a 600-page book's page labels.
"""

from __future__ import annotations

import io
import re
import struct
from pathlib import Path
from typing import Any

from .common import atomic_output
from .packing import WIDTHS, serialized, stream_object

STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
TRAILER = ("/Root", "/Info", "/ID")  # what an update's trailer carries over


class NotUpdatable(ValueError):
    """The file does not end as a PDF does (``startxref`` and ``%%EOF``)."""


def append_update(src: Path, dst: Path, reader: Any, changed: dict[Any, Any]) -> None:
    """Write ``src`` to ``dst`` with an update holding ``changed``: each indirect
    reference of ``reader`` (pypdf's, of ``src``) → the object's new version."""
    data = src.read_bytes()
    found = STARTXREF.search(data[-1024:])
    if found is None:
        raise NotUpdatable(f"{src.name} does not end with startxref and %%EOF")
    previous = int(found.group(1))
    update = io.BytesIO()
    update.write(b"" if data.endswith(b"\n") else b"\n")
    offsets: dict[int, tuple[int, int]] = {}
    for reference, value in sorted(changed.items(), key=lambda item: item[0].idnum):
        offsets[reference.idnum] = (len(data) + update.tell(), reference.generation)
        update.write(f"{reference.idnum} {reference.generation} obj\n".encode())
        update.write(serialized(value))
        update.write(b"\nendobj\n")
    trailer = carried(reader, int(reader.trailer["/Size"]), previous)
    if data[previous : previous + 4] == b"xref":
        table = classic_section(offsets, trailer)
        start = len(data) + update.tell()
        update.write(table)
    else:  # a cross-reference stream (PDF 1.5): the update's is one too
        start = len(data) + update.tell()
        update.write(stream_section(offsets, trailer, start))
    update.write(f"startxref\n{start}\n%%EOF\n".encode())
    with atomic_output(dst) as tmp:
        tmp.write_bytes(data + update.getvalue())


def carried(reader: Any, size: int, previous: int) -> dict[str, Any]:
    """The update's trailer: the file's ``/Root``, ``/Info`` and ``/ID``, its ``/Size``,
    and ``/Prev`` at its own cross-reference section."""
    from pypdf.generic import NumberObject

    kept = {key: reader.trailer.raw_get(key) for key in TRAILER if key in reader.trailer}
    return {"/Size": NumberObject(size), **kept, "/Prev": NumberObject(previous)}


def classic_section(offsets: dict[int, tuple[int, int]], trailer: dict[str, Any]) -> bytes:
    """An ``xref`` table, one subsection per object, and its trailer."""
    from pypdf.generic import DictionaryObject, NameObject

    rows = [b"xref\n"]
    for number, (offset, generation) in sorted(offsets.items()):
        rows.append(f"{number} 1\n{offset:010d} {generation:05d} n \n".encode())
    entries = DictionaryObject({NameObject(key): value for key, value in trailer.items()})
    rows.append(b"trailer\n" + serialized(entries) + b"\n")
    return b"".join(rows)


def stream_section(
    offsets: dict[int, tuple[int, int]], trailer: dict[str, Any], start: int
) -> bytes:
    """A cross-reference stream, written as :mod:`.packing` writes one: the object
    :func:`append_update` adds after the file's last (its number the old ``/Size``), at
    ``start``."""
    from pypdf.generic import ArrayObject, NameObject, NumberObject

    number = int(trailer["/Size"])
    rows = {**offsets, number: (start, 0)}
    entries = b"".join(struct.pack(">BIH", 1, *rows[n]) for n in sorted(rows))
    index = ArrayObject(NumberObject(v) for n in sorted(rows) for v in (n, 1))
    xref = stream_object(
        entries,
        {
            **trailer,
            "/Type": NameObject("/XRef"),
            "/Size": NumberObject(number + 1),
            "/W": ArrayObject(NumberObject(w) for w in WIDTHS),
            "/Index": index,
        },
    )
    return b"%d 0 obj\n" % number + serialized(xref) + b"\nendobj\n"
