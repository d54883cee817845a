"""Which symbols the colour emoji font draws (``passes.is_emoji_run``).

A task list's ballot boxes ☐ ☒ (pandoc's text for ``- [ ]``/``- [x]``) are text symbols:
sent to the emoji font, XeLaTeX reported GLYPH002 and drew nothing.
"""

from __future__ import annotations

import pytest

from kobook.write.shared.passes import emoji, is_emoji_run


@pytest.mark.parametrize("text", ["😄", "✅", "☀", "❤️", "👍🏽"])
def test_emoji_go_to_the_emoji_font(text: str) -> None:
    assert is_emoji_run(text)


@pytest.mark.parametrize("text", ["☐", "☒", "→", "℃"])
def test_text_symbols_stay_text(text: str) -> None:
    assert not is_emoji_run(text)


def test_a_task_list_box_is_not_wrapped() -> None:
    blocks = [
        {"t": "Plain", "c": [{"t": "Str", "c": "☒"}, {"t": "Space"}, {"t": "Str", "c": "✅"}]}
    ]
    out = emoji(blocks)[0]["c"]
    assert out[0] == {"t": "Str", "c": "☒"}
    assert out[2]["t"] == "Span" and out[2]["c"][0][1] == ["emoji"]
