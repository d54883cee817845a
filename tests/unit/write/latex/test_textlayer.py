"""The XeLaTeX text layer's hyphens (write/latex/textlayer.py)."""

from __future__ import annotations

from kobook.write.latex.textlayer import ascii_hyphens

CMAP = b"""/CIDInit /ProcSet findresource begin
2 beginbfchar
<000E> <2011>
<0010> <00AD>
<0011> <AC00>
endbfchar
1 beginbfrange
<0020> <0021> <2011>
endbfrange
end"""


def test_hyphen_glyphs_copy_as_hyphen_minus() -> None:
    fixed = ascii_hyphens(CMAP)
    assert b"<000E> <002D>" in fixed and b"<0010> <002D>" in fixed
    assert b"<0011> <AC00>" in fixed  # other glyphs keep their letters
    assert b"<0020> <0021> <2011>" in fixed  # a range is left as it is


def test_a_map_without_twins_is_unchanged() -> None:
    plain = CMAP.replace(b"<2011>", b"<0041>").replace(b"<00AD>", b"<0042>")
    assert ascii_hyphens(plain) == plain


def test_halfwidth_jamo_copy_as_the_jamo_korean_uses() -> None:
    # Noto CJK draws ㅎ (U+314E) and halfwidth ﾾ (U+FFBE) with one glyph; the index's
    # group headings copied as the halfwidth one.
    cmap = b"1 beginbfchar\n<0A01> <FFBE>\n<0A02> <FFA1>\nendbfchar"
    fixed = ascii_hyphens(cmap)
    assert b"<0A01> <314E>" in fixed and b"<0A02> <3131>" in fixed
