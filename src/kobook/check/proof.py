"""The last line of defence of ``--fix``: prove that a fix changed only prose.

Every fixing rule looks only at prose spans of the source layer, but that
layer is markdown-it's view of the file, not pandoc's, and a fix can change
how the text around it parses (``！[문서](…)`` becomes an image once ``！`` is
``!``).  So before a fixed text is written (or built), pandoc parses both
texts and the two ASTs are compared with the prose masked out: what a prose
fix may change is the text of ``Str`` nodes and the spaces between them, so
each maximal run of ``Str``/``Space``/``SoftBreak`` (with ``Quoted`` flattened
into it: KO007 turns ``"…"``, which pandoc reads as ``Quoted``, into
``“…”``, which it reads as text) becomes one placeholder.  Code, math, raw
HTML/TeX, link and image targets, every attribute, the block structure and
the nesting of emphasis, links, notes and citations must stay identical.

When the whole fix fails the proof, :func:`proven_fix` bisects the fixes of
the pass that broke it, so the safe ones still apply and the others are
reported (``CHK004``) instead of written.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cache import Cache, digest
from ..errors import KobookError
from ..files.frontmatter import fence_end
from ..parse import guard
from ..parse.ast import copy_tree, iter_nodes
from ..parse.pandoc import READER, markdown_to_ast, pandoc_version
from .anchors import pin_identifiers
from .model import Finding, Settings
from .runner import MAX_PASSES, apply_fixes, check_text

# The build's reader, automatic header identifiers included: every heading's identifier
# is part of the proof, compared on its own (:func:`identifiers`) so that a fix that
# moves one can pin the old one (:mod:`.anchors`) instead of being refused.
PROOF_EXTENSIONS = ""
TEXT_NODES = {"Str", "Space", "SoftBreak"}
QUOTE_MARKS = {"DoubleQuote": ("“", "”"), "SingleQuote": ("‘", "’")}
TEXT = {"t": "Text"}  # the placeholder for a run of prose
# pandoc gives a pipe table relative column widths when one of its source lines is
# longer than 72 columns, so a shorter prose fix in a cell may change them.
COLUMN_WIDTHS = {"ColWidth", "ColWidthDefault"}
COLUMN_WIDTH = {"t": "ColWidth"}
# Bisecting costs two parses per level per refused fix; past this many parses the
# rest of a failing group is refused as a whole rather than split further.
PROOF_BUDGET = 48
CHK004 = "CHK004"  # a fix refused by the proof
CHK005 = "CHK005"  # a fixed file not written (runner.save_fixed)


def proof_reader(reader: str = READER) -> str:
    """pandoc's reader for the proof: the build's, without automatic header ids."""
    return reader + PROOF_EXTENSIONS


def flatten_quoted(inlines: list[Any]) -> list[Any]:
    """``Quoted`` nodes replaced by their quote marks and content (recursively)."""
    out: list[Any] = []
    for node in inlines:
        if node.get("t") == "Quoted":
            kind, content = node["c"]
            left, right = QUOTE_MARKS.get(kind.get("t"), ('"', '"'))
            out += [{"t": "Str", "c": left}, *flatten_quoted(content), {"t": "Str", "c": right}]
        else:
            out.append(node)
    return out


def node_text(node: dict[str, Any]) -> str:
    return str(node["c"]) if node["t"] == "Str" else " "


QUOTE_CHARS = set("“”‘’\"'「」『』«»")


def visible(text: str) -> bool:
    """Does a run hold more than spaces, quote marks and invisible characters?

    A run of only those may appear or vanish with a prose fix (KO002 removes a
    lone U+200B after a link; KO010 moves a quote mark out of ``**…**``) without
    anything but text changing, so such runs are left out of the comparison.
    """
    return any(
        unicodedata.category(char)[0] not in "ZC" and char not in QUOTE_CHARS for char in text
    )


def mask(node: Any) -> Any:
    """A pandoc JSON value with every run of prose replaced by one placeholder."""
    if isinstance(node, dict):
        if node.get("t") in COLUMN_WIDTHS:
            return COLUMN_WIDTH
        return {key: mask(value) for key, value in node.items()}
    if not isinstance(node, list):
        return node
    if not node or not all(isinstance(item, dict) and "t" in item for item in node):
        return [mask(item) for item in node]
    out: list[Any] = []
    run: list[str] = []

    def flush() -> None:
        if visible("".join(run)):
            out.append(TEXT)
        run.clear()

    for item in flatten_quoted(node):
        if item["t"] in TEXT_NODES:
            run.append(node_text(item))
            continue
        flush()
        out.append(mask(item))
    flush()
    return out


def masked_ast(text: str, *, reader: str = READER) -> Any:
    """pandoc's AST of ``text`` (blocks and metadata) with the prose masked out, and its
    headings' identifiers apart (``{"ids": [...], "ast": ...}``)."""
    return masked_apart(proof_ast(text, reader=reader))


def masked_apart(ast: dict[str, Any]) -> dict[str, Any]:
    """``ast`` masked, its headings' identifiers taken out into a list (``ast`` changes)."""
    ids = []
    for node in iter_nodes(ast["blocks"]):
        if node["t"] == "Header":
            ids.append(node["c"][1][0])
            node["c"][1] = ["", *node["c"][1][1:]]
    return {"ids": ids, "ast": mask(ast)}


def structure(masked: Any) -> Any:
    """A masked text without its headings' identifiers (what must not change at all)."""
    return (
        {key: structure(value) for key, value in masked.items() if key != "ids"}
        if (isinstance(masked, dict) and "t" not in masked)
        else masked
    )


def identifiers(masked: Any) -> list[str]:
    """The headings' identifiers of a masked text (front matter aside), in order."""
    inner = masked.get("ast", masked) if isinstance(masked, dict) else {}
    return list(inner.get("ids", [])) if isinstance(inner, dict) else []


def proof_ast(text: str, *, reader: str = READER) -> dict[str, Any]:
    """pandoc's AST of ``text`` (blocks and metadata) as the proof reads it."""
    guard.check_text(text, None)  # what would hang pandoc is refused (LIMIT001/002): no proof
    ast = markdown_to_ast(text, reader=proof_reader(reader))
    return {"blocks": ast.get("blocks", []), "meta": ast.get("meta", {})}


def difference(before: Any, after: Any, where: str = "") -> str:
    """What differs first between two masked ASTs, in words (for the message)."""
    if isinstance(before, dict) and isinstance(after, dict):
        if before.get("t") != after.get("t"):
            old, new = before.get("t", "?"), after.get("t", "?")
            return f"{where + ': ' if where else ''}{old} would become {new}"
        for key in sorted(before.keys() | after.keys()):
            if before.get(key) != after.get(key):
                name = before.get("t") or (key if key in ("front matter", "meta") else where)
                return difference(before.get(key), after.get(key), str(name))
    if isinstance(before, list) and isinstance(after, list):
        for old, new in zip(before, after, strict=False):
            if old != new:
                return difference(old, new, where)
        if len(before) != len(after):
            return count_change(before, after, where or "the document")
    return f"{where or 'the text'} would change"


def count_change(before: list[Any], after: list[Any], where: str) -> str:
    """``Para: a Link would appear`` for two lists of nodes of different lengths."""

    def kinds(nodes: list[Any]) -> Counter[str]:
        return Counter(str(n.get("t")) for n in nodes if isinstance(n, dict))

    old, new = kinds(before), kinds(after)
    changes = [f"{kind} would appear" for kind in sorted(new - old)]
    changes += [f"{kind} would disappear" for kind in sorted(old - new)]
    if not changes:
        return f"{where}: {len(before)} parts would become {len(after)}"
    return f"{where}: " + ", ".join(changes)


@dataclass
class Proof:
    """The original text's masked AST, against which fixed versions are compared."""

    text: str
    reader: str = READER
    cache: Cache | None = None  # the build's: a rebuild proves its fixes without pandoc
    original: Any = None  # the original's masked AST, once parsed
    error: str = ""  # why the proof cannot be made (pandoc failed on the original)
    why: str = ""  # why the last candidate was rejected (what it would have changed)
    calls: int = 0  # parses so far (bisecting stops at PROOF_BUDGET)
    keep_parsed: bool = False  # keep pandoc's own ASTs in ``parsed`` (PendingFix)
    # body → pandoc's own AST of it, for the bodies pandoc parsed (not the cached ones).
    parsed: dict[str, Any] = field(default_factory=dict)

    def masked(self, text: str) -> Any:
        """Front matter as it is (pandoc fails on YAML kobook reads), the rest masked."""
        front, body = apart(text)
        return {"front matter": front, "ast": self.masked_body(body)}

    def masked_body(self, body: str) -> Any:
        self.calls += 1
        name = masked_name(body, self.reader)
        cached = self.cache.get("proof", name, ".json") if self.cache is not None else None
        if cached is not None:
            return json.loads(cached)
        ast = proof_ast(body, reader=self.reader)
        if self.keep_parsed:
            self.parsed[body] = copy_tree(ast)
        return keep_masked(body, ast, self.cache, self.reader)

    def accepts(self, candidate: str, meanwhile: Callable[[], object] | None = None) -> bool:
        """True when ``candidate`` parses like the original, prose aside.

        ``meanwhile`` is called while pandoc parses (it runs as a subprocess, so
        Python work done then costs no time): :func:`proven_fix` checks the
        candidate for its next pass.
        """
        if candidate == self.text:
            return True
        if self.original is not None and meanwhile is None:
            return self.compare(self.masked, candidate)
        # The first proof parses both texts: at once, which halves what a changed
        # chapter waits for (``kobook preview``).
        with ThreadPoolExecutor(max_workers=2) as pool:
            pending = pool.submit(self.masked, candidate)
            original = pool.submit(self.masked, self.text) if self.original is None else None
            if meanwhile is not None:
                meanwhile()
            if original is not None:
                try:
                    self.original = original.result()
                except KobookError as exc:
                    first = exc.diagnostic.message.splitlines()[0]
                    self.error = f"pandoc could not read the file to prove it ({first})"
                    return False
            return self.compare(lambda _text: pending.result(), candidate)

    def compare(self, parse: Callable[[str], Any], candidate: str) -> bool:
        """True when ``parse(candidate)`` is the original's masked AST; else why not."""
        try:
            fixed = parse(candidate)
        except KobookError as exc:
            first = exc.diagnostic.message.splitlines()[0]
            self.why = f"pandoc could not read the fixed text ({first})"
            return False
        if structure(fixed) == structure(self.original):
            return True  # headings' identifiers: compared at the end (PendingFix.result)
        self.why = (
            f"it would change code, math, links or structure ({difference(self.original, fixed)})"
        )
        return False


def apart(text: str) -> tuple[str, str]:
    """A text's front matter (or "") and the body pandoc reads for the proof."""
    lines = text.split("\n")
    end = fence_end(lines)
    if end is None:
        return "", text
    return "\n".join(lines[: end + 1]), "\n".join(lines[end + 1 :])


def masked_name(body: str, reader: str = READER) -> str:
    """The cache's name for the masked AST of ``body``."""
    return digest("masked-ast", pandoc_version(), proof_reader(reader), body)


def keep_masked(body: str, ast: dict[str, Any], cache: Cache | None, reader: str = READER) -> Any:
    """``ast`` (pandoc's of ``body``, read as the proof reads it; it changes) masked, and
    kept in ``cache`` where a proof of ``body`` looks first."""
    masked = masked_apart({"blocks": ast.get("blocks", []), "meta": ast.get("meta", {})})
    if cache is not None:
        cache.put("proof", masked_name(body, reader), json.dumps(masked).encode("utf-8"), ".json")
    return masked


def proves_prose_only(before: str, after: str, *, reader: str = READER) -> bool:
    """True when ``after`` differs from ``before`` only in prose (see the module), every
    heading keeping its identifier."""
    proof = Proof(before, reader)
    if not proof.accepts(after):
        return False
    return before == after or identifiers(proof.masked(after)) == identifiers(proof.original)


def key(finding: Finding) -> tuple[str, int, int, str | None]:
    return finding.rule, finding.start, finding.end, finding.replacement


def applied(findings: list[Finding]) -> list[Finding]:
    """The fixes :func:`apply_fixes` applies (non-overlapping, first wins), in order."""
    out: list[Finding] = []
    position = 0
    for finding in sorted(findings, key=lambda f: (f.start, f.end)):
        if finding.replacement is None or finding.start < position:
            continue
        out.append(finding)
        position = finding.end
    return out


def shifted(offset: int, fixes: list[Finding]) -> int:
    """Where ``offset`` of the text before ``fixes`` is in the text after them."""
    return offset + sum(
        len(f.replacement or "") - (f.end - f.start) for f in fixes if f.end <= offset
    )


def bisect(
    text: str, base: list[Finding], group: list[Finding], proof: Proof
) -> tuple[list[Finding], list[tuple[Finding, str]]]:
    """Split ``group`` into fixes that prove together with ``base`` and those that do not.

    Each half is tried on top of what was already accepted, so the accepted
    fixes are always proven together, not only one by one.  A refused fix
    comes with what it would have changed.
    """
    if not group:
        return [], []
    if proof.accepts(apply_fixes(text, base + group)):
        return group, []
    if len(group) == 1 or proof.calls >= PROOF_BUDGET:
        return [], [(finding, proof.why) for finding in group]
    middle = len(group) // 2
    ok_first, bad_first = bisect(text, base, group[:middle], proof)
    ok_second, bad_second = bisect(text, base + ok_first, group[middle:], proof)
    return ok_first + ok_second, bad_first + bad_second


@dataclass
class ProvenFix:
    """A fixed text, what is left to report, and the fixes the proof refused."""

    text: str
    findings: list[Finding]
    refused: int = 0


def refusal(finding: Finding, why: str) -> Finding:
    """The finding of a fix that was not applied, as ``CHK004`` naming the rule."""
    severity = "error" if finding.severity == "error" else "warning"
    return Finding(
        CHK004,
        finding.start,
        finding.end,
        f"{finding.rule} fix not applied: {why}: {finding.message}",
        None,
        severity,
    )


def proven_fix(text: str, path: Path | None, settings: Settings, **options: Any) -> ProvenFix:
    """Like :func:`kobook.check.runner.fix_text`, but the fixed text is proven by pandoc.

    ``options`` are :class:`PendingFix`'s; this waits for its proof.
    """
    return PendingFix(text, path, settings, **options).result()


class Later:
    """A parse made when it is first asked for, like a finished :class:`Future` then.

    ``PendingFix(later=True)``: a build first has pandoc read the proofs' texts of every
    chapter in one go (:mod:`kobook.normalize.prefetch`), so each parse is then found in
    the cache.
    """

    def __init__(self, make: Callable[[], Any]) -> None:
        self._make = make
        self._made = False
        self._value: Any = None
        self._error: KobookError | None = None

    def result(self) -> Any:
        if not self._made:
            try:
                self._value = self._make()
            except KobookError as exc:
                self._error = exc
            self._made = True
        if self._error is not None:
            raise self._error
        return self._value

    def done(self) -> bool:
        return self._made


class PendingFix:
    """The fixed text of ``text``, made at once; pandoc's proof of it, in the background.

    The fixes are applied pass after pass to a fixed point (what the fixes of
    one pass make can be fixed by the next), and that text is proven against
    the original in one go: two pandoc parses, started as soon as the first
    pass's text exists and run while the next passes are checked.  The rare
    text the proof refuses falls back to proving pass by pass, bisecting the
    fixes of a pass that fails so the safe ones still apply.

    :attr:`guess` is the result if the proof accepts, which it nearly always
    does: ``kobook preview`` builds it while pandoc proves it, and waits for
    :meth:`result` only before showing it.  ``on_candidate`` is told each
    fixed text as it is made (the preview starts parsing it).
    """

    def __init__(
        self,
        text: str,
        path: Path | None,
        settings: Settings,
        *,
        build_only: bool = False,
        reader: str = READER,
        cache: Cache | None = None,
        on_candidate: Callable[[str], None] | None = None,
        later: bool = False,
    ) -> None:
        self.text = text
        self.proof = Proof(text, reader, cache, keep_parsed=True)
        self._check = functools.partial(
            check_text, path=path, settings=settings, build_only=build_only
        )
        self._checked: dict[str, list[Finding]] = {}
        self._parses: dict[str, Future[Any] | Later] = {}
        self._result: ProvenFix | None = None
        pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kobook-proof")

        def parse(text: str) -> Future[Any] | Later:
            if later:
                return Later(functools.partial(self.proof.masked, text))
            return pool.submit(self.proof.masked, text)

        try:
            current = text
            for _ in range(MAX_PASSES):
                fixable = [f for f in self.check(current) if f.replacement is not None]
                candidate = apply_fixes(current, fixable)
                if candidate == current:
                    break
                if on_candidate is not None:
                    on_candidate(candidate)
                if not self._parses:
                    self._parses[text] = parse(text)
                self._parses[candidate] = parse(candidate)
                current = candidate
        finally:
            pool.shutdown(wait=False)  # what was submitted still runs
        self.guess = ProvenFix(current, self.check(current))

    @property
    def to_parse(self) -> list[str]:
        """The texts the proof reads: the original and each fixed text (none: no fix)."""
        return list(self._parses)

    def check(self, text: str) -> list[Finding]:
        """The findings of ``text`` (each text is checked once)."""
        if text not in self._checked:
            self._checked[text] = self._check(text)
        return self._checked[text]

    def result(self) -> ProvenFix:
        """The proven fixed text and what is left to report (waits for pandoc)."""
        if self._result is None:
            chosen = self.guess if self._accepted() else self._by_passes()
            self._result = self._addresses_kept(chosen)
        return self._result

    def _addresses_kept(self, chosen: ProvenFix) -> ProvenFix:
        """``chosen`` with every heading at its old identifier (:mod:`.anchors`): the ones
        a fix moved are written out; when that cannot be done the file keeps its text and
        the fixes are refused (CHK004)."""
        if chosen.text == self.text or self.proof.original is None:
            return chosen
        before = identifiers(self.proof.original)
        fixed = self._masked(chosen.text)
        after = identifiers(fixed)
        if after == before:
            return chosen
        if len(after) == len(before):
            moved = {
                i: old for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new
            }
            candidate = pin_identifiers(chosen.text, moved)
            if candidate is not None:
                kept = self._masked(candidate)
                same = structure(kept) == structure(self.proof.original)
                if same and identifiers(kept) == before:
                    return ProvenFix(candidate, self.check(candidate), chosen.refused)
        gone = [old for old in before if old not in after] or before
        why = f"it would move a heading's address (#{gone[0]})"
        findings = self.check(self.text)
        refused = [refusal(f, why) if f.replacement is not None else f for f in findings]
        return ProvenFix(self.text, refused, sum(1 for f in findings if f.replacement))

    def _masked(self, text: str) -> Any:
        """The masked AST of ``text``: the one being parsed for the proof, else parsed now."""
        future = self._parses.get(text)
        if future is not None:
            try:
                return future.result()
            except KobookError:
                pass
        return self.proof.masked(text)

    def parses(self, text: str) -> bool:
        """Is pandoc parsing ``text`` for the proof (so :meth:`pandoc_ast` may give it)?"""
        return text in self._parses and fence_end(text.split("\n")) is None

    def parsed_by_now(self, text: str) -> bool:
        """Has pandoc finished parsing ``text`` for the proof (or never started)?"""
        future = self._parses.get(text)
        return future is None or future.done()

    def pandoc_ast(self, text: str) -> dict[str, Any] | None:
        """pandoc's own AST of ``text``, one of the texts told to ``on_candidate``, as the
        proof read it (the build's reader, automatic header ids included); waits for
        pandoc.  None when it is not at hand: a proof found in the cache, a text with
        front matter (the proof reads the rest), a text pandoc failed on.
        """
        future = self._parses.get(text)
        if future is None or fence_end(text.split("\n")) is not None:
            return None
        try:
            future.result()
        except KobookError:
            return None
        found: dict[str, Any] | None = self.proof.parsed.get(text)
        return found

    def parsed_as_is(self, text: str) -> dict[str, Any] | None:
        """pandoc's own AST of ``text`` if the proof parsed exactly that text (no front
        matter, which the proof reads apart); None otherwise.  Does not wait."""
        if fence_end(text.split("\n")) is not None:
            return None
        found: dict[str, Any] | None = self.proof.parsed.get(text)
        return found

    def _accepted(self) -> bool:
        """Does the proof accept :attr:`guess`? (A text with no fix needs no proof.)"""
        if self.guess.text == self.text:
            return True
        proof = self.proof
        try:
            proof.original = self._parses[self.text].result()
        except KobookError as exc:
            first = exc.diagnostic.message.splitlines()[0]
            proof.error = f"pandoc could not read the file to prove it ({first})"
            return False
        return proof.compare(lambda _text: self._parses[self.guess.text].result(), self.guess.text)

    def _by_passes(self) -> ProvenFix:
        """Prove pass by pass, leaving out (and reporting) the fixes the proof refuses."""
        proof = self.proof
        proof.keep_parsed = False  # bisecting parses up to PROOF_BUDGET texts: keep none
        proof.parsed.clear()
        current = self.text
        refused: dict[tuple[str, int, int, str | None], str] = {}  # key → why, in `current`
        for _ in range(MAX_PASSES):
            fixable = [
                f
                for f in self.check(current)
                if f.replacement is not None and key(f) not in refused
            ]
            candidate = apply_fixes(current, fixable)
            if candidate == current:
                break
            if proof.error:
                for finding in fixable:
                    refused[key(finding)] = proof.error
                break
            if proof.accepts(candidate, functools.partial(self.check, candidate)):
                chosen = fixable
            else:
                chosen, bad = bisect(current, [], fixable, proof)
                for finding, why in bad:
                    refused[key(finding)] = why
                if not chosen:
                    break
            done = applied(chosen)
            refused = {
                (rule, shifted(start, done), shifted(end, done), replacement): why
                for (rule, start, end, replacement), why in refused.items()
            }
            current = apply_fixes(current, chosen)
        remaining = []
        for finding in self.check(current):
            reason = refused.get(key(finding)) if finding.replacement is not None else None
            remaining.append(refusal(finding, reason) if reason is not None else finding)
        return ProvenFix(current, remaining, len(refused))
