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

import copy
import hashlib
import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import __version__
from ..cache import Cache
from ..errors import Diagnostic, KobookError, Location
from ..korean.hangul import has_hangul
from ..load import Book, Chapter, Config
from ..load.config import key_line
from ..parse import Doc, api_version
from ..parse.ast import iter_nodes, keyval, raw_block, raw_inline, stringify, walk
from ..parse.pandoc import run_pandoc
from ..transform.leaks import html_leaks
from . import passes
from .common import atomic_output
from .fontcoverage import covers, fallback_family
from .fonts import resolve_fonts
from .latex_assets import convert_image, emoji_image
from .latex_meta import (
    BEGIN_INCLUDES,
    END_INCLUDES,
    ClassSettings,
    class_options,
    first_error,
    include_items,
    log_tail,
    preamble_includes,
    template_packages,
)
from .layout import page_layout
from .templates import BUILTIN

Blocks = list[dict[str, Any]]
CHAPTER_MARK = "%% kobook-chapter: "


def latex_escape(text: str) -> str:
    table = {
        "\\": r"\textbackslash{}",
        "{": r"\{",
        "}": r"\}",
        "#": r"\#",
        "$": r"\$",
        "%": r"\%",
        "&": r"\&",
        "_": r"\_",
        "^": r"\^{}",
        "~": r"\~{}",
    }
    return "".join(table.get(c, c) for c in text)


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


def callouts(blocks: Blocks) -> Blocks:
    """``Div.callout`` → the template's ``kocallout`` box with a bold title line."""

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
        inner = walk(body, action)
        heading = [{"t": "Para", "c": [{"t": "Strong", "c": title}]}] if title else []
        return [
            raw_block("latex", f"\\begin{{kocallout}}[kocallout-{kind}]"),
            *heading,
            *inner,
            raw_block("latex", "\\end{kocallout}"),
        ]

    return walk(blocks, action)


def spans(blocks: Blocks, cache: Cache, problems: list[Diagnostic], doc: Doc) -> Blocks:
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
            return raw_inline("latex", f"\\koemoji{{{image.as_posix()}}}")
        if "hangul" in classes:
            return [raw_inline("latex", "{\\sffamily "), *content, raw_inline("latex", "}")]
        if "caption-label" in classes:
            return [raw_inline("latex", "\\kocaptionlabel{"), *content, raw_inline("latex", "}")]
        return None

    return walk(blocks, action)


def images(blocks: Blocks, root: Path, cache: Cache) -> Blocks:
    for node in iter_nodes(blocks):
        if node["t"] == "Image":
            url = node["c"][2][0]
            path = (root / url) if not Path(url).is_absolute() else Path(url)
            if path.is_file():
                node["c"][2][0] = convert_image(path.resolve(), cache).as_posix()
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


def display_width(text: str) -> int:
    """Rough width in Latin-letter units (Hangul and other wide characters count 2)."""
    return sum(2 if ord(c) > 0x2E80 else 1 for c in text)


def table_widths(blocks: Blocks, line: int = 64) -> Blocks:
    """Give wide tables relative column widths so LaTeX wraps cells (``p{}`` columns).

    pandoc keeps pipe tables at their natural width, which runs off the page
    when the cells are long; browsers and WeasyPrint shrink tables on their own.
    """
    for node in iter_nodes(blocks):
        if node["t"] != "Table":
            continue
        colspecs = node["c"][2]
        if any(spec[1]["t"] != "ColWidthDefault" for spec in colspecs):
            continue
        widths = [0] * len(colspecs)
        rows = list(node["c"][3][1])
        for body in node["c"][4]:
            rows += body[3]
        for row in rows:
            for index, cell in enumerate(row[1][: len(widths)]):
                widths[index] = max(widths[index], display_width(stringify(cell[4])))
        total = sum(widths) + 3 * len(widths)
        if total <= line:
            continue
        shares = [max(w, 8) for w in widths]
        scale = 0.98 / sum(shares)
        for spec, share in zip(colspecs, shares, strict=True):
            spec[1] = {"t": "ColWidth", "c": round(share * scale, 4)}
    return blocks


def unnumbered_chapters(blocks: Blocks, doc: Doc) -> Blocks:
    """Headings in an unnumbered chapter are unnumbered too (LaTeX would print 0.1)."""
    if doc.chapter.number is None:
        for node in iter_nodes(blocks):
            if node["t"] == "Header" and "unnumbered" not in node["c"][1][1]:
                node["c"][1][1].append("unnumbered")
    return blocks


def prepare(
    doc: Doc,
    book: Book,
    cache: Cache,
    problems: list[Diagnostic],
    fallbacks: dict[str, str],
    main_font: str,
) -> Blocks:
    blocks = copy.deepcopy(doc.blocks)
    blocks = unnumbered_chapters(blocks, doc)
    blocks = equations(blocks)
    blocks = callouts(blocks)
    blocks = passes.upright_hangul(blocks)
    blocks = passes.code_languages(blocks)
    blocks = passes.emoji(blocks)
    blocks = spans(blocks, cache, problems, doc)
    blocks = images(blocks, book.root, cache)
    blocks = table_widths(blocks)
    if book.config.language in XECJK_LANGUAGES:
        blocks = cjk_spaces(blocks)
    blocks = fallback_fonts(blocks, main_font, fallbacks)
    return [raw_block("latex", f"{CHAPTER_MARK}{doc.chapter.id}"), *blocks]


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
    math_path = "" if math_font else stix_math_font()
    return {
        "mathfont": Raw(str(math_font or "")),
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
        "mainfont": fontspec_font(str(fonts.named.get("mainfont") or hangul_serif)),
        "sansfont": fontspec_font(str(fonts.named.get("sansfont") or hangul_sans)),
        "monofont": fontspec_font(str(fonts.named.get("monofont") or hangul_mono)),
        "CJKmainfont": fontspec_font(str(fonts.named.get("CJKmainfont") or hangul_serif)),
        "CJKsansfont": fontspec_font(str(fonts.named.get("CJKsansfont") or hangul_sans)),
        "CJKmonofont": fontspec_font(str(fonts.named.get("CJKmonofont") or hangul_mono)),
        "fallbackfonts": [{"family": Raw(f), "command": Raw(c)} for f, c in fallbacks.items()],
        "keepall": config.line_breaking == "word",
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
        "translators": ", ".join(config.translators),
        "plaintitle": config.title,
        "plainauthors": ", ".join(config.authors),
        "shorttitle": config.title,
        "original": original,
        "version": __version__,
    }


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
    out = subprocess.run(
        ["fc-match", "--format=%{file}|%{index}|%{family}|%{style}", pattern],
        capture_output=True,
        text=True,
        check=False,
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


def stix_math_font() -> str:
    """STIX Two Math as shipped inside ziamath (a dependency): no system font needed."""
    import ziamath

    path = Path(ziamath.__file__).parent / "fonts" / "STIXTwoMath-Regular.ttf"
    return str(path) if path.is_file() else ""


def template_path(book: Book) -> Path:
    own = book.root / "templates" / "latex" / "book.latex"
    return own if own.is_file() else BUILTIN / "latex" / "book.latex"


KOMA_STARRED = re.compile(
    r"\\(chapter|section|subsection)\*\{((?:[^{}]|\{[^{}]*\})*)\}"
    r"\\addcontentsline\{toc\}\{\1\}\{(?:[^{}]|\{[^{}]*\})*\}"
)


def render_latex(book: Book, docs: list[Doc], cache: Cache) -> tuple[str, list[Diagnostic]]:
    """The whole book as one LaTeX document."""
    problems: list[Diagnostic] = []
    fallbacks: dict[str, str] = {}
    fonts = resolve_fonts(book.config)
    main_font = str(fonts.named.get("mainfont") or fonts.serif[0])
    blocks: Blocks = []
    for doc in docs:
        blocks += prepare(doc, book, cache, problems, fallbacks, main_font)
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
            f"--template={template_path(book)}",
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
    latex, found = insert_includes(latex, book)
    return latex, problems + found


INCLUDES_MARK = "%% kobook-header-includes"


def insert_includes(latex: str, book: Book) -> tuple[str, list[Diagnostic]]:
    """Put ``header-includes`` where the template has ``$header-includes$``.

    Packages the preamble above them loads already are left out (TEX004, see
    :func:`latex_meta.preamble_includes`); their options are passed to them
    before ``\\documentclass``.
    """
    config = book.config
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
                "templates/latex/book.latex",
                "warning",
            )
        ]
    index = lines.index(INCLUDES_MARK)
    cjk = "xecjk" if config.language in XECJK_LANGUAGES else "kotex"
    loaded = template_packages("\n".join(lines[:index]))
    result = preamble_includes(config.get("header-includes"), loaded, cjk=cjk, location=where)
    lines[index : index + 1] = (
        [BEGIN_INCLUDES, result.latex, END_INCLUDES] if result.latex.strip() else []
    )
    if result.early:
        start = next((i for i, t in enumerate(lines) if t.startswith("\\documentclass")), 0)
        lines[start:start] = [result.early]
    return "\n".join(lines), result.diagnostics


MISSING = re.compile(r"Missing character: There is no (.) \(U\+([0-9A-F]+)\) in font ([^!]+)!")


def run_xelatex(tex: Path) -> subprocess.CompletedProcess[str]:
    latexmk = shutil.which("latexmk")
    if latexmk:
        command = [
            latexmk,
            "-xelatex",
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-file-line-error",
            "-f-",
            tex.name,
        ]
    else:
        command = [
            "xelatex",
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-file-line-error",
            tex.name,
        ]
    return subprocess.run(
        command, cwd=tex.parent, capture_output=True, text=True, errors="replace", check=False
    )


def chapter_at(latex: str, line: int) -> str:
    """The chapter id whose marker is closest above ``line`` of the LaTeX source."""
    chapter = ""
    for number, text in enumerate(latex.splitlines(), 1):
        if number > line:
            break
        if text.startswith(CHAPTER_MARK):
            chapter = text[len(CHAPTER_MARK) :].strip()
    return chapter


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
    own = template_path(book) != BUILTIN / "latex" / "book.latex"
    template = Location(template_path(book)) if own else Location()
    template_name = "templates/latex/book.latex" if own else "kobook's LaTeX template"
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
    chapter_id = chapter_at("\n".join(lines), line)
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
    return Location(chapter.path, chapter.source_line(1))


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


def write_pdf(
    book: Book, docs: list[Doc], out: Path, cache: Cache, *, keep_going: bool = False
) -> list[Diagnostic]:
    """Write ``out`` with XeLaTeX; return warnings.  Needs xelatex (TeX Live) installed."""
    if shutil.which("xelatex") is None:
        raise KobookError(
            "xelatex is not installed",
            code="TEX003",
            hint="bash scripts/install-system-deps.sh --tex (TeX Live XeLaTeX and ko.TeX), "
            "or use --engine weasyprint",
        )
    latex, problems = render_latex(book, docs, cache)
    problems += html_leaks(docs, "xelatex")  # LEAK002: raw HTML it cannot draw
    base = cache.root or Path(".kobook-cache")
    key = hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:12]
    workdir = base / "latex" / key
    workdir.mkdir(parents=True, exist_ok=True)
    tex = workdir / "book.tex"
    previous = tex.read_text(encoding="utf-8") if tex.exists() else None
    if previous != latex:
        tex.write_text(latex, encoding="utf-8")
    proc = run_xelatex(tex)
    log_path = workdir / "book.log"
    log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else ""
    pdf = workdir / "book.pdf"
    if proc.returncode != 0 or not pdf.exists():
        raise latex_error(log or proc.stdout, latex, book, log_path)
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
