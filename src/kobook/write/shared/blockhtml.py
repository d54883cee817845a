"""pandoc's HTML of a chapter, block by block, for a process that writes it again and again.

``kobook preview`` writes the edited chapter's page (and its PDF's HTML) on
every save, and pandoc's HTML writer took a fifth of such a rebuild for a
long chapter — to write again the hundred blocks the save did not touch.
pandoc writes a list of blocks as each block's HTML, one per line, with two
exceptions that carry state from block to block: code blocks without an id
are counted (a highlighted one gets the id ``cbN``; one pandoc cannot
highlight gets none, but is counted all the same), and footnotes are
numbered and gathered at the end.  So :class:`BlockHtml` keeps each block's
HTML under its content and, for a block with id-less code blocks, the count
before it; it writes only the blocks it has not met (in one pandoc run,
each after as many empty code blocks as bring pandoc's count to the block's
own, separated by markers), and joins the pieces.  A chapter with footnotes
is written whole.  The result is pandoc's own output, byte for byte (the
tests compare both on every corpus book).
"""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Callable
from typing import Any

from ...parse.ast import iter_nodes

MARKER = "<!--kobook-block-break-->"
PADDING = "<!--kobook-block-start-->"  # after the empty code blocks that set pandoc's count
LIMIT = 50_000  # pieces kept (a block's HTML: a few hundred bytes)

Writer = Callable[[list[Any]], str]


def has_notes(blocks: list[Any]) -> bool:
    return any(node["t"] == "Note" for node in iter_nodes(blocks))


def unnamed_code(block: Any) -> int:
    """How many code blocks without an id the block holds (pandoc counts them)."""
    return sum(1 for n in iter_nodes([block]) if n["t"] == "CodeBlock" and not n["c"][0][0])


def key_of(block: Any, counted: int | None) -> bytes:
    """A block's key: its content, and the count of code blocks before it when it has
    some of its own (their ids depend on it)."""
    data = marshal.dumps((block, counted))
    return hashlib.blake2b(data, digest_size=16).digest()


EMPTY_CODE = {"t": "CodeBlock", "c": [["", [], []], ""]}
PADDED = {"t": "RawBlock", "c": ["html", PADDING]}
BREAK = {"t": "RawBlock", "c": ["html", MARKER]}


def batch_of(blocks: list[tuple[Any, int]]) -> list[Any]:
    """The blocks to write in one run, each at its count: ``(block, count before it)``,
    in page order (so the counts never go down)."""
    out: list[Any] = []
    counted = 0
    for block, before in blocks:
        own = unnamed_code(block)
        if own:  # only a block with code blocks of its own needs pandoc's count right
            out += [EMPTY_CODE] * (before - counted)
            counted = before + own
        out += [PADDED, block, BREAK]
    return out


def split_pieces(html: str, count: int) -> list[str] | None:
    """Each block's HTML out of the batch's (None when the markers are not where they
    should be: a block's own HTML held one, and the caller writes the chapter whole)."""
    parts = html.split(MARKER)
    if len(parts) != count + 1 or parts[-1].strip("\n"):
        return None
    pieces = []
    for part in parts[:-1]:
        _padding, found, piece = part.partition(PADDING)
        if not found or PADDING in piece:
            return None
        pieces.append(piece.removeprefix("\n").removesuffix("\n"))
    return pieces


class BlockHtml:
    """The HTML of blocks met before, kept; what a list of blocks is written as.

    Safe to share between threads (the preview writes two pages at once): at
    worst two of them write the same new block.
    """

    def __init__(self, write: Writer) -> None:
        self._write = write  # blocks → pandoc's HTML (common.blocks_to_html, with its args)
        self._kept: dict[bytes, str] = {}

    def html(self, blocks: list[Any]) -> str:
        """pandoc's HTML of ``blocks`` (as ``write(blocks)`` gives it)."""
        raw = (str(b["c"]) for b in blocks if b["t"] == "RawBlock")
        if has_notes(blocks) or any(MARKER in text or PADDING in text for text in raw):
            return self._write(blocks)
        keys: list[bytes] = []
        wanted: dict[bytes, tuple[Any, int]] = {}
        found: dict[bytes, str] = {}
        counted = 0
        for block in blocks:
            own = unnamed_code(block)
            key = key_of(block, counted if own else None)
            keys.append(key)
            piece = self._kept.get(key)  # .get: another thread may clear them meanwhile
            if piece is not None:
                found[key] = piece
            elif key not in wanted:
                wanted[key] = (block, counted)
            counted += own
        if wanted:
            pieces = split_pieces(self._write(batch_of(list(wanted.values()))), len(wanted))
            if pieces is None:
                return self._write(blocks)
            new = dict(zip(wanted, pieces, strict=True))
            found.update(new)
            if len(self._kept) + len(new) > LIMIT:
                self._kept.clear()
            self._kept.update(new)
        text = "\n".join(piece for piece in (found[k] for k in keys) if piece)
        return text + "\n"
