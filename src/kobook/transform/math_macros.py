"""Macros defined inside math (``\\def``, ``\\newcommand``) hold for the rest of the chapter.

On a MathJax or KaTeX page (every distill site) a ``\\def\\blue#1{...}`` in
one display formula defines ``\\blue`` for every formula after it.  pandoc's
MathML (texmath) knows no ``\\def`` at all, ziamath forgets it at the end of
the formula, and XeLaTeX at the end of its group: each output would print
``\\blue{GH}`` as an error or as raw TeX.  This pass reads the definitions in
document order, removes them from the formulas, and expands every use, so each
output receives plain TeX it can draw.

The sources are untrusted and macros are a classic bomb (``\\def\\a{\\b\\b}``
nine levels deep is 2⁹ copies per use; ``\\def\\a{\\a}`` never ends): the
expansion stops after :data:`~kobook.limits.MAX_MATH_EXPANSIONS` expansions
or :data:`~kobook.limits.MAX_MATH_CHARS` characters of one formula (LIMIT009),
and that formula is shown as its source in code style.

The clean-ups at the end (:func:`for_mathml`, :func:`without_size_switches`)
are for the renderers that do not know a command (texmath: ``\\textcolor``
and the text size switches; ziamath: the size switches); XeLaTeX knows both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .. import limits
from ..errors import KobookError
from ..model import Doc
from ..parse.ast import attr, rewrite
from .context import Context

TOKEN = re.compile(r"\\[A-Za-z]+|\\.|#[1-9#]|\s+|.", re.DOTALL)
DEFINERS = {"\\def", "\\gdef", "\\edef", "\\xdef"}
COMMANDS = {"\\newcommand", "\\renewcommand", "\\providecommand"}
OPERATORS = {"\\DeclareMathOperator"}


class MacroError(ValueError):
    """A formula's macros expand past a limit (a loop or a bomb), or the formula itself is
    past one; ``hint`` says what to do when it is not about macros."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


TOO_BIG = "split the formula, or show it as an image; no book needs one this large"


@dataclass(frozen=True)
class Macro:
    """A macro as defined: its parameter count, body tokens and optional first argument."""

    params: int
    body: tuple[str, ...]
    default: tuple[str, ...] | None = None  # \newcommand{\x}[2][default]{...}


Macros = dict[str, Macro]


def tokenize(tex: str) -> list[str]:
    """TeX tokens as strings: control sequences, ``#1``, spaces, single characters."""
    return TOKEN.findall(tex)


def untokenize(tokens: list[str]) -> str:
    """Join tokens, keeping a control word apart from a letter that follows it."""
    out: list[str] = []
    previous = ""
    for token in tokens:
        if previous[:1] == "\\" and previous[1:].isalpha() and token[:1].isalpha():
            out.append(" ")
        out.append(token)
        previous = token
    return "".join(out)


class Reader:
    """Tokens still to read, as a stack (the next token last): an expansion pushes its
    body in front of the rest without copying the rest, so the work stays linear."""

    def __init__(self, tokens: list[str]) -> None:
        self.stack = list(reversed(tokens))
        self.taken: list[str] | None = None  # read since :meth:`mark`, to give back

    def next(self) -> str | None:
        if not self.stack:
            return None
        token = self.stack.pop()
        if self.taken is not None:
            self.taken.append(token)
        return token

    def mark(self) -> None:
        self.taken = []

    def give_back(self) -> None:
        """Put back what was read since :meth:`mark` (a definition kobook cannot read)."""
        self.push(self.taken or [])
        self.taken = None

    def push(self, tokens: list[str] | tuple[str, ...]) -> None:
        self.stack.extend(reversed(tokens))

    def skip_spaces(self) -> None:
        while self.stack and self.stack[-1].isspace():
            self.next()

    def peek(self) -> str | None:
        return self.stack[-1] if self.stack else None

    def group(self) -> list[str] | None:
        """After ``{`` was read: the tokens up to its matching ``}`` (None: unclosed)."""
        depth = 1
        inner: list[str] = []
        while (token := self.next()) is not None:
            if token == "{":
                depth += 1
            elif token == "}":
                depth -= 1
                if depth == 0:
                    return inner
            inner.append(token)
        return None

    def argument(self) -> list[str] | None:
        """One undelimited argument: a braced group (without its braces) or one token."""
        self.skip_spaces()
        token = self.next()
        if token is None or token == "}":
            return None
        if token == "{":
            return self.group()
        return [token]

    def optional(self) -> list[str] | None:
        """``[...]`` if it comes next (braces inside it may hold ``]``)."""
        self.skip_spaces()
        if self.peek() != "[":
            return None
        self.next()
        inner: list[str] = []
        depth = 0
        while (token := self.next()) is not None:
            if token == "]" and depth == 0:
                return inner
            depth += {"{": 1, "}": -1}.get(token, 0)
            inner.append(token)
        return None


def read_definition(command: str, reader: Reader) -> tuple[str, Macro] | None:
    """Read the rest of a definition after ``command``; None when its form is not one
    kobook knows (delimited parameters, a missing body): it is then left as written."""
    if command in DEFINERS:
        reader.skip_spaces()
        name = reader.next()
        params = 0
        while (token := reader.peek()) is not None and token != "{":
            if token.isspace():
                reader.next()
            elif token == f"#{params + 1}":
                reader.next()
                params += 1
            else:
                return None  # \def\a#1.{...}: delimited parameters
        if reader.next() != "{" or (body := reader.group()) is None:
            return None
        default = None
    else:
        reader.skip_spaces()
        if reader.peek() == "*":
            reader.next()
        name_tokens = reader.argument()
        if not name_tokens or len([t for t in name_tokens if not t.isspace()]) != 1:
            return None
        name = next(t for t in name_tokens if not t.isspace())
        if command in OPERATORS:
            text = reader.argument()
            if text is None:
                return None
            return name, Macro(0, ("\\operatorname", "{", *text, "}"))
        count = reader.optional()
        default_tokens = reader.optional() if count is not None else None
        body = reader.argument()
        if body is None:
            return None
        try:
            params = int("".join(count).strip()) if count is not None else 0
        except ValueError:
            return None
        default = tuple(default_tokens) if default_tokens is not None else None
    if name is None or not name.startswith("\\") or not 0 <= params <= 9:
        return None
    return name, Macro(params, tuple(body), default)


def substitute(macro: Macro, args: list[list[str]]) -> list[str]:
    """The body with ``#n`` replaced by the arguments (``##`` is one ``#``)."""
    out: list[str] = []
    for token in macro.body:
        if token == "##":
            out.append("#")
        elif token[:1] == "#" and token[1:].isdigit() and int(token[1:]) <= len(args):
            out += args[int(token[1:]) - 1]
        else:
            out.append(token)
    return out


def expand(tex: str, macros: Macros) -> str:
    """``tex`` with its definitions removed (added to ``macros``, which the caller keeps
    for the next formulas) and every known macro expanded, TeX's way: the result of an
    expansion is read again, so a macro may use another one.

    Raises :class:`MacroError` past :data:`limits.MAX_MATH_EXPANSIONS` expansions or
    :data:`limits.MAX_MATH_CHARS` characters of output.
    """
    if "\\" not in tex:
        return tex
    reader = Reader(tokenize(tex))
    out: list[str] = []
    size = 0
    expansions = 0
    while (token := reader.next()) is not None:
        if token in DEFINERS or token in COMMANDS or token in OPERATORS:
            reader.mark()
            found = read_definition(token, reader)
            if found is None:
                reader.give_back()  # not a form kobook reads: left as written
            else:
                reader.taken = None
                name, macro = found
                if token != "\\providecommand" or name not in macros:
                    macros[name] = macro
                continue
        elif token in macros:
            expansions += 1
            if expansions > limits.MAX_MATH_EXPANSIONS:
                raise MacroError(
                    f"math macros expand more than {limits.MAX_MATH_EXPANSIONS} times"
                    " (a macro that uses itself?)"
                )
            macro = macros[token]
            args: list[list[str]] = []
            start = 0
            if macro.default is not None:
                given = reader.optional()
                args.append(given if given is not None else list(macro.default))
                start = 1
            for _ in range(start, macro.params):
                arg = reader.argument()
                args.append(arg if arg is not None else [])
            body = substitute(macro, args)
            if len(reader.stack) + len(body) > limits.MAX_MATH_CHARS:
                raise MacroError(f"math macros expand past {limits.MAX_MATH_CHARS} characters")
            reader.push(body)
            continue
        out.append(token)
        size += len(token)
        if size > limits.MAX_MATH_CHARS:
            raise MacroError(f"math macros expand past {limits.MAX_MATH_CHARS} characters")
    return untokenize(out)


def nesting(tex: str) -> int:
    """How deep ``tex``'s groups nest: ``{…}`` and ``\\left…\\right`` (escaped braces not)."""
    deepest = depth = 0
    for token in TOKENS.findall(tex):
        if token in ("{", "\\left"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in ("}", "\\right"):
            depth -= 1
    return deepest


TOKENS = re.compile(r"\\left(?![A-Za-z])|\\right(?![A-Za-z])|\\.|[{}]")


def expand_math_macros(doc: Doc, ctx: Context) -> Doc:
    """Expand the chapter's math macros in document order (see the module docstring).

    A formula that only defined macros disappears; one whose expansion runs past a
    limit is LIMIT009 and stays as its source in code style (never drawn).
    """
    macros: Macros = {}
    seen: dict[str, int] = {}

    def action(node: dict[str, Any]) -> Any:
        if node["t"] != "Math":
            return None
        tex = node["c"][1]
        occurrence = seen.get(tex, 0)
        seen[tex] = occurrence + 1
        try:
            if len(tex) > limits.MAX_MATH_CHARS:  # as written, before anything reads it
                raise MacroError(
                    f"a formula of more than {limits.MAX_MATH_CHARS} characters", TOO_BIG
                )
            if nesting(tex) > limits.MAX_MATH_DEPTH:  # before any renderer recurses into it
                raise MacroError(f"math nests deeper than {limits.MAX_MATH_DEPTH} groups", TOO_BIG)
            expanded = expand(tex, macros)
            if expanded != tex:  # one budget with the book's includes
                ctx.book.expansion.spend(len(expanded.encode("utf-8")), "math macros", ())
        except (MacroError, KobookError) as exc:
            limit = exc.code if isinstance(exc, KobookError) else "LIMIT009"
            ctx.problem(
                doc.chapter,
                limit,
                exc.diagnostic.message if isinstance(exc, KobookError) else str(exc),
                needle=tex.strip().splitlines()[0] if tex.strip() else "",
                occurrence=occurrence,
                hint=getattr(exc, "hint", "")
                or "define fewer levels of macros; a macro must not use itself",
            )
            return {"t": "Code", "c": [attr("", ["math-error"]), tex.strip()]}
        if expanded == tex:
            return None
        if not expanded.strip():
            return []  # only definitions
        return {"t": "Math", "c": [node["c"][0], expanded]}

    doc.blocks = rewrite(doc.blocks, action)
    return doc


# --- Clean-ups for the renderers that lack a command -----------------------------

SIZE_SWITCHES = [
    "tiny",
    "scriptsize",
    "footnotesize",
    "small",
    "normalsize",
    "large",
    "Large",
    "LARGE",
    "huge",
    "Huge",
]
SIZE_SWITCH = re.compile(r"\\(?:" + "|".join(SIZE_SWITCHES) + r")(?![A-Za-z])\s*")


def without_size_switches(tex: str) -> str:
    """``\\small x`` and ``\\small{x}`` → ``x``-sized as usual: text size switches are not
    math (LaTeX warns, MathJax obeys); texmath rejects them and ziamath ignores them."""
    return SIZE_SWITCH.sub("", tex)


TEXTNORMAL = re.compile(r"\\textnormal(?![A-Za-z])")


def for_mathml(tex: str) -> str:
    """TeX that texmath (pandoc's MathML) reads: no size switches, ``\\textnormal`` as
    ``\\textrm``, and ``\\textcolor{c}{x}`` as ``{\\color{c}{x}}`` (texmath keeps the ``x``)."""
    tex = TEXTNORMAL.sub(r"\\textrm", without_size_switches(tex))
    if "\\textcolor" not in tex:
        return tex
    reader = Reader(tokenize(tex))
    out: list[str] = []
    while (token := reader.next()) is not None:
        if token == "\\textcolor":
            color = reader.argument()
            body = reader.argument()
            if color is not None and body is not None:
                reader.push(["{", "\\color", "{", *color, "}", "{", *body, "}", "}"])
                continue
        out.append(token)
    return untokenize(out)
