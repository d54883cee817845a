"""Which dialect a repository is written in (``kobook import --from auto``).

Each dialect knows its own signs (``Dialect.detect``: distill's
``_config.yml`` and ``layout: distill`` posts, mdBook's ``book.toml`` and
``src/SUMMARY.md``); the pandoc dialect ("markdown") is what is left: Markdown
chapters kobook's own discovery finds (``book/*.md``, one big file).  They are
asked in that order, most specific first, so a Jekyll site's top-level posts
are never taken for a plain Markdown book.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..dialect import Dialect, get_dialect
from ..errors import KobookError
from ..load.discover import discover
from ..model import Config

# ``--from`` names → the ``dialect:`` value kobook builds with.
DIALECT_OF = {
    "distill": "distill",
    "mdbook": "mdbook",
    "mkdocs": "mkdocs",
    "quarto": "quarto",
    "bookdown": "bookdown",
    "markdown": "pandoc",
}
FROM_CHOICES = ("auto", *DIALECT_OF)
# What each one looks for, for the error when nothing matches.
LOOKED_FOR = {
    "distill": "a Jekyll distill site (_config.yml and pages with 'layout: distill' front matter)",
    "mdbook": "an mdBook book (book.toml and src/SUMMARY.md)",
    "mkdocs": "an MkDocs site (mkdocs.yml and its docs/ folder)",
    "quarto": "a Quarto book (_quarto.yml with a book: section)",
    "bookdown": "a bookdown book (_bookdown.yml, or index.Rmd with site: bookdown)",
    "markdown": "a pandoc Markdown book (book/*.md, or Markdown files at the top of the folder)",
}


@dataclass(frozen=True)
class Detection:
    """The repository's format: ``name`` as ``--from`` says it, ``dialect`` as metadata does."""

    name: str  # distill | mdbook | markdown
    dialect: str  # distill | mdbook | pandoc
    reason: str  # what gave it away, printed by the import


def dialect_named(name: str) -> Dialect:
    """The dialect behind a ``--from`` name (``markdown`` is the pandoc dialect)."""
    return get_dialect(DIALECT_OF[name])


def sign_of(name: str, root: Path) -> str | None:
    """Why ``root`` looks like ``name``'s repository, or None."""
    if name == "markdown":
        dialect = dialect_named(name)
        stated = dialect.metadata(root)
        sources = {"chapters": dialect.stated_in(root)} if stated.get("chapters") else {}
        found = discover(root, Config(raw=stated, sources=sources))
        if not found.files:
            return None
        return found.reason.split(" (")[0]
    return dialect_named(name).detect(root)


def detect(root: Path, wanted: str = "auto") -> Detection:
    """The dialect ``wanted`` names (checked against the repository), or the first that fits.

    IMP003: ``--from`` names a format whose signs are missing; IMP002: no
    format fits.  Both say what was looked for.
    """
    if wanted != "auto":
        if wanted not in DIALECT_OF:
            raise KobookError(
                f"unknown format '{wanted}'",
                code="IMP003",
                hint="--from " + " | ".join(FROM_CHOICES),
            )
        reason = sign_of(wanted, root)
        if reason is None:
            raise KobookError(
                f"{root} does not look like {LOOKED_FOR[wanted]}",
                code="IMP003",
                file=root,
                hint="check the folder, or leave out --from to let kobook tell the format",
            )
        return Detection(wanted, DIALECT_OF[wanted], reason)
    for name in DIALECT_OF:
        reason = sign_of(name, root)
        if reason is not None:
            return Detection(name, DIALECT_OF[name], reason)
    looked = "; ".join(LOOKED_FOR.values())
    raise KobookError(
        f"cannot tell what kind of book {root} is: looked for {looked}",
        code="IMP002",
        file=root,
        hint="point kobook import at the repository's top folder, or name the format "
        "with --from " + " | ".join(DIALECT_OF),
    )
