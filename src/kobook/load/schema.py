"""The values inside metadata: one small check per key, run before any stage reads them.

``config.validate`` checks each top-level key's type; this module looks one
level deeper (``check:``, ``normalize:``, ``particles:``, ``pdf:``,
``original:``, ``captions:``, ``chapters:``) and at values that must parse
(``linestretch``, ``fontsize``, ``papersize``, ``geometry``, ``toc-depth``,
``date``).  A stage that later does ``int(...)`` or ``.items()`` on a value can
then trust it: a mistake is a CFG error at its file and line, never a
``ValueError`` from deep inside the build.
"""

from __future__ import annotations

import datetime
import difflib
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from ..errors import KobookError
from ..model.config import LANGUAGE_TAG, entry_lines
from ..model.page import LENGTH, PAPER, PAPER_HINT, PDF_STANDARDS, length_mm, paper_name
from ..write.registry import formats

MARGIN_KEYS = {"margin", "hmargin", "vmargin", "left", "inner", "right", "outer", "top", "bottom"}

CHECK_KEYS = {
    "select",
    "ignore",
    "quotes",
    "ellipsis",
    "fail-on",
    "glossary-first-use",
    "fix-emphasis",
    "untranslated-min-words",
}
# YAML reads a bare ``off`` as false: ``quotes: off`` means "off".
CHECK_CHOICES = {
    "quotes": ("curly", "straight", "off"),
    "ellipsis": ("…", "...", "off"),
    "fail-on": ("error", "warning", "info", "never"),
}
NORMALIZE_KEYS = {"ignore", "select"}
PARTICLE_KEYS = {"words"}
PDF_KEYS = {"filename", "jobs", "bleed", "marks", "standard", "output-profile"}
INDEX_KEYS = {"glossary"}
SCALAR = (str, int, float, datetime.date)
ISO_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")


@dataclass(frozen=True)
class Where:
    """The metadata's file and text, to put the right line on an error."""

    path: Path | None
    text: str = ""

    def line(self, key: str, sub: str = "") -> int:
        """Line of ``key:`` (or of ``sub:`` inside it); 0 when it cannot be found."""
        from ..model.config import key_line, sub_key_line

        return sub_key_line(self.text, key, sub) if sub else key_line(self.text, key)

    def fail(
        self,
        message: str,
        key: str,
        sub: str = "",
        *,
        hint: str = "",
        code: str = "CFG005",
        line: int = 0,
    ) -> NoReturn:
        raise KobookError(
            message, code=code, file=self.path, line=line or self.line(key, sub), hint=hint
        )


def check_nested(key: str, value: Any, at: Where) -> None:
    """Run the check for ``key`` (whose top-level type is already right), if it has one."""
    check = CHECKS.get(key)
    if check is not None and value is not None:
        check(value, at)


def as_choice(value: Any) -> Any:
    """``off``/``false`` (which YAML reads as ``False``) as the word ``off``."""
    return "off" if value is False else value


def type_name(value: Any) -> str:
    return {bool: "true/false", int: "a number", float: "a number", list: "a list"}.get(
        type(value), "a mapping" if isinstance(value, dict) else type(value).__name__
    )


def known_keys(section: str, value: dict[Any, Any], keys: set[str], at: Where, code: str) -> None:
    """Every key of ``section`` is one kobook reads; a misspelt one gets "did you mean"."""
    for sub in value:
        if str(sub) not in keys:
            close = difflib.get_close_matches(str(sub), sorted(keys), n=1)
            at.fail(
                f"unknown key '{section}.{sub}'"
                + (f": did you mean '{section}.{close[0]}'?" if close else ""),
                section,
                str(sub),
                hint=f"{section} takes: " + ", ".join(sorted(keys)),
                code=code,
            )


def rule_list(section: str, sub: str, value: Any, at: Where) -> None:
    """``select``/``ignore``: a list of rule ids (a bare ``KO010`` is read letter by letter)."""
    if value is None:
        return
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        at.fail(
            f"'{section}.{sub}' should be a list of rule ids, not {type_name(value)}",
            section,
            sub,
            hint=f"{section}: {{{sub}: [KO010, KO011]}}",
            code="CFG003",
        )


def check_section(value: dict[Any, Any], at: Where) -> None:
    """``check:`` — the settings of ``kobook check`` (and the build's fixes)."""
    known_keys("check", value, CHECK_KEYS, at, "CFG008")
    for sub in ("select", "ignore"):
        rule_list("check", sub, value.get(sub), at)
    for sub, allowed in CHECK_CHOICES.items():
        if sub in value and as_choice(value[sub]) not in allowed:
            at.fail(
                f"check.{sub} is '{value[sub]}', not one of: {', '.join(allowed)}",
                "check",
                sub,
                hint=f"check: {{{sub}: {allowed[0]}}}",
                code="CFG009",
            )
    for sub in ("glossary-first-use", "fix-emphasis"):
        if sub in value and not isinstance(value[sub], bool):
            at.fail(
                f"check.{sub} should be true or false, not '{value[sub]}'",
                "check",
                sub,
                hint=f"check: {{{sub}: true}}",
                code="CFG003",
            )
    words = value.get("untranslated-min-words", 6)
    if isinstance(words, bool) or not isinstance(words, int) or words < 1:
        at.fail(
            f"check.untranslated-min-words should be a whole number of words, not '{words}'",
            "check",
            "untranslated-min-words",
            hint="check: {untranslated-min-words: 6}",
            code="CFG009",
        )


def normalize_section(value: dict[Any, Any] | bool, at: Where) -> None:
    """``normalize:`` — false, or which of the fixes the build applies."""
    if isinstance(value, bool):
        return
    known_keys("normalize", value, NORMALIZE_KEYS, at, "CFG013")
    for sub in NORMALIZE_KEYS:
        rule_list("normalize", sub, value.get(sub), at)


def particles_section(value: dict[Any, Any], at: Where) -> None:
    """``particles: {words: {Megatron: 메가트론}}`` — how to read words for particle choice."""
    known_keys("particles", value, PARTICLE_KEYS, at, "CFG005")
    words = value.get("words")
    if words is None:
        return
    good = isinstance(words, dict) and all(
        isinstance(k, (str, int, float)) and isinstance(v, str) for k, v in words.items()
    )
    if not good:
        at.fail(
            f"'particles.words' should map each word to its reading, not {type_name(words)}",
            "particles",
            "words",
            hint="particles:\n  words:\n    Megatron: 메가트론",
            code="CFG003",
        )


def pdf_section(value: dict[Any, Any], at: Where) -> None:
    """``pdf:`` — ``filename``, ``jobs``, ``bleed`` and ``marks``; other keys are kept, a
    misspelt one is caught."""
    for sub in value:
        close = difflib.get_close_matches(str(sub), sorted(PDF_KEYS), n=1, cutoff=0.75)
        if str(sub) not in PDF_KEYS and close:
            at.fail(
                f"unknown key 'pdf.{sub}': did you mean 'pdf.{close[0]}'?",
                "pdf",
                str(sub),
                hint="pdf takes: " + ", ".join(sorted(PDF_KEYS)),
            )
    name = value.get("filename")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        at.fail(
            f"'pdf.filename' should be a file name, not '{name}'",
            "pdf",
            "filename",
            hint="pdf: {filename: my-book}",
            code="CFG003",
        )
    bleed = value.get("bleed")
    if bleed is not None and not 0 <= (length_mm(bleed) or -1.0) <= 20:
        at.fail(
            f"'pdf.bleed' should be a length up to 20mm, not '{bleed}'",
            "pdf",
            "bleed",
            hint="pdf: {bleed: 3mm} (Korean printers ask for 3 mm on every side)",
            code="CFG003",
        )
    marks = value.get("marks")
    if marks is not None and not isinstance(marks, bool):
        at.fail(
            f"'pdf.marks' should be true or false, not '{marks}'",
            "pdf",
            "marks",
            hint="pdf: {marks: true} draws crop and registration marks",
            code="CFG003",
        )
    standard = value.get("standard")
    if standard is not None and str(standard).lower() not in PDF_STANDARDS:
        at.fail(
            f"'pdf.standard' should be one of {', '.join(PDF_STANDARDS)}, not '{standard}'",
            "pdf",
            "standard",
            hint="pdf: {standard: pdf/x-4} writes an output intent for the press (FOGRA39)",
            code="CFG003",
        )
    profile = value.get("output-profile")
    if profile is not None and (standard is None or not isinstance(profile, str)):
        at.fail(
            f"'pdf.output-profile' should be a .icc file with pdf.standard, not '{profile}'",
            "pdf",
            "output-profile",
            hint="pdf: {standard: pdf/x-4, output-profile: press.icc}",
            code="CFG003",
        )
    jobs = value.get("jobs", 2)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 16:
        at.fail(
            f"'pdf.jobs' should be a number of processes from 1 to 16, not '{jobs}'",
            "pdf",
            "jobs",
            hint="pdf: {jobs: 1} lays the PDF out in one process (WeasyPrint engine)",
            code="CFG003",
        )


def true_or_false(section: str, key: str, default: bool, hint: str) -> Callable[[Any, Where], None]:
    """The check of ``section:`` whose one key ``key`` is true or false."""

    def check(value: dict[Any, Any], at: Where) -> None:
        known_keys(section, value, {key}, at, "CFG003")
        given = value.get(key, default)
        if not isinstance(given, bool):
            at.fail(
                f"'{section}.{key}' should be true or false, not '{given}'",
                section,
                key,
                hint=hint,
                code="CFG003",
            )

    check.__doc__ = f"``{section}:`` — ``{key}`` (true or false)."
    return check


# ``epub: {embed-fonts: true}``, ``html: {search: false}``.
epub_section = true_or_false("epub", "embed-fonts", False, "epub: {embed-fonts: true}")
html_section = true_or_false(
    "html", "search", True, "html: {search: false} builds the site without its search"
)


def original_section(value: dict[Any, Any], at: Where) -> None:
    """``original:`` values are text (``authors`` may be a list): they are printed."""
    for sub, item in value.items():
        several = str(sub) in ("authors", "author") and isinstance(item, list)
        items = item if several else [item]
        if not all(isinstance(i, SCALAR) and not isinstance(i, bool) for i in items):
            at.fail(
                f"'original.{sub}' should be text, not {type_name(item)}",
                "original",
                str(sub),
                hint="original: {title: The Book, authors: [A. Author, B. Author]}",
                code="CFG003",
            )


def colophon_section(value: dict[Any, Any], at: Where) -> None:
    """``colophon:`` (the copyright page, ``model/colophon.py``): known keys, text values."""
    from ..model.colophon import COLOPHON_KEYS

    known_keys("colophon", value, set(COLOPHON_KEYS), at, "CFG008")
    for sub, item in value.items():
        if not isinstance(item, SCALAR) or isinstance(item, bool):
            at.fail(
                f"'colophon.{sub}' should be text, not {type_name(item)}",
                "colophon",
                str(sub),
                hint="colophon: {publisher-person: 이름, price: 32,000원}",
                code="CFG003",
            )


UPSTREAM_KEYS = {"repository", "ref", "dialect", "chapters"}


def upstream_section(value: dict[Any, Any], at: Where) -> None:
    """``upstream:`` (written by ``kobook upstream init``): text values, a file map."""
    known_keys("upstream", value, UPSTREAM_KEYS, at, "CFG008")
    for sub in ("repository", "ref", "dialect"):
        if sub in value and not isinstance(value[sub], str):
            at.fail(
                f"'upstream.{sub}' should be text, not {type_name(value[sub])}",
                "upstream",
                sub,
                hint="upstream: {repository: ../book, ref: main, dialect: mdbook}",
                code="CFG003",
            )
    chapters = value.get("chapters") or {}
    if not isinstance(chapters, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in chapters.items()
    ):
        at.fail(
            "'upstream.chapters' should map translated files to the original's files",
            "upstream",
            "chapters",
            hint="chapters: {src/ch01.md: src/ch01.md}",
            code="CFG003",
        )


def author_value(value: Any, at: Where) -> None:
    """``author:`` is a name, or a list of names or ``{name: …, affiliation: …}``."""
    hint = "author: [홍길동, {name: Jane Doe, affiliation: Example University}]"
    for entry in value if isinstance(value, list) else [value]:
        if isinstance(entry, SCALAR) and not isinstance(entry, bool):
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            at.fail(
                f"each 'author' should be a name or {{name: …, affiliation: …}}, not {entry!r}",
                "author",
                hint=hint,
                code="CFG003",
            )
        unknown = set(map(str, entry)) - {"name", "affiliation", "affiliations", "url", "email"}
        if unknown:
            at.fail(
                f"unknown key '{sorted(unknown)[0]}' in author {entry['name']!r}",
                "author",
                hint=hint,
                code="CFG003",
            )
        place = entry.get("affiliation", entry.get("affiliations"))
        places = place if isinstance(place, list) else [place]
        for item in places:
            name = item.get("name") if isinstance(item, dict) else item
            if name is not None and not isinstance(name, str):
                at.fail(
                    f"the affiliation of author {entry['name']!r} should be text, not {item!r}",
                    "author",
                    hint=hint,
                    code="CFG003",
                )


CAPTION_SEPARATORS = (".", "-")


def captions_section(value: dict[Any, Any], at: Where) -> None:
    """``captions:`` values are the words printed before numbers: non-empty text; and the
    house style of the numbers: ``separator`` (``.``: 그림 1.1, ``-``: 그림 1-1) and
    ``period`` (false: no period after the label, as Korean IT publishers print)."""
    for sub, item in value.items():
        if sub == "separator" and item not in CAPTION_SEPARATORS:
            at.fail(
                f"'captions.separator' should be one of {', '.join(CAPTION_SEPARATORS)}, "
                f"not {item!r}",
                "captions",
                "separator",
                hint='captions: {separator: "-"} prints 그림 1-1',
                code="CFG003",
            )
        if sub == "period" and not isinstance(item, bool):
            at.fail(
                f"'captions.period' should be true or false, not {item!r}",
                "captions",
                "period",
                hint="captions: {period: false} prints 그림 1-1 without a period",
                code="CFG003",
            )
        if sub in ("separator", "period"):
            continue
        if isinstance(item, bool) or not isinstance(item, (str, int, float)) or not str(item):
            at.fail(
                f"'captions.{sub}' should be a word like 그림, not {item!r}",
                "captions",
                str(sub),
                hint='captions: {figure: 그림, chapter: "{n}장"}',
                code="CFG003",
            )


def chapters_entries(value: list[Any], at: Where) -> None:
    """Each chapter is a file name, listed once (twice would print it twice)."""
    seen: dict[str, str] = {}
    for entry in value:
        if not isinstance(entry, str) or not entry.strip():
            at.fail(
                f"'chapters' must be a list of file names, not {entry!r}",
                "chapters",
                hint="chapters:\n  - book/01-intro.md",
            )
        same = posixpath.normpath(entry.strip().replace("\\", "/"))
        if same in seen:
            first = entry_lines(at.text, "chapters", seen[same])
            second = entry_lines(at.text, "chapters", entry)
            if entry == seen[same]:
                second = second[1:] or second
            lines = sorted({first[0], second[0]}) if first and second else []
            where = f" (lines {lines[0]} and {lines[1]})" if len(lines) == 2 else ""
            at.fail(
                f"'chapters' lists the same file twice: {seen[same]!r} and {entry!r}{where}",
                "chapters",
                hint="delete one of the two entries",
                code="CFG015",
                line=second[0] if second else 0,
            )
        seen[same] = entry


def positive_number(value: Any) -> float | None:
    """``value`` as a number greater than zero (``1.6`` or ``"1.6"``), else None."""
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if 0 < number < float("inf") else None


def linestretch_value(value: Any, at: Where) -> None:
    number = positive_number(value)
    if number is None or number > 10:
        at.fail(
            f"linestretch '{value}' is not a line spacing factor",
            "linestretch",
            hint="linestretch: 1.6 (a number, 1 is single spacing)",
        )


def fontsize_value(value: Any, at: Where) -> None:
    """A number of points (``10``) or a length (``10pt``, ``3.5mm``)."""
    if isinstance(value, str):
        match = LENGTH.match(value)
        ok = match is not None and float(match.group(1)) > 0
    else:
        ok = positive_number(value) is not None
    if not ok:
        at.fail(
            f"fontsize '{value}' is not a size",
            "fontsize",
            hint="fontsize: 10pt (or 10, 11pt, 3.5mm)",
        )


def toc_depth_value(value: Any, at: Where) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 6:
        at.fail(
            f"toc-depth '{value}' is not a heading level from 0 to 6",
            "toc-depth",
            hint="toc-depth: 2 (chapters and sections)",
        )


def papersize_value(value: Any, at: Where) -> None:
    """A paper name (``a5``, ``a4paper``, ``신국판``) or ``'WIDTH HEIGHT'``."""
    paper = paper_name(str(value))
    parts = paper.split()
    if paper in PAPER or (len(parts) == 2 and all(LENGTH.match(p) for p in parts)):
        return
    close = difflib.get_close_matches(paper, sorted(PAPER), n=1)
    at.fail(
        f"unknown papersize '{value}'" + (f": did you mean '{close[0]}'?" if close else ""),
        "papersize",
        hint=PAPER_HINT,
        code="CFG007",
    )


def geometry_value(value: Any, at: Where) -> None:
    """``margin=2cm`` items; a margin's value must be a length."""
    items = value if isinstance(value, list) else str(value).split(",")
    for item in items:
        if not isinstance(item, str):
            # ``- top: 2cm`` in YAML is a mapping; geometry wants ``top=2cm``.
            at.fail(
                f"geometry item {item!r} should be text like 'top=2cm'",
                "geometry",
                hint="geometry: [top=2cm, inner=25mm] (with '=', not ':')",
                code="CFG003",
            )
        key, _, size = (s.strip() for s in item.partition("="))
        if key in MARGIN_KEYS and not LENGTH.match(size):
            at.fail(
                f"'{size}' in geometry '{item.strip()}' is not a length",
                "geometry",
                hint="write it like 20mm, 2cm, 1in or 10pt",
                code="CFG006",
            )


def lang_value(value: Any, at: Where) -> None:
    """A language tag: it names the book's language to every engine, the HTML's ``lang``
    and the search index, so it must be a tag and nothing else."""
    if not LANGUAGE_TAG.fullmatch(str(value).strip()):
        at.fail(
            f"lang {str(value)[:40]!r} is not a language tag",
            "lang",
            hint="a BCP 47 tag: lang: ko-KR (or en, ja, zh-Hans)",
            code="CFG003",
        )


def repository_value(value: Any, at: Where) -> None:
    """An https address: links to the book's files are made from it, into every output."""
    if not re.fullmatch(r"https://[^\s\"'<>]+", str(value).strip()):
        at.fail(
            f"repository {str(value)[:60]!r} is not an https address",
            "repository",
            hint="repository: https://github.com/owner/book/blob/main",
            code="CFG003",
        )


def date_value(value: Any, at: Where) -> None:
    """A date written like ISO (``2024-13-45``) must be a real day; other text is printed."""
    match = ISO_DATE.match(value) if isinstance(value, str) else None
    if not match:
        return
    try:
        datetime.date(*(int(g) for g in match.groups()))
    except ValueError as exc:
        at.fail(
            f"date '{value.strip()}' is not a real day ({exc})",
            "date",
            hint="write it as YYYY-MM-DD, e.g. 2024-12-31, or as text such as '2024년 겨울'",
        )


def formats_value(value: Any, at: Where) -> None:
    """``formats: [pdf, html]`` or ``formats: all``: what ``kobook build`` makes by default.

    Checked here so that a misspelt format is a CFG error at its line, not a
    surprise when the build has already run for minutes.
    """
    hint = "formats: [pdf, html, epub] (or a single pdf, html, epub or all)"
    items = value if isinstance(value, list) else [value]
    if not items:
        at.fail("'formats' lists no format", "formats", hint=hint, code="CFG005")
    for item in items:
        if not isinstance(item, str):
            at.fail(
                f"each of 'formats' should be pdf, html, epub or all, not {type_name(item)}",
                "formats",
                hint=hint,
                code="CFG003",
            )
        known = (*formats(), "all")  # the writers' registry's names
        if item not in known:
            close = difflib.get_close_matches(item.lower().strip(), known, n=1)
            lines = entry_lines(at.text, "formats", item) if isinstance(value, list) else []
            at.fail(
                f"unknown format '{item}' in 'formats'"
                + (f": did you mean '{close[0]}'?" if close else ""),
                "formats",
                hint=hint,
                code="CFG005",
                line=lines[0] if lines else 0,
            )


FONT_NAME = re.compile(r"^[\w][\w .+&'-]{0,80}$")


def font_value(key: str) -> Callable[[Any, Where], None]:
    """A font family name: letters, digits, spaces and ``.+&'-`` only.

    Font names go into the PDF stylesheet and the LaTeX preamble; quotes,
    braces or semicolons there would let metadata inject CSS or TeX.
    """

    def check(value: Any, at: Where) -> None:
        if not isinstance(value, str) or not FONT_NAME.match(value.strip()):
            at.fail(
                f"{key} '{value}' is not a font family name",
                key,
                hint=f"{key}: {'Noto Color Emoji' if key == 'emoji-font' else 'Noto Serif CJK KR'} "
                "(a family name as fc-list shows it)",
            )

    return check


FONT_KEYS = (
    "mainfont",
    "CJKmainfont",
    "sansfont",
    "CJKsansfont",
    "monofont",
    "CJKmonofont",
    "mathfont",
    "emoji-font",
)


def index_section(value: Any, at: Where) -> None:
    """``index:`` — true/false, or ``{glossary: true}``."""
    if not isinstance(value, dict):
        return
    known_keys("index", value, INDEX_KEYS, at, "CFG005")
    if not isinstance(value.get("glossary", False), bool):
        at.fail("index.glossary should be true or false", "index", "glossary", code="CFG003")


CHECKS: dict[str, Callable[[Any, Where], None]] = {
    **{key: font_value(key) for key in FONT_KEYS},
    "check": check_section,
    "normalize": normalize_section,
    "particles": particles_section,
    "pdf": pdf_section,
    "epub": epub_section,
    "html": html_section,
    "author": author_value,
    "original": original_section,
    "upstream": upstream_section,
    "colophon": colophon_section,
    "index": index_section,
    "captions": captions_section,
    "chapters": chapters_entries,
    "linestretch": linestretch_value,
    "fontsize": fontsize_value,
    "toc-depth": toc_depth_value,
    "papersize": papersize_value,
    "geometry": geometry_value,
    "date": date_value,
    "lang": lang_value,
    "repository": repository_value,
    "formats": formats_value,
}
