"""Every text the fixes' proofs and the parse stage need, read in one go (normalize/prefetch.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kobook.cache import Cache
from kobook.pipeline import Hooks, Pipeline
from tests.conftest import BookMaker
from tests.unit.check.test_fix_safety import evil_rule  # noqa: F401 (a fixture)

FILES = {
    "book/01.md": "# 하나\n\n이 장은 GPU을 쓴다.\n",  # a fix: the proof reads it
    "book/02.md": "# 둘\n\n고칠 것이 없는 장.\n",
    "book/03.md": "---\ntitle: 셋\n---\n\n# 셋\n\n머리말이 있는 장.\n",
}


class NoPrefetch(Hooks):
    def prefetch(self, book: Any, cache: Cache) -> None:
        return None


def build(root: Path, cache: Cache, hooks: Hooks | None = None) -> list[Any]:
    pipeline = Pipeline(root, hooks=hooks or Hooks())
    book = pipeline.front().book
    pipeline.normalize(book, cache)
    return [(p.load().blocks, p.load().meta) for p in pipeline.parse(book, cache)]


def alone(pandoc_inputs: list[str], text: str) -> int:
    """pandoc pandoc_inputs that read ``text`` by itself."""
    return sum(1 for stdin in pandoc_inputs if stdin == text)


def test_the_texts_are_read_in_one_go_and_nothing_twice(
    make_book: BookMaker, tmp_path: Path, pandoc_inputs: list[str]
) -> None:
    root = make_book(dict(FILES), metadata={"title": "책"})
    docs = build(root, Cache(tmp_path / "cache"))
    batches = [
        json.loads(stdin)["texts"] for stdin in pandoc_inputs if stdin.startswith('{"texts"')
    ]
    third = "# 셋\n\n머리말이 있는 장.\n"  # the loader took the front matter off
    fixed = FILES["book/01.md"].replace("GPU을", "GPU를")
    # A short book: every text in one process, once the checks have made the fixes (a
    # second process would cost more CPU than it saves time).
    assert len(batches) == 1
    read = sorted(text for batch in batches for text in batch)
    # The fixed chapter's original and fixed text (its proof), the others as they are.
    assert read == sorted([FILES["book/01.md"], fixed, FILES["book/02.md"], third])
    for text in (FILES["book/01.md"], fixed, FILES["book/02.md"], third):
        assert alone(pandoc_inputs, text) == 0  # no text read twice, none alone
    pandoc_inputs.clear()
    assert build(root, Cache(tmp_path / "plain"), NoPrefetch()) == docs  # the same ASTs


def test_a_long_book_is_read_by_two_processes_from_before_the_checks(
    make_book: BookMaker,
    tmp_path: Path,
    pandoc_inputs: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From SPLIT_FROM characters the chapters' own texts go to two processes (two cores),
    started before the checks; the fixed text once the checks have made it."""
    from kobook.normalize import prefetch

    monkeypatch.setattr(prefetch, "SPLIT_FROM", 40)
    root = make_book(dict(FILES), metadata={"title": "책"})
    docs = build(root, Cache(tmp_path / "cache"))
    batches = [
        json.loads(stdin)["texts"] for stdin in pandoc_inputs if stdin.startswith('{"texts"')
    ]
    fixed = FILES["book/01.md"].replace("GPU을", "GPU를")
    assert len(batches) == 3 and batches[-1] == [fixed]
    assert len(batches[0]) + len(batches[1]) == 3  # the three chapters' own texts
    pandoc_inputs.clear()
    assert build(root, Cache(tmp_path / "plain"), NoPrefetch()) == docs  # the same ASTs


def test_a_chapter_with_decomposed_hangul_is_read_in_nfc_with_the_others(
    make_book: BookMaker, tmp_path: Path, pandoc_inputs: list[str]
) -> None:
    """Loose jamo (NFD, as macOS writes names) where the fixes do not reach (code): the
    parse stage takes the text in NFC, which is read with the others, not again alone."""
    import unicodedata

    code = unicodedata.normalize("NFD", "`한글.md`")
    files = {
        "book/01.md": f"# 하나\n\n이 장은 GPU을 쓴다. {code}\n",  # a fix, and NFC after it
        "book/02.md": f"# 둘\n\n고칠 것이 없는 장. {code}\n",  # NFC alone
    }
    root = make_book(files, metadata={"title": "책"})
    docs = build(root, Cache(tmp_path / "cache"))
    batches = [
        json.loads(stdin)["texts"] for stdin in pandoc_inputs if stdin.startswith('{"texts"')
    ]
    read = [text for batch in batches for text in batch]
    finals = ["# 하나\n\n이 장은 GPU를 쓴다. `한글.md`\n", "# 둘\n\n고칠 것이 없는 장. `한글.md`\n"]
    assert all(text in read for text in finals)
    assert not [stdin for stdin in pandoc_inputs if stdin.startswith("#")]  # none alone
    pandoc_inputs.clear()
    assert build(root, Cache(tmp_path / "plain"), NoPrefetch()) == docs  # the same ASTs


def test_a_warm_build_reads_nothing_again(
    make_book: BookMaker, tmp_path: Path, pandoc_inputs: list[str]
) -> None:
    root = make_book(dict(FILES), metadata={"title": "책"})
    cache = Cache(tmp_path / "cache")
    build(root, cache)
    pandoc_inputs.clear()
    build(root, cache)
    assert [stdin for stdin in pandoc_inputs if stdin != "x"] == []  # "x": pandoc's version probe


@pytest.mark.usefixtures("evil_rule")
def test_a_fix_the_proof_refuses_is_refused_after_the_prefetch_too(
    make_book: BookMaker, tmp_path: Path
) -> None:
    """The fixes made before the batch are the ones the normalize stage proves: a fix that
    would make a link is still left out (CHK004), the safe one still applied."""
    from kobook.normalize import normalize_book

    root = make_book({"book/01.md": "# 장\n\n이 링크는 GPU을 쓴다.\n"}, metadata={"title": "책"})
    pipeline = Pipeline(root)
    book = pipeline.front().book
    report = pipeline.normalize(book, Cache(tmp_path / "cache"))
    assert pipeline.hooks.made is not None and pipeline.hooks.made.chapters == {}  # all used
    assert book.chapters[0].text == "# 장\n\n이 링크는 GPU를 쓴다.\n"
    plain = Pipeline(root).front().book
    expected = normalize_book(plain)
    assert [(d.code, d.location) for d in report.remaining] == [
        (d.code, d.location) for d in expected.remaining
    ]
    assert "CHK004" in [d.code for d in report.remaining]
