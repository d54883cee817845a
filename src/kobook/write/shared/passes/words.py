"""Where a line may break: Korean words kept whole (어절), their particles glued to what
they follow, emoji for the emoji font, Hangul upright in emphasis, and the junctions a
browser would break anyway."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from ....korean.hangul import has_hangul
from ....parse.ast import acts_on, attr, iter_nodes, rewrite, stringify, walk
from ..fontcoverage import covers
from ..fonts import emoji_families
from .base import Blocks


def upright_hangul(blocks: Blocks) -> Blocks:
    """Hangul inside emphasis is never slanted: mark it so the CSS sets it upright in sans."""
    return rewrite(blocks, upright_emphasis)


def upright_hangul_mark(node: dict[str, Any]) -> Any:
    """Inside emphasis: every Hangul word, however deeply nested (bold, links)."""
    if node["t"] == "Str" and has_hangul(node["c"]):
        return {"t": "Span", "c": [attr("", ["hangul"]), [node]]}
    if node["t"] == "Span" and "hangul" in node["c"][0][1]:
        return node
    return None


@acts_on("Emph")
def upright_emphasis(node: dict[str, Any]) -> Any:
    """:func:`upright_hangul` as one action: an emphasis with its Hangul marked, or None."""
    if node["t"] == "Emph":
        return {"t": "Emph", "c": walk(node["c"], upright_hangul_mark)}
    return None


# Emoji: pictographs, dingbats, flags and keycaps, with their joiners and selectors.
EMOJI = re.compile(
    "(?:[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u2300-\u23ff\u2190-\u21ff"
    "\u2100-\u214f\u3030\u303d\u3297\u3299\u00a9\u00ae\u203c\u2049]"
    "[\ufe0f\u200d\U0001f3fb-\U0001f3ff\u20e3]*)+"
)
EMOJI_SPLIT = re.compile(f"({EMOJI.pattern})")


def is_emoji_run(text: str) -> bool:
    """True for runs the emoji font should draw (not arrows/℃ etc. text fonts have).

    Of the symbols and dingbats (U+2600–27BF), only those the colour emoji font
    draws: ☀ and ✅ are emoji, the ballot boxes ☐ ☒ of a task list are text.
    """
    if any(ord(c) >= 0x1F000 or c in "\ufe0f\u200d" for c in text):
        return True
    symbols = [c for c in text if 0x2600 <= ord(c) <= 0x27BF]
    if not symbols:
        return False
    families = emoji_families()
    return not families or any(covers(families[0], c) for c in symbols)


def emoji(blocks: Blocks) -> Blocks:
    """Wrap emoji in ``Span.emoji`` so the writer can give them the emoji font."""

    def split(node: dict[str, Any]) -> Any:
        if node["t"] != "Str" or not EMOJI.search(node["c"]):
            return None
        out = []
        for index, part in enumerate(EMOJI_SPLIT.split(node["c"])):
            if not part:
                continue
            if index % 2 and is_emoji_run(part):
                out.append({"t": "Span", "c": [attr("", ["emoji"]), [{"t": "Str", "c": part}]]})
            else:
                out.append({"t": "Str", "c": part})
        return out

    return rewrite(blocks, split)


# --- Keeping a word together where scripts meet (GPU가, (row)을, 모델(LLM)의) ----------

# Inline nodes whose content is a list of inlines (Emph: c; Span, Link, Cite: c[1]).
WRAPPERS = frozenset(
    ("Emph", "Underline", "Strong", "Strikeout", "Superscript", "Subscript", "SmallCaps")
)
INLINE_TYPES = WRAPPERS | {
    *("Str", "Quoted", "Cite", "Code", "Space", "SoftBreak", "LineBreak"),
    *("Math", "RawInline", "Link", "Image", "Note", "Span"),
}
# A break after a dash or slash inside a word is the writer's own ("A/B", "1—2").
BREAKS_AFTER = frozenset("-/\u2010\u2013\u2014")
QUOTE_MARKS = {"SingleQuote": ("\u2018", "\u2019"), "DoubleQuote": ("\u201c", "\u201d")}


def is_hangul_char(char: str) -> bool:
    """A Hangul syllable or jamo (the script whose words are kept whole)."""
    return (
        "\uac00" <= char <= "\ud7a3" or "\u1100" <= char <= "\u11ff" or "\u3130" <= char <= "\u318f"
    )


def glued(before: str, after: str) -> bool:
    """True when no line break may fall between these two touching characters.

    Korean keeps a word (어절) whole, particles and tails included: where
    Hangul meets a Latin letter, a digit, a bracket or punctuation with no space
    (``GPU가``, ``4로``, ``(row)을``, ``모델(LLM)의``, ``다.``), the line must not
    break.  Hangul beside Hangul is the line-breaking mode's business
    (``line-breaking: syllable`` allows it), and a dash or slash the writer
    typed may still end a line.
    """
    if not before or not after or before.isspace() or after.isspace():
        return False
    hangul_before, hangul_after = is_hangul_char(before), is_hangul_char(after)
    if hangul_before == hangul_after:
        return False
    return before not in BREAKS_AFTER and after not in BREAKS_AFTER


def edge_char(node: dict[str, Any], last: bool) -> str:
    """The first (or last) character a node prints; ``""``: a space, raw or unknown.

    Inline math counts as a Latin letter; a footnote mark as a digit.
    """
    kind = node["t"]
    if kind == "Str":
        return node["c"][-1 if last else 0] if node["c"] else ""
    if kind == "Code":
        text = node["c"][1]
        return text[-1 if last else 0] if text else ""
    if kind == "Math":
        return "x" if node["c"][0]["t"] == "InlineMath" else ""
    if kind == "Note":
        return "1"
    if kind == "Quoted":
        return QUOTE_MARKS.get(node["c"][0]["t"], ("", ""))[1 if last else 0]
    if kind in WRAPPERS:
        inlines = node["c"]
    elif kind in ("Span", "Link", "Cite"):
        inlines = node["c"][1]
    else:
        return ""  # Space, SoftBreak, LineBreak, RawInline, Image
    if not inlines:
        return ""
    return edge_char(inlines[-1 if last else 0], last)


def split_glued(text: str) -> list[str]:
    """``text`` cut at every glued junction: ``"모델(LLM)의"`` → ``["모델", "(LLM)", "의"]``."""
    pieces = []
    start = 0
    for index in range(1, len(text)):
        if glued(text[index - 1], text[index]):
            pieces.append(text[start:index])
            start = index
    pieces.append(text[start:])
    return pieces


def keep_glued(blocks: Blocks, mark: Callable[[], dict[str, Any]]) -> Blocks:
    """Put ``mark()`` (the engine's no-break, e.g. LaTeX ``\\nobreak{}``) at every glued junction.

    The rule (:func:`glued`) is shared; each engine renders the mark its way.
    Junctions are found inside ``Str`` text and between touching inline nodes
    (``\\`x\\`로``, ``$n$개``, ``[GPU](…)가``, ``**GPU**를``).  Code blocks, raw
    blocks and the text of code and math are never touched.  Korean books only:
    the caller decides.  Changes ``blocks`` in place and returns them.
    """

    def inlines_of(items: list[Any]) -> list[Any]:
        out: list[Any] = []
        for item in items:
            if out and glued(edge_char(out[-1], True), edge_char(item, False)):
                out.append(mark())
            pieces = split_glued(item["c"]) if item["t"] == "Str" else []
            if len(pieces) < 2:
                out.append(item)
                continue
            for index, piece in enumerate(pieces):
                if index:
                    out.append(mark())
                out.append({"t": "Str", "c": piece})
        return out

    return rewrite_inlines(blocks, inlines_of)


def rewrite_inlines(blocks: Blocks, rewrite: Callable[[list[Any]], list[Any]]) -> Blocks:
    """Replace every list of inlines (innermost first) by ``rewrite(list)``, in place.

    Code blocks and raw blocks are not entered; returns ``blocks``.
    """

    def visit(value: Any) -> None:
        if isinstance(value, list):
            inlines = value and all(
                isinstance(i, dict) and i.get("t") in INLINE_TYPES for i in value
            )
            for item in value:
                visit(item)
            if inlines:
                value[:] = rewrite(value)
        elif isinstance(value, dict) and value.get("t") not in ("CodeBlock", "RawBlock"):
            content = value.get("c")
            if isinstance(content, (list, dict)):
                visit(content)

    visit(blocks)
    return blocks


# --- The same words in a browser (HTML): ``word-break: keep-all`` keeps letters and digits
# together, not a bracket, quote or symbol with the Hangul beside it ----------------------

# Characters a browser will not break after (before Hangul): opening brackets and quotes,
# currency signs.
NOT_BROKEN_AFTER = frozenset(("Ps", "Pi", "Sc"))
# A word longer than this (characters) may still break: kept whole, it could overflow a
# phone's screen.
BROWSER_WORD_LIMIT = 30
NOBR = "nobr"  # the class of the span kept whole (``white-space: nowrap``)
SPACES = frozenset(("Space", "SoftBreak", "LineBreak"))


def browser_breaks(before: str, after: str) -> bool:
    """Is this glued junction one a browser breaks even with ``word-break: keep-all``?

    ``(LLM)의``, ``“인용”을``, ``100%를``, ``x²을`` (after a closing bracket,
    quote or symbol) and ``모델(``, ``계산“`` (before an opening one), found by
    laying such pairs out in Chromium: keep-all holds only letters and digits.
    """
    if not glued(before, after):
        return False
    if is_hangul_char(after):
        held = before.isalpha() or before.isdecimal()  # not ², ½, ①: Chromium breaks after them
        return not held and unicodedata.category(before) not in NOT_BROKEN_AFTER
    return unicodedata.category(after) in NOT_BROKEN_AFTER


def browser_junction(items: list[Any]) -> bool:
    """Does this run of touching inlines hold a junction :func:`browser_breaks`?"""
    previous = ""
    for item in items:
        first = edge_char(item, False)
        if previous and first and browser_breaks(previous, first):
            return True
        if item["t"] == "Str":
            text = item["c"]
            if any(browser_breaks(a, b) for a, b in itertools.pairwise(text)):
                return True
        previous = edge_char(item, True)
    return False


def keep_words_in_browsers(blocks: Blocks) -> Blocks:
    """Korean words a browser would break beside a bracket, quote or symbol, in one
    ``span.nobr`` each (``white-space: nowrap``): ``모델(LLM)의``, ``[GPU](…)의``.

    A word is a run of touching inlines between spaces; one with an image or raw
    HTML in it, or longer than :data:`BROWSER_WORD_LIMIT`, is left as it is.
    The PDF engines keep the same words their own way (:func:`keep_glued`, the
    WeasyPrint line breaker).  Changes ``blocks`` in place and returns them.
    """

    def kept(run: list[Any]) -> list[Any]:
        if len(run) == 1 and run[0]["t"] == "Str" and run[0]["c"].isalpha():
            return run  # most words: letters only, no junction to look for
        if len(stringify(run)) > BROWSER_WORD_LIMIT or any(
            n["t"] in ("Image", "RawInline") for n in iter_nodes(run)
        ):
            return run
        if not browser_junction(run):
            return run
        return [{"t": "Span", "c": [attr("", [NOBR]), run]}]

    def inlines_of(items: list[Any]) -> list[Any]:
        out: list[Any] = []
        run: list[Any] = []
        for item in items:
            if item["t"] in SPACES:
                out += kept(run)
                run = []
                out.append(item)
            else:
                run.append(item)
        return out + kept(run)

    return rewrite_inlines(blocks, inlines_of)


# --- Table cells: whole Latin words, no lone operator (ZeRO-/1, all-/reduce, "+") ----------

# A Latin word with a hyphen or slash in it (``all-reduce``, ``ZeRO-1``, ``fp16/bf16``),
# with the Korean particle that may follow it (``ZeRO-1과``).
CELL_WORD = re.compile(r"[A-Za-z0-9][\w.]*(?:[-/][\w.]+)+")
LONE_OPERATORS = frozenset(("+", "-", "\u2212", "\u00d7", "\u00b1", "=", "~"))


def table_cell_words(blocks: Blocks, keep: Callable[[list[Any]], list[Any]]) -> Blocks:
    """In table cells, keep hyphenated Latin words whole and a lone operator with its word.

    A narrow column otherwise breaks after the hyphen (``ZeRO-`` / ``1``) or leaves
    ``+`` alone on a line above ``그래디언트``.  ``keep(inlines)`` is the engine's
    way of saying "no break inside" (a nowrap span, an ``\\mbox``); a lone operator
    is joined to the next word by a no-break space, which every engine knows.
    Shared by the PDF writers; changes ``blocks`` in place and returns them.
    """

    def fix(inlines: list[Any]) -> list[Any]:
        out: list[Any] = []
        skip_space = False
        for index, item in enumerate(inlines):
            if skip_space and item["t"] == "Space":
                out.append({"t": "Str", "c": "\u00a0"})
                skip_space = False
                continue
            skip_space = False
            if item["t"] != "Str":
                out.append(item)
                continue
            text = item["c"]
            following = inlines[index + 1]["t"] if index + 1 < len(inlines) else ""
            if text in LONE_OPERATORS and following == "Space":
                out.append(item)
                skip_space = True
                continue
            if CELL_WORD.search(text):
                out += keep([item])
                continue
            out.append(item)
        return out

    def visit(value: Any, in_table: bool) -> None:
        if isinstance(value, list):
            if (
                in_table
                and value
                and all(isinstance(i, dict) and i.get("t") in INLINE_TYPES for i in value)
            ):
                for item in value:
                    visit(item, in_table)
                value[:] = fix(value)  # after the children: a new mark is not visited again
                return
            for item in value:
                visit(item, in_table)
        elif isinstance(value, dict) and value.get("t") not in ("CodeBlock", "RawBlock", "Code"):
            content = value.get("c")
            if isinstance(content, (list, dict)):
                visit(content, in_table or value.get("t") == "Table")

    visit(blocks, False)
    return blocks
