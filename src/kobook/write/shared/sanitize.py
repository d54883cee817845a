"""HTML001: what a chapter may put into the published HTML site and the WeasyPrint PDF.

Translation repositories take pull requests from strangers and CI publishes
what they build, so raw HTML in a chapter is cut down to an allow-list before
pandoc renders it (both writers call :func:`sanitize_blocks` first, on their
own copy of the AST, before adding kobook's own HTML such as math images):

- **Raw HTML** (``RawInline``/``RawBlock`` in an HTML format).  pandoc hands
  it over in fragments -- ``<span class="x">`` and ``</span>`` are separate
  nodes, with the text between them as ordinary ``Str`` nodes -- so each
  fragment is parsed on its own (stdlib :mod:`html.parser`) and written again
  from its parts: allowed tags with allowed attributes, every value and every
  text escaped by us.  Nothing the parser did not understand as an allowed
  tag can reach the output.  Unknown tags are dropped and their text kept;
  ``<script>``, ``<style>``, ``<iframe>``, ``<svg>``... are dropped *with*
  their content, and the nodes between a dropped start tag and its end tag
  (even in a later fragment or block) are dropped too, so a ``<style>``'s CSS
  never shows up as text.  Comments are dropped.
- **Attributes** of pandoc's own nodes (``[x]{onclick=...}``, ``<div>``
  turned into a ``Div``): ``on*`` handlers, ``srcdoc``/``formaction``/
  ``http-equiv`` go; URL-valued ones and ``style`` are checked as below.
- **URLs** in links, images and URL attributes: relative URLs and ``http``,
  ``https``, ``mailto``, ``tel``, ``ftp`` (see :data:`SAFE_SCHEMES`); ``data:``
  only as an image (``data:image/...``).  A Markdown link with another target
  (``[x](javascript:alert(1))``) keeps its text and loses the link.
- **style**: only the properties in :data:`CSS_PROPERTIES` (colours, fonts,
  spacing, borders, sizes, alignment), no ``url()`` or any function but
  ``rgb()``/``hsl()``/``calc()``, no backslash escapes or comments, no
  negative margins -- so no ``position: fixed`` overlay over the page (in the
  PDF it would repeat on every page), no remote fetch, no ``expression()``.

Whatever is removed is reported once per chapter and kind, at its first
place in the source, with how many times it was met: HTML001 for what is
unsafe (scripts, handlers, frames, forms, unsafe URLs and CSS), HTML002 for
harmless markup kobook does not publish (an unknown tag such as ``<Listing>``,
whose text stays, or an unknown attribute) -- two codes, so a hundred
HTML002s never hide the one HTML001 that matters.  Custom elements
(``<d-footnote>``, a hyphen in the name) are inert without scripts and stay.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser
from typing import Any

from ...errors import Diagnostic
from ...model import Chapter
from ...parse.ast import iter_nodes, rewrite, walk

Node = dict[str, Any]


def names(text: str) -> frozenset[str]:
    """A set of names written as one string (the lists below read better that way)."""
    return frozenset(text.split())


# Raw formats pandoc's HTML writer passes through (compared in lower case).
HTML_FORMATS = frozenset({"html", "html4", "html5", "revealjs", "s5", "slidy", "slideous"})
HTML_FORMATS |= {"dzslides"}

GLOBAL_ATTRS = frozenset({"class", "id", "title", "lang", "dir", "style", "role", "hidden"})
GLOBAL_ATTRS |= {"translate", "width", "height", "align"}
CELL = frozenset({"colspan", "rowspan", "headers", "scope", "valign", "abbr"})
# tag -> attributes it may carry besides GLOBAL_ATTRS (and aria-*/data-*).
ALLOWED_TAGS: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        names(
            "span div p br sup sub b i em strong small kbd code pre u s mark abbr cite dfn var "
            "samp figure figcaption tr thead tbody tfoot caption ul dl dt dd summary "
            "h1 h2 h3 h4 h5 h6 hr ruby rt rp picture wbr bdi bdo section article aside header "
            "footer address tt big strike center"
        ),
        frozenset(),
    ),
    "a": frozenset({"href", "name", "target", "rel", "hreflang", "type"}),
    "img": frozenset({"src", "alt", "srcset", "sizes", "loading", "border"}),
    "source": frozenset({"src", "srcset", "type", "media", "sizes"}),
    "video": frozenset({"src", "poster", "controls", "loop", "muted", "playsinline", "preload"}),
    "audio": frozenset({"src", "controls", "loop", "muted", "preload"}),
    "track": frozenset({"src", "kind", "srclang", "label", "default"}),
    "table": frozenset({"border", "cellpadding", "cellspacing", "summary"}),
    "td": CELL,
    "th": CELL,
    "col": frozenset({"span", "valign"}),
    "colgroup": frozenset({"span", "valign"}),
    "ol": frozenset({"start", "type", "reversed"}),
    "li": frozenset({"value", "type"}),
    "blockquote": frozenset({"cite"}),
    "q": frozenset({"cite"}),
    "del": frozenset({"cite", "datetime"}),
    "ins": frozenset({"cite", "datetime"}),
    "time": frozenset({"datetime"}),
    "details": frozenset({"open"}),
    "font": frozenset({"color", "size", "face"}),
}
# Dropped together with everything up to their end tag (why, as the warning's hint).
DROP_WITH_CONTENT: dict[str, str] = {
    "script": "scripts never run in kobook's site or PDF",
    "style": "put CSS in templates/html/extra.css or templates/pdf/extra.css.j2",
    "iframe": "link to the page instead ([글](https://...)); embedded pages are not published",
    "object": "use an image (![caption](file.png)) or a link instead",
    "applet": "use an image or a link instead",
    "svg": "save the drawing as an .svg file and include it as an image: ![caption](fig.svg)",
    "template": "templates need scripts, which never run",
    "noembed": "not shown by any current browser",
    "noframes": "not shown by any current browser",
    "xmp": "use a code block (```) instead",
    "title": "the page title comes from the chapter heading",
    "head": "the page head is kobook's",
    "select": "forms do not work in a book",
    "frameset": "link to the page instead",
}
# Raw-text elements: their content is text until the end tag, whatever it looks like.
RAW_TEXT = frozenset({"script", "style", "iframe", "noembed", "noframes", "xmp"})
VOID = names("area base br col embed hr img input link meta param source track wbr keygen")
HINTS = {
    "embed": "use an image (![caption](file.png)) or a link instead",
    "link": "put CSS in templates/html/extra.css or templates/pdf/extra.css.j2",
    "meta": "the page head is kobook's",
    "base": "links are relative to the page; <base> would redirect them all",
    "form": "forms do not work in a book",
    "input": "forms do not work in a book",
    "button": "forms do not work in a book",
    "textarea": "forms do not work in a book; use a code block (```) for text as written",
    "portal": "link to the page instead",
    "fencedframe": "link to the page instead",
    "frame": "link to the page instead",
    "image": "write <img> (or ![caption](file.png))",
    "bgsound": "sound does not belong in a book",
    "isindex": "forms do not work in a book",
    "keygen": "forms do not work in a book",
    "param": "use an image or a link instead",
}
# Harmless tags kobook does not publish (HTML002), with what to do instead.
UNKNOWN_HINTS = {
    "math": "write the formula as $...$ (kobook draws it)",
    "plaintext": "use a code block (```) instead",
    "listing": "use a code block (```) instead",
}
DEFAULT_HINT = "see README 'HTML in chapters' for the allowed tags and attributes"

# Attributes whose value is a URL; ``IMAGE_URL`` ones may be ``data:image/...``.
URL_ATTRS = frozenset({"href", "src", "cite", "poster", "background", "longdesc", "lowsrc"})
URL_ATTRS |= {"dynsrc", "action", "formaction", "data", "codebase", "ping", "manifest"}
URL_ATTRS |= {"icon", "xlink:href", "usemap"}
IMAGE_URL = {("img", "src"), ("source", "src"), ("video", "poster"), ("*", "src")}
NEVER_ATTRS = frozenset({"srcdoc", "formaction", "action", "http-equiv", "xmlns", "is"})
SAFE_SCHEMES = frozenset({"http", "https", "mailto", "tel", "ftp"})
SCHEME = re.compile(r"([a-zA-Z][a-zA-Z0-9+.\-]*):")
# Browsers drop these before looking for a scheme (``java\tscript:`` is ``javascript:``).
URL_NOISE = re.compile(r"[\x00-\x20\x7f]+")

CSS_PROPERTIES = names(
    """color background-color opacity font font-family font-size font-style font-weight
    font-variant line-height letter-spacing word-spacing text-align text-decoration
    text-decoration-line text-decoration-color text-decoration-style text-transform
    text-indent text-emphasis vertical-align white-space word-break overflow-wrap
    writing-mode direction display float clear width height min-width min-height max-width
    max-height margin margin-top margin-right margin-bottom margin-left padding padding-top
    padding-right padding-bottom padding-left border border-top border-right border-bottom
    border-left border-width border-style border-color border-radius border-collapse
    border-spacing list-style-type list-style-position table-layout caption-side
    object-fit aspect-ratio gap column-gap row-gap columns column-count flex flex-direction
    flex-wrap justify-content align-items align-self"""
)
CSS_PREFIXES = ("border-", "margin-", "padding-")
CSS_FUNCTION = re.compile(r"([a-zA-Z_-]*)\s*\(")
CSS_FUNCTIONS = frozenset({"rgb", "rgba", "hsl", "hsla", "calc"})
NEGATIVE = re.compile(r"(?:^|[\s(])-\s*[\d.]")


def url_scheme(url: str) -> str:
    """The scheme a browser would see in ``url`` (lower case), or ``""`` for a relative URL."""
    match = SCHEME.match(URL_NOISE.sub("", url))
    return match.group(1).lower() if match else ""


def url_allowed(url: str, *, image: bool = False) -> bool:
    """A relative URL or one of :data:`SAFE_SCHEMES`; ``data:image/...`` for images only."""
    scheme = url_scheme(url)
    if not scheme or scheme in SAFE_SCHEMES:
        return True
    return image and scheme == "data" and URL_NOISE.sub("", url)[5:].lower().startswith("image/")


def srcset_urls(value: str) -> list[str]:
    """The URLs of a ``srcset`` (each candidate is ``URL [descriptor]``; data: URLs hold commas)."""
    return [m.rstrip(",") for m in re.findall(r"(?:^|,)\s*(\S+)", value)]


def clean_style(value: str) -> tuple[str, list[str]]:
    """``style`` with only the allowed declarations; also the ones removed (as written)."""
    kept: list[str] = []
    removed: list[str] = []
    for declaration in value.split(";"):
        if not declaration.strip():
            continue
        name, colon, rest = declaration.partition(":")
        prop, rest = name.strip().lower(), rest.strip()
        functions = {f.lower() for f in CSS_FUNCTION.findall(rest)}
        ok = (
            colon
            and (prop in CSS_PROPERTIES or prop.startswith(CSS_PREFIXES))
            and functions <= CSS_FUNCTIONS
            and not any(c in rest for c in "\\<>@{}")
            and "/*" not in rest
            and not (prop.startswith("margin") and NEGATIVE.search(rest))
        )
        (kept if ok else removed).append(f"{prop}: {rest}" if ok else declaration.strip())
    return "; ".join(kept), removed


@dataclass
class Finding:
    """One kind of removed thing in a chapter: where it was first met, and how often."""

    what: str
    needles: list[str]
    hint: str
    code: str = "HTML001"
    count: int = 1


Note = tuple[str, list[str], str, str]  # Sanitizer.note's arguments


@dataclass
class Sanitizer:
    """Cleans one chapter's AST; remembers what it removed for :meth:`diagnostics`."""

    chapter: Chapter
    findings: dict[str, Finding] = field(default_factory=dict)
    dropping: str = ""  # an element dropped with its content, whose end tag is awaited
    depth: int = 0  # nesting of ``dropping`` inside itself (not for raw-text elements)
    # Every note() call's arguments, in order, when a list (``blockprep`` replays them).
    notes: list[Note] | None = None

    def note(
        self, what: str, needles: list[str], hint: str = DEFAULT_HINT, code: str = "HTML001"
    ) -> None:
        """Count one removal; HTML001 is unsafe markup, HTML002 markup kobook does not know."""
        if self.notes is not None:
            self.notes.append((what, needles, hint, code))
        key = f"{code} {what}"
        if key in self.findings:
            self.findings[key].count += 1
        else:
            self.findings[key] = Finding(what, [n for n in needles if n], hint, code)

    # ------------------------------------------------------------ attributes

    def attribute(self, tag: str, name: str, value: str, where: str) -> str | None:
        """The value to keep for ``name=value`` on ``tag`` (None: drop it, noted).

        A boolean attribute (``<details open>``) comes as ``""``, as browsers read it.
        """
        label = f"<{tag}>" if tag != "*" else "an element"
        if name.startswith(("on", "data-pagefind")) or name in NEVER_ATTRS:
            # data-pagefind-*: the site's search index is kobook's (a book could rename
            # its results or hide its text from search)
            self.note(f"attribute {name}= on {label}", [where, f"{name}="])
            return None
        if name == "style":
            cleaned, removed = clean_style(value)
            for declaration in removed:
                self.note(f"style declaration '{declaration}'", [declaration, where])
            return cleaned or None
        if name == "srcset":
            bad = [u for u in srcset_urls(value) if not url_allowed(u, image=True)]
            if bad:
                self.note(f"srcset with a {url_scheme(bad[0])}: URL on {label}", [bad[0], where])
                return None
            return value
        if name in URL_ATTRS and value.strip().startswith("//"):
            return "https:" + value.strip()  # never resolved against the build's folder
        if name in URL_ATTRS and not url_allowed(value, image=(tag, name) in IMAGE_URL):
            kind = f"{url_scheme(value)}: URL in {name}= on {label}"
            needles = [value, where, f"{name}="]  # pandoc turns tabs in raw HTML into spaces
            self.note(kind, needles, "only relative, http(s), mailto: and tel: URLs")
            return None
        return value

    def keyvals(self, attrs: list[Any], tag: str = "*") -> None:
        """Clean the key-value pairs of a pandoc ``Attr`` in place."""
        kept = []
        for key, value in attrs[2]:
            value = self.attribute(tag, str(key).lower(), str(value), f"{key}=")
            if value is not None:
                kept.append([key, value])
        attrs[2] = kept

    # ------------------------------------------------------------ raw HTML

    def fragment(self, text: str) -> str:
        """One raw HTML fragment, rebuilt from its allowed parts."""
        parser = Fragment(self)
        if self.dropping in RAW_TEXT:
            parser.set_cdata_mode(self.dropping)
        parser.feed(text)
        parser.close()
        return "".join(parser.out)

    def start(self, tag: str, attrs: list[tuple[str, str | None]], source: str) -> str:
        """An allowed start tag rebuilt (or ``""``, noted), entering drop mode if need be."""
        if self.dropping:
            if tag == self.dropping and tag not in RAW_TEXT:
                self.depth += 1
            return ""
        if tag in DROP_WITH_CONTENT:
            self.note(f"<{tag}> and its content", [source, f"<{tag}"], DROP_WITH_CONTENT[tag])
            if tag not in VOID:
                self.dropping, self.depth = tag, 1
            return ""
        allowed = ALLOWED_TAGS.get(tag)
        # Custom elements (<d-footnote key=...>) are inert without scripts: any attribute
        # that passes the checks stays (LEAK001 names the distill ones).
        custom = "-" in tag
        if allowed is None and not custom:
            if tag in HINTS:
                self.note(f"<{tag}>", [source, f"<{tag}"], HINTS[tag])
            else:
                hint = "the text inside stays; " + UNKNOWN_HINTS.get(tag, DEFAULT_HINT)
                self.note(f"the tag <{tag}>", [source, f"<{tag}"], hint, "HTML002")
            return ""
        parts = [tag]
        seen: set[str] = set()
        for name, value in attrs:
            if name in seen:
                continue  # browsers read the first of two; so do we
            seen.add(name)
            known = (
                custom
                or name in GLOBAL_ATTRS
                or name in (allowed or ())
                or name.startswith(("aria-", "data-"))
            )
            if not known:
                # An unsafe one is HTML001 (noted by attribute()); the rest are just unknown.
                safe = self.attribute(tag, name, value or "", source) is not None
                if safe and name != "markdown":  # kramdown's markdown="1": LEAK001 names it
                    self.note(f"attribute {name}= on <{tag}>", [source, f"{name}="], code="HTML002")
                continue
            kept = self.attribute(tag, name, value or "", source)
            if kept is not None:
                parts.append(f'{name}="{escape(kept)}"')
        return "<" + " ".join(parts) + ">"

    def end(self, tag: str) -> str:
        if self.dropping:
            if tag == self.dropping:
                self.depth -= 1
                if self.depth == 0:
                    self.dropping = ""
            return ""
        if (tag in ALLOWED_TAGS or "-" in tag) and tag not in VOID:
            return f"</{tag}>"
        return ""  # its start tag was noted

    # ------------------------------------------------------------ the AST

    def attributes(self, node: Node) -> None:
        """Clean the ``Attr`` key-values of one node in place (links and images included)."""
        kind = node["t"]
        if kind in ("Link", "Image"):
            self.keyvals(node["c"][0], "a" if kind == "Link" else "img")
        for attrs in node_attrs(node):
            self.keyvals(attrs, NODE_TAGS.get(kind, "*"))

    def node(self, node: Node) -> Node | list[Node] | None:
        """The :func:`walk` action: rebuild raw HTML, unlink unsafe targets, drop what is
        inside a dropped element."""
        kind = node["t"]
        if is_raw_html(node):
            cleaned = self.fragment(node["c"][1])
            return {"t": kind, "c": ["html", cleaned]} if cleaned else []
        if kind == "Link" and self.dropping:
            return walk(node["c"][1], self.node)
        if self.dropping and kind not in CONTAINERS:
            return []  # containers are entered: a later fragment may hold the end tag
        if kind == "Link" and not url_allowed(url := node["c"][2][0]):
            self.note(
                f"link to a {url_scheme(url)}: URL",
                [url, f"{url_scheme(url)}:"],
                "only relative, http(s), mailto: and tel: links are kept; the text stays",
            )
            return {"t": "Span", "c": [node["c"][0], walk(node["c"][1], self.node)]}
        if kind == "Image" and not url_allowed(url := node["c"][2][0], image=True):
            self.note(
                f"image from a {url_scheme(url)}: URL",
                [url, f"{url_scheme(url)}:"],
                "images are files in the book, http(s) URLs or data:image/...",
            )
            return {"t": "Span", "c": [node["c"][0], walk(node["c"][1], self.node)]}
        return None

    def diagnostics(self) -> list[Diagnostic]:
        """HTML001 for each kind of removed thing, at its first place in the chapter."""
        if self.dropping:
            self.note(
                f"everything after an unclosed <{self.dropping}>",
                [f"<{self.dropping}"],
                f"close it with </{self.dropping}>",
            )
        out = []
        for finding in self.findings.values():
            location = next(
                (found for n in finding.needles if (found := self.chapter.locate(n))), None
            ) or self.chapter.where(1)
            times = f" ({finding.count}×)" if finding.count > 1 else ""
            if finding.code == "HTML001":
                message = f"removed {finding.what}{times}: unsafe in a published HTML or PDF"
            else:
                message = f"left out {finding.what}{times}: not markup kobook publishes"
            out.append(Diagnostic(finding.code, message, location, finding.hint, "warning"))
        return out


class Fragment(HTMLParser):
    """Re-serialises one fragment through :class:`Sanitizer` (text escaped, comments gone)."""

    def __init__(self, owner: Sanitizer) -> None:
        super().__init__(convert_charrefs=True)
        self.owner = owner
        self.out: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.append(self.owner.start(tag, attrs, self.get_starttag_text() or ""))
        if self.owner.dropping in RAW_TEXT and self.owner.dropping == tag:
            self.set_cdata_mode(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        was = self.owner.dropping
        tag_text = self.owner.start(tag, attrs, self.get_starttag_text() or "")
        if self.owner.dropping != was:  # <svg/> or <script/>: nothing to wait for
            self.owner.dropping, self.owner.depth = was, 0
        self.out.append(tag_text[:-1] + " />" if tag_text else "")

    def handle_endtag(self, tag: str) -> None:
        self.out.append(self.owner.end(tag))

    def handle_data(self, data: str) -> None:
        if not self.owner.dropping:
            self.out.append(escape(data, quote=False))


# The element pandoc writes for a node (for messages; "*" is any element).
NODE_TAGS = {"Div": "div", "Span": "span", "Code": "code", "CodeBlock": "pre"}
NODE_TAGS |= {"Figure": "figure", "Header": "h1-h6"}

# Nodes whose children may hold the end tag of an element being dropped.
CONTAINERS = names(
    """Para Plain Div Span Emph Strong Underline Strikeout Superscript Subscript SmallCaps
    Quoted BlockQuote BulletList OrderedList DefinitionList LineBlock Figure Table Note Cite
    Header Link"""
)


def node_attrs(node: Node) -> list[list[Any]]:
    """The pandoc ``Attr`` lists a node carries (tables: also heads, rows, cells, bodies)."""
    kind, c = node["t"], node.get("c") or []
    if kind in ("Code", "CodeBlock", "Div", "Span", "Figure"):
        return [c[0]]
    if kind == "Header":
        return [c[1]]
    if kind == "Table":
        head, bodies, foot = c[3], c[4], c[5]
        found = [c[0], head[0], foot[0]]
        rows = [*head[1], *foot[1]]
        for body in bodies:
            found.append(body[0])
            rows += [*body[2], *body[3]]
        for row in rows:
            found.append(row[0])
            found += [cell[0] for cell in row[1]]
        return found
    return []


def sanitize_blocks(blocks: list[Any], chapter: Chapter) -> tuple[list[Any], list[Diagnostic]]:
    """``blocks`` (a writer's own copy: attributes are cleaned in place) made safe to publish,
    and an HTML001 warning per kind of thing removed."""
    sanitizer = Sanitizer(chapter)
    # Most chapters have no raw HTML and no unsafe link: no second pass over the tree.
    cleaned = rewrite(blocks, sanitizer.node) if clean_attributes(sanitizer, blocks) else blocks
    return cleaned, sanitizer.diagnostics()


def clean_attributes(sanitizer: Sanitizer, blocks: list[Any]) -> bool:
    """Clean every node's attributes in place; is there raw HTML or an unsafe target
    (which a walk with :meth:`Sanitizer.node` rebuilds)?"""
    rebuild = False
    for node in iter_nodes(blocks):
        sanitizer.attributes(node)
        rebuild = rebuild or needs_rebuild(node)
    return rebuild


def is_raw_html(node: Node) -> bool:
    return node["t"] in ("RawInline", "RawBlock") and str(node["c"][0]).lower() in HTML_FORMATS


def needs_rebuild(node: Node) -> bool:
    """True for raw HTML and for links and images whose target is not allowed."""
    if node["t"] == "Link":
        return not url_allowed(node["c"][2][0])
    if node["t"] == "Image":
        return not url_allowed(node["c"][2][0], image=True)
    return is_raw_html(node)
