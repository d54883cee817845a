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
