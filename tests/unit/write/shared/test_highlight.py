"""Code highlighting colours: every token class readable (WCAG AA) in light and dark."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kobook.parse.pandoc import run_pandoc
from kobook.write.shared.common import highlight_css
from kobook.write.shared.highlight import AA, PANEL, TOKENS, contrast, dark_css, highlight_option

STYLE = Path(__file__).parents[4] / "src" / "kobook" / "templates" / "html" / "style.css"


@pytest.mark.parametrize("token", sorted(TOKENS))
def test_every_token_class_passes_aa_on_its_panel(token: str) -> None:
    style = TOKENS[token]
    for panel in (PANEL["light"], PANEL["epub"], "#ffffff"):
        assert contrast(style.light, panel) >= AA, (token, style.light, panel)
    assert contrast(style.dark, PANEL["dark"]) >= AA, (token, style.dark)


def test_contrast_is_wcags() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


def test_the_panels_are_the_sites() -> None:
    css = STYLE.read_text(encoding="utf-8")
    panels = re.findall(r"--panel:\s*(#[0-9a-f]{6})", css)
    assert panels[0] == PANEL["light"] and set(panels[1:]) == {PANEL["dark"]}


def test_pandoc_draws_with_the_palette() -> None:
    html = run_pandoc(
        ["-f", "markdown", "-t", "html5", "-s", highlight_option(), "--metadata=title:x"],
        "```python\n# note\nx = 1\n```\n",
    )
    assert f"code span.co {{ color: {TOKENS['Comment'].light}" in html
    css = highlight_css()
    for style in TOKENS.values():
        assert f':root[data-theme="dark"] code span.{style.css} {{ color: {style.dark}; }}' in css
    assert dark_css().count("@media (prefers-color-scheme: dark)") == 1


def test_typst_reads_the_same_palette_as_a_textmate_theme(tmp_path: Path) -> None:
    """Typst highlights code itself: its theme is the palette, by TextMate scope, and
    every colour passes AA on the Typst code box (``luma(96%)``)."""
    import plistlib

    import pdfplumber
    import typst

    from kobook.write.shared.highlight import PLAIN_TEXT, SCOPES, tmtheme

    theme = plistlib.loads(tmtheme().encode("utf-8"))
    rules = {r["scope"]: r["settings"] for r in theme["settings"] if "scope" in r}
    assert set(rules) == set(SCOPES.values())
    for name, scope in SCOPES.items():
        assert rules[scope]["foreground"] == TOKENS[name].light
    box = "#f5f5f5"  # luma(96%), book.typ's code box
    for colour in [PLAIN_TEXT, *(s["foreground"] for s in rules.values())]:
        assert contrast(colour, box) >= AA, colour
    # Typst draws a comment in the palette's comment colour.
    source = tmp_path / "code.typ"
    literal = tmtheme().replace("\\", "\\\\").replace('"', '\\"')
    source.write_text(f'#set raw(theme: bytes("{literal}"))\n```python\n# note\nx = 1\n```\n')
    (tmp_path / "code.pdf").write_bytes(typst.compile(str(source)))
    with pdfplumber.open(tmp_path / "code.pdf") as pdf:
        chars = pdf.pages[0].chars
    hashes = [c for c in chars if c["text"] == "#"]
    expected = tuple(int(TOKENS["Comment"].light[i : i + 2], 16) / 255 for i in (1, 3, 5))
    assert hashes and tuple(round(v, 2) for v in hashes[0]["non_stroking_color"]) == tuple(
        round(v, 2) for v in expected
    )
