"""What an edit of a shown-only setting (a title) may leave alone: every chapter."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from kobook.cache import Cache
from kobook.model.config import SHOWN_ONLY
from kobook.pipeline import Pipeline
from tests.conftest import sample_copy

OTHER = {
    "title": "다른 제목",
    "subtitle": "다른 부제",
    "author": "다른 사람",
    "translators": ["다른 옮긴이"],
    "date": "2030-01-02",
    "edition": "2판 3쇄",
    "publisher": "다른 출판사",
    "rights": "다른 권리",
}


def made(project: Path, cache: Path) -> tuple[str, str]:
    """The sample's chapters as the checks, parse and transform make them (and what the
    checks and passes said)."""
    pipeline = Pipeline(project, offline=True)
    book = pipeline.front().book
    kept = Cache(cache)
    report = pipeline.normalize(book, kept)
    docs, ctx, _keys = pipeline.transform(book, pipeline.parse(book, kept), kept)
    chapters = json.dumps([(d.chapter.id, d.blocks, d.meta) for d in docs], ensure_ascii=False)
    said = repr(sorted(str(d) for d in [*report.remaining, *ctx.diagnostics]))
    return chapters, said


def test_no_check_or_pass_reads_a_shown_only_setting(tmp_path: Path) -> None:
    assert set(OTHER) == SHOWN_ONLY  # every one of them is changed below
    first = sample_copy(tmp_path / "a")
    second = sample_copy(tmp_path / "b")
    metadata = yaml.safe_load((first / "metadata.yaml").read_text(encoding="utf-8"))
    assert metadata["title"] != OTHER["title"]
    for project, values in ((first, metadata), (second, metadata | OTHER)):  # same lines
        text = yaml.safe_dump(values, allow_unicode=True, sort_keys=True)
        (project / "metadata.yaml").write_text(text, encoding="utf-8")
    one, said_one = made(first, tmp_path / "cache-a")
    other, said_other = made(second, tmp_path / "cache-b")
    assert one.replace(str(first), "ROOT") == other.replace(str(second), "ROOT")
    assert said_one.replace(str(first), "ROOT") == said_other.replace(str(second), "ROOT")
    assert "다른 제목" not in other
