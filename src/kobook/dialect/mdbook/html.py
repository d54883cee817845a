"""HTML mdBook books write for images and captions, as pandoc Markdown.

- ``<figure>`` ``<img …>`` ``<figcaption>X</figcaption>`` ``</figure>`` → ``![X](src)``;
- ``<img src=… alt=…>`` (a tag may run over several lines) → ``![alt](src)``:
  alone in its paragraph a figure, in a table cell an inline image (SVG too);
- an image paragraph followed by ``<span class="caption">Figure 4-1: X</span>``
  → ``![X](src)``, and that span before a table → the table's ``: X``
  caption.  The source's own label (``그림 4-1:``, ``Figure 4-1:``) is dropped:
  kobook numbers figures and tables itself (``그림 4.1``).

mdBook resolves an image from the page of the file it is written in, kobook
from the chapter's first file: a path written in a nested file of another
folder is rewritten relative to the chapter's folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from ...boundary import has_scheme
from ...errors import Location
from ...model.origins import Lines, Origin
from ...source.fences import code_lines
from .. import Report
from .listings import html_attrs

IMG = re.compile(r"<img\b(?P<attrs>[^>]*)>", re.IGNORECASE)
FIGURE = re.compile(
    r"^[ \t]*<figure>[ \t]*\n\s*(?P<img><img\b[^>]*>)\s*"
    r"<figcaption>(?P<cap>(?:(?!\n[ \t]*\n).)*?)</figcaption>\s*</figure>[ \t]*$",
    re.IGNORECASE | re.MULTILINE | re.DOTALL,
)
MD_IMAGE = r"!\[(?P<alt>(?:[^\]\\]|\\.)*)\]\((?P<src>[^)\s]+)\)"
ATTRIBUTES = r"(?P<attrs>\{(?:[^}\"]|\"(?:[^\"\\]|\\.)*\")*\})?"
CAPTIONED = re.compile(
    rf"^{MD_IMAGE}{ATTRIBUTES}[ \t]*\n[ \t]*\n[ \t]*<span class=\"caption\">"
    r"(?P<cap>(?:(?!\n[ \t]*\n).)*?)</span>[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
TABLE_CAPTION = re.compile(
    r"^[ \t]*<span class=\"caption\">(?P<cap>(?:(?!\n[ \t]*\n).)*?)</span>[ \t]*\n"
    r"(?P<gap>[ \t]*\n)(?=[ \t]*\|)",
    re.MULTILINE | re.DOTALL,
)
IMAGE_LINK = re.compile(MD_IMAGE)
LABEL = re.compile(
    r"^\s*(?:그림|표|예제|코드|Figure|Table|Listing)\s*[\dA-Z]+(?:[-.]\d+)*\s*[:.]\s*",
    re.IGNORECASE,
)


def drop_label(caption: str) -> str:
    """``Figure 4-1: An infinite List`` → ``An infinite List`` (kobook numbers it)."""
    return LABEL.sub("", " ".join(caption.split()), count=1)


def escape_alt(text: str) -> str:
    """Alt text inside ``![…]``: one line, brackets and table pipes escaped."""
    text = " ".join(text.split())
    return re.sub(r"([\[\]|\\])", r"\\\1", text)


WIDTH = re.compile(r"(?:^|;)\s*width\s*:\s*(\d+(?:\.\d+)?(?:%|px|em|rem|cm|mm|in))\s*(?:;|$)")


def attribute_value(text: str) -> str:
    """``text`` as a pandoc attribute value: quoted, its quotes and backslashes escaped."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def image_attributes(attrs: dict[str, str], description: str) -> str:
    """``{fig-alt="…" width="50%"}`` for what an ``<img>`` says beyond its caption: its
    own description, which a screen reader reads instead of hearing the caption twice,
    and its width (``style="width: 50%"`` or ``width="300"``), which keeps a diagram
    the size the book drew it."""
    found = []
    if description:
        found.append(f"fig-alt={attribute_value(description)}")
    width = WIDTH.search(attrs.get("style", ""))
    size = width.group(1) if width else attrs.get("width", "").strip()
    if re.fullmatch(r"\d+(?:\.\d+)?(?:%|px|em|rem|cm|mm|in)?", size):
        found.append(f"width={attribute_value(size if not size.isdigit() else size + 'px')}")
    return "{" + " ".join(found) + "}" if found else ""


class Images:
    """Rewrites one chapter's images; ``folder`` is where kobook resolves them from."""

    def __init__(self, folder: Path, report: Report) -> None:
        self.folder = folder
        self.report = report

    def relocate(self, src: str, origin: Origin) -> str:
        """``src`` as written in ``origin``'s file, relative to the chapter's folder."""
        if not src or has_scheme(src) or src.startswith(("/", "#")):
            return src
        written_in = origin[0].parent
        if written_in == self.folder:
            return src
        return Path(os.path.relpath(written_in / src, self.folder)).as_posix()

    def image(self, tag: str, origin: Origin, caption: str | None = None) -> str:
        """``![alt or caption](src)`` for an ``<img>`` tag (DIA211 when it has no src)."""
        attrs = html_attrs(tag)
        src = attrs.get("src", "").strip()
        if not src:
            self.report.cannot(
                "DIA211", "<img> without src is dropped", Location(*origin), "give it src=…"
            )
            return ""
        self.report.count("img")
        alt = " ".join(attrs.get("alt", "").split())
        text = caption if caption is not None else alt
        kept = image_attributes(attrs, alt if alt and alt != " ".join(text.split()) else "")
        return f"![{escape_alt(text)}]({src}){kept}"  # relocated with the Markdown images

    def convert(self, lines: Lines) -> Lines:
        """Every image construct outside code, rewritten (see the module docstring)."""
        if "<img" not in lines.text and "<span" not in lines.text and "![" not in lines.text:
            return lines
        lines = self.outside_code(lines, FIGURE, self.figure)
        lines = self.outside_code(lines, IMG, lambda m, o: self.image(m.group(0), o))
        lines = self.outside_code(lines, TABLE_CAPTION, self.table_caption)  # before a table
        lines = self.outside_code(lines, CAPTIONED, self.captioned)  # after an image
        return self.outside_code(lines, IMAGE_LINK, self.moved_image)

    def outside_code(
        self,
        lines: Lines,
        pattern: re.Pattern[str],
        replace: Callable[[re.Match[str], Origin], str],
    ) -> Lines:
        code = code_lines(lines.text.split("\n"))

        def action(match: re.Match[str]) -> str:
            line = lines.text.count("\n", 0, match.start())
            if code[line]:
                return match.group(0)
            return replace(match, lines.origins[line])

        return lines.sub(pattern, action)

    def figure(self, match: re.Match[str], origin: Origin) -> str:
        self.report.count("figure")
        return self.image(match.group("img"), origin, drop_label(match.group("cap")))

    def captioned(self, match: re.Match[str], origin: Origin) -> str:
        """The caption becomes the image's text; what the image said of itself before
        (its ``<img alt>``, carried as attributes by :meth:`image`) stays its description."""
        self.report.count("caption")
        alt = match.group("alt").replace("\\", "")
        caption = drop_label(match.group("cap"))
        attrs = match.group("attrs") or ""
        if alt and alt != caption and "fig-alt=" not in attrs:
            attrs = (
                "{" + " ".join(filter(None, [f"fig-alt={attribute_value(alt)}", attrs[1:-1]])) + "}"
            )
        return f"![{escape_alt(caption)}]({match.group('src')}){attrs}"

    def table_caption(self, match: re.Match[str], origin: Origin) -> str:
        self.report.count("table-caption")
        return f": {drop_label(match.group('cap'))}\n{match.group('gap')}"

    def moved_image(self, match: re.Match[str], origin: Origin) -> str:
        src = self.relocate(match.group("src"), origin)
        if src == match.group("src"):
            return match.group(0)
        return f"![{match.group('alt')}]({src})"
