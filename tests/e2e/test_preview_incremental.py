"""The preview on the corpus playbook: one file split into chapters, edited in place.

A copy of the book is previewed, one paragraph of one chapter is edited, and
the rebuild must touch only that chapter's page and leave the folder exactly
as a fresh full HTML build of the edited sources.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from kobook.preview import Session
from kobook.transform import PASSES
from tests.conftest import PLAYBOOK, need_corpus
from tests.unit.preview.test_session import assert_same_as_full_build

pytestmark = [pytest.mark.slow, pytest.mark.corpus]

SOURCE_NAME = "The UltraScale Playbook.md"


@pytest.fixture(scope="module")
def previewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Session, Path]:
    need_corpus(PLAYBOOK / SOURCE_NAME)
    work = tmp_path_factory.mktemp("playbook-preview")
    root = work / "book"
    shutil.copytree(PLAYBOOK, root)
    for path in [root, *root.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    session = Session(root, cache_dir=work / "cache")
    update = session.build()
    assert update.ok, update.error
    return session, work


def test_a_paragraph_edit_in_one_chapter(previewed: tuple[Session, Path]) -> None:
    session, work = previewed
    source = session.root / SOURCE_NAME
    text = source.read_text(encoding="utf-8")
    chapter = session.good.book.chapters[3] if session.good else None
    assert chapter is not None and chapter.id == "ch03"
    # A long prose line of chapter 3 (its first line of more than 200 characters).
    lines = text.split("\n")
    start = chapter.line_offset
    index = next(i for i in range(start + 1, len(lines)) if len(lines[i]) > 200)
    assert not re.match(r"\s*[#|`$!<]", lines[index])
    lines[index] += " 편집한 문장입니다."
    source.write_text("\n".join(lines), encoding="utf-8")
    update = session.rebuild({source})
    assert update.ok, update.error
    assert update.mode == "incremental"
    assert update.chapters == ["ch03"]
    assert update.pages == ["ch03.html"]
    assert session.stages.passes.ran == len(PASSES)
    assert "편집한 문장입니다." in (session.out / "ch03.html").read_text(encoding="utf-8")
    assert_same_as_full_build(session, work)
