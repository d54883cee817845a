"""What a leaked construct looks like: the patterns of each dialect's syntax (Liquid,
kramdown, mdBook, MkDocs, Quarto/Hugo shortcodes, bookdown/knitr, Sphinx, d2lbook), their
messages and hints, and one occurrence found."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

Node = dict[str, Any]
LEAK_CODES = ("LEAK001", "LEAK002")

# ---------------------------------------------------------------- the patterns

NOT_BLANK_LINE = r"(?!\n[ \t]*\n)"
# knitr's and Quarto's cell engines: ```{r}, ```{python} … (not ```{v2} or any braces).
CHUNK_ENGINES = (
    r"(?:r|R|python|python3|julia|ojs|bash|sh|sql|rcpp|Rcpp|stan|js|mermaid|dot|cpp|c|"
    r"fortran|ruby|perl|octave|sas|stata|asis|css|tikz|node|scala|lua|groovy)"
)
CHUNK_HEADER = re.compile(r"^\{(" + CHUNK_ENGINES + r")(?:[ ,][^{}]*)?\}")
KINDS: list[tuple[str, str]] = [
    ("mdbook", r"\{\{#(?P<n_mdbook>[A-Za-z_][\w-]*)[^{}]*\}\}"),
    # Quarto's and Hugo's {{< name … >}} / {{% name … %}}: before Liquid's {{ … }}.
    ("shortcode", r"\{\{[<%][ \t]*/?(?P<n_shortcode>[\w./-]+)(?:(?![>%]\}\})[^\n])*?[>%]\}\}"),
    (
        "mkdocs-block",
        r"(?:^|(?<=\n))[ \t]*(?P<n_mkdocs_block>!!!|\?\?\?\+?|===)[ \t]+(?=[A-Za-z\"\u201c])",
    ),
    ("snippet", r"(?:--|\u2013|\u2014)8<(?:--|\u2013|\u2014)"),
    ("icon", r"(?<![\w:]):(?P<n_icon>(?:material|fontawesome|octicons|simple)-[\w-]+):"),
    ("bookdown-ref", r"\\?@ref\((?P<n_bookdown_ref>[\w:.-]+)\)"),
    ("bookdown-part", r"\((?P<n_bookdown_part>PART|APPENDIX)\\?\*?\)"),
    ("chunk", r"```\{(?P<n_chunk>" + CHUNK_ENGINES + r")\b"),
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
    "shortcode": "Quarto/Hugo shortcode {construct} left in the text",
    "mkdocs-block": "MkDocs block marker {construct} left in the text (its body prints as code)",
    "snippet": "MkDocs snippet {construct} left in the text",
    "icon": "MkDocs Material icon {construct} left in the text",
    "bookdown-ref": "bookdown cross-reference {construct} left in the text",
    "bookdown-part": "bookdown part marker {construct} left in a heading",
    "chunk": "code chunk {construct} left as inline code (pandoc reads no chunk options)",
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
    "shortcode": "set `dialect: quarto` in metadata.yaml (kobook import finds _quarto.yml), "
    "or write the included text or the value itself",
    "mkdocs-block": "set `dialect: mkdocs` in metadata.yaml (kobook import finds mkdocs.yml), "
    "or write a fenced div ::: {.callout-note} … :::",
    "snippet": "set `dialect: mkdocs` in metadata.yaml, or paste the file's text",
    "icon": "set `dialect: mkdocs` in metadata.yaml (icons are left out with a note), "
    "or write the word it stands for",
    "bookdown-ref": "set `dialect: bookdown` in metadata.yaml (kobook import finds _bookdown.yml), "
    "or write a cross-reference: [-@fig:label] prints the number alone",
    "bookdown-part": "set `dialect: bookdown` in metadata.yaml: (PART) and (APPENDIX) headings "
    "then open parts",
    "chunk": "set `dialect: quarto` or `bookdown` in metadata.yaml (cells are shown, not run), "
    "or write a fenced code block (```r or ```python)",
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
    if found.kind == "shortcode":
        return "{{< " + found.name + " … >}}"
    if found.kind == "chunk":
        return "```{" + found.name + "}"
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
