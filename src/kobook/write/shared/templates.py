"""Jinja2 environment: built-in templates, overridden file by file from ``templates/``.

A book's ``templates/`` comes with its sources, from strangers' pull requests
too, so it is held to the book's boundary: a template (or the folder) that is
a symlink leading out of the book is SEC001, and templates render in Jinja's
sandbox, where ``{{ ''.__class__ }}`` tricks cannot reach Python, files or the
network.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from ...boundary import inside
from ...errors import Diagnostic, KobookError, Location

BUILTIN = Path(__file__).resolve().parents[2] / "templates"  # kobook/templates


# A book's templates that are code: what runs in a reader's browser (scripts, the pages
# and the EPUB's XHTML around the text, SVG) or in the Typst compiler.  Style sheets are
# not code; the LaTeX template is screened where it is read (SEC003).
CODE_SUFFIXES = (".js", ".html", ".html.j2", ".xhtml", ".svg", ".typ")


def is_code(name: str) -> bool:
    return name.lower().endswith(CODE_SUFFIXES)


class BookLoader(jinja2.FileSystemLoader):
    """A :class:`jinja2.FileSystemLoader` for the book's ``templates/`` that reads only
    files resolving inside the book (symlinks followed), and the templates that are code
    only when the build trusts the book (``--trust``): else kobook's own are used."""

    def __init__(self, folder: Path, root: Path, trusted: bool = False) -> None:
        super().__init__(str(folder))
        self.root = root
        self.trusted = trusted

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        if not self.trusted and is_code(template):
            raise jinja2.TemplateNotFound(template)  # kobook's own, from the next loader
        source, filename, uptodate = super().get_source(environment, template)
        inside(Path(filename), self.root, what="template", file=filename)
        return source, filename, uptodate


class BookEnvironment(SandboxedEnvironment):
    """Jinja's sandbox, with what it refuses reported as SEC004 (not a traceback)."""

    def unsafe_undefined(self, obj: Any, attribute: str) -> jinja2.Undefined:
        raise refused(f"'{attribute}' of a {type(obj).__name__} value")

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        if not __self.is_safe_callable(__obj):
            raise refused(f"a call to {type(__obj).__name__}")
        return __context.call(__obj, *args, **kwargs)

    def handle_exception(self, source: str | None = None) -> NoReturn:
        """A mistake in a template is TPL001 at the template's file and line, not a traceback."""
        try:
            super().handle_exception(source)
        except KobookError:
            raise
        except Exception as exc:  # rewritten by Jinja: its frames carry template lines
            error = template_error(exc)
            if error is None:
                raise
            raise error from None


def template_error(exc: Exception) -> KobookError | None:
    """TPL001 naming the template and line where ``exc`` happened (None: not in one)."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        where: tuple[str, int] | None = (exc.filename or exc.name or "", exc.lineno)
        what = f"has a syntax error: {exc.message}"
    else:
        where = template_frame(exc)
        kind = "" if isinstance(exc, jinja2.TemplateError) else f"{type(exc).__name__}: "
        what = f"failed: {kind}{exc}"
    if where is None:
        return None
    file, line = where
    builtin = Path(file).resolve().is_relative_to(BUILTIN) if file else False
    return KobookError(
        f"template {Path(file).name if file else ''} {what}",
        code="TPL001",
        file=file or None,
        line=line,
        hint="this is kobook's own template: please report it, with your metadata.yaml"
        if builtin
        else "fix this template in templates/, or delete it to use kobook's own",
    )


def template_frame(exc: BaseException) -> tuple[str, int] | None:
    """The innermost traceback frame that is template code (Jinja names it after the file)."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not name.endswith(".py") and not name.startswith("<"):
            found = (name, tb.tb_lineno)
        tb = tb.tb_next
    return found


def refused(what: str) -> KobookError:
    return KobookError(
        f"a template in templates/ uses {what}, which templates may not reach",
        code="SEC004",
        hint="templates render in a sandbox: print the values kobook passes them "
        "(title, chapters, words ...), nothing of Python itself",
    )


def environment(
    project: Path, finalize: Callable[[Any], Any] | None = None, *, trusted: bool = False
) -> jinja2.Environment:
    """Templates from the book's ``templates/`` first, then kobook's own; ``finalize``
    turns every ``{{ … }}`` value into the template's language (Typst's literals).  The
    book's templates that are code are used only when ``trusted`` (:func:`untrusted`)."""
    loaders: list[jinja2.BaseLoader] = []
    own = project / "templates"
    if own.is_dir():
        inside(own, project, what="templates folder", file=own)
        loaders.append(BookLoader(own, project, trusted))
    loaders.append(jinja2.FileSystemLoader(str(BUILTIN)))
    return BookEnvironment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=jinja2.select_autoescape(["html", "j2"], default_for_string=False),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=finalize,
    )


def untrusted(project: Path, trusted: bool) -> list[Diagnostic]:
    """SEC005 for each template of the book's ``templates/`` that is code and is left
    unused because the build does not trust the book (nothing without ``--trust``)."""
    own = project / "templates"
    if trusted or not own.is_dir():
        return []
    return [
        Diagnostic(
            "SEC005",
            f"template {path.relative_to(project).as_posix()} is code (it runs in readers' "
            "browsers or in the Typst compiler) and is not used without --trust; "
            "kobook's own is used",
            Location(path),
            "build with --trust only when you trust every file of the book; style sheets "
            "(extra.css) need no trust",
            "warning",
        )
        for path in sorted(own.rglob("*"))
        if path.is_file() and is_code(path.name)
    ]
