"""Text files are UTF-8; for any other bytes, an error whose hint fits them.

pandoc reads UTF-8 only, and ``--fix`` writes UTF-8 back, so kobook does not
convert files silently: a file in another encoding is an error (ENC001) that
says what the bytes look like and how to convert them.

* A UTF-16 file (Windows Notepad's "Unicode") starts with a byte order mark,
  or has a NUL byte beside every ASCII letter.  Such a file of plain ASCII is
  also valid UTF-8 byte for byte, so it would be read with its NULs and put
  them into the HTML: a NUL byte in a text file is never right.
* A UTF-8 file with a few damaged bytes (a multi-byte character cut in two by
  an editor or a bad merge) is broken UTF-8 at a line, not CP949: converting
  it from CP949 would garble every other Korean character in it.
* CP949 (EUC-KR) is suggested only when the bytes decode as CP949 into text
  that is mostly Hangul syllables.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import KobookError

UTF8_BOM = b"\xef\xbb\xbf"
UTF16_BOMS = {b"\xff\xfe": "UTF-16LE", b"\xfe\xff": "UTF-16BE"}
REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class Diagnosis:
    """What a file's bytes look like: the message, its line, how to convert (or fix) it."""

    message: str
    line: int
    encoding: str = ""  # for ``iconv -f``; empty when converting is not the fix
    hint: str = ""


def decode_utf8(path: Path, data: bytes) -> str:
    """The text of ``data`` (a UTF-8 byte order mark dropped), else ENC001."""
    diagnosis = utf16_or_nul(data)
    if diagnosis is None:
        body = data[len(UTF8_BOM) :] if data.startswith(UTF8_BOM) else data
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError as exc:
            diagnosis = not_utf8(body, exc.start)
    raise encoding_error(path, diagnosis)


def encoding_error(path: Path, diagnosis: Diagnosis) -> KobookError:
    hint = diagnosis.hint
    if diagnosis.encoding:
        hint = (
            f"convert it: iconv -f {diagnosis.encoding} -t UTF-8 '{path}' -o '{path}.utf8' "
            f"&& mv '{path}.utf8' '{path}'"
        )
    return KobookError(diagnosis.message, code="ENC001", file=path, line=diagnosis.line, hint=hint)


def line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def utf16_or_nul(data: bytes) -> Diagnosis | None:
    """UTF-16 (with or without a byte order mark), or any other file holding NUL bytes."""
    for bom, name in UTF16_BOMS.items():
        if data.startswith(bom):
            return Diagnosis(
                f"file is {name[:6]}, not UTF-8 (it starts with the byte order mark "
                f"{bom[0]:02X} {bom[1]:02X})",
                1,
                name[:6],
            )
    first = data.find(b"\x00")
    if first < 0:
        return None
    name = utf16_without_bom(data)
    if name:
        return Diagnosis(f"file is {name} without a byte order mark, not UTF-8", 1, name)
    return Diagnosis(
        f"file holds a NUL byte (0x00) at line {line_of(data, first)}: "
        "it is binary or damaged, not text",
        line_of(data, first),
        hint="open it in an editor, delete the stray characters and save it as UTF-8",
    )


def utf16_without_bom(data: bytes) -> str:
    """``UTF-16LE``/``BE`` when NULs fill every other byte of the start, as ASCII does there."""
    sample = data[:4096]
    pairs = len(sample) // 2
    if pairs < 2:
        return ""
    odd = sample[1::2].count(0)
    even = sample[0::2].count(0)
    if odd >= 0.4 * pairs and even <= 0.05 * pairs:
        return "UTF-16LE"
    if even >= 0.4 * pairs and odd <= 0.05 * pairs:
        return "UTF-16BE"
    return ""


def not_utf8(data: bytes, first_bad: int) -> Diagnosis:
    """Why ``data`` does not decode: broken UTF-8, CP949, or an encoding we cannot name."""
    line = line_of(data, first_bad)
    byte = f"byte 0x{data[first_bad]:02x} at line {line}"
    text = data.decode("utf-8", errors="replace")
    bad = text.count(REPLACEMENT) - data.count(REPLACEMENT.encode("utf-8"))
    good = sum(1 for char in text if ord(char) > 0x7F and char != REPLACEMENT)
    # Legacy bytes read as UTF-8 make almost nothing but damage; a damaged UTF-8
    # file is mostly good characters (the margin keeps short files on this side).
    if good >= 3 * bad:
        return Diagnosis(
            f"file is broken UTF-8: {bad} damaged character(s), the first at line {line} "
            f"(byte 0x{data[first_bad]:02x}); the rest is UTF-8",
            line,
            hint=f"open it in an editor, retype the damaged text on line {line} "
            "(and any other the editor shows) and save it as UTF-8",
        )
    if looks_like_cp949(data):
        return Diagnosis(
            f"file is not UTF-8 ({byte}); it looks like CP949 (EUC-KR, Korean Windows)",
            line,
            "CP949",
        )
    return Diagnosis(
        f"file is not UTF-8 ({byte})",
        line,
        hint="save it as UTF-8 in your editor, or convert it with "
        "iconv -f ENCODING -t UTF-8 (ENCODING is what the file was written in)",
    )


def looks_like_cp949(data: bytes) -> bool:
    """Do the bytes decode as CP949 into text whose non-ASCII part is mostly Hangul?"""
    try:
        text = data.decode("cp949")
    except UnicodeDecodeError:
        return False
    wide = [char for char in text if ord(char) > 0x7F]
    hangul = sum(1 for char in wide if "\uac00" <= char <= "\ud7a3")
    return bool(wide) and hangul >= 0.6 * len(wide)
