"""Stage 2, normalize: typography fixes on the text the build reads (sources untouched).

The build applies the safe fixes of ``kobook check`` (the same rules, from
``kobook.check``) to each chapter's text before parsing: NFC (always: text
pasted from macOS stores Hangul as loose jamo, which fonts draw apart and
searches miss), invisible characters, odd spaces, full-width ASCII, quotes,
ellipses and particles after acronyms and numbers.  ``normalize:`` in
metadata.yaml turns it off (``normalize: false``) or leaves rules out
(``normalize: {ignore: [KO007]}``).  What the fixes cannot settle is returned
so the build can report it.
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import json
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..cache import Cache, code_digest, digest
from ..errors import Diagnostic, KobookError
from ..lang import language_of
from ..model import Book, Chapter
from ..parse.pandoc import pandoc_version

if TYPE_CHECKING:
    from ..check.proof import ProvenFix


@dataclass
class NormalizeReport:
    """Findings left after the build-time fixes, as diagnostics with file lines: the whole
    book's and each chapter's (by chapter id; the preview shows them per page)."""

    remaining: list[Diagnostic] = field(default_factory=list)
    fixed: int = 0
    by_chapter: dict[str, list[Diagnostic]] = field(default_factory=dict)


# How one chapter is fixed: (chapter, rules, the book's language, cache) → its fixed text and
# the findings left (:func:`kept_normalize`; the preview keeps its own results).
Fixer = Callable[["Chapter", Any, str, "Cache | None"], tuple[str, list["Remaining"]]]


def normalize_text(text: str) -> str:
    """Return ``text`` in NFC (idempotent, cheap when already NFC)."""
    if unicodedata.is_normalized("NFC", text):
        return text
    return unicodedata.normalize("NFC", text)


def settings(book: Book) -> Any:
    from ..check import settings_from

    value = book.config.get("normalize", True)
    if value is False:
        return None
    options = value if isinstance(value, dict) else {}
    for key in options:
        if key not in ("ignore", "select"):
            raise KobookError(
                f"unknown key 'normalize.{key}'",
                code="CFG013",
                file=book.config.path,
                hint="normalize takes: ignore, select",
            )
    result = settings_from(book.config, book.root)
    result.ignore |= {str(r) for r in options.get("ignore") or []}
    if options.get("select"):
        result.select = {str(r) for r in options["select"]}
    return result


def normalize_book(
    book: Book, cache: Cache | None = None, fix: Fixer | None = None
) -> NormalizeReport:
    """Normalize every chapter's text in place; return what is left to fix by hand.

    pandoc proves that the fixes changed only prose, as for ``kobook check
    --fix`` (``kobook.check.proof``): a fix that would change code, math, links
    or structure is left out and reported as CHK004.  ``cache`` (the build's)
    keeps the proof's parses, so a rebuild does not run pandoc for it again.
    ``fix``: how one chapter is fixed (default :func:`kept_normalize`).
    """
    report = NormalizeReport()
    rules = settings(book)
    for chapter in book.chapters:
        text = chapter.text
        chapter.text, remaining = (fix or kept_normalize)(chapter, rules, book.config.lang, cache)
        report.fixed += chapter.text != normalize_text(text)
        found = [
            Diagnostic(rule, message, chapter.where(line, col), "", severity)
            for rule, message, line, col, severity in remaining
        ]
        report.by_chapter.setdefault(chapter.id, []).extend(found)
        report.remaining += found
    return report


# A finding left after the fixes: rule, message, 1-based line and column in the
# chapter's text (``Chapter.where`` turns it into file and line), severity.
Remaining = tuple[str, str, int, int, str]


def normalize_chapter(
    chapter: Chapter,
    rules: Any,
    book_lang: str,
    cache: Cache | None = None,
    made: NormalizingChapter | None = None,
) -> tuple[str, list[Remaining]]:
    """One chapter's fixed text and what is left, placed in that text (not yet in its file).

    A pure function of the chapter's text, path and language and the rules, so
    ``kobook preview`` can keep the result of a chapter that did not change.
    ``made``: the chapter's fixes already made (:mod:`.prefetch`, which had pandoc read
    their texts with the other chapters').
    """
    normalizing = made or NormalizingChapter(chapter, rules, book_lang, cache)
    result = normalizing.result()
    if cache is not None:
        normalizing.hand_over(dataclasses.replace(chapter, text=result[0]), cache)
    return result


def kept_normalize(
    chapter: Chapter,
    rules: Any,
    book_lang: str,
    cache: Cache | None,
    made: NormalizingChapter | None = None,
) -> tuple[str, list[Remaining]]:
    """:func:`normalize_chapter` through the build's cache: a chapter whose text did not
    change is not checked again.  ``made``: see :func:`normalize_chapter`."""
    if cache is None or rules is None:
        return normalize_chapter(chapter, rules, book_lang, cache, made)
    key = normalized_key(chapter, rules, book_lang)
    found = cache.get("normalized", key, ".json")
    if found is not None:
        with contextlib.suppress(ValueError, TypeError):
            text, kept = json.loads(found)
            return str(text), [(str(r), str(m), int(n), int(c), str(s)) for r, m, n, c, s in kept]
    text, remaining = normalize_chapter(chapter, rules, book_lang, cache, made)
    data = json.dumps([text, remaining], ensure_ascii=False).encode("utf-8")
    cache.put("normalized", key, data, ".json")
    return text, remaining


def normalized_key(chapter: Chapter, rules: Any, book_lang: str) -> str:
    """The cache's name for a chapter's fixed text and findings (:func:`kept_normalize`)."""
    from ..check.figures import images_present

    return digest(
        "normalized",
        code_digest(),
        pandoc_version(),  # the proof's parses
        rules_key(rules),
        book_lang,
        chapter.lang,
        str(chapter.path),
        chapter.text,
        images_present(chapter.text, chapter.path, rules),  # IMG001 looks at the files
    )


def rules_key(rules: Any) -> str:
    """The rules as a stable string (sets sorted: their order changes between processes)."""

    def plain(value: Any) -> Any:
        if isinstance(value, (set, frozenset)):
            return sorted(map(str, value))
        return str(value)

    return json.dumps(dataclasses.asdict(rules), sort_keys=True, default=plain)


class NormalizingChapter:
    """:func:`normalize_chapter` of one chapter while pandoc proves its fixes.

    :meth:`guess` is the result once the proof accepts the fixes, which it
    nearly always does, so ``kobook preview`` parses and transforms it while
    the proof runs and asks :meth:`result` before it shows anything.
    ``on_candidate`` is told each fixed text as it is made (before NFC, which
    is applied last); see :class:`kobook.check.proof.PendingFix`.  ``later``: pandoc
    reads the proof's texts only when :meth:`result` asks (:mod:`.prefetch` has them
    read with the other chapters' first).
    """

    def __init__(
        self,
        chapter: Chapter,
        rules: Any,
        book_lang: str,
        cache: Cache | None = None,
        *,
        on_candidate: Callable[[str], None] | None = None,
        later: bool = False,
    ) -> None:
        from ..check.proof import PendingFix

        self.pending: PendingFix | None = None
        self._plain = normalize_text(chapter.text)
        if rules is not None:
            language = language_of(chapter.lang or book_lang)
            chapter_rules = dataclasses.replace(rules, language=language)
            self.pending = PendingFix(
                chapter.text,
                chapter.path,
                chapter_rules,
                build_only=True,
                cache=cache,
                on_candidate=on_candidate,
                later=later,
            )

    def guess(self) -> tuple[str, list[Remaining]]:
        """The result if the proof accepts every fix (known at once)."""
        return (self._plain, []) if self.pending is None else placed(self.pending.guess)

    def result(self) -> tuple[str, list[Remaining]]:
        """The proven result (waits for pandoc's proof)."""
        return (self._plain, []) if self.pending is None else placed(self.pending.result())

    def hand_over(self, fixed: Chapter, cache: Cache) -> None:
        """Give the parse stage the proof's parse of ``fixed`` (the chapter with the
        result's text), so a chapter with fixes costs two pandoc runs, not three: the
        original and the fixed text, which the proof parsed with the build's reader."""
        from ..parse import keep_parse

        if self.pending is None:
            return
        ast = self.pending.parsed_as_is(fixed.text)
        if ast is not None:
            keep_parse(fixed, self.pending.proof.reader, ast, cache)


def placed(proven: ProvenFix) -> tuple[str, list[Remaining]]:
    """A proven fix's text in NFC and its findings placed by line and column in it."""
    from ..source.document import line_starts

    # NFC also outside prose is harmless for the build (never written back).
    fixed = normalize_text(proven.text)
    starts = line_starts(fixed)  # what SourceDoc.position uses (no need to parse the text)
    remaining = []
    for finding in proven.findings:
        line = bisect.bisect_right(starts, finding.start)
        col = finding.start - starts[line - 1] + 1
        remaining.append((finding.rule, finding.message, line, col, finding.severity))
    return fixed, remaining
