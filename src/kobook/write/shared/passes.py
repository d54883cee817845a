"""Passes that prepare the transformed AST for a particular output.

They are the writer's side of the pipeline (like mdBook's renderer-specific
preprocessing): numbering text the reader sees, footnotes as the PDF needs
them, math as SVG, links between HTML pages.  Each is a small function over a
list of blocks.
"""

from __future__ import annotations

import html
import itertools
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from ...cache import Cache
from ...korean.hangul import has_hangul
from ...model import Config
from ...parse.ast import attr, iter_nodes, keyval, raw_block, raw_inline, stringify, walk
from .mathsvg import MathError, img_tag, render_math

Blocks = list[dict[str, Any]]

# U+2028/U+2029: WeasyPrint fails on a U+2029 beside a space (AssertionError) and
# XeLaTeX has no glyph for either.  The build's KO014 fix replaces them in prose;
# with ``normalize: false``, or in code and titles, the print writers still must
# not pass them on, so the finished HTML/LaTeX gets a space for each.
SEPARATOR_SPACES = str.maketrans({"\u2028": " ", "\u2029": " "})


def without_separators(text: str) -> str:
    """``text`` with every line/paragraph separator (U+2028, U+2029) as a space."""
    return text.translate(SEPARATOR_SPACES) if ("\u2028" in text or "\u2029" in text) else text


CODE_ALIASES = {
    "cuda": "cpp",
    "cu": "cpp",
    "c++": "cpp",
    "sh": "bash",
    "shell": "bash",
    "zsh": "bash",
    "console": "bash",
    "py": "python",
    "python3": "python",
    "yml": "yaml",
}


def heading_numbers(blocks: Blocks, config: Config) -> Blocks:
    """Put the numbers the transforms assigned into the heading text (``3장``, ``3.1``)."""
    words = config.words

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Header":
            return None
        level, attrs, inlines = node["c"]
        number = keyval(attrs, "number")
        if not number:
            return None
        if level == 1:
            label = {
                "t": "Span",
                "c": [
                    attr("", ["chapter-number"]),
                    [{"t": "Str", "c": words.label("chapter", number)}],
                ],
            }
        else:
            label = {"t": "Span", "c": [attr("", ["section-number"]), [{"t": "Str", "c": number}]]}
        return {"t": "Header", "c": [level, attrs, [label, {"t": "Space"}, *inlines]]}

    return walk(blocks, action)


def equation_numbers(blocks: Blocks) -> Blocks:
    """``Div.equation`` gets its ``(3.1)`` beside the formula."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "equation" not in node["c"][0][1]:
            return None
        number = keyval(node["c"][0], "number") or ""
        tag = {"t": "Span", "c": [attr("", ["eqno"]), [{"t": "Str", "c": f"({number})"}]]}
        inner = node["c"][1]
        if inner and inner[0]["t"] == "Para":
            inner = [{"t": "Para", "c": [*inner[0]["c"], tag]}, *inner[1:]]
        return {"t": "Div", "c": [node["c"][0], inner]}

    return walk(blocks, action)


def upright_hangul(blocks: Blocks) -> Blocks:
    """Hangul inside emphasis is never slanted: mark it so the CSS sets it upright in sans."""

    def mark(node: dict[str, Any]) -> Any:
        """Inside emphasis: every Hangul word, however deeply nested (bold, links)."""
        if node["t"] == "Str" and has_hangul(node["c"]):
            return {"t": "Span", "c": [attr("", ["hangul"]), [node]]}
        if node["t"] == "Span" and "hangul" in node["c"][0][1]:
            return node
        return None

    def action(node: dict[str, Any]) -> Any:
        if node["t"] == "Emph":
            return {"t": "Emph", "c": walk(node["c"], mark)}
        return None

    return walk(blocks, action)


def code_languages(blocks: Blocks) -> Blocks:
    """Map language names pandoc's highlighter lacks (``cuda``) to close ones (``cpp``)."""
    for node in iter_nodes(blocks):
        if node["t"] == "CodeBlock":
            classes = node["c"][0][1]
            for name in list(classes):
                alias = CODE_ALIASES.get(name.lower())
                if alias and alias not in classes:
                    classes.insert(0, alias)
    return blocks


def footnotes_inline(blocks: Blocks) -> Blocks:
    """``Note`` → ``Span.footnote`` holding its text, for CSS ``float: footnote``."""

    def flatten(note_blocks: Blocks) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for index, block in enumerate(note_blocks):
            if index:
                out.append({"t": "LineBreak"})
            if block["t"] in ("Para", "Plain"):
                out += block["c"]
            elif block["t"] == "CodeBlock":
                out.append({"t": "Code", "c": [attr(), block["c"][1]]})
            elif block["t"] in ("BulletList", "OrderedList"):
                items = block["c"] if block["t"] == "BulletList" else block["c"][1]
                for number, item in enumerate(items, 1):
                    bullet = "•" if block["t"] == "BulletList" else f"{number}."
                    if number > 1:
                        out.append({"t": "LineBreak"})
                    out += [{"t": "Str", "c": bullet}, {"t": "Space"}, *flatten(item)]
        return out

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Note":
            return None
        return {"t": "Span", "c": [attr("", ["footnote"]), walk(flatten(node["c"]), action)]}

    return walk(blocks, action)


def math_as_svg(
    blocks: Blocks,
    cache: Cache | None,
    on_error: Callable[[str, str], None],
    font: str | None = None,
) -> Blocks:
    """``Math`` → ``<img>`` of an SVG drawn by ziamath (WeasyPrint has no MathML), with the
    math font file ``font`` (None: the default, ``mathsvg.math_font``).

    An expression ziamath cannot draw is reported through ``on_error`` and shown
    as its TeX source in code style (never silently dropped).
    """

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Math":
            return None
        display = node["c"][0]["t"] == "DisplayMath"
        tex = node["c"][1]
        try:
            image = render_math(tex, display, cache, font)
        except MathError as exc:
            on_error(tex, str(exc))
            return {"t": "Code", "c": [attr("", ["math-error"]), tex.strip()]}
        return raw_inline("html", img_tag(image, tex, display))

    return walk(blocks, action)


def rewrite_links(blocks: Blocks, page_of: dict[str, str], current: str) -> Blocks:
    """``#id`` → ``other-chapter.html#id`` when the id lives on another page."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Link":
            return None
        url = node["c"][2][0]
        if url.startswith("#"):
            page = page_of.get(url[1:])
            if page and page != current:
                node["c"][2][0] = f"{page}{url}"
        return None

    return walk(blocks, action)


# Emoji: pictographs, dingbats, flags and keycaps, with their joiners and selectors.
EMOJI = re.compile(
    "(?:[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u2300-\u23ff\u2190-\u21ff"
    "\u2100-\u214f\u3030\u303d\u3297\u3299\u00a9\u00ae\u203c\u2049]"
    "[\ufe0f\u200d\U0001f3fb-\U0001f3ff\u20e3]*)+"
)
EMOJI_SPLIT = re.compile(f"({EMOJI.pattern})")


def is_emoji_run(text: str) -> bool:
    """True for runs the emoji font should draw (not arrows/℃ etc. text fonts have)."""
    return any(ord(c) >= 0x1F000 or c in "\ufe0f\u200d" or 0x2600 <= ord(c) <= 0x27BF for c in text)


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

    return walk(blocks, split)


def details_html(blocks: Blocks) -> Blocks:
    """``Div.callout-details`` → ``<details class="details"><summary>…</summary>…</details>``.

    Runs after the sanitizer: these tags are kobook's own.  The PDF engines keep
    the callout box (always open: the answers stay readable in print).
    """

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "callout-details" not in node["c"][0][1]:
            return None
        ident = node["c"][0][0]
        body = node["c"][1]
        title: list[dict[str, Any]] = []
        if body and body[0]["t"] == "Div" and "callout-title" in body[0]["c"][0][1]:
            title = [i for b in body[0]["c"][1] for i in b.get("c", [])]
            body = body[1:]
        id_attr = f' id="{html.escape(ident, quote=True)}"' if ident else ""
        return [
            raw_block("html", f'<details class="details"{id_attr}>'),
            raw_block("html", "<summary>"),
            {"t": "Plain", "c": title},
            raw_block("html", "</summary>"),
            *walk(body, action),
            raw_block("html", "</details>"),
        ]

    return walk(blocks, action)


# An embedded page runs its scripts in an opaque origin: no allow-same-origin, so it
# cannot read the site's storage or reach into the page that frames it.
EMBED_SANDBOX = "allow-scripts"


def embeds_html(blocks: Blocks) -> Blocks:
    """``Div.embed[src]`` → the page in a sandboxed ``<iframe>`` (its copy in the site).

    The caption of its static figure, if any, stays under the frame, so the
    figure numbers are the same as in the PDF.  Runs after the sanitizer.
    """

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "embed" not in node["c"][0][1]:
            return None
        src = keyval(node["c"][0], "src")
        if not src:
            return None
        ident = node["c"][0][0]
        figure = next((b for b in node["c"][1] if b["t"] == "Figure"), None)
        caption = figure["c"][1][1] if figure is not None else []
        ident = ident or (figure["c"][0][0] if figure is not None else "")
        title = keyval(node["c"][0], "title") or stringify(caption) or src
        id_attr = f' id="{html.escape(ident, quote=True)}"' if ident else ""
        frame = (
            f'<iframe class="embed-frame" src="{html.escape(src, quote=True)}" '
            f'sandbox="{EMBED_SANDBOX}" loading="lazy" referrerpolicy="no-referrer" '
            f'title="{html.escape(title, quote=True)}"></iframe>'
        )
        out = [raw_block("html", f'<figure class="embed"{id_attr}>'), raw_block("html", frame)]
        if caption:
            out += [raw_block("html", "<figcaption>"), *caption, raw_block("html", "</figcaption>")]
        return [*out, raw_block("html", "</figure>")]

    return walk(blocks, action)


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


# --- Code blocks: wrap long lines at token boundaries, with a continuation mark -------------

CONTINUATION = "\u21aa"  # ↪, drawn at the start of a continuation line, inside the box
# A line may break after these (and at a space); never inside a name or number.
BREAK_AFTER_CODE = frozenset(",.;([{=+-*/%&|<>:")
# Marks that may also start a token (a flag, a negative number, ``*args``): a break after
# them only where they stand between two operands.
SIGNS = frozenset("+-*")


def code_width(text: str) -> int:
    """Columns ``text`` takes in a monospace font: wide (Hangul, CJK) characters count 2."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def code_break(text: str, end: int) -> bool:
    """Whether a code line may break before ``text[end]``: at a space, after ``,`` ``(`` etc.

    Not where a Korean word meets a bracket or Latin text (:func:`glued`), not
    inside a run of marks (``--``, ``->``, ``==``, ``**``) and not after a sign
    that starts a token (``--nproc_per_node``, ``-1``, ``*args``): those belong to
    the word after them; nor inside a number (``1.0e-4``).
    """
    if not text[:end].strip():
        return False
    char = text[end - 1]
    following = text[end : end + 1]
    if following == " " or char == " ":
        return True
    if glued(char, following):
        return False  # a Korean word in a comment keeps its bracket: 값(브로드캐스트)
    if char not in BREAK_AFTER_CODE or following in BREAK_AFTER_CODE:
        return False
    before = text[end - 2 : end - 1]
    if char == "." and following.isdigit():
        return False  # 1.0e-4
    if char in SIGNS:
        return before.isalnum() or before in ("_", ")", "]", "}", "'", '"')
    return True


def wrap_code_line(line: str, columns: int) -> list[str]:
    """``line`` cut into pieces of at most ``columns`` columns at token boundaries.

    Breaks fall at a space or after ``,`` ``.`` ``(`` and operators, never inside a
    name; continuation pieces carry the line's indent, two more spaces and ``↪ ``.
    Only a token longer than a whole line is cut inside.  Joining the pieces
    without their continuation prefixes gives the line back (spaces at a break
    stay at the end of the piece before it).
    """
    if columns < 12 or code_width(line) <= columns:
        return [line]
    indent = line[: len(line) - len(line.lstrip(" "))]
    prefix = indent + "  " + CONTINUATION + " "
    pieces: list[str] = []
    rest = line
    room = columns
    while code_width(rest) > room:
        cut = 0
        used = 0
        for index, char in enumerate(rest):
            used += code_width(char)
            if used > room:
                break
            end = index + 1
            if code_break(rest, end):
                cut = end
        if cut == 0 or (not pieces and cut <= len(indent)):
            cut = max(1, index)  # one token longer than a line: cut it
        while cut < len(rest) and rest[cut] == " ":
            cut += 1
        pieces.append(rest[:cut])
        rest = rest[cut:]
        room = columns - code_width(prefix)
    pieces.append(rest)
    return [pieces[0]] + [prefix + piece for piece in pieces[1:]]


def unwrap_code_lines(lines: list[str]) -> list[str]:
    """The source lines back from wrapped ones (the inverse of :func:`wrap_code_line`)."""
    out: list[str] = []
    for line in lines:
        stripped = line.lstrip(" ")
        if out and stripped.startswith(CONTINUATION + " "):
            out[-1] += stripped[2:]
        else:
            out.append(line)
    return out


def wrap_code(blocks: Blocks, columns: int) -> Blocks:
    """Every code block's long lines wrapped to ``columns`` (see :func:`wrap_code_line`).

    The writer knows the box's width in characters from the page geometry and
    the code font size; the rule is the same for every engine.  Changes
    ``blocks`` in place and returns them.
    """
    for node in iter_nodes(blocks):
        if node["t"] == "CodeBlock":
            text = node["c"][1]
            lines = [p for line in text.split("\n") for p in wrap_code_line(line, columns)]
            node["c"][1] = "\n".join(lines)
    return blocks


def boxed_callouts(
    blocks: Blocks, box: Callable[[str, list[dict[str, Any]]], list[dict[str, Any]]]
) -> Blocks:
    """``Div.callout`` (its kind from ``callout-<kind>``, ``note`` by default) → ``box(kind,
    blocks)``: the engine's box around a bold title line (the callout's ``callout-title``
    div) and the callout's own blocks, inner callouts first."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "callout" not in node["c"][0][1]:
            return None
        kind = next(
            (c.removeprefix("callout-") for c in node["c"][0][1] if c.startswith("callout-")),
            "note",
        )
        body = node["c"][1]
        title: list[dict[str, Any]] = []
        if body and body[0]["t"] == "Div" and "callout-title" in body[0]["c"][0][1]:
            title = [i for b in body[0]["c"][1] for i in b.get("c", [])]
            body = body[1:]
        heading = [{"t": "Para", "c": [{"t": "Strong", "c": title}]}] if title else []
        return box(kind, [*heading, *walk(body, action)])

    return walk(blocks, action)


def image_alts(blocks: Blocks, fallback: str) -> Blocks:
    """Every image gets a text alternative: its own, else its figure's caption, else
    ``fallback`` (the book's word for an image): the site and the EPUB.

    An alt text that was a file name (``![image.png](…)``) is gone by now
    (``transform/figures.py``, FIG002); without this pandoc writes ``<img>`` with no
    ``alt``, and a screen reader reads the file's path instead.
    """
    for node in iter_nodes(blocks):  # pre-order: a figure before the images in it
        if node["t"] == "Figure":
            caption = " ".join(stringify(node["c"][1][1]).split())
            for inner in iter_nodes(node["c"][2]):
                if inner["t"] == "Image" and not stringify(inner["c"][1]).strip():
                    inner["c"][1] = [{"t": "Str", "c": caption or fallback}]
        elif node["t"] == "Image" and not stringify(node["c"][1]).strip():
            node["c"][1] = [{"t": "Str", "c": fallback}]
    return blocks


def mathml_tex(blocks: Blocks) -> Blocks:
    """Math in the TeX texmath reads for MathML (``\\textcolor``, size switches: see
    ``for_mathml``): the site and the EPUB."""
    from ...transform.math_macros import for_mathml

    for node in iter_nodes(blocks):
        if node["t"] == "Math":
            node["c"][1] = for_mathml(node["c"][1])
    return blocks
