"""The Typst engine's second build: only what changed is made again, and the PDF is the
one a cold build makes (issue 12, item 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import kobook
from kobook.preview import Session
from kobook.write.typst import compiler as typst_compiler
from kobook.write.typst import template as typst_template
from tests.conftest import BookMaker

CHAPTERS = {
    "book/01.md": "# 처음\n\n첫 장의 본문이다. [둘째 장의 절](#sec-two)을 보라.\n\n"
    "![고양이](images/a.png){#fig:a}\n",
    "book/02.md": "# 둘째\n\n둘째 장의 본문이다.\n\n## 절 하나 {#sec-two}\n\n내용이 있다.\n",
    "book/03.md": "# 셋째\n\n@fig:a를 보라. 셋째 장의 수식 $a+b$ 이다.\n\n"
    '```{=typst}\n#read("x")\n```\n',
}


@pytest.fixture
def prepared(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The chapters the Typst passes ran on, build after build."""
    seen: list[str] = []
    original = typst_template.prepare

    def spy(doc: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(doc.chapter.id)
        return original(doc, *args, **kwargs)

    monkeypatch.setattr(typst_template, "prepare", spy)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    return seen


def build(root: Path, cache: Path) -> kobook.BuildResult:
    return kobook.build(root, ["pdf"], engine="typst", cache_dir=cache, out=root / "dist")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_an_edit_makes_one_chapter_again_and_the_same_pdf(
    make_book: BookMaker, tmp_path: Path, prepared: list[str]
) -> None:
    root = make_book(dict(CHAPTERS), images=["images/a.png"])
    cache = tmp_path / "cache"
    first = build(root, cache)
    assert prepared == ["01", "02", "03"]
    prepared.clear()
    again = build(root, cache)
    assert prepared == []
    # Warnings of the chapters not made again are still reported (TYP003 is chapter 3's).
    codes = sorted(d.code for d in first.diagnostics)
    assert "TYP003" in codes and sorted(d.code for d in again.diagnostics) == codes

    edit(root / "book/02.md", "둘째 장의 본문이다.", "둘째 장의 본문을 고쳤다.")
    warm = build(root, cache).outputs["pdf"].read_bytes()
    assert prepared == ["02"]
    typst_compiler.forget()
    cold = build(root, tmp_path / "cold").outputs["pdf"].read_bytes()
    assert warm == cold  # the kept chapters and the kept compiler change nothing


def test_a_link_that_starts_dangling_makes_its_chapter_again(
    make_book: BookMaker, tmp_path: Path, prepared: list[str]
) -> None:
    """Chapter 1 links to a section of chapter 2: when that section's id goes, chapter 1's
    link must lose its target (Typst stops at a link to a missing label)."""
    root = make_book(dict(CHAPTERS), images=["images/a.png"])
    cache = tmp_path / "cache"
    build(root, cache)
    prepared.clear()
    edit(root / "book/02.md", " {#sec-two}", "")
    result = build(root, cache)
    assert sorted(prepared) == ["01", "02"]
    assert result.outputs["pdf"].is_file()
    prepared.clear()
    edit(root / "book/02.md", "## 절 하나", "## 절 하나 {#sec-two}")
    build(root, cache)
    assert prepared == ["01"]  # chapter 2's text is its first again: its first entry holds


def test_a_changed_image_makes_its_chapter_again(
    make_book: BookMaker, tmp_path: Path, prepared: list[str]
) -> None:
    root = make_book(dict(CHAPTERS), images=["images/a.png"])
    cache = tmp_path / "cache"
    build(root, cache)
    prepared.clear()
    image = root / "images/a.png"
    image.write_bytes(image.read_bytes() + b"\0")
    build(root, cache)
    assert prepared == ["01"]


def test_metadata_and_kobook_code_are_in_the_key(
    make_book: BookMaker, tmp_path: Path, prepared: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_book(dict(CHAPTERS), metadata={"title": "책"}, images=["images/a.png"])
    cache = tmp_path / "cache"
    build(root, cache)
    prepared.clear()
    (root / "metadata.yaml").write_text("title: 책\nfontsize: 11pt\n", encoding="utf-8")
    build(root, cache)
    assert prepared == ["01", "02", "03"]
    prepared.clear()
    from kobook.write.typst import bodies

    monkeypatch.setattr(bodies, "code_digest", lambda: "another kobook")
    build(root, cache)
    assert prepared == ["01", "02", "03"]


def test_a_planted_entry_is_not_read(
    make_book: BookMaker, tmp_path: Path, prepared: list[str]
) -> None:
    """An entry changed after it was written (a committed cache, edited in a pull request)
    is a miss: its Typst could ``#read`` any file under the compiler's root."""
    root = make_book(dict(CHAPTERS), images=["images/a.png"])
    cache = tmp_path / "cache"
    build(root, cache)
    entries = [p for p in (cache / "typst-chapter").rglob("*.json")]
    assert len(entries) == 3
    for entry in entries:
        entry.write_text(
            entry.read_text(encoding="utf-8").replace(
                '"typst": "', '"typst": "#read(\\"/etc/hostname\\")', 1
            ),
            encoding="utf-8",
        )
    prepared.clear()
    result = build(root, cache)
    assert sorted(prepared) == ["01", "02", "03"]
    source = next((cache / "typst").rglob("book.typ")).read_text(encoding="utf-8")
    assert "#read(" not in source and result.outputs["pdf"].is_file()


@pytest.mark.slow
def test_preview_pdf_typesets_with_the_books_engine(make_book: BookMaker, tmp_path: Path) -> None:
    """``engine: typst`` in metadata: ``preview --pdf`` gives a Typst chapter PDF (it was
    typeset by WeasyPrint), and a save makes that chapter's PDF again."""
    from pypdf import PdfReader

    root = make_book(dict(CHAPTERS), metadata={"engine": "typst"}, images=["images/a.png"])
    session = Session(root, cache_dir=tmp_path / "cache", pdf=True)
    try:
        assert session.build().ok
        edit(root / "book/02.md", "둘째 장의 본문이다.", "둘째 장의 본문을 고쳤다.")
        assert session.rebuild({root / "book/02.md"}).ok
        update = session.rebuild_pdf()
        assert update.ok, update.error
        assert update.pdf == "02.pdf"
        reader = PdfReader(session.out / "02.pdf")
        assert "Typst" in str((reader.metadata or {}).get("/Creator", ""))
        assert "본문을 고쳤다" in "".join(page.extract_text() for page in reader.pages)
    finally:
        session.close()


BUILD_AND_STOP_THE_WORKER = """
import os, signal, sys
from pathlib import Path

import kobook
from kobook.write.typst import compiler

kobook.build(Path(sys.argv[1]), ["pdf"], engine="typst", out=Path(sys.argv[2]))
worker = compiler._KEPT[0].pid
os.kill(worker, signal.SIGSTOP)  # it cannot end by itself now: only this process can end it
print(worker)
"""


def test_the_kept_worker_is_ended_and_waited_for_when_the_process_exits(
    make_book: BookMaker, tmp_path: Path
) -> None:
    """What the compiler costs (its CPU, the route's largest process) is counted to the
    build: a worker left to end by itself after the build's process had gone was
    waited for by no one (scripts/bench.py's wait4 saw none of the compile)."""
    import os
    import signal
    import subprocess
    import sys

    root = make_book({"book/01.md": "# 장\n\n본문.\n"}, metadata={"title": "책", "lang": "ko"})
    script = tmp_path / "build.py"
    script.write_text(BUILD_AND_STOP_THE_WORKER, encoding="utf-8")
    errors = tmp_path / "stderr.txt"
    with errors.open("w") as stderr:  # a file: a worker left behind would hold a pipe open
        done = subprocess.run(
            [sys.executable, str(script), str(root), str(tmp_path / "out")],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            timeout=600,
        )
    assert done.returncode == 0, errors.read_text(encoding="utf-8")[-2000:]
    worker = int(done.stdout.split()[-1])
    try:
        os.kill(worker, 0)
    except ProcessLookupError:
        return  # ended, and waited for (a child nobody waits for stays as a zombie)
    os.kill(worker, signal.SIGKILL)
    pytest.fail("the Typst worker outlived the build's process")
