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


CHAPTERS = [
    "# 하나\n\n본문과 각주.[^1] 수식 $x^2$.\n\n[^1]: 각주의 글.\n",
    "```python\nx = 1  # 주석\n```\n\n``` {.rust .numberLines}\nfn main() {}\n```\n",
    '<div class="note">raw <b>HTML</b></div>\n\n| 가 | 나 |\n|---|---|\n| 1 | 2 |\n',
    "$$\\sum_{i=1}^n i$$\n\n- 목록\n- 둘째\n\n> 인용 *강조*\n",
]


def test_chapters_written_together_are_each_chapter_written_alone(tmp_path: Path) -> None:
    from kobook.parse import markdown_to_ast
    from kobook.write.shared.common import chapters_to_html

    chapters = [markdown_to_ast(text)["blocks"] for text in CHAPTERS]
    alone = [blocks_to_html(blocks) for blocks in chapters]
    assert chapters_to_html(chapters, None) == alone
    cache = Cache(tmp_path / "cache")
    assert chapters_to_html(chapters, cache) == alone
    assert [blocks_to_html(blocks, cache=cache) for blocks in chapters] == alone  # kept


def test_chapters_the_batch_could_not_write_are_written_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kobook.parse import markdown_to_ast
    from kobook.write.shared import common

    chapters = [markdown_to_ast(text)["blocks"] for text in CHAPTERS]
    monkeypatch.setattr(common, "json_to_html5s", lambda payloads, _theme: [None] * len(payloads))
    assert common.chapters_to_html(chapters, None) == [blocks_to_html(b) for b in chapters]


@pytest.mark.parametrize("kind", ["directory", "output"])
def test_a_signal_just_after_the_temporary_is_made_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """A loaded machine can stop the build right after the temporary file or folder is
    made, before the code that removes it knows its name: the signal lands there."""
    import os

    from kobook.write.shared import common

    made, create = ("mkdir", os.mkdir) if kind == "directory" else ("open", os.open)

    def made_then_interrupted(*args: Any, **kwargs: Any) -> Any:
        result = create(*args, **kwargs)
        if str(args[0]).startswith(str(tmp_path / ".site")):
            raise KeyboardInterrupt
        return result

    monkeypatch.setattr(os, made, made_then_interrupted)
    context = common.atomic_directory if kind == "directory" else common.atomic_output
    with pytest.raises(KeyboardInterrupt), context(tmp_path / "site"):
        pass
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == []
