"""The EPUB's accessibility claims: true of the book, or not made."""

from __future__ import annotations

from kobook.lang.words import Words
from kobook.write.epub.a11y import CONFORMS, Claims, math_alttext, package_metadata

PANDOCS = """<package><metadata>
    <dc:title>책</dc:title>
    <meta property="schema:accessMode">textual</meta>
    <meta property="schema:accessibilityFeature">alternativeText</meta>
    <meta property="schema:accessibilityHazard">none</meta>
  </metadata></package>"""


def test_claims_follow_the_book() -> None:
    words = Words("ko")
    told = package_metadata(PANDOCS, Claims(images=3, undescribed=0, math=True), words)
    assert told.count("schema:accessibilityHazard") == 1  # pandoc's lines replaced
    assert "alternativeText" in told and "MathML" in told and CONFORMS in told
    assert '"schema:accessMode">visual<' in told and "모든 그림에 대체 텍스트가 있다" in told
    partial = package_metadata(PANDOCS, Claims(images=3, undescribed=1), words)
    assert "alternativeText" not in partial and CONFORMS not in partial
    assert '"schema:accessModeSufficient">textual,visual<' in partial
    plain = package_metadata(PANDOCS, Claims(), words)
    assert '"schema:accessMode">visual<' not in plain
    assert '"schema:accessibilityFeature">MathML<' not in plain and "MathML" not in plain


def test_formulas_get_their_tex_as_alttext() -> None:
    page = (
        '<math display="inline"><semantics><mi>x</mi>'
        '<annotation encoding="application/x-tex">x &lt; "y"</annotation></semantics></math>'
    )
    assert math_alttext(page).startswith('<math alttext="x &lt; &quot;y&quot;" display="inline">')
    assert math_alttext(math_alttext(page)) == math_alttext(page)
