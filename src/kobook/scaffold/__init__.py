"""``kobook init``: a new book that builds at once, with its CI.

The skeleton lives as package data in ``skeleton/`` (shipped like
``templates/``): ``metadata.yaml`` with the common keys set or commented, a
sample book of two chapters per language (a figure, cross-references, a
callout, math, a footnote, a citation, a table), ``references.bib``,
``glossary.yaml``, ``.gitignore`` and the release workflow
``.github/workflows/book.yml``.  Dot files are stored without their dot
(``gitignore``, ``book.yml``): package globs skip hidden files.

:func:`skeleton` is pure (relative path → bytes), :func:`init_book` writes it.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path

from ..boundary import inside
from ..cache import atomic_write
from ..errors import KobookError
from ..lang.words import Words, language_of
from ..write.shared.fonts import SANS_BY_LANGUAGE, SERIF_BY_LANGUAGE

CHAPTERS = ("01-intro.md", "02-next.md")  # in skeleton/LANG/, written to book/


@dataclass(frozen=True)
class Language:
    """What the skeleton says in each language ``kobook init --lang`` knows; the words the
    build prints (References, Preface, Figure) and the fonts come from kobook's own tables
    (:mod:`kobook.lang.words`, :mod:`kobook.write.shared.fonts`)."""

    tag: str  # metadata ``lang:``
    title: str
    author: str
    translator: str

    def values(self) -> dict[str, str]:
        """The skeleton's placeholders for this language."""
        language = language_of(self.tag)
        words = Words(language)
        cjk = language if language in SERIF_BY_LANGUAGE else "ko"  # en: Hangul quotes
        return {
            "LANG": self.tag,
            "AUTHOR": self.author,
            "TRANSLATOR": self.translator,
            "REFERENCES": words.word("references"),
            "PREFACE": words.word("preface"),
            "FIGURE": words.affix("figure")[0].strip(),
            "CJKFONT": SERIF_BY_LANGUAGE[cjk][0],
            "CJKSANS": SANS_BY_LANGUAGE[cjk][0],
        }


LANGUAGES = {
    "ko": Language("ko-KR", "새 책", "지은이", "옮긴이"),
    "en": Language("en-US", "A New Book", "Author", "Translator"),
    "ja": Language("ja-JP", "新しい本", "著者", "訳者"),
    "zh": Language("zh-CN", "新书", "作者", "译者"),
}

# Written from the skeleton as it is: package-data name → path in the book.
COMMON = {
    "references.bib": "references.bib",
    "images/pipeline.png": "images/pipeline.png",
    "gitignore": ".gitignore",
}
WORKFLOW = ".github/workflows/book.yml"
PLACEHOLDER = re.compile(r"@[A-Z_]+@")
# What may go into the workflow's YAML string as it is: no quotes, no ${{ }}, no newline.
SAFE_REQUIREMENT = re.compile(r"^[A-Za-z0-9_.\-]+(?:==[A-Za-z0-9_.+!\-]+| @ [^\s\"'\\${}]+)?$")


def skeleton_text(name: str) -> str:
    return resources.files(__package__).joinpath("skeleton", name).read_text("utf-8")


def skeleton_bytes(name: str) -> bytes:
    return resources.files(__package__).joinpath("skeleton", name).read_bytes()


def fill(text: str, values: dict[str, str]) -> str:
    """Replace ``@KEY@`` placeholders; one left over is a bug in the skeleton."""
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    left = PLACEHOLDER.search(text)
    if left:
        raise AssertionError(f"skeleton placeholder not filled: {left.group()}")
    return text


def requirement_from(direct_url: str | None, version: str) -> str:
    """The pip requirement that installs this kobook again, in CI.

    kobook is not on PyPI yet, so a plain ``kobook==X`` only works once it is.
    pip records where a package came from (PEP 610 ``direct_url.json``): from
    git, that is the repository and the exact commit, which CI can install.
    A local folder or a wheel file means nothing on GitHub's machines: then
    the version, and the README says what to change.
    """
    fallback = f"kobook=={version}"
    try:
        data = json.loads(direct_url or "null")
    except ValueError:
        return fallback
    if not isinstance(data, dict) or not isinstance(data.get("url"), str):
        return fallback
    # Never copy a password or token from the URL into a committed file.
    url = re.sub(r"^(\w+://)[^/@]*@", lambda m: m.group(1), data["url"])
    vcs = data.get("vcs_info")
    requirement = fallback
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and vcs.get("commit_id"):
        requirement = f"kobook @ git+{url}@{vcs['commit_id']}"
    elif "archive_info" in data and url.startswith(("https://", "http://")):
        requirement = f"kobook @ {url}"
    return requirement if SAFE_REQUIREMENT.match(requirement) else fallback


def kobook_requirement() -> str:
    """:func:`requirement_from` for the kobook that is running."""
    from .. import __version__

    try:
        dist = metadata.distribution("kobook")
    except metadata.PackageNotFoundError:
        return f"kobook=={__version__}"
    return requirement_from(dist.read_text("direct_url.json"), dist.version)


def skeleton(title: str, lang: str, requirement: str) -> dict[str, bytes]:
    """The new book's files: path inside the book → content."""
    words = LANGUAGES[lang]
    values = {
        "TITLE": json.dumps(title, ensure_ascii=False),  # a YAML double-quoted string
        **words.values(),
    }
    files = {target: skeleton_bytes(name) for name, target in COMMON.items()}
    files["metadata.yaml"] = fill(skeleton_text("metadata.yaml"), values).encode()
    for chapter in CHAPTERS:
        files[f"book/{chapter}"] = skeleton_bytes(f"{lang}/{chapter}")
    glossary = f"{lang}/glossary.yaml" if lang == "ko" else "glossary-other.yaml"
    files["glossary.yaml"] = skeleton_bytes(glossary)
    workflow = fill(skeleton_text("book.yml"), {"KOBOOK_REQUIREMENT": json.dumps(requirement)})
    files[WORKFLOW] = workflow.encode()
    return files


def check_title(title: str) -> str:
    """A title is one line of text (it goes into metadata.yaml and the title page)."""
    cleaned = title.strip()
    if not cleaned or any(ord(c) < 32 or ord(c) == 127 for c in cleaned):
        raise KobookError(
            f"the title {title!r} is not one line of text",
            code="INIT003",
            hint='kobook init my-book --title "책 제목"',
        )
    return cleaned


def init_book(
    target: Path,
    *,
    title: str | None = None,
    lang: str = "ko",
    force: bool = False,
    requirement: str | None = None,
) -> list[Path]:
    """Write a new book into ``target``; the paths written, in order.

    A folder with anything in it is refused (INIT001) unless ``force``: then
    the skeleton's files are written over, and nothing else in it is touched.
    """
    if lang not in LANGUAGES:
        raise KobookError(
            f"no sample book in language '{lang}'",
            code="INIT004",
            hint="--lang " + ", ".join(LANGUAGES) + " (change lang: in metadata.yaml later)",
        )
    if target.exists() and not target.is_dir():
        raise KobookError(
            "a file is in the way of the new book's folder",
            code="INIT002",
            file=target,
            hint="choose another folder name",
        )
    if target.is_dir() and any(target.iterdir()) and not force:
        raise KobookError(
            "the folder is not empty: kobook init writes only into a new or empty folder",
            code="INIT001",
            file=target,
            hint="choose a new folder, or add --force to write the skeleton's files into it "
            "(files of the same name are replaced; no other file is touched)",
        )
    files = skeleton(
        check_title(title or LANGUAGES[lang].title), lang, requirement or kobook_requirement()
    )
    target.mkdir(parents=True, exist_ok=True)
    root = target.resolve()
    # Every folder first, then the writes: a symlink out of the book stops it before any write.
    # The file itself is replaced, never followed: a symlink named like a skeleton file is
    # replaced by the file, and what it pointed at is left alone.
    for name in files:
        inside((root / name).parent, root, what="folder of the new book", folder=str(target))
    mode = 0o666 & ~current_umask()  # as `touch` would: atomic_write's temporary file is 0600
    for name, data in files.items():
        atomic_write(root / name, data, root)  # no folder below the book may be a link
        (root / name).chmod(mode)
    return [target / name for name in files]


def current_umask() -> int:
    """The process's umask (reading it means setting it: set it straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
