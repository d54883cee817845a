"""HTML blocks of a kramdown post: ``markdown=1`` elements, embedded pages, headings.

kramdown reads Markdown inside an HTML element that says ``markdown=1``;
pandoc does not, so each such element becomes its pandoc counterpart:

- ``<p markdown=1 class="takeaway">`` → ``::: {.callout-takeaway}``;
- ``<div markdown=1 class="algorithm">`` → ``::: {.algorithm}`` (a class-less
  one: just its Markdown);
- ``<h3 markdown=1 class="next-section">`` → ``::: {.next-section}`` holding
  a paragraph (a class marks it as page navigation, not a section); without
  a class → ``### …``;
- ``<b markdown=1>`` / ``<i markdown=1>`` / ``<span markdown=1>`` → ``**…**`` /
  ``*…*`` / the text.

An ``<iframe>`` (alone, or in a distill ``l-page``/``l-body`` … layout div) is
an embedded page: ``::: {.embed src="…" image="…"}`` with the static image of
the same name beside it when there is one.  A layout div without an iframe is
dropped, its contents kept.  ``<h3 id="x">Title</h3>`` on a line of its own is
``### Title {#x}``.
"""

from __future__ import annotations

import re
from pathlib import Path

from ...model.origins import Lines
from .. import Report
from .edits import Edit, apply_edits, as_block, where
from .html_inline import attributes, html_to_markdown
from .liquid import Site, site_path

MARKDOWN_OPEN = re.compile(
    r"<(?P<tag>p|div|section|aside|blockquote|h[1-6]|b|strong|i|em|span)\b"
    r"(?P<attrs>[^<>]*?\smarkdown\s*=\s*[\"']?(?:1|block|span|true)[\"']?[^<>]*)>",
    re.I,
)
LAYOUT = r"l-(?:page|body|screen|gutter|middle)[\w-]*"
LAYOUT_DIV = re.compile(rf"<div\b(?P<attrs>[^<>]*\bclass\s*=\s*[\"'][^\"']*\b{LAYOUT}[^<>]*)>")
IFRAME = re.compile(r"<iframe\b(?P<attrs>(?:[^<>]|\{\{.*?\}\})*)>\s*(?:</iframe\s*>)?", re.S | re.I)
HEADING = re.compile(
    r"^(?P<indent>[ \t]{0,3})<(?P<tag>h[1-6])\b(?P<attrs>[^<>]*)>"
    r"(?P<body>[^\n]*?)</(?P=tag)\s*>[ \t]*$",
    re.M | re.I,
)
INLINE = {"b": "**", "strong": "**", "i": "*", "em": "*", "span": ""}
STATIC = (".png", ".svg", ".jpg", ".jpeg", ".webp", ".gif")


def closing(text: str, tag: str, start: int) -> tuple[int, int] | None:
    """Span of the ``</tag>`` closing the element whose content starts at ``start``."""
    pattern = re.compile(rf"<(/?){tag}\b[^<>]*>", re.I)
    depth = 1
    for match in pattern.finditer(text, start):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return match.span()
    return None


def div_fence(attrs: dict[str, str], extra: str = "") -> str:
    """``::: {#id .class …}`` for an element's id and classes (``:::`` when it has none)."""
    parts = [f"#{attrs['id']}"] if attrs.get("id") else []
    parts += [f".{c}" for c in attrs.get("class", "").split() if re.fullmatch(r"[\w-]+", c)]
    if extra:
        parts.insert(0, extra)
    return "::: {" + " ".join(parts) + "}" if parts else ""


def markdown_elements(lines: Lines, report: Report) -> Lines:
    """Every ``markdown=1`` element (innermost last: nested ones are rewritten in later rounds)."""
    for _ in range(6):
        new = markdown_round(lines, report)
        if new is lines:
            break
        lines = new
    return lines


def markdown_round(lines: Lines, report: Report) -> Lines:
    text = lines.text
    edits: list[Edit] = []
    busy_until = 0
    for match in MARKDOWN_OPEN.finditer(text):
        if match.start() < busy_until:
            continue  # inside an element rewritten this round: the next round takes it
        tag = match.group("tag").lower()
        close = closing(text, tag, match.end())
        if close is None:
            report.cannot(
                "DIA130",
                f"<{tag} markdown=1> is never closed (left as it is)",
                where(lines, match.start()),
                f"add </{tag}> where it ends",
            )
            continue
        attrs = attributes(match.group("attrs"))
        edits += element_edits(text, tag, attrs, match.span(), close, report)
        busy_until = close[1]
    return apply_edits(lines, edits)


def element_edits(
    text: str,
    tag: str,
    attrs: dict[str, str],
    opening: tuple[int, int],
    close: tuple[int, int],
    report: Report,
) -> list[Edit]:
    """The edits for one ``markdown=1`` element: its two tags, rewritten."""
    if tag in INLINE:
        mark = INLINE[tag]
        report.count("markdown-inline")
        return [Edit(*opening, mark), Edit(*close, mark)]
    classes = attrs.get("class", "").split()
    if tag == "p" and "takeaway" in classes:
        fence = "::: {.callout-takeaway}"
        report.count("takeaway")
    elif tag.startswith("h") and not classes:
        report.count("markdown-heading")
        return [Edit(*opening, "#" * int(tag[1]) + " "), Edit(*close, "")]
    else:
        fence = div_fence(attrs)
        report.count("markdown-block")
    if not fence:
        return [Edit(*opening, as_block(text, *opening, "")), Edit(*close, "")]
    return [
        Edit(*opening, as_block(text, *opening, fence)),
        Edit(*close, as_block(text, *close, ":::")),
    ]


def embeds(lines: Lines, report: Report, site: Site, root: Path) -> Lines:
    """Layout divs and iframes: an ``.embed`` div per iframe, layout wrappers dropped."""
    text = lines.text
    edits: list[Edit] = []
    inside: list[tuple[int, int]] = []
    for match in LAYOUT_DIV.finditer(text):
        close = closing(text, "div", match.end())
        if close is None:
            continue
        body = text[match.end() : close[0]]
        frame = IFRAME.search(body)
        if frame is None:
            report.info(
                "DIA131",
                "distill layout <div> dropped (its contents kept)",
                where(lines, match.start()),
            )
            edits += [Edit(*match.span(), ""), Edit(*close, "")]
            continue
        rest = (body[: frame.start()] + body[frame.end() :]).strip()
        block = embed_block(frame.group("attrs"), html_to_markdown(rest), site, root)
        edits.append(Edit(match.start(), close[1], as_block(text, match.start(), close[1], block)))
        inside.append((match.start(), close[1]))
        report.count("embed")
    for frame in IFRAME.finditer(text):
        if any(start <= frame.start() < end for start, end in inside):
            continue
        block = embed_block(frame.group("attrs"), "", site, root)
        edits.append(Edit(*frame.span(), as_block(text, *frame.span(), block)))
        report.count("embed")
    return apply_edits(lines, edits)


def embed_block(iframe_attrs: str, body: str, site: Site, root: Path) -> str:
    """``::: {.embed src=… image=… height=…}`` and the div's other content."""
    attrs = attributes(iframe_attrs)
    src = site_path(attrs.get("src", ""), site)
    parts = [".embed", f'src="{quote(src)}"']
    image = static_image(src, root)
    if image:
        parts.append(f'image="{quote(image)}"')
    for key in ("height", "width", "title"):
        if attrs.get(key):
            parts.append(f'{key}="{quote(attrs[key])}"')
    return "::: {" + " ".join(parts) + "}\n" + (body + "\n" if body else "") + ":::"


def quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def static_image(src: str, root: Path) -> str:
    """An image with the page's name beside it (``x.html`` → ``x.png``), or ""."""
    if not src or "://" in src:
        return ""
    page = Path(src)
    for suffix in STATIC:
        candidate = page.with_suffix(suffix)
        if (root / candidate).is_file():
            return candidate.as_posix()
    return ""


def headings(lines: Lines, report: Report) -> Lines:
    """``<h3 id="x">Title</h3>`` alone on a line → ``### Title {#x}``."""

    def heading(match: re.Match[str]) -> str:
        attrs = attributes(match.group("attrs"))
        if "markdown" in attrs:
            return match.group(0)
        level = int(match.group("tag")[1])
        fence = div_fence(attrs)
        suffix = " " + fence[4:] if fence else ""
        report.count("html-heading")
        title = html_to_markdown(match.group("body")).strip()
        return f"{match.group('indent')}{'#' * level} {title}{suffix}"

    return lines.sub(HEADING, heading)
