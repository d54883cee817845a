"""kobook.pipeline: load → dialect → guard, run the same way by the build and the preview."""

from __future__ import annotations

from pathlib import Path

import pytest

import kobook
from kobook import limits, pipeline
from kobook.errors import KobookError
from kobook.preview import Session
from tests.conftest import BookMaker

CHAPTERS = {
    "book/01.md": "# 처음\n\n첫 장이다.\n",
    "book/02.md": "# 둘째\n\n둘째 장이다.\n",
    # A template that is code: not used without --trust, and said so (SEC005).
    "templates/html/chapter.html.j2": "<p>{{ body }}</p>",
}


def test_front_loads_converts_and_says_what_it_chose(make_book: BookMaker) -> None:
    root = make_book(dict(CHAPTERS), metadata={"title": "책"})
    loaded = pipeline.front(root)
    assert [c.id for c in loaded.book.chapters] == ["01", "02"]
    assert loaded.notes[0].endswith("book/01.md, book/02.md")
    assert [d.code for d in loaded.diagnostics] == ["SEC005"]
    assert pipeline.front(root, trust=True).diagnostics == []
    assert pipeline.front(root, trust=True).book.trusted


def test_the_guard_refuses_before_any_stage_and_remembers_what_passed(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_book({"book/01.md": "# 장\n\n" + ">" * (limits.MAX_NESTING + 5) + " 깊다\n"})
    with pytest.raises(KobookError) as info:
        pipeline.front(root)
    assert info.value.code == "LIMIT001"
    calls: list[str] = []
    monkeypatch.setattr(pipeline, "check_source", lambda chapter: calls.append(chapter.id))
    good = make_book(dict(CHAPTERS))
    memo = pipeline.Memo()
    pipeline.front(good, memo=memo)
    pipeline.front(good, memo=memo)  # nothing changed: nothing checked again
    assert calls == ["01", "02"]


def test_the_preview_says_what_the_build_says(make_book: BookMaker, tmp_path: Path) -> None:
    """The preview ran its own copy of load and dialect, without the template check."""
    root = make_book(dict(CHAPTERS), metadata={"title": "책"})
    built = kobook.build(root, ["html"], out=tmp_path / "out", cache_dir=tmp_path / "c")
    session = Session(root, cache_dir=tmp_path / "c2", out=tmp_path / "preview")
    try:
        update = session.build()
    finally:
        session.close()
    assert update.ok, update.error
    said = sorted(d.code for d in built.diagnostics)
    assert said == ["SEC005"]
    assert sorted(d.code for d in update.warnings) == said


class Recording(pipeline.Hooks):
    """The default hooks, recording which stage each call was."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def normalize_chapter(self, chapter, rules, lang, cache):  # type: ignore[no-untyped-def]
        self.calls.append(f"normalize {chapter.id}")
        return super().normalize_chapter(chapter, rules, lang, cache)

    def parse(self, book, cache):  # type: ignore[no-untyped-def]
        self.calls.append("parse")
        return super().parse(book, cache)

    def run_passes(self, passes, book, ctx, parsed):  # type: ignore[no-untyped-def]
        self.calls.append(f"transform {len(passes)} passes")
        return super().run_passes(passes, book, ctx, parsed)


def test_every_stage_goes_through_the_hooks(make_book: BookMaker, tmp_path: Path) -> None:
    from kobook.cache import Cache
    from kobook.transform import PASSES

    root = make_book(dict(CHAPTERS), metadata={"title": "책"})
    hooks = Recording()
    stages = pipeline.Pipeline(root, hooks=hooks)
    book = stages.front().book
    cache = Cache(tmp_path / "c")
    report = stages.normalize(book, cache)
    docs, ctx, _keys = stages.transform(book, stages.parse(book, cache), cache)
    assert hooks.calls == [
        "normalize 01",
        "normalize 02",
        "parse",
        f"transform {len(PASSES)} passes",
    ]
    assert set(report.by_chapter) == {"01", "02"}
    assert [d.chapter.number for d in docs] == [1, 2] and ctx.book is book


def test_the_build_and_the_preview_run_one_pipeline(
    make_book: BookMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The preview had its own copy of normalize, parse and transform; now it passes hooks
    (preview/stages.py) to the pipeline the build runs."""
    from kobook.preview.stages import PreviewStages

    root = make_book(dict(CHAPTERS), metadata={"title": "책"})
    runs: list[type] = []
    transform = pipeline.Pipeline.transform

    def recorded(self, book, parsed, cache, **options):  # type: ignore[no-untyped-def]
        runs.append(type(self.hooks))
        return transform(self, book, parsed, cache, **options)

    monkeypatch.setattr(pipeline.Pipeline, "transform", recorded)
    kobook.build(root, ["html"], out=tmp_path / "out", cache_dir=tmp_path / "c")
    session = Session(root, cache_dir=tmp_path / "c2", out=tmp_path / "preview")
    try:
        assert session.build().ok
    finally:
        session.close()
    assert runs == [pipeline.Hooks, PreviewStages]
