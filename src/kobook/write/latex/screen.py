"""Raw LaTeX from the book, screened before XeLaTeX sees it (unless ``--trust``).

Everything a book hands to XeLaTeX as TeX can run TeX: raw LaTeX blocks and
commands in chapters, math, ``header-includes`` and a LaTeX template in
``templates/``.  XeLaTeX itself runs with kpathsea in paranoid mode (no file
outside its working folder is read or written) and without shell escape, but
xdvipdfmx, which writes the PDF, reads any file a ``\\special`` names
(``pdf:fstream`` embeds it), and TeX can build command names from text.  So,
for builds that do not pass ``--trust``:

* raw LaTeX in chapters is off: only a short list of layout commands
  (:data:`CHAPTER_COMMANDS`: ``\\newpage``, ``\\vspace``, ``\\textbf`` ...) and
  the macros ``header-includes`` define pass; anything else is left out with
  SEC003 (file and line);
* math, ``header-includes`` and the book's LaTeX template must not use what
  reads or writes files, runs programs or builds command names
  (:func:`refusal`): math that does becomes its source in code type,
  a ``header-includes`` item is left out, a template is an error.

``--trust`` (for a book whose every source you trust) passes all of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...errors import Diagnostic
from ...model import Chapter
from ...parse.ast import attr, walk
from ..shared.latexmeta import LATEX_FORMATS

# Words that, inside a command name, mean files, programs or command names built from
# text: \input, \include, \openin, \write18, \immediate\write, \read, \IfFileExists,
# \filedump, \XeTeXpdffile, \catcode, \lccode, \csname, \scantokens, \special, \ExplSyntaxOn,
# \@nameuse, \UseName, \directlua, \ShellEscape, \primitive ...
REFUSED_WORDS = (
    "input",
    "include",
    "open",
    "write",
    "read",
    "file",
    "catcode",
    "lccode",  # \lccode + \lowercase{\begin{anput}} spells \begin{input}
    "uccode",
    "csname",
    "scantokens",
    "special",
    "expl",
    "nameuse",
    "namedef",
    "usename",
    "expandargs",
    "lua",
    "shell",
    "primitive",
)
# Reads only images, and XeTeX's kpathsea refuses absolute and ../ paths for those.
NOT_REFUSED = frozenset({"includegraphics"})
# etoolbox's \csuse, \csdef, \letcs, \ifcsdef ...: command names from text.
CS_FAMILY = re.compile(r"^(?:if|g?let)?cs", re.IGNORECASE)
# A control word (letters are Unicode letters in XeTeX, and @ after \makeatletter) or
# a control symbol.
CONTROL = re.compile(r"\\((?:[^\W\d_]|@)+|.)", re.DOTALL)
# \begin and \end take an environment name, which LaTeX turns into a command name:
# only a plain name is safe.
ENVIRONMENT = re.compile(r"\\(begin|end)(?![^\W\d_])(\s*\{([A-Za-z]+\*?)\})?")

# Raw LaTeX a chapter may use without --trust: page layout and text style.
CHAPTER_COMMAND_NAMES = """
newpage clearpage cleardoublepage pagebreak nopagebreak linebreak nolinebreak newline
noindent indent par vspace hspace vfill hfill smallskip medskip bigskip
centering raggedright raggedleft tiny scriptsize footnotesize small normalsize large
Large LARGE huge Huge textbf textit textsl textsc texttt textsf textrm textup textmd
textnormal emph underline bfseries itshape slshape scshape ttfamily sffamily rmfamily
mdseries upshape normalfont ldots dots textbackslash LaTeX TeX today thispagestyle
pagestyle tableofcontents listoffigures listoftables appendix frontmatter mainmatter
backmatter label ref pageref eqref item hline textwidth linewidth columnwidth textheight
baselineskip parindent parskip quad qquad enspace enskip thinspace nobreakspace
"""
CHAPTER_COMMANDS = frozenset(CHAPTER_COMMAND_NAMES.split()) | frozenset(
    "\\ ,;:!%&#$_{}-/'`\"^~.=[]()|"
)
CHAPTER_ENVIRONMENT_NAMES = "center flushleft flushright quote quotation itemize enumerate"
CHAPTER_ENVIRONMENTS = frozenset(CHAPTER_ENVIRONMENT_NAMES.split()) | {"description", "minipage"}

# What header-includes define: their names are allowed in chapters too.
DEFINED_COMMAND = re.compile(
    r"\\(?:(?:re)?newcommand|providecommand|DeclareRobustCommand|DeclareMathOperator"
    r"|(?:New|Renew|Provide|Declare)DocumentCommand)\*?\s*\{?\s*\\([A-Za-z]+)"
    r"|\\(?:[gex]?def|let)\s*\\([A-Za-z]+)"
)
DEFINED_ENVIRONMENT = re.compile(
    r"\\(?:(?:re)?newenvironment|newtheorem|(?:New|Renew)DocumentEnvironment)\*?\s*"
    r"\{([A-Za-z]+\*?)\}"
)


def refused_name(name: str) -> bool:
    """True for a command name that reads, writes or runs something, or builds names."""
    if name in NOT_REFUSED:
        return False
    lower = name.lower()
    return any(word in lower for word in REFUSED_WORDS) or bool(CS_FAMILY.match(lower))


def refusal(tex: str) -> str:
    """What in ``tex`` is refused without ``--trust`` ("" when nothing is).

    For math, header-includes and templates: any TeX except commands that read
    or write files, run programs or build command names from text (see
    :data:`REFUSED_WORDS`), ``^^`` character codes, and ``\\begin``/``\\end``
    with anything but a plain environment name.
    """
    if "^^" in tex:
        return "^^ (a character code that can spell any command)"
    for match in CONTROL.finditer(tex):
        if refused_name(match.group(1)):
            return f"\\{match.group(1)}"
    for match in ENVIRONMENT.finditer(tex):
        name = match.group(3)
        if name is None or refused_name(name):
            return f"\\{match.group(1)} with a computed environment name"
    return ""


def chapter_refusal(tex: str, commands: frozenset[str], environments: frozenset[str]) -> str:
    """What in a chapter's raw LaTeX is not allowed without ``--trust`` ("" when all is).

    ``commands`` and ``environments`` are what ``header-includes`` define
    (:func:`defined_names`), allowed beside :data:`CHAPTER_COMMANDS`.
    """
    refused = refusal(tex)
    if refused:
        return refused
    for match in CONTROL.finditer(tex):
        name = match.group(1)
        if name in ("begin", "end"):
            continue
        if name not in CHAPTER_COMMANDS and name not in commands:
            return f"\\{name}"
    for match in ENVIRONMENT.finditer(tex):
        name = match.group(3) or ""
        if name.rstrip("*") not in CHAPTER_ENVIRONMENTS and name not in environments:
            return f"\\{match.group(1)}{{{name}}}"
    return ""


def defined_names(tex: str) -> tuple[frozenset[str], frozenset[str]]:
    """The commands and environments ``tex`` (header-includes) defines."""
    commands = {a or b for a, b in DEFINED_COMMAND.findall(tex)}
    environments = set(DEFINED_ENVIRONMENT.findall(tex))
    return frozenset(commands), frozenset(environments)


# pandoc template partials: $name()$, ${ name() }, $var:name()$ read files by name.
PARTIAL = re.compile(r"\$\{?\s*(?:[\w.-]+:)?([^\s$(){}:]+)\(\)")


def template_partials(template: str) -> list[str]:
    """The partial names a pandoc template uses (``common.latex``, ``../x``)."""
    return PARTIAL.findall(template)


TRUST_HINT = (
    "kobook build --trust passes a book's raw LaTeX to XeLaTeX as it is: use it only when "
    "you trust every source (never for pull requests from strangers)"
)


@dataclass(frozen=True)
class Policy:
    """What raw TeX from the chapters may reach XeLaTeX in this build."""

    trusted: bool = False
    commands: frozenset[str] = frozenset()  # defined by header-includes
    environments: frozenset[str] = frozenset()


def screen_blocks(
    blocks: list[Any], chapter: Chapter, policy: Policy, problems: list[Diagnostic]
) -> list[Any]:
    """Chapter raw LaTeX and math as :data:`Policy` allows (SEC003 for what is left out).

    Raw LaTeX not allowed is dropped; math that is refused is shown as its
    source in code type (never dropped silently).
    """
    if policy.trusted:
        return blocks
    reported: set[int] = set()  # one SEC003 per source line (\openin5 is three raw pieces)

    def report(what: str, text: str, refused: str, done: str) -> None:
        first = next((line.strip() for line in text.split("\n") if line.strip()), text)
        where = chapter.locate(first) or chapter.locate(refused.split(" ", 1)[0])
        if where is not None and where.line in reported:
            return
        if where is not None:
            reported.add(where.line)
        problems.append(
            Diagnostic(
                "SEC003",
                f"{what} {done} without --trust: {refused} ({first[:60]})",
                where or chapter.where(1),
                TRUST_HINT + ". Allowed without it: \\newpage, \\clearpage, \\vspace, "
                "text styles, and the macros header-includes define",
                "warning",
            )
        )

    def action(node: dict[str, Any]) -> Any:
        kind = node["t"]
        if kind in ("RawBlock", "RawInline") and node["c"][0] in LATEX_FORMATS:
            text = node["c"][1]
            refused = chapter_refusal(text, policy.commands, policy.environments)
            if refused:
                report("raw LaTeX", text, refused, "left out of the PDF")
                return []
        elif kind == "Math":
            text = node["c"][1]
            refused = refusal(text)
            if refused:
                report("math", text, refused, "printed as its source")
                return {"t": "Code", "c": [attr("", ["math-error"]), text]}
        return None

    return walk(blocks, action)
