"""LEAK001/LEAK002: syntax of another dialect, or HTML a PDF cannot draw, left for the reader.

Books arrive written for Jekyll (Liquid, distill, kramdown), mdBook, Sphinx or
d2lbook.  pandoc's ``markdown`` reader does not know those dialects, so their
syntax reaches the page as literal text (``{% include figure.liquid … %}``) or
as raw HTML a PDF writer drops (``<d-footnote>``).  Nothing may be lost in
silence: after the transforms (the last pass, so a dialect stage that turned a
construct into a real figure or footnote leaves nothing to report) the text a
reader would see is searched for the patterns below.

What is searched: per block, a flattened text (``Str`` as is, spaces as " ",
``Quoted`` with its quote marks, link and image targets in parentheses, raw
HTML as written minus comments).  Code (``Code``, ``CodeBlock``) and math are
never searched -- a Liquid example in a code block is not a leak -- except the
two constructs that live in code blocks: d2lbook's ``#@tab`` first line and
mdBook's ``{{#include …}}`` lines.

One *occurrence* (what LEAK001 counts, one warning each):

==================  ======================================================
``liquid-tag``      one ``{% … %}`` tag (``{% details %}`` and
                    ``{% enddetails %}`` are two)
``liquid-output``   one ``{{ … }}`` (not ``{{#``)
``mdbook``          one ``{{#name …}}`` directive, in prose or in a code block
``distill``         one opening ``<d-name …>`` tag (closing tags not counted)
``kramdown-ial``    one ``{: …}`` / ``{::…}`` attribute list
``markdown-attr``   one HTML start tag carrying a ``markdown=`` attribute
                    (pandoc strips it from block tags, so those are found by
                    matching the tag that is left against the source)
``role``            one Sphinx/d2lbook role ``:name:`…``` (``:label:``,
                    ``:numref:``, ``:eqref:``, ``:cite:``, ``:width:``…)
``d2l-tab``         one ``:begin_tab:`` / ``:end_tab:``, or one code block
                    whose first line is ``#@tab …``
``div-fence``       one ``:::`` run pandoc did not take as a fenced div
``dollars``         one ``$$`` pandoc did not take as math (``\\$\\$`` is a
                    literal the author asked for, not one)
==================  ======================================================

Lines: the same patterns run over the chapter's source (outside code blocks,
inline code, comments and math) and the i-th finding of a kind and name is
placed at the i-th source occurrence (preferring one with the same text).
``kobook check`` reports those source occurrences directly (``check/leaks.py``).

LEAK002 is raw HTML the PDF engine cannot draw: :func:`undrawable_html`, from
what the writer registry declares each engine does with raw HTML, reported once
per build (:func:`html_leaks`).  ``<d-…>`` elements are LEAK001 only.
``--strict`` (:func:`fail_on_leaks`, LEAK003) is checked by ``api.build`` after
the transforms and before any writer runs, so no output is left in place.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import Diagnostic, KobookError, Location
from ..model import Chapter, Doc
from ..source import SourceDoc, parse_source
from ..source.inline import code_span, math_span
from .context import Context

Node = dict[str, Any]
LEAK_CODES = ("LEAK001", "LEAK002")

# ---------------------------------------------------------------- the patterns

NOT_BLANK_LINE = r"(?!\n[ \t]*\n)"
KINDS: list[tuple[str, str]] = [
    ("mdbook", r"\{\{#(?P<n_mdbook>[A-Za-z_][\w-]*)[^{}]*\}\}"),
    (
        "liquid-tag",
        r"\{%-?[ \t\n]*(?P<n_liquid_tag>[A-Za-z_][\w.-]*)"
        rf"(?:(?!%\}}|\{{%){NOT_BLANK_LINE}.)*%\}}",
    ),
    ("liquid-output", rf"\{{\{{(?!#)(?:(?!\}}\}}|\{{\{{){NOT_BLANK_LINE}.)+\}}\}}"),
    ("distill", r"<d-(?P<n_distill>[a-z][a-z0-9-]*)(?=[\s/>])[^<>]*>"),
    (
        "markdown-attr",
        r"<(?P<n_markdown_attr>[A-Za-z][\w-]*)(?=\s)[^<>]*?\smarkdown[ \t]*=[ \t]*"
        r"(?:\"[^\"]*\"|'[^']*'|[^\s\"'<>]+)[^<>]*>",
    ),
    ("kramdown-ial", r"\{:[^{}\n]*\}"),
    ("d2l-tab", r"(?<![\w:]):(?P<n_d2l_tab>begin_tab|end_tab):"),
    ("role", r"(?<![\w:`]):(?P<n_role>[A-Za-z][\w-]*(?::[\w-]+)?):(?=`)"),
    ("div-fence", r"(?<!\S):{3,}(?![^\s{])"),
    ("dollars", r"\$\$"),
]
MASTER = re.compile(
    "|".join(f"(?P<k_{kind.replace('-', '_')}>{pattern})" for kind, pattern in KINDS), re.S
)
KIND_OF_GROUP = {f"k_{kind.replace('-', '_')}": kind for kind, _ in KINDS}
MDBOOK_LINE = re.compile(KINDS[0][1])
TAB_LINE = re.compile(r"^#@tab\b[ \t]*(?P<name>[^\n]*)")
COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)
START_TAG = re.compile(r"<(?P<name>[A-Za-z][A-Za-z0-9-]*)(?=[\s/>])(?:\"[^\"]*\"|'[^']*'|[^<>])*>")
END_TAG = re.compile(r"</(?P<name>[A-Za-z][A-Za-z0-9-]*)\s*>")
ATTRIBUTE = re.compile(r"([^\s=/>\"']+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+)))?")
CODE_MARK = "`\u2026`"  # what inline code looks like in the flattened text
MATH_MARK = "\u2026"

MESSAGES = {
    "liquid-tag": "Liquid tag {construct} left in the text",
    "liquid-output": "Liquid output {construct} left in the text",
    "mdbook": "mdBook directive {construct} left in the text",
    "distill": "distill element {construct} left in the text (drawn as plain text, if at all)",
    "markdown-attr": "kramdown attribute {construct}: the element stays raw HTML",
    "kramdown-ial": "kramdown attribute list {construct} left in the text",
    "role": "Sphinx/d2lbook role {construct} left in the text",
    "d2l-tab": "d2lbook tab marker {construct} left in the text",
    "div-fence": "unmatched {construct} (a fenced div marker without its partner) left in the text",
    "dollars": "leftover {construct} (a math delimiter without its partner) left in the text",
}
HINTS = {
    "liquid-tag": "Liquid is not run by kobook: set `dialect: distill` in metadata.yaml "
    "or rewrite it as pandoc Markdown (a figure is ![caption](path), a details box ::: {.note})",
    "liquid-output": "Liquid is not run by kobook: set `dialect: distill` in metadata.yaml "
    "or write the value itself",
    "mdbook": "mdBook directives are not run by kobook: set `dialect: mdbook` in metadata.yaml "
    "or paste the included text",
    "distill": "set `dialect: distill` in metadata.yaml or rewrite it as pandoc "
    "Markdown (a footnote is ^[text], a citation [@key])",
    "markdown-attr": "write a pandoc fenced div instead: ::: {.class} … :::",
    "kramdown-ial": "pandoc puts attributes right after the element, {#id .class}; "
    "rewrite or remove the {: …}",
    "role": "write a pandoc cross-reference (@fig:id, @eq:id) or citation ([@key]) instead",
    "d2l-tab": "keep one code block per language (kobook has no d2lbook dialect)",
    "div-fence": "a fenced div is ::: {.class} … ::: after a blank line; add the partner "
    "or remove the stray :::",
    "dollars": "close the math with a second $$, or write a literal dollar sign as \\$",
}


@dataclass
class Found:
    """One leaked construct: from the AST (no offsets) or from the source (with offsets)."""

    kind: str
    name: str
    text: str
    start: int = -1
    end: int = -1
    escaped: bool = False  # ``\$\$`` in the source: a literal the author asked for
    used: bool = False


def squeeze(text: str) -> str:
    """Text reduced to its word characters, to match an AST find with its source."""
    return re.sub(r"\W+", "", text).lower()


def scan(text: str) -> Iterator[Found]:
    """The constructs in one flattened text, in order (matches never overlap)."""
    for match in MASTER.finditer(text):
        group = match.lastgroup or ""
        kind = KIND_OF_GROUP[group]
        name_group = f"n_{kind.replace('-', '_')}"
        name = match.group(name_group) if name_group in MASTER.groupindex else ""
        yield Found(kind, name or "", match.group(0), match.start(), match.end())


def construct(found: Found) -> str:
    """How a message shows the construct: short, with ``…`` for the middle."""
    text = " ".join(found.text.split())
    if found.kind == "liquid-tag":
        return "{% " + found.name + (" … %}" if len(text) > len(found.name) + 8 else " %}")
    if found.kind == "mdbook":
        return "{{#" + found.name + " …}}"
    if found.kind == "distill":
        return f"<d-{found.name}>"
    if found.kind == "markdown-attr":
        return f'markdown="1" on <{found.name}>'
    if found.kind == "role":
        return f":{found.name}:`…`"
    if found.kind == "d2l-tab":
        return "#@tab" if text.startswith("#@tab") else f":{found.name}:"
    return text if len(text) <= 40 else text[:37] + "…"


def message(found: Found) -> str:
    return MESSAGES[found.kind].format(construct=construct(found))


# ------------------------------------------------------------- the AST side


def strip_comments(html: str) -> str:
    return COMMENT.sub("", html)


def tag_attributes(tag: str) -> frozenset[tuple[str, str]]:
    """``{(name, value)}`` of a start tag, names lower-cased, ``markdown`` left out."""
    inner = re.sub(r"^<[A-Za-z][\w-]*|/?>$", "", tag)
    out = set()
    for match in ATTRIBUTE.finditer(inner):
        name = match.group(1).lower()
        if name == "markdown":
            continue
        value = next((g for g in match.group(2, 3, 4) if g is not None), "")
        out.add((name, value))
    return frozenset(out)


def flatten(inlines: list[Node], notes: list[list[Node]], alt: bool = True) -> str:
    """What a reader sees of ``inlines`` (see the module docstring); notes are set aside."""
    parts: list[str] = []

    def go(items: list[Node]) -> None:
        for node in items:
            t = node["t"]
            c: Any = node.get("c")
            if t == "Str":
                parts.append(c)
            elif t in ("Space", "SoftBreak", "LineBreak"):
                parts.append(" ")
            elif t == "Code":
                parts.append(CODE_MARK)
            elif t == "Math":
                parts.append(MATH_MARK)
            elif t == "RawInline":
                if c[0] == "html":
                    parts.append(strip_comments(c[1]))
            elif t == "Quoted":
                mark = '"' if c[0]["t"] == "DoubleQuote" else "'"
                parts.append(mark)
                go(c[1])
                parts.append(mark)
            elif t in ("Link", "Image"):
                if t == "Link" or alt:
                    go(c[1])
                parts.append(f"({c[2][0]})")
            elif t == "Span":
                if any(k == "markdown" for k, _ in c[0][2]):
                    parts.append('<span markdown="1">')
                go(c[1])
            elif t == "Cite":
                go(c[1])
            elif t == "Note":
                notes.append(c)
                parts.append(" ")
            elif isinstance(c, list):  # Emph, Strong, Underline, Superscript…
                go(c)

    go(inlines)
    return "".join(parts)


def block_texts(blocks: list[Node], alt: bool = True) -> Iterator[tuple[str, str | Node]]:
    """``("text", flattened)`` per block, ``("code", text)`` per code block, ``("tag", node)``
    per raw HTML block, in document order (a footnote right after its paragraph)."""
    for node in blocks:
        t = node["t"]
        c: Any = node.get("c")
        notes: list[list[Node]] = []
        if t in ("Para", "Plain"):
            yield "text", flatten(c, notes, alt)
        elif t == "Header":
            yield "text", flatten(c[2], notes)
        elif t == "LineBlock":
            yield "text", " ".join(flatten(line, notes) for line in c)
        elif t == "RawBlock":
            if c[0] == "html":
                yield "text", strip_comments(c[1])
                yield "tag", node
        elif t == "CodeBlock":
            yield "code", c[1]
        elif t == "BlockQuote":
            yield from block_texts(c)
        elif t == "OrderedList":
            for item in c[1]:
                yield from block_texts(item)
        elif t == "BulletList":
            for item in c:
                yield from block_texts(item)
        elif t == "DefinitionList":
            for term, definitions in c:
                yield "text", flatten(term, notes)
                for definition in definitions:
                    yield from block_texts(definition)
        elif t == "Div":
            if any(k == "markdown" for k, _ in c[0][2]):
                yield "text", '<div markdown="1">'
            yield from block_texts(c[1])
        elif t == "Figure":
            yield from block_texts(c[1][1])
            # The image's alt text repeats the caption: read it once.
            yield from block_texts(c[2], alt=False)
        elif t == "Table":
            yield from block_texts(c[1][1])
            head, bodies, foot = c[3], c[4], c[5]
            rows = [*head[1]]
            for body in bodies:
                rows += body[2] + body[3]
            rows += foot[1]
            for row in rows:
                for cell in row[1]:
                    yield from block_texts(cell[4])
        for note in notes:
            yield from block_texts(note)


def find_leaks(blocks: list[Node]) -> list[Found]:
    """Every leaked construct in ``blocks``, in document order (no positions yet).

    Also returns ``raw-tag`` entries, one per raw HTML block start tag: pandoc
    strips ``markdown="1"`` from those, so only the source can tell whether
    the tag carried it (see :class:`Locator`).
    """
    out: list[Found] = []
    for kind, value in block_texts(blocks):
        if kind == "text":
            assert isinstance(value, str)
            out += list(scan(value))
        elif kind == "code":
            assert isinstance(value, str)
            tab = TAB_LINE.match(value)
            if tab:
                out.append(Found("d2l-tab", tab.group("name").strip(), tab.group(0)))
            for match in MDBOOK_LINE.finditer(value):
                out.append(Found("mdbook", match.group("n_mdbook"), match.group(0)))
        else:
            assert isinstance(value, dict)
            tag = START_TAG.fullmatch(value["c"][1].strip())
            if tag:
                out.append(Found("raw-tag", tag.group("name").lower(), tag.group(0)))
    return out


# ----------------------------------------------------------- the source side

FENCE_LINE = re.compile(r"^((?:[ \t]*>)*[ \t]{0,3})(:{3,})(.*)$")
ATX_LINE = re.compile(r"^(?:[ \t]*>)*[ \t]{0,3}#{1,6}(?:[ \t]|$)")
TAG_LINE = re.compile(r"^(?:[ \t]*>)*[ \t]*(?:</?[A-Za-z][^<>]*>[ \t]*)+$")


def blank(chars: list[str], start: int, end: int) -> None:
    for index in range(start, min(end, len(chars))):
        if chars[index] != "\n":
            chars[index] = " "


def mask_source(doc: SourceDoc) -> str:
    """``doc.text`` with code blocks, front matter, inline code (but its backticks),
    comments and math blanked out, same length and lines."""
    text = doc.text
    chars = list(text)
    for token in doc.tokens:
        if token.type in ("fence", "code_block", "front_matter") and token.map:
            blank(chars, doc.line_offset(token.map[0]), doc.line_offset(token.map[1]))
    masked = "".join(chars)
    paragraph_ends = [m.start() for m in re.finditer(r"\n[ \t]*\n", masked)] + [len(masked)]
    index = 0
    special = re.compile(r"[\\`$<]")
    while True:
        found = special.search(masked, index)
        if not found:
            break
        index = found.start()
        char = masked[index]
        end = paragraph_ends[bisect.bisect_right(paragraph_ends, index)]
        if char == "\\":
            index += 2
        elif char == "<":
            if masked.startswith("<!--", index):
                close = masked.find("-->", index + 4)
                after = close + 3 if close >= 0 else len(masked)
                blank(chars, index, after)
                index = after
            else:
                index += 1
        elif char == "`":
            run = index
            while run < len(masked) and masked[run] == "`":
                run += 1
            code_end = code_span(masked, index, end)
            if code_end is None:
                index = run
            else:
                blank(chars, run, code_end - (run - index))
                index = code_end
        else:  # "$"
            math_end = math_span(masked, index, end)
            if math_end is None:
                index += 2 if masked.startswith("$$", index) else 1
            else:
                blank(chars, index, math_end)
                index = math_end
    return "".join(chars)


def fence_leaks(masked: str, starts: list[int]) -> list[int]:
    """Offsets of ``:::`` fence lines pandoc reads as text (a sketch of its rules).

    A bare ``:::`` closes the innermost open div, else it is text; an opening
    ``::: name`` cannot interrupt a paragraph (then it is text).  An opening
    fence never closed is closed by pandoc at the end: not a leak.
    """
    out = []
    depth = 0
    paragraph = False
    for index, line in enumerate(masked.split("\n")):
        match = FENCE_LINE.match(line)
        if match:
            offset = starts[index] + match.start(2)
            rest = match.group(3).strip().strip(":").strip()
            if not rest and depth:
                depth -= 1
                paragraph = False
            elif rest and not paragraph:
                depth += 1
            else:
                out.append(offset)
                paragraph = True
            continue
        paragraph = bool(line.strip()) and not ATX_LINE.match(line) and not TAG_LINE.match(line)
    return out


def source_leaks(doc: SourceDoc, masked: str | None = None) -> list[Found]:
    """The leaked constructs in a source, with offsets, in order (what ``check`` reports)."""
    masked = mask_source(doc) if masked is None else masked
    text = doc.text
    out: list[Found] = []
    fence_starts = set(fence_leaks(masked, doc.line_starts))
    for found in scan(masked):
        found.text = text[found.start : found.end]
        if found.kind == "div-fence":
            line_start = masked.rfind("\n", 0, found.start) + 1
            at_line_start = FENCE_LINE.match(masked[line_start : found.end]) is not None
            if at_line_start and found.start not in fence_starts:
                continue  # a fenced div pandoc reads as one
            fence_starts.discard(found.start)
        out.append(found)
    for offset in fence_starts:
        match = re.match(r":+", text[offset:])
        out.append(Found("div-fence", "", match.group(0) if match else ":::", offset))
    for match in re.finditer(r"\\\$\\\$", masked):
        out.append(Found("dollars", "", match.group(0), match.start(), match.end(), escaped=True))
    for token in doc.tokens:
        if token.type not in ("fence", "code_block") or not token.map:
            continue
        first = token.map[0] + (1 if token.type == "fence" else 0)
        lines = token.content.split("\n")
        tab = TAB_LINE.match(token.content)
        if tab:
            out.append(in_code(doc, first, tab.group(0), "d2l-tab", tab.group("name").strip()))
        for number, line in enumerate(lines):
            for match in MDBOOK_LINE.finditer(line):
                out.append(
                    in_code(doc, first + number, match.group(0), "mdbook", match.group("n_mdbook"))
                )
    for found in out:
        if found.end < 0:
            found.end = found.start + len(found.text)
    out.sort(key=lambda f: f.start)
    return out


def in_code(doc: SourceDoc, line: int, text: str, kind: str, name: str) -> Found:
    """A construct on 0-based ``line`` of a code block, placed at its column there."""
    start = doc.line_offset(line)
    end = doc.line_offset(line + 1) if line + 1 < len(doc.line_starts) else len(doc.text)
    column = doc.text.find(text, start, end)
    offset = column if column >= 0 else start
    return Found(kind, name, text, offset, offset + len(text))


def source_tags(doc: SourceDoc, masked: str) -> list[Found]:
    """Every HTML start tag in the source outside code and comments (for LEAK002)."""
    return [
        Found("html", m.group("name").lower(), doc.text[m.start() : m.end()], m.start(), m.end())
        for m in START_TAG.finditer(masked)
    ]


class Locator:
    """Places AST finds in one chapter's source (parsed only when something is found)."""

    def __init__(self, chapter: Chapter) -> None:
        self.chapter = chapter
        self._doc: SourceDoc | None = None
        self._masked = ""
        self._pools: dict[str, dict[tuple[str, str], list[Found]]] = {}
        self._fallbacks: dict[str, int] = {}

    @property
    def doc(self) -> SourceDoc:
        if self._doc is None:
            self._doc = parse_source(self.chapter.text, self.chapter.path)
            self._masked = mask_source(self._doc)
        return self._doc

    def pool(self, which: str) -> dict[tuple[str, str], list[Found]]:
        """Source finds by kind and name: ``leaks`` (LEAK001) or ``tags`` (HTML start tags)."""
        if which not in self._pools:
            doc = self.doc
            if which == "tags":
                finds = source_tags(doc, self._masked)
            else:
                finds = source_leaks(doc, self._masked)
            pools: dict[tuple[str, str], list[Found]] = {}
            for found in finds:
                pools.setdefault((found.kind, found.name.lower()), []).append(found)
            self._pools[which] = pools
        return self._pools[which]

    def take(self, found: Found, which: str = "leaks") -> Found | None:
        """The source occurrence of ``found``: the first unused one with the same text,
        else the first unused one of its kind and name."""
        candidates = [
            c for c in self.pool(which).get((found.kind, found.name.lower()), []) if not c.used
        ]
        key = squeeze(found.text)
        chosen = next((c for c in candidates if squeeze(c.text) == key), None)
        chosen = chosen or (candidates[0] if candidates else None)
        if chosen is not None:
            chosen.used = True
        return chosen

    def take_markdown_tag(self, found: Found) -> Found | None:
        """The source tag with ``markdown=…`` that pandoc turned into the raw tag ``found``."""
        wanted = tag_attributes(found.text)
        for candidate in self.pool("leaks").get(("markdown-attr", found.name), []):
            if not candidate.used and tag_attributes(candidate.text) == wanted:
                candidate.used = True
                return candidate
        return None

    def location(self, source: Found | None, needle: str) -> Location:
        chapter = self.chapter
        if source is not None:
            line, col = self.doc.position(source.start)
            return chapter.where(line, col)
        occurrence = self._fallbacks.get(needle, 0)
        self._fallbacks[needle] = occurrence + 1
        located = chapter.locate(needle, occurrence)
        return located or chapter.where(1, 0)

    def suppressed(self, code: str, source: Found | None) -> bool:
        return source is not None and self.doc.suppressed(code, source.start)


NEEDLES = {
    "liquid-tag": "{%",
    "liquid-output": "{{",
    "mdbook": "{{#",
    "kramdown-ial": "{:",
    "markdown-attr": "markdown",
    "div-fence": ":::",
    "dollars": "$$",
}


def needle(found: Found) -> str:
    if found.kind == "distill":
        return f"<d-{found.name}"
    if found.kind in ("role", "d2l-tab"):
        return "#@tab" if found.text.startswith("#@tab") else f":{found.name}:"
    return NEEDLES.get(found.kind, found.text)


def leak_diagnostics(doc: Doc) -> list[Diagnostic]:
    """LEAK001 for every construct of :data:`KINDS` left in one chapter's AST."""
    finds = find_leaks(doc.blocks)
    maybe_markdown = re.search(r"\smarkdown\s*=", doc.chapter.text) is not None
    if not maybe_markdown and all(f.kind == "raw-tag" for f in finds):
        return []
    locator = Locator(doc.chapter)
    out = []
    for found in finds:
        if found.kind == "raw-tag":
            if not maybe_markdown:
                continue
            source = locator.take_markdown_tag(found)
            if source is None:
                continue
            found = Found("markdown-attr", found.name, source.text)
        else:
            source = locator.take(found)
        if source is not None and source.escaped:
            continue
        if locator.suppressed("LEAK001", source):
            continue
        shown = Found(found.kind, found.name, source.text if source else found.text)
        out.append(
            Diagnostic(
                "LEAK001",
                message(shown),
                locator.location(source, needle(found)),
                HINTS[found.kind],
                "warning",
            )
        )
    return out


def report_leaks(doc: Doc, ctx: Context) -> Doc:
    """The ``leaks`` pass (the last one): warn about LEAK001 constructs; change nothing."""
    ctx.diagnostics += leak_diagnostics(doc)
    return doc


# ------------------------------------------------------------------ LEAK002


def names(text: str) -> frozenset[str]:
    return frozenset(text.split())


HTML_ELEMENTS = names(
    """a abbr acronym address area article aside audio b base bdi bdo big blockquote body br
    button canvas caption center cite code col colgroup data datalist dd del details dfn dialog
    div dl dt em embed fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header
    hgroup hr html i iframe img input ins kbd label legend li link main map mark math menu meta
    meter nav nobr noscript object ol optgroup option output p param picture pre progress q rp rt
    ruby s samp script search section select slot small source span strike strong style sub
    summary sup svg table tbody td template textarea tfoot th thead time title tr track tt u ul
    var video wbr"""
)
# WeasyPrint lays out HTML and CSS; these it cannot (or will not) draw.
WEASYPRINT_UNDRAWABLE = names(
    "iframe frame frameset video audio object embed applet canvas script template portal"
)
# pandoc's LaTeX writer drops every raw HTML tag and keeps the text between
# tags; these carry meaning that is lost with the tag (plain markup such as
# <span>, <sup>, <br>, <b>, <a>, <div> or <p> is not worth a warning).
XELATEX_UNDRAWABLE = WEASYPRINT_UNDRAWABLE | names("img svg math picture table")
# Content of these is not markup (skipped), of these is drawn by their parent.
OPAQUE = re.compile(r"<(script|style)\b.*?</\1\s*>", re.S | re.I)
FOREIGN = ("svg", "math")


def undrawable_tags(blocks: list[Node], draws_html: bool) -> list[tuple[str, str, Node]]:
    """``(name as written, start tag, node)`` of raw HTML a writer cannot draw: one that
    lays HTML out (``draws_html``) loses :data:`WEASYPRINT_UNDRAWABLE`, one whose pandoc
    writer drops the tags :data:`XELATEX_UNDRAWABLE` too."""
    out: list[tuple[str, str, Node]] = []
    depth = 0  # inside <svg> or <math>: their children are drawn by them
    lost = WEASYPRINT_UNDRAWABLE if draws_html else XELATEX_UNDRAWABLE
    for node in iter_raw_html(blocks):
        html = OPAQUE.sub(lambda m: m.group(0)[: m.group(0).find(">") + 1], node["c"][1])
        html = strip_comments(html)
        events = [(m.start(), "end", m) for m in END_TAG.finditer(html)]
        events += [(m.start(), "start", m) for m in START_TAG.finditer(html)]
        for _, kind, match in sorted(events, key=lambda e: e[0]):
            name = match.group("name")
            lower = name.lower()
            if kind == "end":
                if lower in FOREIGN and depth:
                    depth -= 1
                continue
            if depth:
                continue
            if lower in FOREIGN and not match.group(0).endswith("/>"):
                depth += 1
            if lower.startswith("d-"):
                continue  # LEAK001 already
            if lower in lost or lower not in HTML_ELEMENTS:
                out.append((name, match.group(0), node))
    return out


def undrawable_html(blocks: list[Node], draws_html: bool) -> list[tuple[str, Node]]:
    """``(tag name, node)`` of each raw HTML element a writer cannot draw (LEAK002)."""
    return [(name, node) for name, _, node in undrawable_tags(blocks, draws_html)]


def iter_raw_html(blocks: list[Node]) -> Iterator[Node]:
    from ..parse.ast import iter_nodes

    for node in iter_nodes(blocks):
        if node["t"] in ("RawBlock", "RawInline") and node["c"][0] == "html":
            yield node


def html_leaks(docs: list[Doc], draws_html: bool, label: str) -> list[Diagnostic]:
    """LEAK002 warnings for the chapters a PDF writer (its ``label``, and what it does with
    raw HTML, as the writer registry declares it) is about to draw: made once per build,
    before the writer runs, never by the writer itself."""
    out = []
    for doc in docs:
        found = undrawable_tags(doc.blocks, draws_html)
        if not found:
            continue
        locator = Locator(doc.chapter)
        for name, tag, _node in found:
            source = locator.take(Found("html", name.lower(), tag), "tags")
            if locator.suppressed("LEAK002", source):
                continue
            if not draws_html:
                text = f"raw HTML <{name}> is left out of the {label} (pandoc drops raw HTML)"
            elif name.lower() in WEASYPRINT_UNDRAWABLE:
                text = f"raw HTML <{name}> cannot be drawn in the {label} (it leaves it out)"
            else:
                text = f"raw HTML <{name}> is not an HTML element: the PDF shows its text at most"
            out.append(
                Diagnostic(
                    "LEAK002",
                    text,
                    locator.location(source, f"<{name}"),
                    "rewrite it as Markdown (an image is ![caption](file), a link [text](url)); "
                    "the HTML site keeps it unless it is unsafe to publish (then HTML001)",
                    "warning",
                )
            )
    return out


def fail_on_leaks(diagnostics: list[Diagnostic]) -> None:
    """``--strict``: raise when any LEAK warning is among ``diagnostics``."""
    leaks = [d for d in diagnostics if d.code in LEAK_CODES]
    if leaks:
        raise KobookError.summarising(
            f"{len(leaks)} construct(s) the PDF or HTML would show wrongly or lose "
            "(LEAK001/LEAK002, --strict)",
            "LEAK003",
            leaks[:20],
            "rewrite them as pandoc Markdown (see each hint), or build without --strict",
        )
