"""SVGs are images, not documents: what reaches the HTML site or the EPUB is cleaned.

An SVG is XML that may carry ``<script>``, ``onload=`` handlers, ``javascript:``
links, ``<foreignObject>`` with HTML inside, and references that make a reader's
browser fetch from elsewhere.  Shown through ``<img>`` none of that runs, but a
link to the file opens it as a page in the site's origin, where it does, and
EPUB readers flag a book that holds script.  So every SVG a book brings (its own
files, downloaded images) and every one kobook draws is rebuilt from an allow-list
(:func:`clean`): SVG elements that draw, their presentation attributes, and
references only to a fragment of the same file or to a raster ``data:`` image; a
link becomes the group it drew (a link in an image is never followed).
The same rules for every writer, in one place.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"

# Elements that draw or describe a drawing; everything else (script, foreignObject,
# animation that can rewrite a link, iframe, HTML of any namespace) is dropped with its
# content.
ELEMENTS = frozenset(
    (
        "svg",
        "g",
        "defs",
        "symbol",
        "use",
        "path",
        "rect",
        "circle",
        "ellipse",
        "line",
        "polyline",
        "polygon",
        "text",
        "tspan",
        "textPath",
        "title",
        "desc",
        "image",
        "clipPath",
        "mask",
        "pattern",
        "marker",
        "linearGradient",
        "radialGradient",
        "stop",
        "filter",
        "feBlend",
        "feColorMatrix",
        "feComponentTransfer",
        "feComposite",
        "feConvolveMatrix",
        "feDiffuseLighting",
        "feDisplacementMap",
        "feDistantLight",
        "feDropShadow",
        "feFlood",
        "feFuncA",
        "feFuncB",
        "feFuncG",
        "feFuncR",
        "feGaussianBlur",
        "feImage",
        "feMerge",
        "feMergeNode",
        "feMorphology",
        "feOffset",
        "fePointLight",
        "feSpecularLighting",
        "feSpotLight",
        "feTile",
        "feTurbulence",
        "style",
        "switch",
        "a",
        "view",
    )
)
ATTRIBUTE_NAMESPACES = ("", XLINK, XML)
# What an href may point at: a fragment of this file, a raster image written inline.
SAFE_HREF = re.compile(r"#[^\s]*|data:image/(?:png|jpe?g|gif|webp)[;,][^\s]*", re.I)
URL_FUNCTION = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.I | re.S)
IMPORT = re.compile(r"@import[^;]*;?", re.I)
DOCTYPE = re.compile(rb"<!DOCTYPE[^\[>]*(\[.*?\]\s*)?>", re.S | re.I)


def split(name: str) -> tuple[str, str]:
    """``{namespace}local`` → (namespace, local)."""
    if name.startswith("{"):
        namespace, _, local = name[1:].partition("}")
        return namespace, local
    return "", name


def clean_css(text: str) -> str:
    """Style text with no ``@import`` and no ``url()`` but to a fragment (``url(#grad)``)."""
    text = IMPORT.sub("", text)
    return URL_FUNCTION.sub(
        lambda m: m.group(0) if m.group(2).strip().startswith("#") else "none", text
    )


def clean_attributes(element: ElementTree.Element, local: str) -> None:
    for name in list(element.attrib):
        namespace, attribute = split(name)
        value = element.attrib[name]
        if namespace not in ATTRIBUTE_NAMESPACES or attribute.lower().startswith("on"):
            del element.attrib[name]
        elif attribute == "href":
            if not SAFE_HREF.fullmatch(value.strip()):
                del element.attrib[name]
        elif "url(" in value.lower() or attribute == "style":
            element.attrib[name] = clean_css(value)


def clean_tree(element: ElementTree.Element) -> None:
    """Drop what may not stay under ``element`` (in place)."""
    for child in list(element):
        if not isinstance(child.tag, str):  # a comment or processing instruction
            element.remove(child)
            continue
        namespace, local = split(child.tag)
        if (namespace, local) == (SVG, "a"):
            # A link inside an image is never followed (an <img> shows no link); its
            # drawing stays, as a group (EPUB readers also want a title on every link).
            child.tag, local = f"{{{SVG}}}g", "g"
            child.attrib.pop("href", None)
            child.attrib.pop(f"{{{XLINK}}}href", None)
        if namespace != SVG or local not in ELEMENTS:
            element.remove(child)
            continue
        clean_attributes(child, local)
        if local == "style":
            child.text = clean_css(child.text or "")
        clean_tree(child)


def clean(data: bytes) -> bytes | None:
    """The SVG ``data`` rebuilt from the allow-list; None when it is not a well-formed SVG
    document (the caller leaves it out and says so)."""
    text = DOCTYPE.sub(b"", data, count=1)  # its internal subset may declare entities
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError:
        return None
    if root.tag == "svg":  # no xmlns: what browsers show in a page, read as SVG
        for element in root.iter():
            if isinstance(element.tag, str) and not element.tag.startswith("{"):
                element.tag = f"{{{SVG}}}{element.tag}"
    if split(root.tag) != (SVG, "svg"):
        return None
    clean_attributes(root, "svg")
    clean_tree(root)
    body = serialize(root, top=True)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n").encode("utf-8")


PREFIXES = {"": "", XLINK: "xlink:", XML: "xml:"}
TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
VALUE_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\t": "&#9;"}
)


def serialize(element: ElementTree.Element, top: bool = False) -> str:
    """The cleaned tree as XML, SVG the default namespace (ElementTree's own writer takes
    its prefixes from a table any other code may change: ``ns0:svg``)."""
    attributes = "".join(
        f' {PREFIXES[split(name)[0]]}{split(name)[1]}="{value.translate(VALUE_ESCAPES)}"'
        for name, value in element.attrib.items()
    )
    if top:
        attributes = f' xmlns="{SVG}" xmlns:xlink="{XLINK}"' + attributes
    name = split(element.tag)[1]
    inner = (element.text or "").translate(TEXT_ESCAPES) + "".join(
        serialize(child) + (child.tail or "").translate(TEXT_ESCAPES) for child in element
    )
    return f"<{name}{attributes}>{inner}</{name}>" if inner else f"<{name}{attributes}/>"
