"""The ``metadata.yaml`` that ``kobook import`` writes: what the repository states, explained.

Values come from the dialect (``Dialect.metadata``: ``book.toml``,
``_config.yml``, front matter), then from the repository's own papers: a
README line naming the translators, the licence file, ``*.bib`` files.  What
cannot be found is left as a commented line the translator fills in.  The text
is rendered key by key with a comment above each, so the file explains itself;
it is a pure function of the repository, so a second import writes the same
bytes (and then writes nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..dialect import Dialect, Layout
from ..dialect.mdbook.booktoml import read_book_toml
from ..errors import KobookError
from ..files.yamlread import parse_yaml
from ..lang import language_of, text_language
from ..load.config import is_web_url, validate
from ..load.discover import discover
from ..model import Config
from .detect import Detection

# Written first, in this order, each under its comment; any other key the dialect
# states follows (the dialect reads the repository at every build as well).
COMMENTS: dict[str, str] = {
    "title": "the book's title (the cover and the title page)",
    "subtitle": "printed under the title",
    "author": "the original's authors (with their affiliations when the source names them)",
    "translators": "who translated the book",
    "lang": "the language of the text (BCP 47): ko, ko-KR, en, ja ...",
    "chapters": "the chapter files in reading order",
    "bibliography": "BibTeX files the citations come from",
    "original": "the work this book translates: printed on the title page",
    "dialect": "the sources' format, read in place: pandoc, distill, mdbook, mkdocs, quarto, "
    "bookdown",
}
LICENCE_FILES = ("LICENSE", "LICENCE", "COPYING", "COPYRIGHT")
# A licence file's opening words → its SPDX identifier (checked in this order).
SPDX_GUESSES: list[tuple[str, str]] = [
    (r"\bMIT License\b|^MIT\b|Permission is hereby granted, free of charge", "MIT"),
    (r"Apache License.{0,40}Version 2\.0", "Apache-2.0"),
    (r"GNU AFFERO GENERAL PUBLIC LICENSE.{0,40}Version 3", "AGPL-3.0"),
    (r"GNU LESSER GENERAL PUBLIC LICENSE.{0,40}Version 3", "LGPL-3.0"),
    (r"GNU GENERAL PUBLIC LICENSE.{0,40}Version 3", "GPL-3.0"),
    (r"GNU GENERAL PUBLIC LICENSE.{0,40}Version 2", "GPL-2.0"),
    (r"Mozilla Public License.{0,20}(?:Version )?2\.0", "MPL-2.0"),
    (r"Attribution-NonCommercial-ShareAlike 4\.0", "CC-BY-NC-SA-4.0"),
    (r"Attribution-ShareAlike 4\.0", "CC-BY-SA-4.0"),
    (r"Attribution-NonCommercial 4\.0", "CC-BY-NC-4.0"),
    (r"Attribution 4\.0 International", "CC-BY-4.0"),
    (r"BSD 3-Clause|Redistribution and use in source and binary forms", "BSD-3-Clause"),
    (r"This is free and unencumbered software released into the public domain", "Unlicense"),
    (r"CC0 1\.0 Universal", "CC0-1.0"),
]
TRANSLATOR_LINE = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?\s*(?:번역(?:자)?|역자|옮긴이|translat(?:ed by|ors?|ion by))"
    r"\s*(?:\*\*|__)?\s*[:：]?\s*(?:\*\*|__)?\s*(?P<names>\S.*)$",
    re.IGNORECASE,
)
MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?^ {0,3}\1`*[ \t]*$", re.M | re.S)
FRONT = re.compile(r"\A---\n.*?\n(?:---|\.\.\.)[ \t]*\n", re.S)
MAX_GUESS_CHARS = 4_000_000  # enough text to tell a language; a huge book is not read whole
HANGUL_SYLLABLE = re.compile("[\uac00-\ud7a3]")


@dataclass
class Gathered:
    """The metadata found, and what the comments say about where it came from."""

    values: dict[str, Any] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)  # key → an extra comment line
    layout: Layout | None = None  # the dialect's chapter order, when it has one


def gather(root: Path, detection: Detection, dialect: Dialect) -> Gathered:
    """Everything ``metadata.yaml`` should say about ``root`` (a pure read)."""
    stated = {str(k): v for k, v in dialect.metadata(root).items()}
    if detection.name == "markdown":
        stated = {**one_file_front_matter(root), **stated}
    found = Gathered()
    values = found.values
    for key in ("title", "subtitle"):
        if isinstance(stated.get(key), str) and stated[key].strip():
            values[key] = " ".join(stated[key].split())
    authors = author_entries(stated.get("author"))
    if authors:
        values["author"] = authors
    translators = stated.get("translators") or toml_translators(root) or readme_translators(root)
    if translators:
        values["translators"] = translators
    layout = dialect.layout(root, Config(raw=dict(stated)))
    found.layout = layout
    files = layout.files() if layout is not None else discover(root, Config(raw=dict(stated))).files
    guessed = guess_language(files)
    lang = str(stated.get("lang") or "").strip()
    values["lang"] = lang or guessed
    if not lang:
        found.notes["lang"] = "guessed from the text: the repository names no language"
    elif guessed and language_of(lang) != language_of(guessed):
        found.notes["lang"] = f"the repository says {lang}, but the text reads as {guessed}"
    if layout is None:
        values["chapters"] = [relative(path, root) for path in files]
        if stated.get("chapters") and dialect.stated_in(root):
            found.notes["chapters"] = f"from {dialect.stated_in(root)}"
    else:
        found.notes["chapters"] = f"from {layout.reason}"
    bibliography = stated.get("bibliography") or bib_files(root)
    if bibliography:
        values["bibliography"] = bibliography
    original = original_work(root, stated, values)
    if original:
        values["original"] = original
    values["dialect"] = detection.dialect
    for key, value in stated.items():
        if key not in values and key not in COMMENTS and key != "original":
            values[key] = value
    return found


def author_entries(value: Any) -> list[Any]:
    """Authors as names, or ``{name, affiliations}`` where the source gives affiliations."""
    if value in (None, ""):
        return []
    items = value if isinstance(value, list) else [value]
    out: list[Any] = []
    for item in items:
        if isinstance(item, dict):
            name = " ".join(str(item.get("name") or "").split())
            if not name:
                continue
            affiliations = item.get("affiliations", item.get("affiliation"))
            if affiliations:
                out.append({"name": name, "affiliations": affiliation_names(affiliations)})
            else:
                out.append(name)
        elif str(item).strip():
            out.append(" ".join(str(item).split()))
    return out


def affiliation_names(value: Any) -> list[str]:
    """al-folio writes ``affiliations: {name: …}`` or a list of them; names only."""
    items = value if isinstance(value, list) else [value]
    names = []
    for item in items:
        name = item.get("name") if isinstance(item, dict) else item
        if name is not None and str(name).strip():
            names.append(" ".join(str(name).split()))
    return names


def author_names(authors: list[Any]) -> list[str]:
    return [str(a["name"]) if isinstance(a, dict) else str(a) for a in authors]


def one_file_front_matter(root: Path) -> dict[str, Any]:
    """A one-file pandoc book's YAML header: its metadata, as pandoc reads it."""
    from ..files.reading import read_source

    files = discover(root, Config(raw={})).files
    if len(files) != 1:
        return {}
    return dict(read_source(files[0]).meta)


def book_toml(root: Path) -> dict[str, Any]:
    """``book.toml`` parsed, or ``{}``: a broken one is reported where the book is read."""
    try:
        return read_book_toml(root)
    except (OSError, KobookError):
        return {}


def toml_translators(root: Path) -> list[str]:
    """``translators = [...]`` in ``book.toml``'s ``[book]`` (mdBook keeps unknown keys)."""
    book = book_toml(root).get("book")
    value = book.get("translators") if isinstance(book, dict) else None
    names = value if isinstance(value, list) else [value] if value else []
    return [" ".join(str(n).split()) for n in names if str(n).strip()]


def readme_translators(root: Path) -> list[str]:
    """Translators a README names on a line of their own (``번역: 홍길동, 김철수``)."""
    for path in sorted(root.glob("README*")):
        if not path.is_file():
            continue
        for line in path.read_text("utf-8", "replace").split("\n")[:200]:
            match = TRANSLATOR_LINE.match(line)
            if match:
                names = MD_LINK.sub(r"\1", match.group("names"))
                names = re.sub(r"[*_`]+", "", names)
                parts = re.split(r"\s*(?:,|、|·|/|;|\band\b|및)\s*", names)
                return [p.strip() for p in parts if p.strip()]
    return []


def guess_language(files: list[Path]) -> str:
    """The language of the prose (code and front matter left out), as a BCP 47 tag.

    Each paragraph is judged by its script (:func:`kobook.lang.text_language`:
    Hangul is Korean) and weighs its letters, a Hangul syllable as three (it
    writes as much as three Latin letters).  Korean wins from a tenth of the
    prose on: a translation in progress, its first chapters Korean and the
    rest still English, is a Korean book.
    """
    weights: dict[str, int] = {}
    read = 0
    for path in files:
        if read > MAX_GUESS_CHARS or not path.is_file():
            break
        text = path.read_text("utf-8", "replace").replace("\r\n", "\n")
        read += len(text)
        text = FENCE.sub("", FRONT.sub("", text))
        for paragraph in re.split(r"\n[ \t]*\n", text):
            letters = sum(1 for char in paragraph if char.isalpha())
            if letters:
                language = text_language(paragraph, "en")
                syllables = len(HANGUL_SYLLABLE.findall(paragraph))
                weights[language] = weights.get(language, 0) + letters + 2 * syllables
    if not weights:
        return "ko"
    if weights.get("ko", 0) * 10 >= sum(weights.values()):
        return "ko"
    return max(sorted(weights), key=lambda name: weights[name])


def bib_files(root: Path) -> list[str]:
    """``*.bib`` files where books keep them: the top, ``bibliography/``, al-folio's folder."""
    found: list[str] = []
    for pattern in ("*.bib", "bibliography/*.bib", "assets/bibliography/*.bib"):
        found += [relative(p, root) for p in sorted(root.glob(pattern)) if p.is_file()]
    return found


def original_work(root: Path, stated: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """``original:``: title, URL, licence and authors, from what the repository states."""
    given = stated.get("original")
    out: dict[str, Any] = dict(given) if isinstance(given, dict) else {}
    if values.get("title"):
        out.setdefault("title", values["title"])
    url = repository_url(root)
    if url and "url" not in out:
        out["url"] = url
    licence = licence_of(root)
    if licence and "licence" not in out and "license" not in out:
        out["licence"] = licence
    if values.get("author") and "authors" not in out and "author" not in out:
        out["authors"] = author_names(values["author"])
    if not is_web_url(out.get("url")):
        out.pop("url", None)
    order = ("title", "authors", "author", "url", "licence", "license")
    return {k: out[k] for k in sorted(out, key=lambda k: order.index(k) if k in order else 9)}


def repository_url(root: Path) -> str:
    """Where the original lives: mdBook's ``git-repository-url``, a Jekyll site's address."""
    return book_toml_url(root) or jekyll_url(root)


def book_toml_url(root: Path) -> str:
    """``[output.html] git-repository-url`` (else ``site-url``) of ``book.toml``."""
    output = book_toml(root).get("output")
    html = output.get("html") if isinstance(output, dict) else None
    for key in ("git-repository-url", "site-url"):
        value = html.get(key) if isinstance(html, dict) else None
        if isinstance(value, str) and is_web_url(value.strip()):
            return value.strip()
    return ""


def jekyll_url(root: Path) -> str:
    """``url`` + ``baseurl`` of a Jekyll ``_config.yml`` (read with kobook's guarded loader)."""
    path = root / "_config.yml"
    if not path.is_file():
        return ""
    try:
        data = parse_yaml(path.read_text("utf-8", "replace"), path, "_config.yml", "IMP009")
    except KobookError:
        return ""
    if not isinstance(data, dict) or not isinstance(data.get("url"), str):
        return ""
    base = data.get("baseurl")
    url = data["url"].rstrip("/") + ("/" + str(base).strip("/") if base else "")
    return url if is_web_url(url) else ""


def licence_of(root: Path) -> str:
    """The licence's SPDX identifier from the licence files (several: ``MIT OR Apache-2.0``).

    A licence the guesses do not know is named by its file's first line.
    """
    names: list[str] = []
    for path in sorted(root.iterdir()):
        stem = path.name.split(".")[0].upper()
        if not path.is_file() or not stem.startswith(LICENCE_FILES):
            continue
        head = path.read_text("utf-8", "replace")[:2000]
        guess = next(
            (spdx for pattern, spdx in SPDX_GUESSES if re.search(pattern, head, re.I | re.S)),
            None,
        )
        if guess is None and stem.startswith("COPYRIGHT"):
            continue  # a copyright notice, not a licence
        if guess is None:
            guess = next((line.strip() for line in head.split("\n") if line.strip()), "")[:80]
        if guess and guess not in names:
            names.append(guess)
    return " OR ".join(names)


def relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def render(found: Gathered, header: str) -> str:
    """The YAML text: a header, then each key under its comment (loads with ``load_config``)."""
    values, notes = found.values, dict(found.notes)
    out = [f"# {line}".rstrip() for line in header.split("\n")]
    keys = [k for k in COMMENTS if k in values or k in ("translators", "chapters")]
    keys += [k for k in values if k not in COMMENTS]
    for key in keys:
        out.append("")
        comment = COMMENTS.get(key, "stated by the repository")
        if key == "chapters" and key not in values and key in notes:
            comment = notes.pop(key)  # "from src/SUMMARY.md": the dialect orders them
        out.append(f"# {key}: {comment}")
        if key in notes:
            out.append(f"# ({notes[key]})")
        if key in values:
            out.append(dump({key: values[key]}).rstrip("\n"))
        elif key == "translators":
            out.append("# translators: [이름]  (not named in the repository: fill in)")
        elif key == "chapters":
            out.append("# (list them here to choose the chapters and their order yourself)")
    return "\n".join(out) + "\n"


def dump(value: dict[str, Any]) -> str:
    return yaml.safe_dump(
        plain(value), allow_unicode=True, sort_keys=False, default_flow_style=False, width=100
    )


def plain(value: Any) -> Any:
    """Values YAML can write: a path a dialect hands over becomes its text."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Path):
        return value.as_posix()
    return value


def checked(text: str, path: Path) -> str:
    """``text`` as kobook's own loader reads and validates it (a bug here is IMP007)."""
    try:
        data = parse_yaml(text, path, "metadata", "CFG001")
        if not isinstance(data, dict):
            raise KobookError("metadata is not a mapping", code="CFG002", file=path)
        validate(data, path, text)
    except KobookError as error:
        raise KobookError(
            f"the metadata kobook import made does not validate: {error}",
            code="IMP007",
            file=path,
            hint="a value in the repository's own files is unusual: please report it; "
            "write metadata.yaml by hand meanwhile",
        ) from None
    return text
