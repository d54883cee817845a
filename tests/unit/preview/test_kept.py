"""What the preview keeps between rebuilds for speed, and when it lets go of it.

The templates' environment lives as long as the book's set-up (a change in
``templates/`` is a full rebuild and a new one); the chapter PDF's prefetch
does not fork workers only to find every formula already drawn.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Iterator
from pathlib import Path

import pytest

from kobook.cache import Cache
from kobook.preview import Session
from kobook.write.shared.mathsvg import render_math
from kobook.write.weasyprint import writer as pdf_weasyprint
from tests.conftest import BookMaker

BOOK = {"book/01.md": "# 처음\n\n첫 장의 본문입니다.\n", "book/02.md": "# 둘째\n\n둘째 장.\n"}


@pytest.fixture
def sessions() -> Iterator[list[Session]]:
    """The sessions a test opens, closed after it: a session left open keeps its threads
    (the parse pool, the search index), and a later build in this process then does not
    fork (``forked.Ahead``), which a test of forking sees."""
    opened: list[Session] = []
    yield opened
    for session in opened:
        session.close()


def test_templates_environment_is_kept_until_the_templates_change(
    make_book: BookMaker, tmp_path: Path, sessions: list[Session]
) -> None:
    root = make_book(BOOK)
    session = Session(root, cache_dir=tmp_path / "cache")
    sessions.append(session)
    assert session.build().ok
    env = session._env
    chapter = root / "book" / "01.md"
    chapter.write_text("# 처음\n\n고친 본문입니다.\n", encoding="utf-8")
    update = session.rebuild({chapter})
    assert update.ok and update.mode == "incremental"
    assert session._env is env  # not made (and its templates compiled) again
    # A template of the book's own (a style sheet: the preview trusts no template that is
    # code): the site uses it at once, and each later edit of it, in a new environment
    # (its folder is new), and nothing else is made again.
    override = root / "templates" / "html" / "extra.css"
    override.parent.mkdir(parents=True)
    override.write_text("/* MARK-ONE */\n", encoding="utf-8")
    update = session.rebuild({override})
    assert update.ok and update.mode == "incremental"
    assert session._env is not env
    assert "MARK-ONE" in (session.out / "assets" / "extra.css").read_text(encoding="utf-8")
    override.write_text("/* MARK-TWO */\n", encoding="utf-8")
    assert session.rebuild({override}).ok
    sheet = (session.out / "assets" / "extra.css").read_text(encoding="utf-8")
    assert "MARK-TWO" in sheet and "MARK-ONE" not in sheet


def test_prefetch_starts_no_workers_when_the_math_is_drawn(
    make_book: BookMaker,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    sessions: list[Session],
) -> None:
    formulas = [f"x^{{{n}}} + y_{{{n}}}" for n in range(20)]
    text = "# 수식\n\n" + "\n\n".join(f"식 ${tex}$ 입니다." for tex in formulas) + "\n"
    root = make_book({"book/01.md": text})
    session = Session(root, cache_dir=tmp_path / "cache")
    sessions.append(session)
    assert session.build().ok
    assert session.good is not None
    docs, book = session.good.docs, session.good.book
    cache = Cache(tmp_path / "cache")
    started: list[int] = []

    class Counting(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args: object, **kwargs: object) -> None:
            started.append(1)
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counting)
    pdf_weasyprint.prefetch(book, docs, cache, None)
    assert started == [1]  # 20 formulas to draw: the workers draw them
    for tex in formulas:
        render_math(tex, False, cache)  # a hit now (the workers cached it)
    assert cache.misses == 0
    pdf_weasyprint.prefetch(book, docs, cache, None)
    assert started == [1]  # everything drawn: no workers started


def png_of(width: int, height: int) -> bytes:
    from io import BytesIO

    from PIL import Image

    buffer = BytesIO()
    Image.new("RGB", (width, height), "red").save(buffer, format="PNG")
    return buffer.getvalue()


def test_a_kept_page_body_gets_an_images_new_size(
    make_book: BookMaker, tmp_path: Path, sessions: list[Session]
) -> None:
    """A page body keeps each image's pixel size (the browser holds its place): the bodies
    of the chapters not edited are kept between saves, and let go when an image changes."""
    root = make_book({**BOOK, "book/02.md": "# 둘째\n\n![그림](images/a.png)\n"})
    image = root / "images" / "a.png"
    image.parent.mkdir()
    image.write_bytes(png_of(40, 20))
    session = Session(root, cache_dir=tmp_path / "cache")
    sessions.append(session)
    assert session.build().ok
    page = session.out / "02.html"
    assert 'width="40" height="20"' in page.read_text(encoding="utf-8")
    chapter = root / "book" / "01.md"
    chapter.write_text("# 처음\n\n고친 본문입니다.\n", encoding="utf-8")
    update = session.rebuild({chapter})
    assert update.ok and "02.html" not in update.pages  # its body was kept
    image.write_bytes(png_of(60, 30))
    update = session.rebuild({image})
    assert update.ok and "02.html" in update.pages
    assert 'width="60" height="30"' in page.read_text(encoding="utf-8")


def test_the_index_page_follows_an_edited_chapters_marks(
    make_book: BookMaker, tmp_path: Path, sessions: list[Session]
) -> None:
    """Each chapter's index marks are kept with its AST; a save that adds one updates
    the index page, and the other chapter's kept marks stay in it."""
    root = make_book(
        {
            "book/01.md": "# 처음\n\n[텐서]{.index}를 쓴다.\n",
            "book/02.md": "# 둘째\n\n[파이프라인]{.index}을 쓴다.\n",
        }
    )
    session = Session(root, cache_dir=tmp_path / "cache")
    sessions.append(session)
    assert session.build().ok
    index = session.out / "genindex.html"
    assert "텐서" in index.read_text(encoding="utf-8")
    chapter = root / "book" / "01.md"
    chapter.write_text("# 처음\n\n[텐서]{.index}와 [활성값]{.index}을 쓴다.\n", encoding="utf-8")
    update = session.rebuild({chapter})
    assert update.ok and "genindex.html" in update.pages
    page = index.read_text(encoding="utf-8")
    assert "활성값" in page and "텐서" in page and "파이프라인" in page
