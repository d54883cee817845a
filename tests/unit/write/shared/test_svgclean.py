"""SVGs are images, not documents (write/shared/svgclean.py, issue 27)."""

from __future__ import annotations

from xml.etree import ElementTree

from kobook.write.shared.svgclean import clean

EVIL = b"""<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY x "boom">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     width="80" height="40" onload="alert(1)">
  <script>alert(2)</script>
  <script xlink:href="https://evil.example/x.js"/>
  <style>@import url(https://evil.example/a.css); rect { fill: url(#g); }
    circle { background: url("https://evil.example/b.png") }</style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fc0"/></linearGradient></defs>
  <rect width="80" height="40" fill="url(#g)" onclick="alert(3)"/>
  <circle r="4" style="fill: url(https://evil.example/c.png); stroke: red"/>
  <a href="javascript:alert(4)"><text x="1" y="10">link</text></a>
  <a xlink:href="https://example.org/"><text x="1" y="20">ok</text></a>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">
    <script>alert(5)</script></div></foreignObject>
  <image href="https://evil.example/tracker.png" width="1" height="1"/>
  <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
  <use href="#g"/><use href="other.svg#g"/>
  <set attributeName="href" to="javascript:alert(6)"/>
  <animate attributeName="href" values="javascript:alert(7)"/>
  <html:iframe xmlns:html="http://www.w3.org/1999/xhtml" src="https://evil.example/"/>
</svg>
"""


def test_nothing_that_runs_or_reaches_out_is_left() -> None:
    cleaned = clean(EVIL)
    assert cleaned is not None
    text = cleaned.decode()
    for gone in (
        "script",
        "alert",
        "onload",
        "onclick",
        "javascript:",
        "foreignObject",
        "evil.example",
        "example.org",
        "<a ",
        "@import",
        "other.svg",
        "iframe",
        "<set",
        "<animate",
        "DOCTYPE",
        "ENTITY",
    ):
        assert gone not in text, gone
    for kept in (
        'fill="url(#g)"',
        "stroke: red",
        'href="#g"',
        "data:image/png;base64",
        "<text",
        "linearGradient",
    ):
        assert kept in text, kept
    ElementTree.fromstring(cleaned)  # still well-formed


def test_idempotent_and_keeps_a_plain_drawing() -> None:
    plain = (
        b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2">'
        b'<rect width="4" height="2" fill="#fc0"/></svg>'
    )
    once = clean(plain)
    assert once is not None and b'<rect width="4" height="2" fill="#fc0"' in once
    assert clean(once) == once


def test_an_svg_without_its_namespace_is_read_as_svg() -> None:
    cleaned = clean(b'<svg width="4" height="2"><script>x()</script><rect width="4"/></svg>')
    assert cleaned is not None and b"script" not in cleaned and b"<rect" in cleaned


def test_what_is_not_an_svg_is_refused() -> None:
    assert clean(b"<html><script>alert(1)</script></html>") is None
    assert clean(b"<svg") is None
    assert clean(b'<!DOCTYPE svg [<!ENTITY a "b">]><svg>&a;</svg>') is None
