"""The LaTeX document around the chapters: the template's variables from the metadata
(title page, fonts through fontspec, the class and its options, kobook's words), the
book's own template checked, its header-includes screened, the running heads."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ...boundary import inside
from ...cache import Cache
from ...errors import Diagnostic, KobookError, Location
from ...model import Book, Config, Doc
from ...model.colophon import colophon
from ...model.config import language_tag
from ...parse import api_version
from ...parse.ast import (
    raw_block,
)
from ...parse.pandoc import run_pandoc
from ...version import __version__
from ..shared import passes
from ..shared.bookindex import book_index
from ..shared.common import part_titles
from ..shared.fonts import FontSet, fontconfig, squashed
from ..shared.highlight import highlight_option
from ..shared.latexmeta import (
    BEGIN_INCLUDES,
    END_INCLUDES,
    ClassSettings,
    class_options,
    include_items,
    preamble_includes,
    raw_latex,
    template_packages,
)
from ..shared.layout import PageLayout
from ..shared.mathsvg import math_font as default_math_font
from ..shared.mathsvg import stix_math_font
from ..shared.setup import HYPHEN_LIMITS, PrintSetup, print_setup
from ..shared.workdir import Assets
from .bookindex import MACROS as INDEX_MACROS
from .bookindex import index_latex
from .passes import DEFINITIONS, Blocks, prepare
from .places import OWN_TEMPLATE, TEMPLATES, includes_location, meta_location, template_path
from .screen import (
    TRUST_HINT,
    Policy,
    defined_names,
    refusal,
    template_partials,
)
from .values import XECJK_LANGUAGES, latex_escape


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


def cjk_mono(fonts: FontSet) -> str:
    """The monospace family that draws Hangul (the first one that is not ``monofont``)."""
    return next((f for f in fonts.mono if f != fonts.named.get("monofont")), fonts.mono[0])


def template_variables(
    book: Book,
    fallbacks: dict[str, str],
    setup: PrintSetup,
    settings: ClassSettings | None = None,
) -> dict[str, Any]:
    config = book.config
    fonts = setup.fonts
    settings = settings or class_settings(config)
    layout = setup.layout
    hangul_serif = next(
        (f for f in fonts.serif if f != fonts.named.get("mainfont")), fonts.serif[0]
    )
    hangul_sans = next((f for f in fonts.sans if f != fonts.named.get("sansfont")), fonts.sans[0])
    hangul_mono = cjk_mono(fonts)
    size = layout.font_size
    stretch = layout.line_height / 1.2
    title_line = layout.heading_line_height * layout.heading_points(1)
    # The paragraph skip TeX puts between the label's line and the title's is part of it.
    label_gap = layout.chapter_label_baselines - title_line - layout.paragraph_space
    label = layout.chapter_label_points
    chapter_sink = layout.chapter_sink - 0.88 * label
    original = config.original
    math_font = setup.math_name
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
        # Code: the monospace fonts scaled to the size of code in running text, so a code
        # block asks for its size over that scale (shared/layout.py); its pitch and insets.
        "monoscale": f"{layout.inline_code_scale:g}",
        "codesize": f"{layout.code_points / layout.inline_code_scale:.2f}pt",
        "codepitch": f"{layout.code_pitch:g}pt",
        "codeinset": f"{layout.code_inset:g}pt",
        "codepadding": f"{layout.code_padding:g}pt",
        # One heading scale for every engine (shared/layout.py), with KOMA's own leading.
        "headingsizes": [
            heading_size(layout, level, element)
            for level, element in enumerate(("chapter", "section", "subsection"), start=1)
        ],
        "parskip": f"{layout.paragraph_space:g}pt",
        # The chapter's label ("3장"): its size and leading, and KOMA's innerskip under it,
        # what is left of the layout's baseline distance after the title's baselineskip.
        "labelsize": f"{layout.chapter_label_points:g}pt",
        "captionsize": f"{layout.caption_points:g}pt",
        "captionskip": f"{layout.heading_line_height * layout.caption_points / stretch:.2f}pt",
        "labelskip": f"{layout.heading_line_height * layout.chapter_label_points / stretch:.2f}pt",
        "labelinnerskip": f"{label_gap:.2f}pt",
        # The chapter's sink (shared/layout.py): under KOMA's \vspace* (at the page's top:
        # no \topskip, no paragraph skip) stands the label's height (0.88 of its size).
        "chaptersink": f"{chapter_sink:.2f}pt",
        "mainfont": fontspec_font(str(fonts.named.get("mainfont") or hangul_serif)),
        "sansfont": fontspec_font(str(fonts.named.get("sansfont") or hangul_sans)),
        "monofont": fontspec_font(str(fonts.named.get("monofont") or hangul_mono)),
        "CJKmainfont": fontspec_font(str(fonts.named.get("CJKmainfont") or hangul_serif)),
        "CJKsansfont": fontspec_font(str(fonts.named.get("CJKsansfont") or hangul_sans)),
        "CJKmonofont": fontspec_font(str(fonts.named.get("CJKmonofont") or hangul_mono)),
        "fallbackfonts": [{"family": Raw(f), "command": Raw(c)} for f, c in fallbacks.items()],
        "keepall": setup.keeps_words_whole(),
        "hyphenatelatin": setup.hyphenates_latin(),
        "hyphenleft": str(HYPHEN_LIMITS[1]),
        "hyphenright": str(HYPHEN_LIMITS[2]),
        "frenchspacing": config.language != "en",
        "numbersections": config.numbersections,
        "tocdepth": str(config.toc_depth - 1),
        "accent": "1F4E8C",
        "linkcolor": (setup.link_colours or ("000000", "000000"))[0],
        "urlcolor": (setup.link_colours or ("000000", "000000"))[1],
        "colorlinks": setup.link_colours is not None,
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
        "colophon": colophon_value(config),
        "halftitle": config.half_title,
        # The PDF's /Lang (screen readers and search pick the language by it): a BCP 47
        # tag, or none when the book's lang is not one.
        "pdflang": language_tag(config.lang),
        "version": __version__,
    }


def colophon_value(config: Config) -> dict[str, Any] | bool:
    """The copyright page (``model/colophon.py``) as the template reads it, or false."""
    page = colophon(config)
    if page is None:
        return False
    lines = [{"label": label, "value": value} for label, value in page.lines]
    return {"title": page.title, "lines": lines, "notes": page.notes}


def words_list(config: Config, items: list[str]) -> str:
    """``A, B`` (``A、B`` in Chinese and Japanese): the language's list separator."""
    return config.words.word("list-separator").join(items)


def class_settings(config: Config, book: Book | None = None) -> ClassSettings:
    """``documentclass`` and ``classoption`` as scrbook settings, with warnings."""
    return class_options(
        config.get("documentclass"),
        config.get("classoption"),
        language=config.language,
        location=meta_location(book, "documentclass") if book else Location(config.path),
        option_location=meta_location(book, "classoption") if book else Location(config.path),
    )


def heading_size(layout: PageLayout, level: int, element: str) -> dict[str, str]:
    """A KOMA title's font and skips from the layout's title size, leading and space.

    TeX places lines by their baselines: ``beforeskip`` is what is left of the layout's
    baseline distance (:meth:`PageLayout.heading_baselines`) after the paragraph skip and
    the title's own baselineskip, ``afterskip`` after the paragraph skip and the body's.
    The title's baselineskip is given before setspace stretches it by ``linestretch``.
    """
    size = layout.heading_points(level)
    stretch = layout.line_height / 1.2
    before, after = layout.heading_baselines(level)
    line = layout.heading_line_height * size
    body_line = layout.line_height * layout.body_points
    return {
        "element": element,
        "size": f"{size:g}pt",
        "skip": f"{line / stretch:.2f}pt",
        "before": f"{max(before - layout.paragraph_space - line, 0.0):.2f}pt",
        # A KOMA afterskip of 0 or less makes a run-in title: never less than 0.01pt.
        "after": f"{max(after - layout.paragraph_space - body_line, 0.01):.2f}pt",
    }


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
    out = fontconfig("fc-match", "--format=%{file}|%{index}|%{family}|%{style}", pattern)
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
    face = fc_face(family)  # None without fontconfig
    name = squashed(family)
    if face is None or name not in squashed(face[2]):
        return by_name
    path, index, _family, _style = face
    if not path.name.lower().endswith((".ttc", ".otc")) or index == "0":
        return by_name
    options = f"Path={path.parent}/,FontIndex={index}"
    bold = fc_face(f"{family}:style=Bold")
    if (
        bold is not None
        and "bold" in bold[3].lower()
        and name in squashed(bold[2])
        and bold[0].parent == path.parent
        and bold[0] != path
    ):
        options += f",BoldFont={bold[0].name},BoldFeatures={{FontIndex={bold[1]}}}"
    else:
        guess = path.with_name(path.name.replace("-Regular", "-Bold"))
        if guess != path and guess.exists():
            options += f",BoldFont={guess.name},BoldFeatures={{FontIndex={index}}}"
    return {"name": Raw(path.name), "options": Raw(options)}


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
    setup: PrintSetup | None = None,
) -> tuple[str, list[Diagnostic]]:
    """The whole book as one LaTeX document.

    Without ``trusted`` (``--trust``), the book's raw TeX is screened
    (:mod:`.screen`); ``assets`` collects the files the document reads.
    """
    setup = setup or print_setup(book, cache)
    template = check_template(book, trusted)
    includes, problems = screened_includes(book, trusted)
    commands, environments = defined_names("\n".join(raw_latex(i) for i in includes))
    policy = Policy(trusted, commands, environments)
    assets = assets if assets is not None else Assets()
    fallbacks: dict[str, str] = {}
    fonts = setup.fonts
    main_font = str(fonts.named.get("mainfont") or fonts.serif[0])
    mono_font = str(fonts.named.get("monofont") or cjk_mono(fonts))
    blocks: Blocks = [raw_block("latex", DEFINITIONS)]
    parts = part_titles(docs, book.config.words)
    body_started = False
    for doc in docs:
        if doc.chapter.kind != "front" and not body_started:
            # The body's page 1: after the contents and the front-matter: chapters (옮긴이의
            # 말), which \frontmatter numbers i, ii, … and leaves unnumbered.
            blocks.append(raw_block("latex", "\\mainmatter"))
            body_started = True
        blocks += prepare(
            doc,
            book,
            cache,
            problems,
            fallbacks,
            main_font,
            setup,
            policy=policy,
            assets=assets,
            part=parts.get(doc.chapter.id, ""),
            mono_font=mono_font,
        )
    config = book.config
    groups = book_index(book, docs)
    if groups:  # 찾아보기, after the last chapter
        blocks.append(raw_block("latex", INDEX_MACROS + index_latex(groups, config.words)))
    settings = class_settings(config, book)
    problems += settings.diagnostics
    meta: dict[str, Any] = {
        "title": meta_value(config.title),
        "kobook": meta_value(template_variables(book, fallbacks, setup, settings)),
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
            highlight_option(),
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
