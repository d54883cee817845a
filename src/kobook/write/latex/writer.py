"""PDF through pandoc's LaTeX writer and XeLaTeX (``--engine xelatex``).

It starts from the same transformed AST as the WeasyPrint engine, so numbers,
captions, cross-references and callouts are the same; only the last step
differs.  LaTeX-specific passes turn equations, callouts, emoji and
characters the text fonts lack into raw LaTeX; images become files XeTeX
reads (SVG → PDF, GIF → PNG).  pandoc renders ``latex/book.latex`` (a pandoc
template, package data, overridable from the book's ``templates/``);
latexmk runs XeLaTeX as often as needed in ``.kobook-cache/latex/``.
Errors come back with the chapter they are in, not as a 2,000-line log;
characters no font could draw are reported and fail the build.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import unicodedata
from dataclasses import replace
from pathlib import Path
from typing import Any

from ... import limits, tools
from ...boundary import inside, within
from ...cache import Cache
from ...errors import Diagnostic, KobookError, Location
from ...korean.hangul import has_hangul
from ...model import Book, Chapter, Config, Doc
from ...model.config import key_line
from ...parse import api_version
from ...parse.ast import (
    copy_tree,
    iter_nodes,
    keyval,
    raw_block,
    raw_inline,
    stringify,
    walk,
)
from ...parse.pandoc import run_pandoc
from ...reproducible import latex_environment
from ...version import __version__
from ..shared import passes
from ..shared.common import atomic_output, chapter_at, part_titles
from ..shared.fontcoverage import covers, fallback_family
from ..shared.fonts import resolve_fonts
from ..shared.imagefiles import convert_image, emoji_image
from ..shared.latexmeta import (
    BEGIN_INCLUDES,
    END_INCLUDES,
    ClassSettings,
    class_options,
    first_error,
    include_items,
    log_tail,
    preamble_includes,
    raw_latex,
    template_packages,
)
from ..shared.layout import page_layout, points
from ..shared.mathsvg import math_font as default_math_font
from ..shared.mathsvg import stix_math_font
from ..shared.sanitize import sanitize_blocks
from ..shared.tables import table_widths
from ..shared.templates import BUILTIN
from ..shared.workdir import Assets, compiler_workdir
from .screen import (
    TRUST_HINT,
    Policy,
    defined_names,
    refusal,
    screen_blocks,
    template_partials,
)

# This writer's folder of templates: under kobook's own templates/, and the book's.
TEMPLATES = "latex"
OWN_TEMPLATE = BUILTIN / TEMPLATES / "book.latex"  # kobook's, when the book has none
Blocks = list[dict[str, Any]]
CHAPTER_MARK = "%% kobook-chapter: "


# Control characters are spaces; format characters (bidi marks, joiners) have no glyph in
# the text fonts and nothing to draw: XeLaTeX reported them as missing glyphs.
INVISIBLE = {"Cc": " ", "Cf": ""}


def latex_escape(text: str) -> str:
    """``text`` as LaTeX that prints it literally: every special character escaped, quotes
    and hyphens kept straight (the fonts' TeX ligatures would curl ``"`` and join ``--``),
    line breaks and control characters as spaces (a blank line would end the argument),
    invisible format characters left out."""
    table = {
        '"': r"\textquotedbl{}",
        "'": r"\textquotesingle{}",
        "`": r"\textasciigrave{}",
        "\\": r"\textbackslash{}",
        "{": r"\{",
        "}": r"\}",
        "#": r"\#",
        "$": r"\$",
        "%": r"\%",
        "&": r"\&",
        "_": r"\_",
        "^": r"\textasciicircum{}",
        "~": r"\textasciitilde{}",
    }
    out = "".join(table.get(c, INVISIBLE.get(unicodedata.category(c), c)) for c in text)
    return out.replace("--", "-{}-").replace("--", "-{}-")


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

    return walk(blocks, action)


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

    return walk(blocks, action)


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

    return walk(blocks, action)


def images(blocks: Blocks, root: Path, cache: Cache, assets: Assets) -> Blocks:
    """Images as files XeTeX reads (:func:`convert_image`), named through ``assets``.

    Only files inside the book or the cache (downloaded images) are used.
    """
    roots = [root] + ([cache.root] if cache.root is not None else [])
    for node in iter_nodes(blocks):
        if node["t"] == "Image":
            url = node["c"][2][0]
            path = (root / url) if not Path(url).is_absolute() else Path(url)
            if path.is_file() and any(within(path, top) for top in roots):
                node["c"][2][0] = assets.name(convert_image(path.resolve(), cache))
    return blocks


def fallback_fonts(blocks: Blocks, main: str, used: dict[str, str]) -> Blocks:
    """Characters the Latin text font lacks → ``{\\kofbN X}`` from a font that has them."""

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Str":
            return None
        text = node["c"]
        if text.isascii() or all(has_hangul(c) or covers(main, c) for c in text):
            return None
        out: list[dict[str, Any]] = []
        buffer = ""
        for char in text:
            family = None
            if not (char.isspace() or has_hangul(char) or covers(main, char)):
                family = fallback_family(char)
            if family is None:
                buffer += char
                continue
            if buffer:
                out.append({"t": "Str", "c": buffer})
                buffer = ""
            command = used.setdefault(family, f"kofb{chr(ord('A') + len(used))}")
            out.append(raw_inline("latex", f"{{\\{command} {latex_escape(char)}}}"))
        if buffer:
            out.append({"t": "Str", "c": buffer})
        return out

    return walk(blocks, action)


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
    *,
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
    # javascript: links and the text of dropped elements must not reach the PDF either.
    blocks, unsafe = sanitize_blocks(blocks, doc.chapter)
    problems += unsafe
    blocks = unnumbered_chapters(blocks, doc)
    blocks = mathjax_math(blocks)
    blocks = equations(blocks)
    blocks = anchored_figures(blocks)
    blocks = callouts(blocks)
    blocks = book_blocks(blocks, book.config.language == "en")
    blocks = passes.upright_hangul(blocks)
    blocks = passes.code_languages(blocks)
    blocks = passes.wrap_code(blocks, xe_code_columns(book.config))
    layout = page_layout(book.config)
    text_width = points(layout.width) - points(layout.inner) - points(layout.outer)
    blocks = table_widths(blocks, text_width=text_width, body_size=points(layout.font_size))
    blocks = passes.table_cell_words(blocks, mbox)
    blocks = passes.emoji(blocks)
    if book.config.keeps_words_whole(doc.chapter.lang):
        blocks = passes.keep_glued(blocks, no_break)
    blocks = spans(blocks, cache, problems, doc, assets)
    blocks = images(blocks, book.root, cache, assets)
    if book.config.language in XECJK_LANGUAGES:
        blocks = cjk_spaces(blocks)
    blocks = fallback_fonts(blocks, main_font, fallbacks)
    mark = raw_block("latex", f"{CHAPTER_MARK}{doc.chapter.id}")
    return [mark, *part_page(part), *chapter_counter(doc), *blocks]


def xe_code_columns(config: Config) -> int:
    """Characters per line of a code box in book.latex (``\\small``, tcolorbox padding).

    \\small is 0.9 × the body size; left/right 4pt, boxsep 1mm and the 0.4pt rules.
    """
    from ..shared import codewrap

    padding = 2 * (4 + 2.85 + 0.4)
    return codewrap.code_columns(page_layout(config), 0.9, padding, resolve_fonts(config).mono[0])


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


class Raw(str):
    """A template value that is LaTeX already (font options, paths): not escaped."""


def meta_value(value: Any) -> dict[str, Any]:
    """A Python value as pandoc metadata (strings stay literal: no Markdown parsing)."""
    if isinstance(value, Raw):
        return {"t": "MetaInlines", "c": [{"t": "RawInline", "c": ["latex", str(value)]}]}
    if isinstance(value, bool):
        return {"t": "MetaBool", "c": value}
    if isinstance(value, dict):
        return {"t": "MetaMap", "c": {str(k): meta_value(v) for k, v in value.items()}}
    if isinstance(value, (list, tuple)):
        return {"t": "MetaList", "c": [meta_value(v) for v in value]}
    return {"t": "MetaInlines", "c": [{"t": "RawInline", "c": ["latex", latex_escape(str(value))]}]}


def hex_color(value: Any, default: str) -> str:
    named = {
        "blue": "1F4E8C",
        "black": "000000",
        "red": "C62828",
        "magenta": "A0307F",
        "cyan": "00838F",
        "green": "2E7D32",
        "gray": "555555",
        "grey": "555555",
    }
    text = str(value or "").strip().lstrip("#")
    if re.fullmatch(r"[0-9A-Fa-f]{6}", text):
        return text.upper()
    return named.get(text.lower(), default)


def template_variables(
    book: Book, fallbacks: dict[str, str], settings: ClassSettings | None = None
) -> dict[str, Any]:
    config = book.config
    fonts = resolve_fonts(config)
    settings = settings or class_settings(config)
    layout = page_layout(class_config(config, settings))
    hangul_serif = next(
        (f for f in fonts.serif if f != fonts.named.get("mainfont")), fonts.serif[0]
    )
    hangul_sans = next((f for f in fonts.sans if f != fonts.named.get("sansfont")), fonts.sans[0])
    hangul_mono = next((f for f in fonts.mono if f != fonts.named.get("monofont")), fonts.mono[0])
    size = layout.font_size
    original = config.original
    math_font = config.get("mathfont")
    # The WeasyPrint engine's default math font (mathsvg.math_font), so both engines match.
    math_path = "" if math_font else (default_math_font() or stix_math_font())
    return {
        "mathfont": Raw(latex_escape(str(math_font or ""))),  # a name, never LaTeX
        "mathfontpath": Raw(str(Path(math_path).parent)) if math_path else "",
        "mathfontfile": Raw(Path(math_path).name) if math_path else "",
        "fontsize": size,
        "paperwidth": layout.width,
        "paperheight": layout.height,
        "top": layout.top,
        "bottom": layout.bottom,
        "inner": layout.inner,
        "outer": layout.outer,
        "linestretch": f"{layout.line_height / 1.2:.3f}",
        # One heading scale for every engine (shared/layout.py), with KOMA's own leading.
        "headingsizes": [
            {"element": element, "size": f"{size:g}pt", "skip": f"{size * 1.2:g}pt"}
            for element, size in zip(
                ("chapter", "section", "subsection"),
                (layout.heading_points(level) for level in (1, 2, 3)),
                strict=True,
            )
        ],
        "mainfont": fontspec_font(str(fonts.named.get("mainfont") or hangul_serif)),
        "sansfont": fontspec_font(str(fonts.named.get("sansfont") or hangul_sans)),
        "monofont": fontspec_font(str(fonts.named.get("monofont") or hangul_mono)),
        "CJKmainfont": fontspec_font(str(fonts.named.get("CJKmainfont") or hangul_serif)),
        "CJKsansfont": fontspec_font(str(fonts.named.get("CJKsansfont") or hangul_sans)),
        "CJKmonofont": fontspec_font(str(fonts.named.get("CJKmonofont") or hangul_mono)),
        "fallbackfonts": [{"family": Raw(f), "command": Raw(c)} for f, c in fallbacks.items()],
        "keepall": config.keeps_words_whole(),
        "frenchspacing": config.language != "en",
        "numbersections": config.numbersections,
        "tocdepth": str(config.toc_depth - 1),
        "accent": "1F4E8C",
        "linkcolor": hex_color(config.get("linkcolor"), "1F4E8C"),
        "urlcolor": hex_color(config.get("urlcolor"), "1F4E8C"),
        "colorlinks": bool(config.get("colorlinks", True)),
        "sides": settings.sides,
        "open": settings.open,
        "xecjk": config.language in XECJK_LANGUAGES,
        **word_variables(config),
        "authors": ", ".join(config.authors),
        "affiliations": words_list(config, config.affiliations),
        "translators": ", ".join(config.translators),
        "plaintitle": config.title,
        "plainauthors": ", ".join(config.authors),
        "shorttitle": config.title,
        "original": original,
        "version": __version__,
    }


def words_list(config: Config, items: list[str]) -> str:
    """``A, B`` (``A、B`` in Chinese and Japanese): the language's list separator."""
    return config.words.word("list-separator").join(items)


# Books set with xeCJK; Korean and English (and other languages) keep ko.TeX.
XECJK_LANGUAGES = ("zh-Hans", "zh-Hant", "ja")


def meta_location(book: Book, key: str) -> Location:
    """Where ``key`` is written: metadata.yaml, or a one-file book's front matter."""
    files = [book.config.path] if book.config.path else []
    files += [c.path for c in book.chapters if c.path not in files]
    for path in files:
        if path is None or not path.is_file():
            continue
        line = key_line(path.read_text(encoding="utf-8", errors="replace"), key)
        if line:
            return Location(path, line)
    return Location(book.config.path)


def class_settings(config: Config, book: Book | None = None) -> ClassSettings:
    """``documentclass`` and ``classoption`` as scrbook settings, with warnings."""
    return class_options(
        config.get("documentclass"),
        config.get("classoption"),
        language=config.language,
        location=meta_location(book, "documentclass") if book else Location(config.path),
        option_location=meta_location(book, "classoption") if book else Location(config.path),
    )


def class_config(config: Config, settings: ClassSettings) -> Config:
    """``config`` with classoption's paper and type size where metadata does not set them."""
    extra = {}
    if settings.paper and not config.get("papersize"):
        extra["papersize"] = settings.paper
    if settings.fontsize and not config.get("fontsize"):
        extra["fontsize"] = settings.fontsize
    return replace(config, raw={**config.raw, **extra}) if extra else config


def word_variables(config: Config) -> dict[str, Any]:
    """The words the template prints, in the book's language (config.words)."""
    words = config.words
    colon = "：" if config.language in XECJK_LANGUAGES else ": "
    prefix, suffix = words.affix("chapter")
    return {
        "chapterprefix": prefix,
        "chapterword": suffix,
        "contents": words.word("contents"),
        "byline": words.names("by", config.authors) if config.authors else "",
        "translatedby": words.names("translated-by", config.translators)
        if config.translators
        else "",
        "originalword": words.word("original") + colon,
        "licenceword": words.word("licence") + colon,
    }


def fc_face(pattern: str) -> tuple[Path, str, str, str] | None:
    """fontconfig's best match for ``pattern``: file, face index, family, style."""
    out = tools.run(
        ["fc-match", "--format=%{file}|%{index}|%{family}|%{style}", pattern],
        timeout=limits.TOOL_TIMEOUT,
        what="fc-match",
        text=True,
    ).stdout
    parts = out.split("|")
    if len(parts) != 4 or not parts[0]:
        return None
    return Path(parts[0]), parts[1], parts[2], parts[3]


def fontspec_font(family: str) -> dict[str, str]:
    """How fontspec should load ``family``: by name, or by file and index for a face
    inside a collection (XeTeX takes the first face of a .ttc, the Japanese one
    for Noto CJK, when asked by name).  The bold face is looked up the same way,
    so Noto CJK KR, SC, TC (and JP, the first face) all get their own bold."""
    by_name: dict[str, str] = {"name": Raw(family), "options": Raw("")}
    if shutil.which("fc-match") is None:
        return by_name
    face = fc_face(family)
    squashed = family.lower().replace(" ", "")
    if face is None or squashed not in face[2].lower().replace(" ", ""):
        return by_name
    path, index, _family, _style = face
    if not path.name.lower().endswith((".ttc", ".otc")) or index == "0":
        return by_name
    options = f"Path={path.parent}/,FontIndex={index}"
    bold = fc_face(f"{family}:style=Bold")
    if (
        bold is not None
        and "bold" in bold[3].lower()
        and squashed in bold[2].lower().replace(" ", "")
        and bold[0].parent == path.parent
        and bold[0] != path
    ):
        options += f",BoldFont={bold[0].name},BoldFeatures={{FontIndex={bold[1]}}}"
    else:
        guess = path.with_name(path.name.replace("-Regular", "-Bold"))
        if guess != path and guess.exists():
            options += f",BoldFont={guess.name},BoldFeatures={{FontIndex={index}}}"
    return {"name": Raw(path.name), "options": Raw(options)}


def template_path(book: Book) -> Path:
    """The book's ``templates/latex/book.latex`` (inside the book: SEC001), else kobook's."""
    own = book.root / "templates" / TEMPLATES / "book.latex"
    if own.is_file():
        return inside(own, book.root, what="LaTeX template", file=own)
    return OWN_TEMPLATE


def check_template(book: Book, trusted: bool) -> Path:
    """The LaTeX template, checked: its partials and, without ``--trust``, its TeX.

    A pandoc template reads its partials (``$common.latex()$``) by name, relative
    to its folder: a name with ``..`` or ``/`` at the start, or one that resolves
    outside the book, is SEC001.  The book's own template is TeX the book
    supplies: without ``--trust`` it is screened like header-includes (SEC003).
    """
    path = template_path(book)
    if path == OWN_TEMPLATE:
        return path
    text = path.read_text(encoding="utf-8", errors="replace")
    for name in template_partials(text):
        line = text.count("\n", 0, text.find(name)) + 1
        partial = path.parent / (name if Path(name).suffix else name + path.suffix)
        if name.startswith("/") or ".." in Path(name).parts:
            raise KobookError(
                f"LaTeX template partial resolves outside the book folder: {name}",
                code="SEC001",
                file=path,
                line=line,
                hint="a partial must be a file beside the template, named without .. or /",
            )
        if partial.exists() or partial.is_symlink():
            inside(partial, book.root, what="LaTeX template partial", file=path, line=line)
    refused = "" if trusted else refusal(text)
    if refused:
        needle = refused.split(" ", 1)[0]
        line = text.count("\n", 0, max(text.find(needle), 0)) + 1
        raise KobookError(
            f"the book's LaTeX template uses {refused}, refused without --trust",
            code="SEC003",
            file=path,
            line=line,
            hint=TRUST_HINT,
        )
    return path


def screened_includes(book: Book, trusted: bool) -> tuple[list[str], list[Diagnostic]]:
    """``header-includes`` items XeLaTeX may see: all with ``--trust``, else those
    :func:`.screen.refusal` accepts (SEC003 for each one left out)."""
    items = include_items(book.config.get("header-includes"))
    if trusted:
        return items, []
    kept: list[str] = []
    problems: list[Diagnostic] = []
    for item in items:
        refused = refusal(raw_latex(item))
        if not refused:
            kept.append(item)
            continue
        problems.append(
            Diagnostic(
                "SEC003",
                f"header-includes: an item using {refused} was left out without --trust",
                includes_location(book, refused.split(" ", 1)[0]),
                TRUST_HINT,
                "warning",
            )
        )
    return kept, problems


KOMA_STARRED = re.compile(
    r"\\(chapter|section|subsection)\*\{((?:[^{}]|\{[^{}]*\})*)\}"
    r"\\addcontentsline\{toc\}\{\1\}\{(?:[^{}]|\{[^{}]*\})*\}"
)


def render_latex(
    book: Book,
    docs: list[Doc],
    cache: Cache,
    *,
    trusted: bool = False,
    assets: Assets | None = None,
) -> tuple[str, list[Diagnostic]]:
    """The whole book as one LaTeX document.

    Without ``trusted`` (``--trust``), the book's raw TeX is screened
    (:mod:`.screen`); ``assets`` collects the files the document reads.
    """
    template = check_template(book, trusted)
    includes, problems = screened_includes(book, trusted)
    commands, environments = defined_names("\n".join(raw_latex(i) for i in includes))
    policy = Policy(trusted, commands, environments)
    assets = assets if assets is not None else Assets()
    fallbacks: dict[str, str] = {}
    fonts = resolve_fonts(book.config)
    main_font = str(fonts.named.get("mainfont") or fonts.serif[0])
    blocks: Blocks = [raw_block("latex", DEFINITIONS)]
    parts = part_titles(docs, book.config.words)
    for doc in docs:
        blocks += prepare(
            doc,
            book,
            cache,
            problems,
            fallbacks,
            main_font,
            policy=policy,
            assets=assets,
            part=parts.get(doc.chapter.id, ""),
        )
    config = book.config
    settings = class_settings(config, book)
    problems += settings.diagnostics
    meta: dict[str, Any] = {
        "title": meta_value(config.title),
        "kobook": meta_value(template_variables(book, fallbacks, settings)),
        "toc": meta_value(config.toc),
        # A marker: the real header-includes go in once the preamble is known.
        "header-includes": {
            "t": "MetaList",
            "c": [{"t": "MetaBlocks", "c": [raw_block("latex", INCLUDES_MARK)]}],
        },
    }
    if config.get("subtitle"):
        meta["subtitle"] = meta_value(config.get("subtitle"))
    if config.date_text:
        meta["date"] = meta_value(config.date_text)
    document = {"pandoc-api-version": api_version(), "meta": meta, "blocks": blocks}
    latex = run_pandoc(
        [
            "-f",
            "json",
            "-t",
            "latex",
            "-s",
            f"--template={template}",
            "--top-level-division=chapter",
            "--syntax-highlighting=pygments",
            "--wrap=preserve",
        ],
        json.dumps(document),
        what="LaTeX writer",
    )
    # KOMA's \addchap/\addsec: unnumbered, in the TOC, and in the running head.
    latex = KOMA_STARRED.sub(
        lambda m: (
            {"chapter": "\\addchap", "section": "\\addsec"}.get(m.group(1), "\\addsubsec")
            + "{"
            + m.group(2)
            + "}"
        ),
        latex,
    )
    latex = own_running_heads(latex)
    latex, found = insert_includes(latex, book, includes)
    return passes.without_separators(latex), problems + found


INCLUDES_MARK = "%% kobook-header-includes"
# An unnumbered chapter of the body (the preface, References): up to two brace levels
# in its title (\texorpdfstring{\textbf{References}}{References}).
UNNUMBERED_CHAPTER = re.compile(
    r"\\(?:addchap|chapter\*)\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}"
)


def own_running_heads(latex: str) -> str:
    """An unnumbered chapter (the preface, References, 감사의 말) puts its own title in
    the running head: neither ``\\chapter*`` nor ``\\addchap`` sets the mark, so 차례
    stood over the preface and the last chapter's title over the References."""
    head, begin, body = latex.partition("\\begin{document}")
    if not begin:
        return latex
    body = UNNUMBERED_CHAPTER.sub(
        lambda m: f"{m.group(0)}\\markboth{{{m.group(1)}}}{{{m.group(1)}}}", body
    )
    return head + begin + body


def insert_includes(
    latex: str, book: Book, includes: list[str] | None = None
) -> tuple[str, list[Diagnostic]]:
    """Put ``header-includes`` (``includes``, default: the metadata's) where the template
    has ``$header-includes$``.

    Packages the preamble above them loads already are left out (TEX004, see
    :func:`..shared.latexmeta.preamble_includes`); their options are passed to them
    before ``\\documentclass``.
    """
    config = book.config
    value = config.get("header-includes") if includes is None else includes
    lines = latex.split("\n")
    where = meta_location(book, "header-includes")
    if INCLUDES_MARK not in lines:
        if not config.get("header-includes"):
            return latex, []
        return latex, [
            Diagnostic(
                "TEX004",
                "header-includes were not used: the LaTeX template has no $header-includes$",
                where,
                "add $for(header-includes)$ $header-includes$ $endfor$ to "
                f"templates/{TEMPLATES}/book.latex",
                "warning",
            )
        ]
    index = lines.index(INCLUDES_MARK)
    cjk = "xecjk" if config.language in XECJK_LANGUAGES else "kotex"
    loaded = template_packages("\n".join(lines[:index]))
    result = preamble_includes(value, loaded, cjk=cjk, location=where)
    lines[index : index + 1] = (
        [BEGIN_INCLUDES, result.latex, END_INCLUDES] if result.latex.strip() else []
    )
    if result.early:
        start = next((i for i, t in enumerate(lines) if t.startswith("\\documentclass")), 0)
        lines[start:start] = [result.early]
    return "\n".join(lines), result.diagnostics


MISSING = re.compile(r"Missing character: There is no (.) \(U\+([0-9A-F]+)\) in font ([^!]+)!")


# kpathsea "paranoid": TeX opens no file outside its working folder (no absolute or
# ../ path, no dot file) for reading or writing; and no shell escape (\write18).
PARANOID = {"openin_any": "p", "openout_any": "p", "shell_escape": "f"}


def run_xelatex(tex: Path, epoch: int | None = None) -> subprocess.CompletedProcess[str]:
    """Run latexmk (else xelatex) on ``tex`` in its folder, paranoid and without shell
    escape; latexmk reads no rc file (a ``latexmkrc`` is Perl code).  ``epoch`` dates
    the PDF and pins xdvipdfmx's font subset tags and ``/ID`` (kobook.reproducible)."""
    latexmk = shutil.which("latexmk")
    if latexmk:
        command = [
            latexmk,
            "-norc",
            "-xelatex",
            "-latexoption=-no-shell-escape",
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-file-line-error",
            "-f-",
            tex.name,
        ]
    else:
        command = [
            "xelatex",
            "-no-shell-escape",
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-file-line-error",
            tex.name,
        ]
    return tools.run(
        command,
        cwd=tex.parent,
        text=True,
        errors="replace",
        env={**latex_environment(os.environ, epoch), **PARANOID},
        timeout=limits.XELATEX_TIMEOUT,
        what="XeLaTeX",
        hint="build a few chapters at a time (--chapter) to find the one it is stuck on, "
        "or use --engine weasyprint",
    )


def latex_error(log: str, latex: str, book: Book, log_path: Path | None = None) -> KobookError:
    """The first LaTeX error: its message, the ``l.NNN`` line, and where it came from.

    Errors in ``header-includes`` point at the metadata, errors in a chapter at
    the chapter's file and (when the failing text can be found) its line.  A
    failure with no error line still quotes the end of the log.
    """
    hint = f"the full log is {log_path}" if log_path else "the full log is in .kobook-cache/latex/"
    hint += "; try --engine weasyprint to compare"
    error = first_error(log)
    if error is None:
        tail = log_tail(log) or "(no log was written)"
        return KobookError(
            f"XeLaTeX stopped without an error line; the log ends: {tail}", code="TEX001", hint=hint
        )
    lines = latex.splitlines()
    in_book = error.file in ("", "book.tex") or error.file.endswith("/book.tex")
    line = error.line if in_book and 0 < error.line <= len(lines) else 0
    context = error.context
    package = "" if in_book else error.file
    missing = re.search(r"File `([^']+)' not found", error.message)
    if missing:  # the context is where TeX gave up (\begin{document}), not the cause
        package, line, context = missing.group(1), 0, ""
        stem = Path(package).stem
        hint = f"{stem} is not installed (tlmgr install {stem}) or is misspelt; " + hint
    if not context and line:
        context = f"LaTeX line {line}: {lines[line - 1].strip()}"
    origin, location = error_origin(lines, line, package, book)
    message = f"XeLaTeX: {error.message[:240]}"
    if context:
        message += f" -- {context[:160]}"
    if origin:
        message += f" ({origin})"
    return KobookError(message, code="TEX001", file=location.file, line=location.line, hint=hint)


def includes_location(book: Book, needle: str) -> Location:
    """The line of ``header-includes`` that holds ``needle`` (else the key's line)."""
    where = meta_location(book, "header-includes")
    if where.file is None or not needle:
        return where
    source = where.file.read_text(encoding="utf-8", errors="replace")
    found = source.find(needle, max(0, len("\n".join(source.splitlines()[: where.line - 1]))))
    if found < 0:
        return where
    return Location(where.file, source.count("\n", 0, found) + 1)


def error_origin(lines: list[str], line: int, package: str, book: Book) -> tuple[str, Location]:
    """Where the LaTeX at ``line`` of book.tex (or a ``package`` file being loaded) came from."""
    config = book.config
    own = template_path(book) != OWN_TEMPLATE
    template = Location(template_path(book)) if own else Location()
    template_name = f"templates/{TEMPLATES}/book.latex" if own else "kobook's LaTeX template"
    if package:
        name = Path(package).name
        stem = Path(package).stem
        loads = re.compile(
            r"\\(?:usepackage|RequirePackage)\s*(?:\[[^\]]*\])?\s*\{[^}]*\b"
            + re.escape(stem)
            + r"\b"
        )
        if loads.search("\n".join(include_items(config.get("header-includes")))):
            where = includes_location(book, stem)
            return f"loading {name}, from header-includes in {where_name(where)}", where
        return f"loading {name}, in the preamble of {template_name}", template
    if not line:
        return "", Location()
    begin = next((i for i, t in enumerate(lines, 1) if t.startswith("\\begin{document}")), 0)
    marks = [i for i, t in enumerate(lines, 1) if t in (BEGIN_INCLUDES, END_INCLUDES)]
    if len(marks) == 2 and marks[0] < line < marks[1]:
        where = includes_location(book, lines[line - 1].strip())
        return f"from header-includes in {where_name(where)}", where
    if begin and line < begin:
        return f"in the preamble of {template_name}", template
    chapter_id = chapter_at("\n".join(lines), line, CHAPTER_MARK)
    chapter = next((c for c in book.chapters if c.id == chapter_id), None)
    if chapter is None:
        where = Location(config.path)
        return f"on the title page: title, author or date in {where_name(where)}", where
    return "", chapter_location(chapter, lines[line - 1])


def chapter_location(chapter: Chapter, tex_line: str) -> Location:
    """The chapter's line that ``tex_line`` of book.tex came from, as far as its text tells.

    The longest run of text between LaTeX commands and braces that the chapter
    contains wins; with none, the chapter's first line.
    """
    pieces = re.split(r"\\[A-Za-z@]+\*?|\\.|[{}$%&#^_~\[\]]", tex_line)
    for piece in sorted({p.strip() for p in pieces if len(p.strip()) >= 2}, key=len, reverse=True):
        found = chapter.locate(piece)
        if found is not None:
            return Location(found.file, found.line)
    for word in re.findall(r"[A-Za-z]{3,}", tex_line):  # a command name in a raw block
        found = chapter.locate(word)
        if found is not None:
            return Location(found.file, found.line)
    return chapter.where(1)


def where_name(location: Location) -> str:
    return location.file.name if location.file is not None else "metadata.yaml"


def missing_characters(log: str, book: Book, latex: str) -> list[Diagnostic]:
    found: dict[str, tuple[str, int]] = {}
    for match in MISSING.finditer(log):
        char = chr(int(match.group(2), 16))
        font = match.group(3).strip()
        previous = found.get(char, (font, 0))
        found[char] = (previous[0], previous[1] + 1)
    problems = []
    for char, (font, count) in sorted(found.items()):
        location = book.locate(char)
        problems.append(
            Diagnostic(
                "GLYPH001",
                f"XeLaTeX: no glyph for '{char}' (U+{ord(char):04X}) in font {font} ({count}×)",
                location,
                "install a font that has it (kobook doctor), or replace the character",
            )
        )
    return problems


PARANOID_REFUSAL = re.compile(r"Not (reading from|writing to) (.+?) \((?:openin|openout)_any = p\)")


def paranoid_refusal(output: str, log: str, book: Book) -> KobookError | None:
    """SEC001 when XeLaTeX stopped because kpathsea refused a file outside its folder.

    The book's raw LaTeX named it (an ``\\input{/etc/hostname}`` passed by
    ``--trust``); the message says so, at the line that names it.  Only when the
    error that stopped XeLaTeX is about that file (a refusal TeX got past, as
    ``\\IfFileExists`` does, is no error).
    """
    error = first_error(log)
    for match in PARANOID_REFUSAL.finditer(output):
        action, name = match.group(1).split()[0], match.group(2)
        if error is not None and name in error.message:
            break
    else:
        return None
    where = book.locate(name)
    if where.file is None:
        where = includes_location(book, name)
    return KobookError(
        f"XeLaTeX may not {'read' if action == 'reading' else 'write'} {name}: it opens "
        "files only inside its working folder",
        code="SEC001",
        file=where.file,
        line=where.line,
        hint="raw LaTeX cannot read or write files outside the book's build; put what it "
        "needs into the book as Markdown",
    )


def write_pdf(
    book: Book,
    docs: list[Doc],
    out: Path,
    cache: Cache,
    *,
    keep_going: bool = False,
    trusted: bool = False,
) -> list[Diagnostic]:
    """Write ``out`` with XeLaTeX; return warnings.  Needs xelatex (TeX Live) installed.

    ``trusted`` (``--trust``) passes the book's raw TeX unscreened; XeLaTeX is
    paranoid either way (:func:`run_xelatex`).
    """
    if shutil.which("xelatex") is None:
        raise KobookError(
            "xelatex is not installed",
            code="TEX003",
            hint="bash scripts/install-system-deps.sh --tex (TeX Live XeLaTeX and ko.TeX), "
            "or use --engine weasyprint",
        )
    assets = Assets(cache.root, book.root)
    latex, problems = render_latex(book, docs, cache, trusted=trusted, assets=assets)
    workdir = compiler_workdir(cache.root, out, "latex", "LaTeX working folder")
    assets.link(workdir)
    tex = workdir / "book.tex"
    previous = tex.read_text(encoding="utf-8") if tex.exists() else None
    if previous != latex:
        tex.write_text(latex, encoding="utf-8")
    proc = run_xelatex(tex, book.config.output_epoch)
    log_path = workdir / "book.log"
    log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else ""
    pdf = workdir / "book.pdf"
    if proc.returncode != 0 or not pdf.exists():
        refused = paranoid_refusal(proc.stdout + proc.stderr, log or proc.stdout, book)
        raise refused or latex_error(log or proc.stdout, latex, book, log_path)
    missing = missing_characters(log, book, latex)
    if missing and not keep_going:
        raise KobookError.summarising(
            f"{len(missing)} character(s) have no glyph in the fonts XeLaTeX used; "
            "the PDF was not written",
            "GLYPH001",
            missing,
            "see the list below; --keep-going writes the PDF anyway",
        )
    with atomic_output(out) as tmp:
        shutil.copyfile(pdf, tmp)
    return problems + missing
