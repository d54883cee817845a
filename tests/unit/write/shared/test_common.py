"""pandoc's HTML of a chapter kept in the build's cache (write/shared/common.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kobook.cache import Cache
from kobook.parse import pandoc
from kobook.write.shared import highlight
from kobook.write.shared.common import blocks_to_html


def para(text: str) -> list[dict[str, Any]]:
    return [{"t": "Para", "c": [{"t": "Str", "c": text}]}]


def test_an_unchanged_chapter_is_not_written_by_pandoc_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[str] = []
    original = pandoc.run_pandoc

    def counted(args: list[str], stdin: str, **kwargs: Any) -> str:
        if stdin.startswith("{"):  # not the version probe
            runs.append(stdin)
        return original(args, stdin, **kwargs)

    monkeypatch.setattr(pandoc, "run_pandoc", counted)
    cache = Cache(tmp_path / "cache")
    first = blocks_to_html(para("첫 문단"), cache=cache)
    assert "<p>첫 문단</p>" in first and len(runs) == 1
    assert blocks_to_html(para("첫 문단"), cache=cache) == first
    assert len(runs) == 1  # from the cache
    assert "고친" in blocks_to_html(para("고친 문단"), cache=cache)
    assert len(runs) == 2
    # The highlight theme's file is temporary (a new path in every process): its content,
    # not its path, is in the key.
    (tmp_path / "elsewhere.theme").write_bytes(highlight.theme_file().read_bytes())
    monkeypatch.setattr(
        "kobook.write.shared.common.highlight_option",
        lambda: f"--syntax-highlighting={tmp_path / 'elsewhere.theme'}",
    )
    assert blocks_to_html(para("첫 문단"), cache=cache) == first
    assert len(runs) == 2
    assert blocks_to_html(para("첫 문단"), ["--section-divs"], cache=cache)
    assert len(runs) == 3  # other arguments, another entry
