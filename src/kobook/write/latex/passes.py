"""The LaTeX writer's passes over the AST: what pandoc's LaTeX writer needs before it sees
the chapters (equations with their numbers, figures anchored where a box cannot float,
MathJax-only TeX made LaTeX's, callouts, fonts for scripts the main font lacks, spaces
between CJK characters, parts and chapter counters)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

from ...boundary import within
from ...cache import Cache
from ...errors import Diagnostic, Location
from ...model import Book, Doc
from ...parse.ast import (
    copy_tree,
    iter_nodes,
    keyval,
    raw_block,
    raw_inline,
    rewrite,
    rewrite_chain,
    stringify,
    walk,
)
from ..shared import passes
from ..shared.imagefiles import convert_image, emoji_image
from ..shared.layout import points
from ..shared.sanitize import sanitize_blocks
from ..shared.seams import name_pieces
from ..shared.setup import PrintSetup
from ..shared.tables import table_widths
from ..shared.workdir import Assets
from .fallback import fallback_fonts
from .screen import (
    Policy,
    screen_blocks,
)
from .values import CHAPTER_MARK, XECJK_LANGUAGES, latex_escape

Blocks = list[dict[str, Any]]


def equations(blocks: Blocks) -> Blocks:
    """``Div.equation`` → a numbered ``equation*`` with our number as ``\\tag``."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div" or "equation" not in node["c"][0][1]:
            return None
        ident = node["c"][0][0]
        number = keyval(node["c"][0], "number") or ""
        math = next((n for n in iter_nodes(node["c"][1]) if n["t"] == "Math"), None)
        if math is None:
            return None
        tex = math["c"][1].strip()
        label = f"\\label{{{ident}}}" if ident else ""
        return raw_block(
            "latex", f"\\begin{{equation*}}{label}\\tag{{{number}}}\n{tex}\n\\end{{equation*}}"
        )

    return rewrite(blocks, action)


# Where a LaTeX float cannot go ("Not in outer par mode"): boxes, footnotes, table
# cells; and in lists and quotes a float would drift away from its item.
NESTING = ("BulletList", "OrderedList", "DefinitionList", "BlockQuote", "Note", "Table")
BOX_CLASSES = ("column", "columns")


def is_box(node: dict[str, Any]) -> bool:
    """A Div the PDF draws as a box (a callout, details, a pandoc column)."""
    classes = node["c"][0][1]
    return any(c.startswith("callout") or c in BOX_CLASSES for c in classes)


def anchored_figures(blocks: Blocks) -> Blocks:
    """Figures inside callouts, details boxes, lists, quotes, footnotes and tables: ``[H]``.

    pandoc writes every figure as a float (``\\begin{figure}`` placed ``htbp``),
    and TeX cannot float out of a box or a footnote; nested figures stay where
    they are instead (``latex-placement=H``, the float package's "here").
    Top-level figures follow the template (``H`` in kobook's; a book's own
    template may let them float).  Must run before :func:`callouts` turns the
    boxes into raw LaTeX.
    """

    def visit(value: Any, nested: bool) -> None:
        if isinstance(value, list):
            for item in value:
                visit(item, nested)
            return
        if not isinstance(value, dict) or "t" not in value:
            return
        kind = value["t"]
        if kind == "Figure":
            keyvals = value["c"][0][2]
            if nested and not any(k == "latex-placement" for k, _ in keyvals):
                keyvals.append(["latex-placement", "H"])
            return  # subfigures are minipages of their figure, not floats
        inner = nested or kind in NESTING or (kind == "Div" and is_box(value))
        visit(value.get("c"), inner)

    visit(blocks, False)
    return blocks


# A row break followed by a "[" that is not a dimension: ``\\ [c_0, ...]`` in a matrix.
ROW_BRACKET = re.compile(
    r"(\\\\\*?)(?=\s*\[)(?!\s*\[\s*-?[\d.]+\s*(?:em|ex|pt|mm|cm|in|bp|pc|sp|mu|dd|cc)\s*\])"
)


BLANK_LINES = re.compile(r"\n\s*\n")


def mathjax_math(blocks: Blocks) -> Blocks:
    """Math written for MathJax, made LaTeX's: :func:`row_brackets`, :func:`text_in_math`,
    and no blank line (a paragraph end: "Missing $ inserted"), as the lines a
    removed ``\\def`` leaves (transform/math_macros.py)."""
    for node in iter_nodes(blocks):
        if node["t"] == "Math":
            tex = BLANK_LINES.sub("\n", node["c"][1])
            node["c"][1] = text_in_math(row_brackets(tex))
    return blocks


def row_brackets(tex: str) -> str:
    """``\\\\`` then ``[x]`` on the next row: the bracket is math, not a row skip.

    LaTeX's ``\\\\`` reads a following ``[`` as its optional space (``\\\\[0.5em]``),
    even on the next line, so ``\\\\`` + newline + ``[c_0, ...]`` fails with
    "Missing number"; MathJax only takes a dimension there.  A ``\\relax``
    after the ``\\\\`` keeps the bracket; ``\\\\[0.5em]`` stays as it is.
    """
    return ROW_BRACKET.sub(r"\1\\relax", tex)


def braced(text: str, start: int) -> int:
    """The index just after the ``{...}`` group opening at ``text[start]`` (-1: unbalanced)."""
    depth = 0
    index = start
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return -1


TEXT_IN_MATH = re.compile(r"\\(?:text(?:rm|bf|it|sf|tt|up|md|sl|normal)?|mbox)\s*(?=\{)")
BARE_SCRIPT = re.compile(r"(?<!\\)([_^])")


def text_in_math(tex: str) -> str:
    """``\\text{num_params}``: ``_`` and ``^`` in the text of a formula are letters.

    MathJax prints them as they are; in LaTeX's text mode they are an error
    ("Missing $ inserted").  Text inside ``$...$`` within the text stays math.
    """
    out: list[str] = []
    last = 0
    for match in TEXT_IN_MATH.finditer(tex):
        if match.start() < last:
            continue
        end = braced(tex, match.end())
        if end < 0:
            continue
        inner = tex[match.end() : end]
        pieces = re.split(r"(\$[^$]*\$)", inner)
        fixed = "".join(
            p
            if p.startswith("$")
            else BARE_SCRIPT.sub(lambda m: "\\_" if m.group(1) == "_" else "\\^{}", p)
            for p in pieces
        )
        out += [tex[last : match.end()], fixed]
        last = end
    return "".join(out) + tex[last:]


def callouts(blocks: Blocks) -> Blocks:
    """``Div.callout`` → the template's ``kocallout`` box with a bold title line."""

    def box(kind: str, content: Blocks) -> Blocks:
        return [
            raw_block("latex", f"\\begin{{kocallout}}[kocallout-{kind}]"),
            *content,
            raw_block("latex", "\\end{kocallout}"),
        ]

    return passes.boxed_callouts(blocks, box)


# kobook's own commands for the constructs dialects emit, and MathJax's own math
# commands (\gt, \lt, \bold, \Bbb) that sites use.  \provide...: a book's template
# that defines them first (templates/latex/book.latex) changes their look.
DEFINITIONS = r"""\providecolor{kocallout-takeaway}{HTML}{00796B}
\providecolor{kocallout-details}{HTML}{8A94A3}
\providecommand{\kolistingcaption}[1]{\par\noindent{\small\sffamily #1}\par\nopagebreak[4]}
\providecommand{\kolistingfile}[1]{\par\noindent{\footnotesize\sffamily\color{black!65}#1}\par\nopagebreak[4]}
\providecommand{\gt}{>}
\providecommand{\lt}{<}
\providecommand{\bold}[1]{\mathbf{#1}}
\providecommand{\Bbb}[1]{\mathbb{#1}}"""


def book_blocks(blocks: Blocks, italic_abstract: bool) -> Blocks:
    """Abstracts, listing captions and file names as LaTeX (see :data:`DEFINITIONS`).

    ``Div.abstract`` → an indented small-type quote (italic only where the
    language has italics: never Hangul or Han); a listing's caption and file
    name are kept on the page of the code that follows.
    """
    shape = "\\itshape" if italic_abstract else ""

    def wrap(command: str, node: dict[str, Any]) -> list[dict[str, Any]]:
        inlines = [i for b in node["c"][1] if b["t"] in ("Plain", "Para") for i in b["c"]]
        return [
            {
                "t": "Plain",
                "c": [raw_inline("latex", f"\\{command}{{"), *inlines, raw_inline("latex", "}")],
            }
        ]

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Div":
            return None
        classes = node["c"][0][1]
        if "abstract" in classes:
            return [
                raw_block("latex", f"\\begin{{quote}}\\small{shape}\\color{{black!80}}"),
                *walk(node["c"][1], action),
                raw_block("latex", "\\end{quote}"),
            ]
        if "listing-caption" in classes:
            return wrap("kolistingcaption", node)
        if "listing-file" in classes:
            return wrap("kolistingfile", node)
        return None

    return rewrite(blocks, action)


def part_page(title: str) -> Blocks:
    """A part's title on a recto page of its own, in the TOC and the bookmarks (KOMA)."""
    return [raw_block("latex", f"\\addpart{{{latex_escape(title)}}}")] if title else []


def spans(
    blocks: Blocks, cache: Cache, problems: list[Diagnostic], doc: Doc, assets: Assets
) -> Blocks:
    """Hangul in emphasis → sans; emoji → images; caption labels → bold."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Span":
            return None
        classes = node["c"][0][1]
        content = walk(node["c"][1], action)
        if "emoji" in classes:
            sequence = stringify(content)
            image = emoji_image(sequence, cache)
            if image is None:
                problems.append(
                    Diagnostic(
                        "GLYPH002",
                        f"no colour emoji font to draw {sequence}",
                        Location(doc.chapter.path),
                        "install fonts-noto-color-emoji",
                        "warning",
                    )
                )
                return content
            return raw_inline("latex", f"\\koemoji{{{assets.name(image)}}}")
        if "hangul" in classes:
            return [raw_inline("latex", "{\\sffamily "), *content, raw_inline("latex", "}")]
        if "caption-label" in classes:
            return [raw_inline("latex", "\\kocaptionlabel{"), *content, raw_inline("latex", "}")]
        return None

    return rewrite(blocks, action)


def images(blocks: Blocks, root: Path, cache: Cache, assets: Assets, roots: list[Path]) -> Blocks:
    """Images as files XeTeX reads (:func:`convert_image`), named through ``assets``.

    Only files inside ``roots`` (the folders a writer may read: the book, the cache of
    downloaded images) are used.
    """
    for node in iter_nodes(blocks):
        if node["t"] == "Image":
            url = node["c"][2][0]
            path = (root / url) if not Path(url).is_absolute() else Path(url)
            if path.is_file() and any(within(path, top) for top in roots):
                node["c"][2][0] = assets.name(convert_image(path.resolve(), cache))
    return blocks


CJK_CHAR = re.compile(
    "[\u2e80-\u9fff\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0002ffff]"
)


def cjk_spaces(blocks: Blocks) -> Blocks:
    """Chinese/Japanese: no typed space between CJK and Latin words (``GPU 的``).

    xeCJK puts its own quarter em between them (CJKecglue); a typed space
    would stay a full, stretchable word space that justification widens.
    """

    def side(node: dict[str, Any], last: bool) -> bool | None:
        if node.get("t") != "Str" or not node.get("c"):
            return None
        return bool(CJK_CHAR.match(node["c"][-1 if last else 0]))

    def between_scripts(value: list[Any], i: int) -> bool:
        """``value[i]`` is a space with CJK text on one side and Latin on the other."""
        if not (isinstance(value[i], dict) and value[i].get("t") in ("Space", "SoftBreak")):
            return False
        if not 0 < i < len(value) - 1:
            return False
        before, after = side(value[i - 1], True), side(value[i + 1], False)
        return before is not None and after is not None and before != after

    def fix(value: Any) -> None:
        if isinstance(value, dict):
            fix(value.get("c"))
        elif isinstance(value, list):
            if any(isinstance(v, dict) and v.get("t") in ("Space", "SoftBreak") for v in value):
                value[:] = [v for i, v in enumerate(value) if not between_scripts(value, i)]
            for item in value:
                fix(item)

    fix(blocks)
    return blocks


def unnumbered_chapters(blocks: Blocks, doc: Doc) -> Blocks:
    """Headings in an unnumbered chapter are unnumbered too (LaTeX would print 0.1)."""
    if doc.chapter.number is None:
        for node in iter_nodes(blocks):
            if node["t"] == "Header" and "unnumbered" not in node["c"][1][1]:
                node["c"][1][1].append("unnumbered")
    return blocks


def chapter_counter(doc: Doc) -> Blocks:
    """LaTeX's chapter counter set to the chapter's own number (``\\setcounter``).

    LaTeX counts chapters 1, 2, ... by itself; kobook's number can start
    elsewhere (distill's ``section_number: 0``), and the figures' numbers
    (``Figure 2.10``) must agree with the heading (``Chapter 2``).
    """
    number = doc.chapter.number
    if number is None:
        return []
    return [raw_block("latex", f"\\setcounter{{chapter}}{{{number - 1}}}")]


def prepare(
    doc: Doc,
    book: Book,
    cache: Cache,
    problems: list[Diagnostic],
    fallbacks: dict[str, str],
    main_font: str,
    setup: PrintSetup,
    *,
    mono_font: str = "",
    policy: Policy | None = None,
    assets: Assets | None = None,
    part: str = "",
) -> Blocks:
    """The LaTeX-specific passes over one chapter (on a copy); ``part``: the part it opens.

    The chapter's own raw LaTeX and math are screened first (``policy``,
    :mod:`.screen`); what kobook adds after that is its own.
    """
    assets = assets if assets is not None else Assets()
    blocks = copy_tree(doc.blocks)
    blocks = screen_blocks(blocks, doc.chapter, policy or Policy(), problems)
    # kobook's own page breaks (the book's \newpage, as every engine reads it): after the screen.
    blocks = passes.page_breaks(blocks, lambda command: raw_block("latex", f"\\{command}"))
    # javascript: links and the text of dropped elements must not reach the PDF either.
    blocks, unsafe = sanitize_blocks(blocks, doc.chapter)
    problems += unsafe
    if book.config.print_master:
        blocks = passes.printed_urls(blocks)
    blocks = unnumbered_chapters(blocks, doc)
    blocks = mathjax_math(blocks)
    blocks = equations(blocks)
    blocks = anchored_figures(blocks)
    blocks = callouts(blocks)
    blocks = book_blocks(blocks, book.config.language == "en")
    blocks = rewrite_chain(blocks, [passes.upright_emphasis, passes.code_language])
    blocks = passes.wrap_code(blocks, setup.code_columns)
    layout = setup.layout
    text_width = layout.text_width
    blocks = table_widths(blocks, text_width=text_width, body_size=points(layout.font_size))
    blocks = passes.table_cell_words(blocks, mbox)
    blocks = passes.emoji(blocks)
    if setup.keeps_words_whole(doc.chapter.lang):
        blocks = passes.keep_glued(blocks, no_break)
    blocks = spans(blocks, cache, problems, doc, assets)
    # A raster image as wide as in every other output: one image pixel per CSS pixel.
    blocks = passes.natural_widths(blocks, list(setup.folders), text_width)
    blocks = images(blocks, book.root, cache, assets, list(setup.folders))
    if book.config.language in XECJK_LANGUAGES:
        blocks = cjk_spaces(blocks)
    blocks = fallback_fonts(blocks, main_font, mono_font, fallbacks)
    blocks = seamed_names(blocks)
    blocks = breakable_urls(blocks)
    mark = raw_block("latex", f"{CHAPTER_MARK}{doc.chapter.id}")
    return [mark, *part_page(part), *chapter_counter(doc), *blocks]


WEB_ADDRESS = re.compile(r"https?://\S+")
# Where a web address may break: after a slash, before a dot, underscore, question mark,
# ampersand, equals sign or hash (Chicago 14.18: no hyphen, the mark starts the line).
URL_SEAM = re.compile(r"(?<=/)(?=[^/])|(?<=\w)(?=[._?&=#])")


def breakable_urls(blocks: Blocks) -> Blocks:
    """Web addresses written as text (not links) may break at their seams: TeX has no
    break point inside one, and with no hyphenation in a Korean line a long address ran
    into the margin.  Links are ``\\url``/``\\href`` already, which xurl breaks."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] in ("Link", "Code", "Math", "RawInline"):
            return node
        if node["t"] != "Str" or "://" not in node["c"]:
            return None
        text = node["c"]
        out: list[Any] = []
        at = 0
        for match in WEB_ADDRESS.finditer(text):
            if match.start() > at:
                out.append({"t": "Str", "c": text[at : match.start()]})
            address = match.group(0)
            cuts = [0, *(m.start() for m in URL_SEAM.finditer(address)), len(address)]
            pieces = [address[a:b] for a, b in itertools.pairwise(cuts) if b > a]
            for index, piece in enumerate(pieces):
                if index:
                    out.append(raw_inline("latex", "\\allowbreak{}"))
                out.append({"t": "Str", "c": piece})
            at = match.end()
        if at < len(text):
            out.append({"t": "Str", "c": text[at:]})
        return out

    return rewrite(blocks, action)


def seamed_names(blocks: Blocks) -> Blocks:
    """Long inline code names with a discretionary break at each seam (``\\kobookseam``:
    the continuation mark ends the line when TeX breaks there, nothing shows otherwise).

    The mono font takes no hyphen (book.latex), so these are the only places a name
    breaks; code in headings and figure captions (moving arguments) stays as pandoc writes it.
    """

    def action(node: dict[str, Any]) -> Any:
        if node["t"] in ("Header", "Figure"):
            return node
        if node["t"] != "Code":
            return None
        pieces = name_pieces(node["c"][1])
        if pieces is None:
            return None
        inner = "\\kobookseam{}".join(latex_escape(piece) for piece in pieces)
        return raw_inline("latex", f"\\texttt{{{inner}}}")

    return rewrite(blocks, action)


def mbox(inlines: list[Any]) -> list[Any]:
    """XeLaTeX's mark for :func:`passes.table_cell_words`: an ``\\mbox`` (no break, no hyphen)."""
    return [raw_inline("latex", "\\mbox{"), *inlines, raw_inline("latex", "}")]


def no_break() -> dict[str, Any]:
    """XeLaTeX's mark for :func:`passes.keep_glued`: a penalty TeX never breaks at.

    xetexko puts a zero glue between Latin (or math, or a bracket) and Hangul,
    and a glue is a legal break; after ``\\nobreak`` it is not, and xetexko
    adds no glue after a penalty.
    """
    return raw_inline("latex", "\\nobreak{}")
