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
from pathlib import Path
from typing import Any

from .. import __version__
from ..cache import Cache
from ..errors import Diagnostic, KobookError, Location
from ..korean.hangul import has_hangul
from ..load import Book
from ..parse import Doc, api_version
from ..parse.ast import iter_nodes, keyval, raw_block, raw_inline, stringify, walk
from ..parse.pandoc import run_pandoc
from . import passes
from .common import atomic_output
from .fontcoverage import covers, fallback_family
from .fonts import resolve_fonts
from .latex_assets import convert_image, emoji_image
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


def template_variables(book: Book, fallbacks: dict[str, str]) -> dict[str, Any]:
    config = book.config
    fonts = resolve_fonts(config)
    layout = page_layout(config)
    hangul_serif = next((f for f in fonts.serif if f != config.get("mainfont")), fonts.serif[0])
    hangul_sans = next((f for f in fonts.sans if f != config.get("sansfont")), fonts.sans[0])
    hangul_mono = next((f for f in fonts.mono if f != config.get("monofont")), fonts.mono[0])
    size = layout.font_size
    original = config.original
    classoption = config.get("classoption") or []
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
        "mainfont": fontspec_font(str(config.get("mainfont") or hangul_serif)),
        "sansfont": fontspec_font(str(config.get("sansfont") or hangul_sans)),
        "monofont": fontspec_font(str(config.get("monofont") or hangul_mono)),
        "CJKmainfont": fontspec_font(str(config.get("CJKmainfont") or hangul_serif)),
        "CJKsansfont": fontspec_font(str(config.get("CJKsansfont") or hangul_sans)),
        "CJKmonofont": fontspec_font(str(config.get("CJKmonofont") or hangul_mono)),
        "fallbackfonts": [{"family": Raw(f), "command": Raw(c)} for f, c in fallbacks.items()],
        "keepall": config.line_breaking == "word",
        "numbersections": config.numbersections,
        "tocdepth": str(config.toc_depth - 1),
        "chapterword": config.captions["chapter"],
        "accent": "1F4E8C",
        "linkcolor": hex_color(config.get("linkcolor"), "1F4E8C"),
        "urlcolor": hex_color(config.get("urlcolor"), "1F4E8C"),
        "colorlinks": bool(config.get("colorlinks", True)),
        "classoption": classoption if isinstance(classoption, list) else [classoption],
        "authors": ", ".join(config.authors),
        "translators": ", ".join(config.translators),
        "plaintitle": config.title,
        "plainauthors": ", ".join(config.authors),
        "shorttitle": config.title,
        "original": original,
        "version": __version__,
    }


def fontspec_font(family: str) -> dict[str, str]:
    """How fontspec should load ``family``: by name, or by file and index for a face
    inside a collection (XeTeX takes the first face of a .ttc, the Japanese one
    for Noto CJK, when asked by name)."""
    if shutil.which("fc-match") is None:
        return {"name": Raw(family), "options": Raw("")}
    out = subprocess.run(
        ["fc-match", "--format=%{file}|%{index}|%{family}", family],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    parts = out.split("|")
    in_collection = len(parts) == 3 and parts[0].lower().endswith((".ttc", ".otc"))
    squashed = family.lower().replace(" ", "")
    if in_collection and parts[1] != "0" and squashed in parts[2].lower().replace(" ", ""):
        path = Path(parts[0])
        bold = path.with_name(path.name.replace("-Regular", "-Bold"))
        options = f"Path={path.parent}/,FontIndex={parts[1]}"
        if bold != path and bold.exists():
            options += f",BoldFont={bold.name},BoldFeatures={{FontIndex={parts[1]}}}"
        return {"name": Raw(path.name), "options": Raw(options)}
    return {"name": Raw(family), "options": Raw("")}


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
    main_font = str(book.config.get("mainfont") or fonts.serif[0])
    blocks: Blocks = []
    for doc in docs:
        blocks += prepare(doc, book, cache, problems, fallbacks, main_font)
    config = book.config
    meta: dict[str, Any] = {
        "title": meta_value(config.title),
        "kobook": meta_value(template_variables(book, fallbacks)),
        "toc": meta_value(config.toc),
    }
    if config.get("subtitle"):
        meta["subtitle"] = meta_value(config.get("subtitle"))
    if config.get("date"):
        meta["date"] = meta_value(str(config.get("date")))
    includes = config.get("header-includes")
    if includes:
        items = includes if isinstance(includes, list) else [includes]
        meta["header-includes"] = {
            "t": "MetaList",
            "c": [{"t": "MetaBlocks", "c": [raw_block("latex", str(i))]} for i in items],
        }
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
    return latex, problems


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


def latex_error(log: str, latex: str, book: Book) -> KobookError:
    """The first LaTeX error, with the chapter (and source line when it can be found)."""
    match = re.search(r"^(?:\S+\.tex):(\d+): (.+)$", log, re.M) or re.search(r"^! (.+)$", log, re.M)
    message = match.group(match.lastindex or 1) if match else "XeLaTeX failed"
    line = int(match.group(1)) if match and match.lastindex == 2 else 0
    context = ""
    if line:
        context = latex.splitlines()[line - 1] if line <= len(latex.splitlines()) else ""
    chapter_id = chapter_at(latex, line) if line else ""
    chapter = next((c for c in book.chapters if c.id == chapter_id), None)
    file, source_line = (chapter.path, chapter.source_line(1)) if chapter else (None, 0)
    if chapter and context:
        words = re.findall(r"[\w가-힣]{3,}", context)
        for word in words:
            found = chapter.locate(word)
            if found is not None:
                source_line = found.line
                break
    return KobookError(
        f"XeLaTeX: {message.strip()}"
        + (f" (LaTeX line {line}: {context.strip()[:120]})" if context else ""),
        code="TEX001",
        file=file,
        line=source_line,
        hint="the full log is in .kobook-cache/latex/; try --engine weasyprint to compare",
    )


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
        raise latex_error(log or proc.stdout, latex, book)
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
