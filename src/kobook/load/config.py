"""Read and validate ``metadata.yaml``.

The file is a pandoc metadata file first (so an existing translation's
``metadata.yaml`` works unchanged) with kobook's own keys beside pandoc's.  We
check types of the keys we know, suggest the right spelling for a misspelt one
("did you mean"), and keep every other key so it reaches pandoc untouched.
"""

from __future__ import annotations

import datetime
import difflib
import re
from pathlib import Path
from typing import Any

from ..errors import KobookError
from ..files.reading import read_yaml
from ..model.config import Config, key_line, sub_key_line
from ..model.pandocmeta import pandoc_forms
from ..write.registry import pdf_engines
from .schema import Where, check_nested

# key -> (accepted python types, description).  "str|list" keys are normalised to lists.
PANDOC_KEYS: dict[str, tuple[tuple[type, ...], str]] = {
    "title": ((str,), "book title"),
    "subtitle": ((str,), "subtitle"),
    "identifier": (
        (list,),
        "identifiers: [{scheme: ISBN, text: 978-…}] (the EPUB's dc:identifier)",
    ),
    "author": ((str, list), "author or list of authors"),
    "date": ((str, int, float, datetime.date), "date"),
    "lang": ((str,), "BCP 47 language, e.g. ko-KR"),
    "mainfont": ((str,), "Latin body font"),
    "CJKmainfont": ((str,), "Korean body font"),
    "sansfont": ((str,), "Latin sans font (headings)"),
    "CJKsansfont": ((str,), "Korean sans font (headings)"),
    "monofont": ((str,), "monospace font"),
    "CJKmonofont": ((str,), "Korean monospace font"),
    "mathfont": ((str,), "math font"),
    "fontsize": ((str, int, float), "body size, e.g. 10pt"),
    "linestretch": ((int, float, str), "line spacing factor, e.g. 1.6"),
    "papersize": ((str,), "a4, a5, b5, letter or 'WIDTH HEIGHT'"),
    "geometry": ((str, list), "margins, e.g. 'margin=2cm' or ['top=2cm', 'left=2.5cm']"),
    "toc": ((bool,), "print a table of contents"),
    "toc-depth": ((int,), "heading levels in the table of contents"),
    "numbersections": ((bool,), "number sections 1.1, 1.2, ..."),
    "colorlinks": ((bool,), "colour links"),
    "linkcolor": ((str,), "internal link colour"),
    "urlcolor": ((str,), "URL colour"),
    "citecolor": ((str,), "citation colour"),
    "documentclass": ((str,), "LaTeX document class"),
    "classoption": ((str, list), "LaTeX class options"),
    "header-includes": ((str, list), "raw LaTeX for the preamble"),
    "abstract": ((str,), "abstract"),
    "keywords": ((str, list), "keywords"),
    "description": ((str,), "description"),
    "rights": ((str,), "rights statement"),
    "publisher": ((str,), "publisher (the EPUB's dc:publisher, the copyright page's 펴낸곳)"),
    "subject": ((str, list), "subjects a store lists the book under"),
    "csl": ((str,), "citation style file"),
    "link-citations": ((bool,), "link citations to the bibliography"),
    "reference-section-title": ((str,), "title of the bibliography"),
}

KOBOOK_KEYS: dict[str, tuple[tuple[type, ...], str]] = {
    "chapters": ((list,), "chapter files, in order"),
    "front-matter": ((str, list), "chapters set before the body: 옮긴이의 말, 옮긴이 소개"),
    "translators": ((str, list), "translator or list of translators"),
    "original": ((dict,), "the original work: title, authors, url, licence"),
    "cover": ((str,), "cover image"),
    "repository": ((str,), "https address where the book's files are shown (links to them)"),
    "glossary": ((str,), "glossary file (default glossary.yaml)"),
    "bibliography": ((str, list), "BibTeX/CSL bibliography file(s)"),
    "engine": ((str,), "PDF engine: " + " or ".join(pdf_engines())),
    "chapter-level": ((int, str), "heading level that starts a chapter: 1, 2 or auto"),
    "dialect": ((str,), "the sources' format: pandoc (default), distill or mdbook"),
    "line-breaking": ((str,), "word (어절, default) or syllable"),
    "hyphenate": ((str, bool), "none (default: no hyphen in a Korean line) or latin"),
    "preface-title": ((str,), "title for text before the first chapter heading"),
    "captions": ((dict,), "caption words: figure, table, equation, listing"),
    "number-by-chapter": ((bool,), "number figures 3.2 (true) or 7 (false)"),
    "emoji-font": ((str,), "emoji font family"),
    "check": ((dict,), "kobook check settings"),
    "normalize": ((dict, bool), "build-time fixes: false, or {ignore: [KO007]}"),
    "particles": ((dict,), "extra readings for particle agreement"),
    "html": ((dict,), "HTML site settings: {search: false}"),
    "pdf": ((dict,), "PDF settings"),
    "epub": ((dict,), "EPUB settings: {embed-fonts: true}"),
    "remote-images": ((bool, str), "download http(s) images: on (default) or off"),
    "formats": ((str, list), "what 'kobook build' makes with no format: pdf, html, epub or all"),
    "upstream": ((dict,), "the original: {repository, ref, dialect, chapters} (kobook upstream)"),
    "edition": ((str, int), "edition on the copyright page, e.g. 초판 1쇄"),
    "print": ((bool,), "a print master: links in the text's colour in every PDF engine"),
    "index": ((bool, dict), "the index (찾아보기): false, or {glossary: true}"),
    "half-title": ((bool,), "open with a half-title page (약표제지); default: print: true"),
    "colophon": (
        (dict,),
        "the copyright page: {publisher-person, registration, address, contact, price}",
    ),
}

ORIGINAL_KEYS = {"title", "authors", "author", "url", "licence", "license", "year", "publisher"}
ORIGINAL_KEYS |= {"lang"}  # the original's language: untranslated text is marked with it
CAPTION_KEYS = {"figure", "table", "equation", "listing", "chapter", "section", "part", "appendix"}
CAPTION_KEYS |= {"contents", "preface", "references", "by", "translated-by", "original"}
CAPTION_KEYS |= {"licence", "missing-image", "index"}
CAPTION_KEYS |= {"separator", "period"}  # the house style of numbers


def load_config(path: Path) -> Config:
    """Read ``metadata.yaml`` (or return defaults when there is none)."""
    if not path.exists():
        return Config(raw={}, path=None)
    from ..boundary import inside  # a committed symlink must not read metadata from elsewhere

    inside(path, path.parent, what="metadata.yaml", file=path)
    data, text = read_yaml(path, "metadata", "CFG001")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise KobookError(
            "metadata must be a mapping of keys to values",
            code="CFG002",
            file=path,
            line=1,
        )
    validate(data, path, text)
    return Config(raw=data, path=path, text=text)


def validate(data: dict[str, Any], path: Path | None, text: str = "") -> None:
    """Check known keys' types, misspelt kobook keys, then the values (``schema.py``).

    Raises a :class:`KobookError` at the key's line for the first mistake found.
    pandoc's structured ``title``, ``creator`` and ``identifier`` are first read as
    kobook's plain keys (``model/pandocmeta.py``).
    """
    pandoc_forms(data)
    known = {**PANDOC_KEYS, **KOBOOK_KEYS}
    for key, value in data.items():
        key = str(key)
        if key in known:
            types, what = known[key]
            # YAML booleans are ints to Python: reject them where a bool is not meant.
            wrong_bool = isinstance(value, bool) and bool not in types
            if value is not None and (wrong_bool or not isinstance(value, types)):
                raise KobookError(
                    f"'{key}' should be {type_names(types)} ({what}), not {type(value).__name__}",
                    code="CFG003",
                    file=path,
                    line=key_line(text, key),
                    hint=f"example: {key}: {example(key)}",
                )
            if value is not None:  # ``key:`` with nothing after it: the default
                check_value(key, value, path, text)
            continue
        close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.75)
        if close:
            raise KobookError(
                f"unknown key '{key}': did you mean '{close[0]}'?",
                code="CFG004",
                file=path,
                line=key_line(text, key),
                hint=f"rename it to '{close[0]}' ({known[close[0]][1]})",
            )
        # Any other key is a pandoc variable we do not know: keep it.
    # Then what is inside the values (schema.py), once every key has the right type.
    at = Where(path, text)
    for key, value in data.items():
        check_nested(str(key), value, at)


def check_value(key: str, value: Any, path: Path | None, text: str) -> None:
    """Value-level checks for the keys whose values are a closed set."""
    line = key_line(text, key)

    def fail(message: str, hint: str) -> None:
        raise KobookError(message, code="CFG005", file=path, line=line, hint=hint)

    engines = pdf_engines()  # the registry's names: no writer is imported
    if key == "engine" and value not in engines:
        close = difflib.get_close_matches(str(value), engines, n=1)
        fail(
            f"engine '{value}' is not one of {', '.join(engines)}",
            f"did you mean '{close[0]}'?" if close else "use " + " or ".join(engines),
        )
    if key == "dialect":
        from ..dialect import DIALECTS

        if value not in DIALECTS:
            close = difflib.get_close_matches(str(value), list(DIALECTS), n=1)
            fail(
                f"dialect '{value}' is not one of {', '.join(DIALECTS)}",
                f"did you mean '{close[0]}'?" if close else "dialect: " + " | ".join(DIALECTS),
            )
    if key == "line-breaking" and value not in ("word", "syllable"):
        fail(f"line-breaking '{value}' is not 'word' or 'syllable'", "use word (어절 단위)")
    if key == "hyphenate" and value not in ("none", "latin", False):
        fail(
            f"hyphenate '{value}' is not 'none' or 'latin'",
            "use latin to hyphenate English words at the end of a loose line",
        )
    if key == "chapter-level" and value not in (1, 2, 3, "auto"):
        fail(f"chapter-level '{value}' must be 1, 2, 3 or auto", "use 2 for one big file")
    if key == "chapters" and not all(isinstance(v, str) for v in value):
        fail("'chapters' must be a list of file names", "chapters:\n  - book/01-intro.md")
    if key == "original":
        for sub in value:
            if sub not in ORIGINAL_KEYS:
                close = difflib.get_close_matches(str(sub), sorted(ORIGINAL_KEYS), n=1)
                fail(
                    f"unknown key 'original.{sub}'"
                    + (f": did you mean 'original.{close[0]}'?" if close else ""),
                    "original takes: " + ", ".join(sorted(ORIGINAL_KEYS)),
                )
        url = value.get("url")
        if url not in (None, "") and not is_web_url(url):
            # Printed as a link on the title page of the site and both PDFs.
            raise KobookError(
                f"original.url must be an http(s) address, not {str(url)[:80]!r}",
                code="CFG005",
                file=path,
                line=sub_key_line(text, key, "url"),
                hint='original: {url: https://example.org/the-book} (spaces and <>"{}\\ '
                "percent-encoded)",
            )
    if key == "captions":
        for sub in value:
            if sub not in CAPTION_KEYS:
                close = difflib.get_close_matches(str(sub), sorted(CAPTION_KEYS), n=1)
                fail(
                    f"unknown key 'captions.{sub}'"
                    + (f": did you mean 'captions.{close[0]}'?" if close else ""),
                    "captions takes: " + ", ".join(sorted(CAPTION_KEYS)),
                )
    if key == "toc-depth" and isinstance(value, bool):
        fail("'toc-depth' should be a number", "toc-depth: 2")
    # YAML reads a bare on/off as true/false; quoted, they stay text.
    if key == "remote-images" and value not in (True, False, "on", "off"):
        fail(f"remote-images '{value}' is not on or off", "remote-images: off")


WEB_URL = re.compile(r"https?://[^\x00-\x20\x7f<>\"{}|\\^`/?#]+[^\x00-\x20\x7f<>\"{}|\\^`]*", re.I)


def is_web_url(value: Any) -> bool:
    """An ``http(s)://host...`` address with nothing a link or ``\\url{}`` could choke on."""
    return isinstance(value, str) and WEB_URL.fullmatch(value) is not None


def type_names(types: tuple[type, ...]) -> str:
    names = {str: "text", list: "a list", dict: "a mapping", bool: "true/false", int: "a number"}
    return " or ".join(names.get(t, t.__name__) for t in types)


def example(key: str) -> str:
    examples = {
        "chapters": "[book/01-intro.md, book/02-memory.md]",
        "toc": "true",
        "toc-depth": "2",
        "numbersections": "true",
        "original": "{title: The Ultra-Scale Playbook, url: https://...}",
        "fontsize": "10pt",
        "linestretch": "1.6",
    }
    return examples.get(key, '"..."')
