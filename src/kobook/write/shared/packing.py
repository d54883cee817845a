"""A PDF that pypdf assembled, written with object streams and a cross-reference stream.

pypdf writes every object on its own, uncompressed, with a classic cross-reference
table.  A tagged book holds tens of thousands of small structure elements, so the
PDF that joins WeasyPrint's runs came out far larger than the one WeasyPrint writes
in one process, which packs such objects into compressed object streams (PDF 1.5).
This module writes pypdf's objects the way WeasyPrint (pydyf) does: every object that
is not a stream goes into an ``/ObjStm`` of :data:`BATCH` objects, and a
``/XRef`` stream says where each one is.  Nothing is renumbered: the objects are
pypdf's, in its numbering.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path
from typing import Any

BATCH = 200  # objects per object stream: WeasyPrint's pydyf packs about as many
WIDTHS = (1, 4, 2)  # the /W of the cross-reference stream: type, offset or stream, index


def serialized(obj: Any) -> bytes:
    out = io.BytesIO()
    obj.write_to_stream(out)
    return out.getvalue()


def packed_bytes(obj: Any, names: dict[str, bytes]) -> bytes:
    """``obj`` as pypdf writes it, byte for byte, for an object of an object stream.

    A tagged book is hundreds of thousands of small dictionaries of the same few names
    (``/S``, ``/P``, ``/K``, ``/Pg``), and pypdf escapes each name character by
    character every time it writes it: here a name is escaped once (``names``, kept by
    the caller for one file) and dictionaries, arrays, names, numbers and references
    are written without a stream each; anything else is pypdf's own writing.
    """
    from pypdf import generic

    dictionary, array, name = generic.DictionaryObject, generic.ArrayObject, generic.NameObject
    reference, number, real = generic.IndirectObject, generic.NumberObject, generic.FloatObject
    parts: list[bytes] = []
    append = parts.append

    def escaped(key: Any) -> bytes:
        data = names.get(key)
        if data is None:
            data = names[key] = serialized(key)
        return data

    def write(item: Any) -> None:
        kind = type(item)
        if kind is dictionary:
            append(b"<<\n")
            for key, value in item.items():
                if len(key) > 2 and key[1] == "%" and key[-1] == "%":
                    continue  # as pypdf: a key it keeps for itself
                append(escaped(key))
                append(b" ")
                write(value)
                append(b"\n")
            append(b">>")
        elif kind is array:
            append(b"[")
            for element in item:
                append(b" ")
                write(element)
            append(b" ]")
        elif kind is name:
            append(escaped(item))
        elif kind is reference:
            append(b"%d %d R" % (item.idnum, item.generation))
        elif kind is number:
            append(b"%d" % item)
        elif kind is real:
            append(item.myrepr().encode())
        else:
            append(serialized(item))

    write(obj)
    return b"".join(parts)


def stream_object(data: bytes, entries: dict[str, Any]) -> Any:
    """A Flate-compressed stream of ``data`` with the dictionary ``entries``."""
    from pypdf.generic import DecodedStreamObject, NameObject

    stream = DecodedStreamObject()
    stream.set_data(data)
    for key, value in entries.items():
        stream[NameObject(key)] = value
    return stream.flate_encode()


def write_packed(writer: Any, out: Path) -> None:
    """Write ``writer``'s document to ``out`` with object and cross-reference streams
    (a PDF 1.5 feature: the header is raised to 1.5 when it is lower)."""
    from pypdf.generic import ArrayObject, NameObject, NumberObject, StreamObject

    resolve = getattr(writer, "_resolve_links", None)
    if resolve is not None:
        resolve()  # what PdfWriter.write does first: links to merged pages patched
    objects: list[Any] = writer._objects
    count = len(objects)
    # Where each object is: (1, offset) written alone, (2, stream, index) packed.
    where: dict[int, tuple[int, int, int]] = {}
    header = writer.pdf_header
    header = header if isinstance(header, bytes) else header.encode()
    if header < b"%PDF-1.5":
        header = b"%PDF-1.5"
    body = io.BytesIO()
    body.write(header + b"\n%\xe2\xe3\xcf\xd3\n")
    packable: list[tuple[int, Any]] = []
    alone: list[tuple[int, Any]] = []
    for number, obj in enumerate(objects, start=1):
        if obj is None:
            continue
        (alone if isinstance(obj, StreamObject) else packable).append((number, obj))
    for number, obj in alone:
        where[number] = (1, body.tell(), 0)
        body.write(b"%d 0 obj\n" % number + serialized(obj) + b"\nendobj\n")
    next_number = count + 1
    names: dict[str, bytes] = {}
    for start in range(0, len(packable), BATCH):
        batch = packable[start : start + BATCH]
        offsets, chunks, position = [], [], 0
        for index, (number, obj) in enumerate(batch):
            data = packed_bytes(obj, names) + b"\n"
            offsets.append(b"%d %d" % (number, position))
            chunks.append(data)
            position += len(data)
            where[number] = (2, next_number, index)
        head = b" ".join(offsets) + b"\n"
        packed = stream_object(
            head + b"".join(chunks),
            {
                "/Type": NameObject("/ObjStm"),
                "/N": NumberObject(len(batch)),
                "/First": NumberObject(len(head)),
            },
        )
        where[next_number] = (1, body.tell(), 0)
        body.write(b"%d 0 obj\n" % next_number + serialized(packed) + b"\nendobj\n")
        next_number += 1
    xref_number = next_number
    size = xref_number + 1
    where[xref_number] = (1, body.tell(), 0)
    rows = []
    for number in range(size):
        kind, field, index = where.get(number, (0, 0, 65535 if number == 0 else 1))
        rows.append(struct.pack(">BIH", kind, field, index))
    trailer: dict[str, Any] = {
        "/Type": NameObject("/XRef"),
        "/Size": NumberObject(size),
        "/W": ArrayObject(NumberObject(w) for w in WIDTHS),
        "/Root": writer.root_object.indirect_reference,
    }
    if writer._info is not None:
        trailer["/Info"] = writer._info.indirect_reference
    if writer._ID is not None:
        trailer["/ID"] = writer._ID
    xref = stream_object(b"".join(rows), trailer)
    start_xref = body.tell()
    body.write(b"%d 0 obj\n" % xref_number + serialized(xref) + b"\nendobj\n")
    body.write(b"startxref\n%d\n%%%%EOF\n" % start_xref)
    out.write_bytes(body.getvalue())
