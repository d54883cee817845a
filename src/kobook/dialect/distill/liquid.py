"""Liquid in a Jekyll post: figure includes, ``{% details %}``, decorations.

Jekyll runs Liquid before Markdown; kobook runs none, so each tag the site's
posts use becomes the pandoc Markdown it stands for:

- ``{% include figure.liquid path=… caption=… width=… %}`` (or
  ``figure.html``) → ``![caption](path){#fig:stem width=…}`` alone in its
  paragraph, the caption's HTML as Markdown and its ``Figure:`` label dropped
  (kobook numbers figures);
- ``{% details LABEL %}`` … ``{% enddetails %}`` → ``::: {.details summary="LABEL"}``;
- ``{% cite a b %}`` (jekyll-scholar) → ``[@a; @b]``;
- decorations: ``{% comment %}`` dropped, ``{{ site.x }}`` / ``{{ page.x }}``
  resolved from ``_config.yml`` / the front matter (or dropped, as Jekyll
  renders an unknown variable), ``| relative_url`` applied;
- any other tag is left and named (DIA101; LEAK001 reports it too).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...model.origins import Lines
from .. import Report
from .edits import Edit, apply_edits, as_block, where
from .html_inline import html_to_markdown, strip_label

PARAMS = r"(?P<params>(?:\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|[^\"'%]|%(?!\}))*?)"
FIGURE = re.compile(
    r"\{%-?\s*include\s+(?P<file>figure\.(?:liquid|html))\b" + PARAMS + r"\s*-?%\}", re.S
)
PARAM = re.compile(
    r"([\w-]+)\s*=\s*(?:\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'|([^\s\"']+))", re.S
)
DETAILS = re.compile(
    r"\{%-?[ \t]*(?P<tag>details|enddetails)\b(?P<label>(?:[^%\n]|%(?!\}))*?)-?%\}"
)
COMMENT = re.compile(r"\{%-?\s*comment\s*-?%\}.*?\{%-?\s*endcomment\s*-?%\}", re.S)
CITE = re.compile(r"\{%-?\s*cite\s+(?P<keys>[^%]*?)\s*-?%\}")
BIBLIOGRAPHY = re.compile(r"\{%-?\s*bibliography\b[^%]*%\}")
OUTPUT = re.compile(r"\{\{-?\s*(?P<expr>(?:[^}]|\}(?!\}))*?)\s*-?\}\}")
TAG = re.compile(r"\{%-?\s*(?P<name>[A-Za-z_][\w.-]*)(?:[^%]|%(?!\}))*%\}")
STRING = re.compile(r"""^(?:"([^"]*)"|'([^']*)')$""")
VARIABLE = re.compile(r"^(site|page)((?:\.[\w-]+)+)$")


@dataclass
class Site:
    """What Liquid output may read: ``_config.yml`` (``site``) and the front matter (``page``)."""

    config: dict[str, Any]
    page: dict[str, Any]

    @property
    def absolute(self) -> str:
        return (str(self.config.get("url") or "") + str(self.config.get("baseurl") or "")).rstrip(
            "/"
        )


def params(text: str) -> dict[str, str]:
    """``path="a.png" caption="say \\"hi\\""`` → values, Jekyll's ``\\"`` escapes undone."""
    found = {}
    for match in PARAM.finditer(text):
        value = next(g for g in match.groups()[1:] if g is not None)
        found[match.group(1)] = re.sub(r"\\(.)", r"\1", value, flags=re.S)
    return found


def site_path(value: str, site: Site) -> str:
    """A site path as a path in the repository: Liquid resolved, leading ``/`` gone."""
    value = OUTPUT.sub(lambda m: liquid_value(m.group("expr"), site) or "", value)
    base = str(site.config.get("baseurl") or "").strip("/")
    value = value.strip()
    if base and value.lstrip("/").startswith(base + "/"):
        value = value.lstrip("/")[len(base) + 1 :]
    return value.lstrip("/") if "://" not in value else value


def liquid_value(expr: str, site: Site) -> str | None:
    """The text ``{{ expr }}`` renders to, or None when kobook cannot tell."""
    head, *filters = [part.strip() for part in expr.split("|")]
    string = STRING.match(head)
    if string:
        value: str = string.group(1) if string.group(1) is not None else string.group(2)
    else:
        variable = VARIABLE.match(head)
        if variable is None:
            return None
        found: Any = site.config if variable.group(1) == "site" else site.page
        for key in variable.group(2).strip(".").split("."):
            found = found.get(key) if isinstance(found, dict) else None
        value = "" if found is None or isinstance(found, (dict, list)) else str(found)
    for name in filters:
        if name == "relative_url":
            value = value.lstrip("/")
        elif name == "absolute_url":
            value = f"{site.absolute}/{value.lstrip('/')}"
        elif name not in ("strip", "escape", "xml_escape", "markdownify", "smartify"):
            return None
    return value


def figure_id(stem: str) -> str:
    """``fig:`` and the image file's stem (``Pointwise Product`` → ``fig:pointwise-product``)."""
    slug = re.sub(r"[^\w]+", "-", stem.lower(), flags=re.UNICODE).strip("-")
    return "fig:" + (slug or "figure")


def figures(lines: Lines, report: Report, site: Site, ids: list[str], taken: set[str]) -> Lines:
    """Every figure include as a figure paragraph; ``ids`` are the book's ids for them in order."""
    edits = []
    text = lines.text
    given = iter(ids)
    for match in FIGURE.finditer(text):
        values = params(match.group("params"))
        path = site_path(values.get("path") or values.get("src") or "", site)
        if not path:
            report.cannot(
                "DIA106",
                f"{{% include {match.group('file')} %}} without a path= is left as it is",
                where(lines, match.start()),
                'give it path="assets/img/…"',
            )
            continue
        ident = next(given, "") or unique(figure_id(Path(path).stem), taken)
        caption = " ".join(strip_label(html_to_markdown(values.get("caption", ""))).split())
        attrs = [f"#{ident}"]
        width = values.get("width", "").strip()
        if width:
            attrs.append(f"width={width if not width.isdigit() else width + 'px'}")
        target = path.replace(" ", "%20").replace("(", "%28").replace(")", "%29")
        figure = f"![{balanced(caption)}]({target}){{{' '.join(attrs)}}}"
        edits.append(Edit(match.start(), match.end(), as_block(text, *match.span(), figure)))
        report.count("figure")
    return apply_edits(lines, edits)


def unique(ident: str, taken: set[str]) -> str:
    """``ident``, or ``ident-2``, ``ident-3`` … when an earlier figure has it."""
    name, n = ident, 1
    while name in taken:
        n += 1
        name = f"{ident}-{n}"
    taken.add(name)
    return name


def balanced(text: str) -> str:
    """``text`` with each bracket that has no partner escaped (it sits inside ``[…]``)."""
    opened: list[int] = []
    stray: set[int] = set()
    for index, char in enumerate(text):
        if char == "\\":
            continue
        if char == "[" and (index == 0 or text[index - 1] != "\\"):
            opened.append(index)
        elif char == "]" and (index == 0 or text[index - 1] != "\\"):
            if opened:
                opened.pop()
            else:
                stray.add(index)
    stray.update(opened)
    return "".join("\\" + c if i in stray else c for i, c in enumerate(text))


def details(lines: Lines, report: Report) -> Lines:
    """``{% details LABEL %}`` … ``{% enddetails %}`` pairs (nested too) as ``.details`` divs."""
    text = lines.text
    edits = []
    stack: list[re.Match[str]] = []
    for match in DETAILS.finditer(text):
        if match.group("tag") == "details":
            stack.append(match)
            continue
        if not stack:
            report.cannot(
                "DIA102",
                "{% enddetails %} without a {% details %} before it (left as it is)",
                where(lines, match.start()),
                "remove it or add the opening {% details LABEL %}",
            )
            continue
        opening = stack.pop()
        label = " ".join(opening.group("label").split())
        summary = label.replace("\\", "\\\\").replace('"', '\\"')
        fence = f'::: {{.details summary="{summary}"}}' if label else "::: {.details}"
        edits.append(Edit(opening.start(), opening.end(), as_block(text, *opening.span(), fence)))
        edits.append(Edit(match.start(), match.end(), as_block(text, *match.span(), ":::")))
        report.count("details")
    for opening in stack:
        report.cannot(
            "DIA102",
            "{% details %} is never closed by {% enddetails %} (left as it is)",
            where(lines, opening.start()),
            "add {% enddetails %} where the hidden part ends",
        )
    return apply_edits(lines, edits)


def comments(lines: Lines, report: Report) -> Lines:
    """``{% comment %}`` blocks dropped (info DIA111)."""

    def drop(match: re.Match[str]) -> str:
        report.info("DIA111", "{% comment %} block dropped", where(lines, match.start()))
        report.count("liquid-comment")
        return ""

    return lines.sub(COMMENT, drop)


def citations(lines: Lines, report: Report) -> Lines:
    """jekyll-scholar ``{% cite a b %}`` → ``[@a; @b]``; ``{% bibliography %}`` dropped."""

    def cite(match: re.Match[str]) -> str:
        keys = [k for k in re.split(r"[\s,]+", match.group("keys")) if k and "=" not in k]
        if not keys:
            return match.group(0)
        report.count("citation", len(keys))
        return "[" + "; ".join(cite_key(k) for k in keys) + "]"

    def bibliography(match: re.Match[str]) -> str:
        report.info(
            "DIA113",
            "{% bibliography %} dropped: kobook lists the cited works after each chapter",
            where(lines, match.start()),
        )
        return ""

    return lines.sub(CITE, cite).sub(BIBLIOGRAPHY, bibliography)


def cite_key(key: str) -> str:
    """``@key``, or ``@{key}`` when the key has characters pandoc would end it at."""
    return f"@{key}" if re.fullmatch(r"[\w][\w:.#$%&+?<>~/-]*[\w]|\w", key) else f"@{{{key}}}"


def outputs(lines: Lines, report: Report, site: Site) -> Lines:
    """``{{ … }}``: resolved from the site and the page (info DIA112), or named (DIA101)."""

    def render(match: re.Match[str]) -> str:
        expr = match.group("expr")
        value = liquid_value(expr, site)
        if value is None:
            report.cannot(
                "DIA101",
                f"Liquid output {{{{ {expr} }}}} cannot be rendered by kobook (left as it is)",
                where(lines, match.start()),
                "replace it by its text",
            )
            return match.group(0)
        report.info(
            "DIA112",
            f"Liquid output {{{{ {expr} }}}} rendered as {value!r}",
            where(lines, match.start()),
        )
        report.count("liquid-output")
        return value

    return lines.sub(OUTPUT, render)


def leftover_tags(lines: Lines, report: Report) -> None:
    """DIA101 for each Liquid tag no rewrite took (it is left in the text)."""
    for match in TAG.finditer(lines.text):
        report.cannot(
            "DIA101",
            f"Liquid tag {{% {match.group('name')} %}} is not converted (left as it is)",
            where(lines, match.start()),
            "rewrite it as Markdown; kobook does not run Liquid",
        )
