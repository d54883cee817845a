"""Values in Typst source: everything a template or a pass writes is data, never code.

A book's title, language, authors, dates, labels and file names come from an
untrusted repository.  Spliced into Typst source they would run as code
(``lang: 'ko"); #for i in range(3e8) {}'``), so every value reaches the source
as a Typst literal that can only be what it says: a string literal with every
character that means something in one escaped, a number, a bool, an array.
The only text written as is is :class:`Code`, which kobook builds itself
(pandoc's body, a validated length).

The Typst template renders with :func:`literal` as Jinja's ``finalize``: a
template writes ``#set document(title: {{ title }})`` and gets a quoted string,
whatever the title holds.  One rule for every value, in one place.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import jinja2

from ..shared.templates import environment

# A label Typst reads in ``<…>`` (pandoc's Typst writer uses the same test; other ids
# are written ``#label("…")``).
LABEL = re.compile(r"[\w.:-]+")
LENGTH = re.compile(r"\d+(?:\.\d+)?(?:pt|mm|cm|in|em)")
# What a Typst string literal may hold as it is: printable characters but ``\`` and ``"``.
ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


class Code(str):
    """Typst source kobook wrote itself (pandoc's body, a checked length): written as is."""

    __slots__ = ()


def string(text: str) -> str:
    """``text`` as a Typst string literal: quotes, backslashes and every control or
    format character escaped (``\\u{…}``), so nothing in it ends the string."""
    out = []
    for char in text:
        if char in ESCAPES:
            out.append(ESCAPES[char])
        elif ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0 or char in "\u2028\u2029":
            out.append(f"\\u{{{ord(char):x}}}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def length(value: str) -> Code:
    """A length kobook computed (``148mm``, ``10.5pt``) as Typst code, after checking it is
    one: a value that is not fails here, never in the compiler."""
    text = str(value).strip()
    if not LENGTH.fullmatch(text):
        raise ValueError(f"not a Typst length: {text!r}")
    return Code(text)


def label(ident: str) -> str:
    """A label for ``ident``: ``<ident>`` when Typst reads it so, else ``#label("…")``."""
    return f"<{ident}>" if LABEL.fullmatch(ident) else f"#label({string(ident)})"


QUOTED_LABEL = re.compile(r'#label\((?P<text>"(?:[^"\\]|\\.)*")\)')
UNESCAPE = re.compile(r"\\(u\{(?P<code>[0-9a-fA-F]{1,6})\}|.)")


def label_of(text: str) -> str | None:
    """The id of a label :func:`label` wrote (None: ``text`` is not one)."""
    if text.startswith("<") and text.endswith(">") and LABEL.fullmatch(text[1:-1]):
        return text[1:-1]
    if quoted := QUOTED_LABEL.fullmatch(text):
        return unstring(quoted.group("text"))
    return None


def unstring(literal_text: str) -> str:
    """The text of a string literal :func:`string` wrote."""
    simple = {v[1]: k for k, v in ESCAPES.items()}

    def one(match: re.Match[str]) -> str:
        if match.group("code"):
            return chr(int(match.group("code"), 16))
        return simple.get(match.group(1), match.group(1))

    return UNESCAPE.sub(one, literal_text[1:-1])


def literal(value: Any) -> str:
    """``value`` as a Typst expression that evaluates to it (Jinja's ``finalize``)."""
    if isinstance(value, Code):
        return str(value)
    if value is None or isinstance(value, jinja2.Undefined):
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"not a finite number: {value}")
        return repr(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, Mapping):
        items = ", ".join(f"{string(str(k))}: {literal(v)}" for k, v in value.items())
        return f"({items or ':'})"
    if isinstance(value, (list, tuple)):
        return "(" + "".join(f"{literal(item)}, " for item in value) + ")"
    raise TypeError(f"no Typst literal for a {type(value).__name__}")


def typst_environment(project: Any, trusted: bool = False) -> jinja2.Environment:
    """The book's template environment with :func:`literal` on every ``{{ … }}``."""
    return environment(project, finalize=literal, trusted=trusted)
