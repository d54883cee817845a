"""Code blocks: Rust info strings and hidden lines, file names, the Rust book's ``<Listing>``.

- ```` ```rust,ignore,does_not_compile ```` → ```` ```rust ````: pandoc takes the
  info string's first word as the class, mdBook's flags mean nothing in print;
- in a ``rust`` block, rustdoc's hidden lines (``# …`` or a lone ``#``) are
  dropped and ``##`` at a line's start is rustdoc's escape for ``#``;
- ``<span class="filename">Filename: src/main.rs</span>`` right before a code
  block → ``filename="src/main.rs"`` on that block, the span line removed;
- ``<Listing number="1-1" file-name="src/main.rs" caption="…">`` … ``</Listing>``
  (the Rust book's ``trpl-listing`` preprocessor) → ``listing="1-1"``,
  ``caption`` (Markdown, as written) and ``filename`` on the code block inside,
  the wrapper lines removed.  An unclosed ``<Listing>`` is DIA209, one
  without a code block DIA210.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from ...errors import Location
from ...model.origins import Lines, Origin
from ...source.fences import Fence, fence_line, language, opening
from .. import Report

# The tag may sit in a block quote; a quoted value may hold ">" (``Option<i32>``).
LISTING_OPEN = re.compile(r"""^\s*(?:>\s*)*<Listing\b(?P<attrs>(?:"[^"]*"|'[^']*'|[^'">])*)>\s*$""")
LISTING_CLOSE = re.compile(r"^\s*(?:>\s*)*</Listing>\s*$")
ATTR = re.compile(r"""(?P<key>[\w-]+)\s*=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)')""")
FILENAME_SPAN = re.compile(
    r"^\s*<span\s+class=\"filename\">(?P<text>[^<]*)</span>\s*$", re.IGNORECASE
)
RUST = {"rust", "rs"}


@dataclass
class Listing:
    attrs: dict[str, str]
    origin: Origin
    used: bool = False


@dataclass
class State:
    out: list[tuple[str, Origin]] = field(default_factory=list)
    listings: list[Listing] = field(default_factory=list)
    filename: str = ""


def html_attrs(text: str) -> dict[str, str]:
    """``key="value"`` pairs of an HTML tag, entities decoded."""
    return {
        m.group("key").lower(): html.unescape(
            m.group("dq") if m.group("dq") is not None else m.group("sq")
        )
        for m in ATTR.finditer(text)
    }


def span_file_name(text: str) -> str:
    """``파일명: src/main.rs`` / ``Filename: src/main.rs`` → ``src/main.rs``."""
    text = html.unescape(text).strip()
    for colon in (":", "："):
        if colon in text:
            return text.split(colon, 1)[1].strip()
    return text


def listing_attrs(listing: Listing) -> dict[str, str]:
    """The code block attributes a ``<Listing>`` gives, in the intermediate Markdown's names."""
    found: dict[str, str] = {}
    for source, target in (
        ("number", "listing"),
        ("caption", "caption"),
        ("file-name", "filename"),
    ):
        value = listing.attrs.get(source, "").strip()
        if value:
            found[target] = value
    return found


def hidden(line: str) -> bool:
    """rustdoc hides ``# …`` lines and lone ``#`` lines (leading spaces allowed)."""
    stripped = line.strip()
    return stripped == "#" or stripped.startswith(("# ", "#\t"))


def unescape_rustdoc(line: str) -> str:
    """``##`` at a line's start (after indentation) is rustdoc's escape for ``#``."""
    stripped = line.lstrip()
    if stripped.startswith("##"):
        return line[: len(line) - len(stripped)] + stripped[1:]
    return line


def next_text(lines: list[str], index: int) -> int:
    """Index of the first non-blank line at or after ``index`` (len(lines) if none)."""
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index


def convert_code(lines: Lines, report: Report) -> Lines:
    """Code blocks as pandoc reads them, with the listing and file-name attributes."""
    texts = lines.text.split("\n")
    state = State()
    index = 0
    while index < len(texts):
        text, origin = texts[index], lines.origins[index]
        fence = opening(text)
        if fence is not None:
            index = code_block(texts, lines.origins, index, fence, state, report)
            continue
        index += 1
        span = FILENAME_SPAN.match(text)
        if span is not None:
            after = next_text(texts, index)
            if after < len(texts) and opening(texts[after]) is not None:
                state.filename = span_file_name(span.group("text"))
                report.count("filename")
                continue  # the span line goes; the next code block shows the name
        opened = LISTING_OPEN.match(text)
        if opened is not None:
            state.listings.append(Listing(html_attrs(opened.group("attrs")), origin))
            continue
        if LISTING_CLOSE.match(text) and state.listings:
            listing = state.listings.pop()
            if not listing.used:
                report.cannot(
                    "DIA210",
                    "<Listing> without a code block: its number and caption are not shown",
                    Location(*listing.origin),
                    "put the listing's code in a fenced code block inside <Listing>",
                )
            continue
        state.out.append((text, origin))
    for listing in state.listings:
        report.cannot(
            "DIA209",
            "<Listing> is never closed",
            Location(*listing.origin),
            "add </Listing> after the listing's code block",
        )
    if not state.out:
        return Lines("", lines.origins[:1])
    return Lines("\n".join(t for t, _ in state.out), tuple(o for _, o in state.out))


def code_block(
    texts: list[str],
    origins: tuple[Origin, ...],
    index: int,
    fence: Fence,
    state: State,
    report: Report,
) -> int:
    """Copy one code block into ``state.out``; return the index after its closing fence."""
    lang = language(fence.info)
    attrs: dict[str, str] = {}
    if state.filename:
        attrs["filename"] = state.filename
        state.filename = ""
    open_listing = next((item for item in reversed(state.listings) if not item.used), None)
    if open_listing is not None:
        open_listing.used = True
        attrs.update(listing_attrs(open_listing))
        report.count("listing")
    if not attrs and (fence.info.startswith("{") or lang == fence.info):
        head = texts[index]  # pandoc attributes already, or nothing to change
    else:
        head = fence_line(fence, lang, attrs)
    if lang != fence.info and not fence.info.startswith("{"):
        report.count("code-info")  # mdBook's flags (ignore, should_panic, ...) dropped
    state.out.append((head, origins[index]))
    index += 1
    rust = lang.lower() in RUST
    dropped = 0
    while index < len(texts):
        text = texts[index]
        if fence.closes(text):
            state.out.append((text, origins[index]))
            index += 1
            break
        body = text[len(fence.prefix) :] if text.startswith(fence.prefix) else text
        if rust and hidden(body):
            dropped += 1
        else:
            state.out.append((unescape_rustdoc(text) if rust else text, origins[index]))
        index += 1
    if dropped:
        report.count("rust-hidden-line", dropped)
    return index
