"""The book's raw HTML rewritten as the XHTML an EPUB holds (write/epub/xhtml.py)."""

from __future__ import annotations

import pytest

from kobook.write.epub.xhtml import xhtml


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("첫 줄<br>둘째 줄", "첫 줄<br />둘째 줄"),
        ("<br/> <hr> </br>", "<br /> <hr /> "),
        (
            '<img src="a.png" width="50%" align="right" alt="그림">',
            '<img src="a.png" alt="그림" style="width: 50%; float: right" />',
        ),
        ('<img src=a.png width=120 height="80">', '<img src="a.png" width="120" height="80" />'),
        ('<p align=center style="color: red;">', '<p style="color: red; text-align: center">'),
        (
            "<td valign=top nowrap bgcolor=#eee>",
            '<td style="vertical-align: top; white-space: nowrap; background-color: #eee">',
        ),
        (
            '<input type="checkbox" checked disabled>',
            '<input type="checkbox" checked="checked" disabled="disabled" />',
        ),
        ("<table border=1>", '<table border="1">'),
        ("<table border=3>", '<table style="border: 3px solid">'),
        ("A&nbsp;B &amp; C &mdash; &lt;", "A\u00a0B &amp; C \u2014 &lt;"),
        ("<!-- <br> stays --><br>", "<!-- <br> stays --><br />"),
        ('<a title="a &amp; b" href=x>', '<a title="a &amp; b" href="x">'),
    ],
)
def test_each_tag_is_xhtml(html: str, expected: str) -> None:
    assert xhtml(html, set()) == expected


def test_attributes_with_no_css_are_left_out_and_named() -> None:
    dropped: set[str] = set()
    assert xhtml('<table cellpadding="2" cellspacing=0>', dropped) == "<table>"
    assert dropped == {"cellpadding", "cellspacing"}
