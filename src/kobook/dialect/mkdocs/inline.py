"""Python-Markdown's inline extensions as pandoc Markdown, line by line outside code.

- ``attr_list``: ``{: .class #id }`` → ``{.class #id}`` (pandoc takes attributes
  right after a heading, link, image or span; a list alone on the line after a
  paragraph has nothing pandoc can carry it to: dropped, DIA305 info);
- ``md_in_html``: the ``markdown`` attribute (``<div markdown>``) is dropped,
  pandoc reads Markdown inside HTML blocks anyway;
- ``abbr``: ``*[HTML]: Hyper Text …`` definitions are taken out and each use
  of the word becomes ``[HTML]{title="Hyper Text …"}`` (a tooltip on the site);
- emoji shortcodes: ``:smile:`` → 😄 (pandoc's own table, GitHub's names);
  Material's icons (``:material-home:``, ``:fontawesome-brands-github:``,
  ``:octicons-…:``, ``:simple-…:``) are SVG drawings kobook does not have:
  taken out with a warning (DIA306) naming each icon once;
- pymdownx.highlight's info strings: ```` ```py title="a.py" linenums="1" ````
  → ```` ```{.py filename="a.py"} ```` (kobook prints the file name over the code).
"""

from __future__ import annotations

import functools
import json
import re

from ...errors import Location
from ...model.origins import Lines, Origin
from ...parse.pandoc import run_pandoc
from ...source.fences import code_lines, fence_line, language, opening
from .. import Report

KEEP = re.compile(r"(`+)[^`].*?\1|<[^<>\n]*>|\]\([^()\n]*\)")
IAL = re.compile(r"\{:\s*([^{}\n]*?)\s*\}")
ALONE_IAL = re.compile(r"^[ \t]*\{:?[ \t]*[.#][^{}\n]*\}[ \t]*$")
MARKDOWN_ATTR = re.compile(
    r"(<[A-Za-z][\w-]*\b[^<>]*?)\s+markdown(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?(?=[\s/>])"
)
ABBR = re.compile(r"^\*\[(?P<word>[^\]\n]+)\]:[ \t]*(?P<text>.*)$")
SHORTCODE = re.compile(r"(?<![\w:]):(?P<name>[a-z0-9+_-]+):(?![\w:])")
ICON = re.compile(r"^(?:material|fontawesome|octicons|simple)-")
OPTION = re.compile(r"(?P<key>[\w-]+)=(?:\"(?P<dq>[^\"]*)\"|'(?P<sq>[^']*)'|(?P<bare>\S+))")


@functools.cache
def emoji_table(names: frozenset[str]) -> dict[str, str]:
    """``{name: emoji}`` for the shortcodes pandoc's emoji table knows."""
    if not names:
        return {}
    text = " ".join(f":{n}:" for n in sorted(names))
    ast = json.loads(run_pandoc(["-f", "markdown+emoji", "-t", "json"], text, what="emoji"))
    found: dict[str, str] = {}
    for block in ast.get("blocks", []):
        for node in block.get("c", []):
            if isinstance(node, dict) and node.get("t") == "Span":
                keyvals = dict(node["c"][0][2])
                if "data-emoji" in keyvals:
                    found[keyvals["data-emoji"]] = "".join(
                        part.get("c", "") for part in node["c"][1] if part.get("t") == "Str"
                    )
    return found


def prose_parts(line: str) -> list[tuple[bool, str]]:
    """``line`` cut into ``(is_prose, text)``: code spans, tags and link targets are not."""
    parts: list[tuple[bool, str]] = []
    done = 0
    for match in KEEP.finditer(line):
        parts.append((True, line[done : match.start()]))
        parts.append((False, match.group(0)))
        done = match.end()
    parts.append((True, line[done:]))
    return parts


class Inline:
    """The inline rewrites of one chapter (counts in ``report``)."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.icons: dict[str, int] = {}
        self.first_icon: dict[str, Origin] = {}

    def convert(self, lines: Lines) -> Lines:
        texts = lines.text.split("\n")
        origins = list(lines.origins)
        code = code_lines(texts)
        abbreviations = self.abbreviations(texts, code)
        names = {
            m.group("name")
            for i, t in enumerate(texts)
            if not code[i]
            for m in SHORTCODE.finditer(t)
            if not ICON.match(m.group("name"))
        }
        emoji = emoji_table(frozenset(names))
        out: list[str] = []
        where: list[Origin] = []
        for index, text in enumerate(texts):
            origin = origins[index]
            if code[index]:
                fence = opening(text)
                out.append(self.fence(text) if fence is not None else text)
                where.append(origin)
                continue
            if ABBR.match(text) and abbreviations:
                continue
            if ALONE_IAL.match(text) and "{:" in text:
                self.report.info(
                    "DIA305",
                    f"attribute list {text.strip()} on its own line dropped (pandoc cannot "
                    "carry it to the paragraph above)",
                    Location(origin[0], origin[1]),
                )
                continue
            out.append(self.line(text, origin, abbreviations, emoji))
            where.append(origin)
        self.warn_icons()
        return Lines("\n".join(out), tuple(where))

    def abbreviations(self, texts: list[str], code: list[bool]) -> dict[str, str]:
        found = {}
        for index, text in enumerate(texts):
            match = None if code[index] else ABBR.match(text)
            if match:
                found[match.group("word").strip()] = " ".join(match.group("text").split())
        return found

    def line(
        self, text: str, origin: Origin, abbreviations: dict[str, str], emoji: dict[str, str]
    ) -> str:
        if "markdown" in text and "<" in text:
            new = MARKDOWN_ATTR.sub(r"\1", text)
            if new != text:
                self.report.count("markdown in HTML")
                text = new
        pieces = []
        for prose, part in prose_parts(text):
            if prose:
                part = self.prose(part, origin, abbreviations, emoji)
            pieces.append(part)
        return "".join(pieces)

    def prose(
        self, part: str, origin: Origin, abbreviations: dict[str, str], emoji: dict[str, str]
    ) -> str:
        if "{:" in part:
            part = IAL.sub(lambda m: "{" + m.group(1) + "}", part)
            self.report.count("attribute list")

        def shortcode(match: re.Match[str]) -> str:
            name = match.group("name")
            if ICON.match(name):
                self.icons.setdefault(name, 0)
                self.icons[name] += 1
                self.first_icon.setdefault(name, origin)
                return ""
            if name in emoji:
                self.report.count("emoji")
                return emoji[name]
            return match.group(0)

        if ":" in part:
            part = SHORTCODE.sub(shortcode, part)
        for word, meaning in abbreviations.items():
            # A Korean particle may follow (HTML과): only an ASCII letter or digit makes
            # the word longer.
            pattern = re.compile(rf"(?<![\w\[]){re.escape(word)}(?![A-Za-z0-9_\]])")
            title = meaning.replace("\\", "\\\\").replace('"', '\\"')
            part, count = pattern.subn(f'[{word}]{{title="{title}"}}', part)
            if count:
                self.report.count("abbreviation", count)
        return part

    def warn_icons(self) -> None:
        for name, count in self.icons.items():
            origin = self.first_icon[name]
            times = f" ({count} times)" if count > 1 else ""
            self.report.cannot(
                "DIA306",
                f"icon :{name}:{times} left out: kobook has no drawing of Material's icons",
                Location(origin[0], origin[1]),
                "write the word it stands for, or an emoji (:smile:)",
            )
        self.icons.clear()

    def fence(self, text: str) -> str:
        """An opening fence's pymdownx options as pandoc attributes (``title`` → filename)."""
        fence = opening(text)
        if fence is None or not fence.info or fence.info.startswith("{") or "=" not in fence.info:
            return text
        lang = language(fence.info)
        attrs: dict[str, str] = {}
        for match in OPTION.finditer(fence.info):
            value = match.group("dq") or match.group("sq") or match.group("bare") or ""
            if match.group("key") == "title" and value:
                attrs["filename"] = value
        self.report.count("code block options")
        return fence_line(fence, lang, attrs)
