"""Inline HTML of captions and footnotes as Markdown.

A figure caption is an attribute of a Liquid tag, so Jekyll sites write its
emphasis and links in HTML (``<b>Figure:</b> see <a href="tpus">Section
2</a>``).  In ``![caption](…)`` that HTML would be raw HTML the PDF drops, so
the common inline elements become Markdown; math (``$…$``) is left alone.
"""

from __future__ import annotations

import html
import re

from ...source.inline import math_span

ATTR = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")
PAIRED = re.compile(
    r"<(?P<tag>b|strong|i|em|it|code|sub|sup|a|span|u|s|del)\b(?P<attrs>[^<>]*)>"
    r"(?P<body>(?:(?!<(?P=tag)\b).)*?)</(?P=tag)\s*>",
    re.S | re.I,
)
BREAK = re.compile(r"<br\s*/?>", re.I)
LABEL = re.compile(
    r"^\s*(?:\*\*|__)?\s*(?:Figure|Fig\.|그림)\s*(?:\d+(?:\.\d+)*)?\s*"
    r"(?:[:.]\s*(?:\*\*|__)?|(?:\*\*|__)\s*[:.])\s*",
    re.I,
)
MARKS = {"b": "**", "strong": "**", "i": "*", "em": "*", "it": "*", "s": "~~", "del": "~~"}


def attributes(text: str) -> dict[str, str]:
    """``href="x" class='y'`` → ``{"href": "x", "class": "y"}``."""
    return {
        m.group(1).lower(): next(g for g in m.groups()[1:] if g is not None)
        for m in ATTR.finditer(text)
    }


def html_to_markdown(text: str) -> str:
    """Common inline HTML elements outside math as Markdown (see module doc)."""
    pieces = []
    done = 0
    index = text.find("$")
    while index >= 0:
        end = math_span(text, index, len(text))
        if end is None:
            index = text.find("$", index + 1)
            continue
        pieces.append(convert_prose(text[done:index]))
        pieces.append(text[index:end])
        done = end
        index = text.find("$", end)
    pieces.append(convert_prose(text[done:]))
    return "".join(pieces)


def convert_prose(text: str) -> str:
    """One stretch of text without math: innermost elements first, until none is left."""
    text = BREAK.sub(" ", text)
    for _ in range(8):
        new = PAIRED.sub(element, text)
        if new == text:
            break
        text = new
    return text


def element(match: re.Match[str]) -> str:
    tag = match.group("tag").lower()
    body = match.group("body")
    if tag in MARKS:
        mark = MARKS[tag]
        inner = body.strip()
        if not inner:
            return body
        lead = body[: len(body) - len(body.lstrip())]
        trail = body[len(body.rstrip()) :]
        return f"{lead}{mark}{inner}{mark}{trail}"
    if tag == "code":
        inner = html.unescape(body)
        ticks = "``" if "`" in inner else "`"
        return f"{ticks}{inner}{ticks}"
    if tag in ("sub", "sup"):
        mark = "~" if tag == "sub" else "^"
        inner = body.strip().replace(" ", "\\ ")
        return f"{mark}{inner}{mark}" if inner else ""
    if tag == "a":
        href = attributes(match.group("attrs")).get("href")
        if not href:
            return body
        return f"[{body}]({html.unescape(href).replace(' ', '%20')})"
    return body  # span, u: their text


def strip_label(caption: str) -> str:
    """Without a leading ``Figure:`` / ``**Figure 3:**`` / ``그림:`` (kobook numbers figures)."""
    stripped = LABEL.sub("", caption, count=1)
    return stripped[:1].upper() + stripped[1:] if stripped and stripped[0].isascii() else stripped
