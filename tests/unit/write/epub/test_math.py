"""Formulas the EPUB draws because pandoc cannot write them as MathML (``write/epub/math.py``)."""

from __future__ import annotations

from pathlib import Path


def test_formulas_pandoc_cannot_write_are_found_once_per_set(
    tmp_path: Path, pandoc_inputs: list[str]
) -> None:
    """The probe of a book's formulas is pandoc's HTML like any other: kept in the cache, so
    a warm build whose edit added no formula runs no pandoc for it."""
    from kobook.cache import Cache
    from kobook.write.epub.math import mathml_failures

    def para(tex: str) -> dict[str, object]:
        return {"t": "Para", "c": [{"t": "Math", "c": [{"t": "InlineMath"}, tex]}]}

    chapters = [[para("x^2")], [para(r"\unknowncommand{x}")]]
    cache = Cache(tmp_path / "cache")
    first = mathml_failures(chapters, cache)
    runs = len(pandoc_inputs)
    assert mathml_failures(chapters, cache) == first == mathml_failures(chapters)
    assert len(pandoc_inputs) == runs + 1  # the last call, without the cache
