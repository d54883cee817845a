"""The preview's chapter PDF lays out again only the pages a save changed
(``write/weasyprint/relayout.py``), and the PDF is the one a full layout gives.

Each test typesets a chapter of a few pages (a contents page with page
numbers, running heads, footnotes, a code block broken across pages, an
image), changes its source the way a translator would, typesets it again with
the pages of the last layout kept, and compares every page — its text and its
pixels — with a layout made from nothing.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from kobook.preview import Session, typesetter
from kobook.write.weasyprint import relayout as weasy_relayout
from kobook.write.weasyprint.relayout import Relayout
from tests.checks import pdf_pages
from tests.conftest import BookMaker

pytestmark = pytest.mark.slow

SENTENCE = "데이터 병렬화에서는 각 GPU가 모델 전체를 복제해 두고 배치의 일부만 계산한다. "
CODE = "\n".join(f"    grads[{i}] = all_reduce(model.layer{i}.grad)  # 층 {i}" for i in range(70))


def chapter() -> str:
    """Three sections of paragraphs, footnotes, a long code block and an image."""
    parts = ["# 데이터 병렬화 {#sec-dp}\n"]
    for section in range(3):
        parts.append(f"## {section + 1}번째 절\n")
        for paragraph in range(8):
            note = f"[^n{section}{paragraph}]" if paragraph % 3 == 0 else ""
            parts.append(f"문단 {section}.{paragraph}: " + SENTENCE * 5 + note + "\n")
            if note:
                parts.append(f"[^n{section}{paragraph}]: {section}.{paragraph} 문단의 각주.\n")
        if section == 1:
            parts.append("```python\ndef step(model):\n" + CODE + "\n```\n")
            parts.append("![작은 그림](images/pixel.png){#fig-pixel width=30%}\n")
    return "\n".join(parts)


def tall_figures() -> str:
    """Paragraphs and figures as wide as the text: some do not fit where they are and are
    moved after the text that follows them (write/weasyprint/figures.py)."""
    parts = ["# 그림이 많은 장\n"]
    for n in range(12):
        parts.append(f"문단 {n}: " + SENTENCE * (4 + n % 3) + "\n")
        if n % 3 == 1:
            parts.append(f"![그림 {n}](images/tall.png){{#fig-{n} width=90%}}\n")
    return "\n".join(parts)


def start(make_book: BookMaker, monkeypatch: pytest.MonkeyPatch, text: str) -> Session:
    """A preview session of a book whose first chapter is ``text``, its PDF typeset once."""
    root = make_book(
        {"book/01.md": text, "book/02.md": "# 둘째 장\n\n짧은 장.\n"},
        metadata={"title": "다시 배치하기", "lang": "ko-KR", "toc": True, "engine": "weasyprint"},
        images=["images/pixel.png"],
    )
    Image.new("RGB", (60, 70), "steelblue").save(root / "images/tall.png")
    # A layout kept for these tests alone, in this process.
    monkeypatch.setattr(typesetter, "KEPT_LAYOUT", Relayout())
    session = Session(root, cache_dir=root.parent / "cache", pdf=True, typesetter=False)
    first = session.build()
    assert first.ok, first.error
    assert session.rebuild_pdf().ok
    return session


@pytest.fixture
def session(make_book: BookMaker, monkeypatch: pytest.MonkeyPatch) -> Iterator[Session]:
    session = start(make_book, monkeypatch, chapter())
    yield session
    session.close()


@pytest.fixture
def figures(make_book: BookMaker, monkeypatch: pytest.MonkeyPatch) -> Iterator[Session]:
    session = start(make_book, monkeypatch, tall_figures())
    # the case to test: a layout that moved a figure
    last = typesetter.KEPT_LAYOUT.last
    assert last is not None and last.moved is not None
    yield session
    session.close()


def pictures(pdf: Path, folder: Path) -> list[Image.Image]:
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-r", "40", "-png", pdf, folder / "p"], check=True)
    return [Image.open(p).convert("RGB") for p in sorted(folder.glob("p*.png"))]


def typeset_after(session: Session, source: Path, old: str, new: str, tmp: Path) -> Relayout:
    """Edit ``source``, typeset with the last layout kept, and check the PDF against a
    full layout of the same sources; the kept layout's counts of what it did."""
    text = source.read_text(encoding="utf-8")
    assert old in text
    source.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert session.rebuild({source}).ok
    update = session.rebuild_pdf()
    assert update.ok, update.error
    # Only the preview's typesetting keeps layouts: a build's bytes never depend on
    # what the process built before.
    assert weasy_relayout.KEPT.get() is None
    pdf = session.out / str(update.pdf)
    kept = typesetter.KEPT_LAYOUT
    counts = Relayout(made=kept.made, reused=kept.reused)
    assert update.pages_laid == (kept.made, kept.reused)
    reused_text = pdf_pages(pdf)
    reused_pictures = pictures(pdf, tmp / "reused")

    kept.last = None  # the next layout starts from nothing
    pdf.unlink()  # typeset again although nothing changed
    assert session.rebuild_pdf().ok
    assert kept.reused == 0
    assert reused_text == pdf_pages(pdf)
    full_pictures = pictures(pdf, tmp / "full")
    assert len(reused_pictures) == len(full_pictures)
    differing = [
        number
        for number, (a, b) in enumerate(zip(reused_pictures, full_pictures, strict=True), 1)
        if ImageChops.difference(a, b).getbbox() is not None
    ]
    assert differing == []
    return counts


def test_a_sentence_edited_lays_out_only_pages_near_it(session: Session, tmp_path: Path) -> None:
    source = session.root / "book/01.md"
    counts = typeset_after(session, source, "문단 1.4: 데이터", "문단 1.4: 고친 데이터", tmp_path)
    pages = counts.made + counts.reused
    assert pages >= 6
    # the page before the edit, its own, and the contents page (its page numbers)
    assert counts.reused >= pages - 4, (counts.made, counts.reused)


def test_a_paragraph_grown_by_a_page_moves_the_contents_page_numbers(
    session: Session, tmp_path: Path
) -> None:
    before = pdf_pages(session.out / "01.pdf")
    source = session.root / "book/01.md"
    counts = typeset_after(session, source, "문단 0.5: ", "문단 0.5: " + SENTENCE * 80, tmp_path)
    after = pdf_pages(session.out / "01.pdf")
    assert len(after) > len(before)
    assert counts.reused > 0
    contents = next(page for page in after if "차례" in page)
    assert contents != next(page for page in before if "차례" in page)


def test_a_paragraph_added_keeps_only_the_pages_before_it(session: Session, tmp_path: Path) -> None:
    source = session.root / "book/01.md"
    added = "## 3번째 절\n\n새로 넣은 문단. " + SENTENCE * 3 + "\n"
    counts = typeset_after(session, source, "## 3번째 절\n", added, tmp_path)
    assert counts.reused > 0 and counts.made > 0


def test_a_new_stylesheet_lays_out_every_page(session: Session, tmp_path: Path) -> None:
    metadata = session.root / "metadata.yaml"
    metadata.write_text(metadata.read_text(encoding="utf-8") + "fontsize: 11pt\n", "utf-8")
    session.rebuild({metadata})
    source = session.root / "book/01.md"
    counts = typeset_after(session, source, "문단 2.7: ", "문단 2.7: 고친 ", tmp_path)
    assert counts.reused == 0


def test_an_image_changed_under_the_same_name_is_drawn_anew(
    session: Session, tmp_path: Path
) -> None:
    image = session.root / "images/pixel.png"
    Image.new("RGB", (40, 40), "red").save(image)
    session.rebuild({image})
    source = session.root / "book/01.md"
    counts = typeset_after(session, source, "문단 0.1: ", "문단 0.1: 고친 ", tmp_path)
    assert counts.made >= 3  # the edit's pages, the contents, and the image's page


@pytest.mark.parametrize("paragraph", [1, 6, 10])
def test_pages_after_a_moved_figure_are_laid_out_again(
    figures: Session, paragraph: int, tmp_path: Path
) -> None:
    """Where the last layout moved a figure after the text that follows it, the box tree
    no longer follows the source: an edit before, at or after that place gives the full
    layout's pages."""
    source = figures.root / "book/01.md"
    old = f"문단 {paragraph}: "
    typeset_after(figures, source, old, old + "고친 " + SENTENCE, tmp_path)
