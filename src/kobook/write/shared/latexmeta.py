"""pandoc's LaTeX metadata for the XeLaTeX engine, and what a LaTeX log says went wrong.

Existing translation repositories carry pandoc metadata written for pandoc's
default template: ``header-includes`` (a string, a list, or fenced
```` ```{=latex} ```` blocks), ``documentclass`` and ``classoption``.  kobook
typesets with KOMA-Script's ``scrbook`` and its own preamble, so:

* ``header-includes`` reach the preamble as LaTeX, after kobook's own set-up.
  Packages the template loads already, or that clash with it (``fancyhdr``,
  ``titlesec``, ``geometry``, ``ctex``, ...), are left out with a warning that
  says what kobook does instead; the lines that use their commands go too,
  since keeping them without the package would break the build.
* ``classoption`` values kobook can honour (``oneside``, ``openany``, paper and
  type size) are honoured; any other option and any other document class is
  named in a warning.
* A LaTeX failure is reduced to its first real error line, with the ``l.NNN``
  context line (:func:`first_error`).

Everything here is pure (text in, text and diagnostics out) so it is tested
without running XeLaTeX.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ...errors import Diagnostic, Location
from ...parse.ast import iter_nodes

# A fenced raw block (```{=latex} ... ```), the form pandoc users paste into YAML.
FENCE = re.compile(
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*\{=(?P<format>[\w-]+)\}[ \t]*\n"
    r"(?P<body>.*?)(?:^[ \t]*(?P=fence)[ \t]*$|\Z)",
    re.S | re.M,
)
# An inline raw span: `\usepackage{x}`{=latex}
INLINE_RAW = re.compile(r"`(?P<body>[^`\n]+)`\{=(?P<format>[\w-]+)\}")
USEPACKAGE = re.compile(
    r"\\(?P<command>usepackage|RequirePackage)\s*(?:\[(?P<options>[^\]]*)\])?\s*"
    r"\{(?P<names>[^{}]*)\}(?P<date>\s*\[[^\]]*\])?"
)
LATEX_FORMATS = {"latex", "tex", "beamer"}
BEGIN_INCLUDES = "% kobook: header-includes from the metadata"
END_INCLUDES = "% kobook: end of header-includes"


@dataclass(frozen=True)
class Instead:
    """A package kobook's template replaces: what it does instead, and the
    commands (regular expressions) that only work with the package."""

    instead: str
    commands: tuple[str, ...] = ()


FANCYHDR = Instead(
    "running heads come from KOMA-Script's scrlayer-scrpage (the book title on left "
    "pages, the chapter on right pages)",
    (
        r"\\fancy\w*",
        r"\\(?:this)?pagestyle\s*\{\s*fancy\w*\s*\}",
        r"\\[lcr](?:head|foot)\b",
        r"\\(?:head|foot)rule\w*",
    ),
)
TITLESEC = Instead(
    "headings are KOMA-Script's, styled by kobook (sans, numbered 3장/1.2)",
    (r"\\title(?:format|spacing|label|class|rule)\b\*?",),
)
GEOMETRY = Instead(
    "page size and margins come from papersize, geometry and fontsize in the metadata",
    (r"\\(?:new|restore)?geometry\b",),
)
HYPERREF = Instead(
    "kobook loads hyperref itself (links coloured by colorlinks, linkcolor and urlcolor); "
    "\\hypersetup lines still apply"
)
CTEX = Instead(
    "Chinese is set with xeCJK (lang: zh-CN or zh-TW) and kobook's own headings and "
    "words (第1章, 目录)",
    (r"\\ctexset\b", r"\\CTEX\w*"),
)
CJK = Instead(
    "CJK text is set by ko.TeX (Korean) or xeCJK (Chinese, Japanese); the CJK package "
    "is for pdfLaTeX",
    (r"\\(?:begin|end)\s*\{CJK\*?\}", r"\\CJKfamily\b"),
)
NOT_NEEDED = Instead("XeLaTeX reads UTF-8 and OpenType fonts (fontspec) without it")
XECJK_WITH_KOTEX = Instead(
    "Korean is set with ko.TeX (kotex), which xeCJK clashes with; fonts come from "
    "CJKmainfont, CJKsansfont and CJKmonofont in the metadata",
    (r"\\setCJK\w*", r"\\xeCJK\w*", r"\\newCJKfontfamily\b", r"\\CJKsetecglue\b"),
)
KOTEX_WITH_XECJK = Instead(
    "Chinese and Japanese books are set with xeCJK, which ko.TeX clashes with; the CJK "
    "font draws any Hangul",
    (r"\\(?:set|new)\w*(?:hangul|hanja)font\w*", r"\\XeKo\w*"),
)

REPLACED: dict[str, Instead] = {
    "fancyhdr": FANCYHDR,
    "titlesec": TITLESEC,
    "geometry": GEOMETRY,
    "hyperref": HYPERREF,
    "ctex": CTEX,
    "ctexcap": CTEX,
    "ctexheading": CTEX,
    "ctexsize": CTEX,
    "CJK": CJK,
    "CJKutf8": CJK,
    "inputenc": NOT_NEEDED,
    "fontenc": NOT_NEEDED,
}


class Preamble(NamedTuple):
    """``header-includes`` ready for the preamble.

    ``latex`` goes after kobook's preamble; ``early`` (``\\PassOptionsToPackage``
    lines for packages the template loads) goes before ``\\documentclass``.
    """

    latex: str
    early: str
    diagnostics: list[Diagnostic]


def include_items(value: Any) -> list[str]:
    """``header-includes`` as a list of strings (a string, a list, or nothing)."""
    if value is None or value == "" or value is False:
        return []
    items = value if isinstance(value, list) else [value]
    return [str(item) for item in items if item is not None and str(item).strip()]


def raw_latex(item: str) -> str:
    """The LaTeX in one ``header-includes`` item.

    A fenced ```` ```{=latex} ```` block gives its content, an inline
    ```` `...`{=latex} ```` span its text; raw blocks for other formats
    (``{=html}``) are for other outputs and give nothing; anything else is
    LaTeX as written.
    """
    text = item.replace("\r\n", "\n")

    def fenced(match: re.Match[str]) -> str:
        if match.group("format").lower() in LATEX_FORMATS:
            return match.group("body").rstrip("\n") + "\n"
        return ""

    def inline(match: re.Match[str]) -> str:
        return match.group("body") if match.group("format").lower() in LATEX_FORMATS else ""

    text = FENCE.sub(fenced, text)
    text = INLINE_RAW.sub(inline, text)
    return text.strip("\n")


def package_names(names: str) -> list[str]:
    return [n.strip() for n in re.sub(r"%[^\n]*", "", names).split(",") if n.strip()]


def strip_comment(line: str) -> str:
    """``line`` without its ``%`` comment (an escaped ``\\%`` is text)."""
    match = re.search(r"(?<!\\)(?:\\\\)*%", line)
    return line[: match.start()] if match else line


def brace_depth(text: str) -> int:
    code = re.sub(r"\\[{}\\]", "", strip_comment(text))
    return code.count("{") - code.count("}")


def statements(text: str) -> list[str]:
    """``text`` cut into lines, a command whose braces span lines kept as one piece."""
    out: list[str] = []
    current: list[str] = []
    depth = 0
    for line in text.split("\n"):
        current.append(line)
        depth += brace_depth(line)
        if depth <= 0:
            out.append("\n".join(current))
            current = []
            depth = 0
    if current:
        out.append("\n".join(current))
    return out


def replacements(cjk: str) -> dict[str, Instead]:
    """The packages left out for this CJK set-up (``kotex`` or ``xecjk``)."""
    table = dict(REPLACED)
    if cjk == "kotex":
        table["xeCJK"] = XECJK_WITH_KOTEX
        table["xeCJKfntef"] = XECJK_WITH_KOTEX
    else:
        for name in ("kotex", "xetexko", "cjk-ko"):
            table[name] = KOTEX_WITH_XECJK
    return table


@dataclass
class Dropped:
    """What was left out for one package."""

    package: str
    instead: str | None  # None: the template loads it already
    options: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def preamble_includes(
    value: Any,
    loaded: Iterable[str] = (),
    *,
    cjk: str = "kotex",
    location: Location | None = None,
) -> Preamble:
    """``header-includes`` (``value``) as LaTeX for a preamble that loads ``loaded``.

    ``\\usepackage`` of a package the template loads (``loaded``) or replaces
    (:data:`REPLACED`, plus xeCJK or kotex depending on ``cjk``) is left out
    with a TEX004 diagnostic; the options of a package the template loads are
    passed to it (``early``), and lines using a replaced package's commands are
    left out with it.  Other packages and other LaTeX pass through unchanged.
    """
    where = location or Location()
    text = "\n".join(raw_latex(item) for item in include_items(value))
    table = replacements(cjk)
    template = set(loaded)
    dropped: dict[str, Dropped] = {}
    for line in text.split("\n"):
        for match in USEPACKAGE.finditer(strip_comment(line)):
            options = [o.strip() for o in (match.group("options") or "").split(",") if o.strip()]
            for name in package_names(match.group("names")):
                if name in table or name in template:
                    instead = table.get(name)
                    entry = dropped.setdefault(
                        name, Dropped(name, instead.instead if instead else None)
                    )
                    entry.options += [o for o in options if o not in entry.options]

    def usepackage(match: re.Match[str]) -> str:
        names = package_names(match.group("names"))
        kept = [n for n in names if n not in dropped]
        if kept == names:
            return match.group(0)
        options = match.group("options")
        # hyperref is loaded already: its options still apply through \hypersetup.
        setup = f"\\hypersetup{{{options}}}" if "hyperref" in names and options else ""
        if not kept:
            return setup
        head = f"\\{match.group('command')}" + (f"[{options}]" if options else "")
        return f"{head}{{{','.join(kept)}}}{match.group('date') or ''}{setup}"

    out: list[str] = []
    for piece in statements(text):
        changed = USEPACKAGE.sub(usepackage, piece)
        if changed != piece and not strip_comment(changed).strip():
            continue  # the line was only the \usepackage we left out
        code = "\n".join(strip_comment(line) for line in changed.split("\n"))
        owner = next(
            (
                entry
                for entry in dropped.values()
                if entry.instead is not None
                and any(re.search(p, code) for p in table[entry.package].commands)
            ),
            None,
        )
        if owner is not None:
            owner.lines.append(changed.strip())
            continue
        out.append(changed)
    early: list[str] = []
    problems: list[Diagnostic] = []
    for entry in dropped.values():
        if entry.instead is None and entry.options:
            early.append(f"\\PassOptionsToPackage{{{','.join(entry.options)}}}{{{entry.package}}}")
        problems.append(dropped_diagnostic(entry, where))
    return Preamble("\n".join(out).strip("\n"), "\n".join(early), problems)


def dropped_diagnostic(entry: Dropped, where: Location) -> Diagnostic:
    options = f"[{','.join(entry.options)}]" if entry.options else ""
    command = f"\\usepackage{options}{{{entry.package}}}"
    if entry.instead is None:
        passed = f"; its options {options} are passed to it" if entry.options else ""
        return Diagnostic(
            "TEX004",
            f"header-includes: {command} was left out: kobook's LaTeX template loads "
            f"{entry.package} already{passed}",
            where,
            "remove the line from header-includes",
            "warning" if entry.options else "info",
        )
    used = ""
    if entry.lines:
        heads = [
            re.match(r"\\[A-Za-z]+\*?(?:\[[^\]\n]*\])?(?:\{[^{}\n]*\})?", line)
            for line in entry.lines
        ]
        names = list(dict.fromkeys(h.group(0) for h in heads if h))
        shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
        count = len(entry.lines)
        used = f" and {count} line{'s' if count > 1 else ''} using it ({shown})"
    if entry.package == "hyperref" and entry.options:
        used += " (its options go to \\hypersetup)"
    return Diagnostic(
        "TEX004",
        f"header-includes: {command}{used} left out: {entry.instead}",
        where,
        "remove them from header-includes; to change the page design, copy kobook's "
        "templates/latex/book.latex into the book and edit it",
        "warning",
    )


def template_packages(preamble: str) -> set[str]:
    """Packages a rendered preamble loads with ``\\usepackage``/``\\RequirePackage``."""
    names: set[str] = set()
    for line in preamble.splitlines():
        for match in USEPACKAGE.finditer(strip_comment(line)):
            names.update(package_names(match.group("names")))
    if "bookmark" in names:
        names.add("hyperref")  # bookmark loads it
    return names


# ---------------------------------------------------------------- documentclass


KOMA_CLASSES = {"book", "scrbook", "report", "scrreprt"}
PAPERS = {
    "a4paper": "a4",
    "a5paper": "a5",
    "b5paper": "b5",
    "letterpaper": "letter",
    "legalpaper": "legal",
    "executivepaper": "executive",
}
CLASS_LANGUAGE = {
    "ctexbook": ("zh-CN", "Chinese is set with xeCJK when lang is zh-CN or zh-TW"),
    "ctexrep": ("zh-CN", "Chinese is set with xeCJK when lang is zh-CN or zh-TW"),
    "ctexart": ("zh-CN", "Chinese is set with xeCJK when lang is zh-CN or zh-TW"),
    "bxjsbook": ("ja", "Japanese is set with xeCJK when lang is ja"),
    "ltjsbook": ("ja", "Japanese is set with xeCJK when lang is ja"),
    "jsbook": ("ja", "Japanese is set with xeCJK when lang is ja"),
    "oblivoir": ("ko", "Korean is set with ko.TeX"),
}


@dataclass
class ClassSettings:
    """What kobook takes from ``documentclass`` and ``classoption``."""

    sides: str = "twoside"
    open: str = "right"
    paper: str | None = None
    fontsize: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def class_options(
    documentclass: Any,
    classoption: Any,
    *,
    language: str = "ko",
    location: Location | None = None,
    option_location: Location | None = None,
) -> ClassSettings:
    """Map ``classoption`` onto scrbook; name what cannot be honoured."""
    settings = ClassSettings()
    where = location or Location()
    name = str(documentclass or "").strip()
    if name and name not in KOMA_CLASSES:
        reason = "headings, running heads and the title page are kobook's own"
        hint = "remove documentclass, or copy templates/latex/book.latex into the book to change it"
        wanted = CLASS_LANGUAGE.get(name)
        if wanted:
            reason = wanted[1]
            if not language.startswith(wanted[0][:2]):
                hint = f"set lang: {wanted[0]} in metadata.yaml"
        settings.diagnostics.append(
            Diagnostic(
                "TEX004",
                f"kobook typesets with KOMA scrbook; documentclass {name} is ignored: {reason}",
                where,
                hint,
                "warning",
            )
        )
    if isinstance(classoption, list):
        options = [str(o) for o in classoption]
    else:
        options = str(classoption or "").split(",")
    ignored: list[str] = []
    for raw in options:
        option = raw.strip()
        key, _, value = option.partition("=")
        key, value = key.strip(), value.strip()
        if not option:
            continue
        if option in ("oneside", "twoside"):
            settings.sides = option
        elif option in ("openany", "openright"):
            settings.open = option.removeprefix("open")
        elif key == "open" and value in ("any", "right"):
            settings.open = value
        elif key == "twoside" and value in ("false", "true", "off", "on", "no", "yes"):
            settings.sides = "twoside" if value in ("true", "on", "yes") else "oneside"
        elif option in PAPERS:
            settings.paper = PAPERS[option]
        elif key == "paper" and value:
            settings.paper = value
        elif re.fullmatch(r"\d+(?:\.\d+)?pt", option):
            settings.fontsize = option
        elif key == "fontsize" and re.fullmatch(r"\d+(?:\.\d+)?pt", value):
            settings.fontsize = value
        else:
            ignored.append(option)
    if ignored:
        settings.diagnostics.append(
            Diagnostic(
                "TEX004",
                f"classoption {', '.join(ignored)} ignored: kobook honours oneside/twoside, "
                "openany/openright, a4paper/a5paper/b5paper/letterpaper and 10pt/11pt/12pt",
                option_location or where,
                "use papersize, fontsize and geometry in metadata.yaml for the page",
                "warning",
            )
        )
    return settings


# ---------------------------------------------------------------- other outputs


def ignored_latex(
    header_includes: Any, docs: Iterable[Any], outputs: list[str]
) -> list[Diagnostic]:
    """One TEX005 note when raw LaTeX exists and ``outputs`` (HTML, WeasyPrint) ignore it."""
    if not outputs:
        return []
    includes = len(include_items(header_includes))
    raw = sum(
        1
        for doc in docs
        for node in iter_nodes(doc.blocks)
        if node["t"] in ("RawBlock", "RawInline") and node["c"][0] in LATEX_FORMATS
    )
    if not includes and not raw:
        return []
    what = []
    if includes:
        what.append("header-includes")
    if raw:
        what.append(f"{raw} block{'s' if raw > 1 else ''} or command{'s' if raw > 1 else ''}")
    outputs_text = " and ".join(outputs) + (" outputs" if len(outputs) > 1 else " output")
    return [
        Diagnostic(
            "TEX005",
            f"raw LaTeX ({', '.join(what)}) is used only by the XeLaTeX engine; "
            f"the {outputs_text} ignore{'' if len(outputs) > 1 else 's'} it",
            Location(),
            "build with --engine xelatex to use it",
            "info",
        )
    ]


# ---------------------------------------------------------------- LaTeX logs


class LogError(NamedTuple):
    """The first error of a LaTeX log."""

    message: str
    file: str = ""  # the file TeX was reading (book.tex, a .sty), when the log says
    line: int = 0  # line in ``file``
    context: str = ""  # the "l.NNN ..." line: the input up to (and after) the error


FILE_LINE_ERROR = re.compile(r"^(?P<file>[^\s:!(][^:\n]*?\.\w+):(?P<line>\d+): (?P<message>.*)$")
BANG_ERROR = re.compile(r"^! (?P<message>.*)$")
CONTEXT = re.compile(r"^l\.(?P<line>\d+) ?(?P<text>.*)$")
LOG_WIDTH = 79  # TeX Live's max_print_line: longer log lines are wrapped


def first_error(log: str) -> LogError | None:
    """The first real error in ``log`` (``! ...`` or ``file:line: ...``), or None."""
    lines = log.splitlines()
    for index, line in enumerate(lines):
        match = FILE_LINE_ERROR.match(line) or BANG_ERROR.match(line)
        if not match:
            continue
        message = match.group("message")
        follow = index + 1
        # A message wrapped at the log width, then package continuation lines.
        while len(lines[follow - 1]) >= LOG_WIDTH and follow < len(lines) and lines[follow].strip():
            message += lines[follow]
            follow += 1
        while follow < len(lines) and re.match(r"^\([\w@-]+\)\s", lines[follow]):
            message += " " + re.sub(r"^\([\w@-]+\)\s+", "", lines[follow]).strip()
            follow += 1
        file = match.groupdict().get("file") or ""
        number = int(match.group("line")) if file else 0
        context = ""
        for look in range(follow, min(follow + 30, len(lines))):
            found = CONTEXT.match(lines[look])
            if found:
                number = number or int(found.group("line"))
                rest = lines[look + 1].strip() if look + 1 < len(lines) else ""
                context = f"l.{found.group('line')} {found.group('text').strip()}"
                if rest:
                    context += f" {rest}"
                break
            if FILE_LINE_ERROR.match(lines[look]) or BANG_ERROR.match(lines[look]):
                break
        return LogError(" ".join(message.split()), file.removeprefix("./"), number, context)
    return None


def log_tail(log: str, count: int = 3) -> str:
    """The last lines of a log that say something (for failures with no ``!`` line)."""
    useful = [
        line.strip()
        for line in log.splitlines()
        if line.strip() and not re.match(r"^(?:Latexmk|Rc files|Run number|===|\(|\))", line)
    ]
    telling = [line for line in useful if re.search(r"rror|[Ff]atal|[Ee]mergency|not found", line)]
    return " | ".join((telling or useful)[-count:])[:300]


def sides(config: Any) -> dict[str, bool]:
    """Two-sided, chapters on right-hand pages, unless ``classoption`` says ``oneside``
    or ``openany``: the same keys, read the same way, as the XeLaTeX engine's scrbook
    (an option it cannot honour is reported there, TEX004, not here)."""
    settings = class_options(config.get("documentclass"), config.get("classoption"))
    twoside = settings.sides == "twoside"
    return {"twoside": twoside, "openright": twoside and settings.open == "right"}
