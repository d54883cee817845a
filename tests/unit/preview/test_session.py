"""The preview session: incremental rebuilds give the full build's site, byte for byte.

Each test builds a tiny book once, changes its sources the way a translator
would, rebuilds with the changed paths, and compares every file of the
preview folder with a fresh ``kobook build html`` of the same sources.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import kobook
from kobook.preview import Session
from kobook.transform import PASSES
from kobook.write.shared.setup import print_setup
from tests.checks import search_records
from tests.conftest import REPO, BookMaker

PIXEL = REPO / "tests" / "data" / "pixel.png"


def site_files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` but the chapter PDFs: relative path → bytes."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix != ".pdf"
    }


def assert_same_as_full_build(session: Session, tmp: Path) -> None:
    """The preview folder holds exactly the files of a fresh full HTML build (its
    search index too, once the one being made in the background is done)."""
    session._search_index.wait()
    out = tmp / "reference"
    shutil.rmtree(out, ignore_errors=True)
    kobook.build(session.root, ["html"], out=out, cache_dir=tmp / "ref-cache", offline=True)
    expected = site_files(out / "html")
    actual = site_files(session.out)
    assert sorted(actual) == sorted(expected)
    differing = [name for name in expected if expected[name] != actual[name]]
    assert differing == []


def edit(path: Path, old: str, new: str) -> Path:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def start(root: Path, tmp_path: Path, **options: object) -> Session:
    session = Session(root, cache_dir=tmp_path / "cache", **options)  # type: ignore[arg-type]
    first = session.build()
    assert first.ok, first.error
    assert first.mode == "full"
    return session


THREE = {
    "book/01.md": "# 처음\n\n첫 장의 본문입니다.\n\n![고양이](images/a.png){#fig:a}\n",
    "book/02.md": "# 둘째\n\n둘째 장의 본문입니다.\n\n## 절 하나\n\n![개](images/a.png){#fig:b}\n",
    "book/03.md": "# 셋째\n\n@fig:b를 보세요. 셋째 장입니다.\n",
}


@pytest.fixture
def three(make_book: BookMaker) -> Path:
    return make_book(
        dict(THREE),
        metadata={"title": "작은 책", "number-by-chapter": False},
        images=["images/a.png"],
    )


def test_a_paragraph_edit_rebuilds_one_chapter(three: Path, tmp_path: Path) -> None:
    session = start(three, tmp_path)
    assert (session.out / "index.html").is_file()
    update = session.rebuild({edit(three / "book/02.md", "둘째 장의 본문", "고친 둘째 장의 본문")})
    assert update.ok, update.error
    assert update.mode == "incremental"
    assert update.pages == ["02.html"]
    assert update.chapters == ["02"]
    assert session.stages.passes.ran == len(PASSES)  # one chapter's passes ran, the others replayed
    assert "고친 둘째 장의 본문" in (session.out / "02.html").read_text(encoding="utf-8")
    assert_same_as_full_build(session, tmp_path)
    assert any("고친" in r["content"] for r in search_records(session.out))  # found by search
    # A save that changes nothing writes nothing.
    assert session.rebuild({three / "book/02.md"}).pages == []


def test_a_heading_title_change_updates_the_toc_everywhere(three: Path, tmp_path: Path) -> None:
    session = start(three, tmp_path)
    update = session.rebuild({edit(three / "book/02.md", "## 절 하나", "## 새 절 제목")})
    assert update.ok, update.error
    assert "index.html" in update.pages and "02.html" in update.pages
    update = session.rebuild({edit(three / "book/01.md", "# 처음", "# 새로운 처음")})
    assert {"index.html", "01.html", "02.html", "03.html"} <= set(update.pages)
    assert "새로운 처음" in (session.out / "03.html").read_text(encoding="utf-8")  # sidebar
    assert_same_as_full_build(session, tmp_path)


def test_a_new_figure_renumbers_later_chapters_and_their_references(
    three: Path, tmp_path: Path
) -> None:
    session = start(three, tmp_path)
    assert "그림\u00a02" in (session.out / "03.html").read_text(encoding="utf-8")
    new = "![새 그림](images/a.png){#fig:new}\n\n첫 장의 본문"
    update = session.rebuild({edit(three / "book/01.md", "첫 장의 본문", new)})
    assert update.ok, update.error
    assert {"01.html", "02.html", "03.html"} <= set(update.pages)
    assert "그림\u00a03" in (session.out / "03.html").read_text(encoding="utf-8")
    assert_same_as_full_build(session, tmp_path)


def test_an_edited_chapter_renumbered_later_is_made_again_from_its_passes(
    three: Path, tmp_path: Path
) -> None:
    """A rebuild keeps no AST of its edited chapter's passes; when a later edit elsewhere
    renumbers that chapter's references, the pass before is run again to make its input."""
    session = start(three, tmp_path)
    update = session.rebuild({edit(three / "book/03.md", "셋째 장입니다", "고친 셋째 장입니다")})
    assert update.ok, update.error
    assert session.stages.passes.entries[(PASSES[0][0], "03")].out is None  # not kept
    new = "![새 그림](images/a.png){#fig:new}\n\n첫 장의 본문"
    update = session.rebuild({edit(three / "book/01.md", "첫 장의 본문", new)})
    assert update.ok, update.error
    assert session.stages.passes.remade > 0
    page = (session.out / "03.html").read_text(encoding="utf-8")
    assert "그림\u00a03" in page and "고친 셋째 장입니다" in page
    assert_same_as_full_build(session, tmp_path)


def test_an_edited_paragraph_is_foretold_and_checked_against_pandoc(
    make_book: BookMaker, tmp_path: Path
) -> None:
    """The page is made from the edited paragraph spliced into the last AST while pandoc
    parses the chapter; an AST pandoc would not give (the paragraph leans on a link
    definition elsewhere in the chapter) is never shown: all is made again from pandoc's."""
    chapter = (
        "# 처음\n\n첫 문단입니다.\n\n둘째 문단입니다.\n\n셋째 문단입니다.\n\n"
        "[정의]: https://example.com/def\n"
    )
    root = make_book({"book/01.md": chapter}, metadata={"title": "작은 책"})
    session = start(root, tmp_path)
    source = root / "book/01.md"
    update = session.rebuild({edit(source, "둘째 문단입니다.", "고친 둘째 문단입니다.")})
    assert update.ok, update.error
    assert session.stages.foretold == (1, 1)
    assert_same_as_full_build(session, tmp_path)
    update = session.rebuild({edit(source, "셋째 문단입니다.", "[정의]를 보는 셋째 문단.")})
    assert update.ok, update.error
    assert session.stages.foretold == (1, 0)  # alone, "[정의]" is no link
    page = (session.out / "ch01.html").read_text(encoding="utf-8")
    assert 'href="https://example.com/def"' in page
    assert_same_as_full_build(session, tmp_path)
    # Made from pandoc's AST, and kept: the next edit is foretold from it.
    update = session.rebuild({edit(source, "첫 문단입니다.", "고친 첫 문단입니다.")})
    assert session.stages.foretold == (1, 1)
    assert_same_as_full_build(session, tmp_path)


def test_the_edited_paragraphs_are_read_while_the_checks_run(
    make_book: BookMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a chapter with fixes the checks hand over the fixed text before they end: its
    edited paragraphs are foretold then, in the rebuild's thread (pandoc reads them beside
    the checks), and the parse stage takes what was foretold."""
    import threading

    from kobook.preview import stages

    chapter = "# 처음\n\nＧＰＵ를 쓴다.\n\n둘째 문단입니다.\n"
    root = make_book({"book/01.md": chapter}, metadata={"title": "작은 책"})
    session = start(root, tmp_path)
    threads: list[str] = []
    real = stages.foretold

    def where(*args: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args)

    monkeypatch.setattr(stages, "foretold", where)
    update = session.rebuild({edit(root / "book/01.md", "둘째 문단입니다.", "고친 문단입니다.")})
    assert update.ok, update.error
    assert session.stages.foretold == (1, 1)
    assert len(threads) == 1 and threads[0].startswith("kobook-parse")
    assert "GPU를 쓴다" in (session.out / "ch01.html").read_text(encoding="utf-8")
    assert_same_as_full_build(session, tmp_path)


def test_a_foretold_ast_is_checked_against_the_proofs_parse(
    make_book: BookMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a chapter with fixes, pandoc parses the fixed text for the proof anyway: that
    parse (which makes no automatic ids) is what a foretold AST is compared with, so
    the chapter is not parsed a third time.  A heading in the edited paragraph, or a
    link that leans on one, sends it to pandoc's own parse."""
    from kobook import parse

    chapter = (
        "# 처음\n\nＧＰＵ을 쓴다.\n\n둘째 문단입니다.\n\n## 같은 절\n\n셋째 문단입니다.\n\n"
        "## 같은 절\n\n넷째 문단입니다.\n"
    )
    files = {"book/01.md": chapter, "book/02.md": "# 둘째\n\n본문.\n"}
    root = make_book(files, metadata={"title": "작은 책"})
    session = start(root, tmp_path)
    source = root / "book/01.md"
    parsed: list[str] = []
    real = parse.parse_chapter

    def counted(chapter: Any, *args: Any, **options: Any) -> Any:
        parsed.append(chapter.text)
        return real(chapter, *args, **options)

    monkeypatch.setattr(parse, "parse_chapter", counted)
    update = session.rebuild({edit(source, "둘째 문단입니다.", "고친 둘째 문단입니다.")})
    assert update.ok, update.error
    assert session.stages.foretold == (1, 1) and parsed == []
    assert "GPU를 쓴다" in (session.out / "01.html").read_text(encoding="utf-8")
    assert_same_as_full_build(session, tmp_path)
    # "[처음]" links to the heading (its automatic id): alone it is text, and the proof's
    # parse points it at "#": made again from pandoc's own parse.
    parsed.clear()  # (the reference build parses too)
    update = session.rebuild({edit(source, "셋째 문단입니다.", "[처음]을 보는 셋째 문단.")})
    assert update.ok, update.error
    assert session.stages.foretold == (1, 0) and len(parsed) == 1
    assert 'href="#처음"' in (session.out / "01.html").read_text(encoding="utf-8")
    assert_same_as_full_build(session, tmp_path)
    # A new heading's id depends on the others (the second "같은 절" is "같은-절-1"):
    # compared with pandoc's own parse.
    parsed.clear()
    update = session.rebuild({edit(source, "넷째 문단입니다.", "## 같은 절\n\n넷째 문단.")})
    assert update.ok, update.error
    assert session.stages.foretold == (1, 0) and len(parsed) == 1
    assert 'id="같은-절-2"' in (session.out / "01.html").read_text(encoding="utf-8")
    assert_same_as_full_build(session, tmp_path)


def test_a_title_edit_makes_the_pages_and_a_setting_edit_everything(
    three: Path, tmp_path: Path
) -> None:
    """A title is only shown (``model.config.SHOWN_ONLY``): every page is made again and
    no pass runs; a setting the chapters are made from rebuilds everything."""
    session = start(three, tmp_path)
    update = session.rebuild({edit(three / "metadata.yaml", "작은 책", "큰 책")})
    assert update.ok, update.error
    assert update.mode == "incremental" and session.stages.passes.ran == 0
    assert {"index.html", "01.html", "02.html", "03.html"} <= set(update.pages)
    assert "큰 책" in (session.out / "02.html").read_text(encoding="utf-8")
    assert_same_as_full_build(session, tmp_path)
    setting = edit(three / "metadata.yaml", "number-by-chapter: false", "number-by-chapter: true")
    update = session.rebuild({setting})
    assert update.ok, update.error
    assert update.mode == "full" and session.stages.passes.ran > 0
    assert_same_as_full_build(session, tmp_path)


def test_a_title_edit_keeps_the_fixes_and_indexes_search_behind(
    three: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each chapter's fixes are kept by its text and the check's settings: an edit of the
    title checks no chapter again, an edit of ``check:`` checks them all; the search
    index is made in the background, the last one serving meanwhile."""
    from kobook.preview import stages

    english = "\n\nThis whole paragraph was left in English and nobody translated it yet.\n"
    chapter = three / "book/02.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") + english, encoding="utf-8")
    session = start(three, tmp_path)
    checked: list[str] = []
    normalizing = stages.NormalizingChapter
    monkeypatch.setattr(
        stages,
        "NormalizingChapter",
        lambda chapter, *args, **options: (
            checked.append(chapter.id) or normalizing(chapter, *args, **options)
        ),
    )
    indexed: list[list[str]] = []
    refresh = session._search_index.refresh
    monkeypatch.setattr(
        session._search_index,
        "refresh",
        lambda site, pages, lang: indexed.append(pages) or refresh(site, pages, lang),
    )
    update = session.rebuild({edit(three / "metadata.yaml", "작은 책", "큰 책")})
    assert update.ok and update.mode == "incremental"
    assert checked == []  # no chapter checked again
    assert indexed == [["01.html", "02.html", "03.html"]]  # asked for, not waited for
    assert "KO011" in {d.code for d in update.findings["02.html"]}
    assert_same_as_full_build(session, tmp_path)
    metadata = three / "metadata.yaml"
    metadata.write_text(
        metadata.read_text(encoding="utf-8") + "check:\n  ignore: [KO011]\n", encoding="utf-8"
    )
    update = session.rebuild({metadata})
    assert update.ok and update.mode == "full"
    assert sorted(set(checked)) == ["01", "02", "03"]  # the settings changed: all again
    assert indexed[-1] == ["01.html", "02.html", "03.html"]  # a full rebuild's: behind too
    assert "KO011" not in {d.code for d in update.findings["02.html"]}


def test_the_sites_own_style_sheet_is_all_a_style_edit_rebuilds(
    three: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``templates/html/extra.css`` (made, then changed) is copied into the site; no
    chapter is checked, parsed or transformed again."""
    from kobook.preview import stages

    session = start(three, tmp_path)
    ran: list[str] = []
    monkeypatch.setattr(stages.PreviewStages, "forget", lambda self: ran.append("forget"))
    css = three / "templates" / "html" / "extra.css"
    css.parent.mkdir(parents=True)
    for rule in ("p { line-height: 1.9; }\n", "p { line-height: 2; }\n"):
        css.write_text(rule, encoding="utf-8")
        update = session.rebuild({css})
        assert update.ok, update.error
        assert (update.mode, update.pages, update.chapters) == (
            "incremental",
            ["assets/extra.css"],
            [],
        )
        assert (session.out / "assets" / "extra.css").read_text(encoding="utf-8") == rule
        assert session.stages.passes.ran == 0  # every pass replayed
    assert ran == []
    assert_same_as_full_build(session, tmp_path)


def test_a_replaced_image_is_copied(three: Path, tmp_path: Path) -> None:
    session = start(three, tmp_path)
    image = three / "images/a.png"
    image.write_bytes(PIXEL.read_bytes() + b"\0")  # other bytes, same name
    update = session.rebuild({image})
    assert update.ok, update.error
    assert update.pages == ["images/a.png"]
    assert_same_as_full_build(session, tmp_path)


def test_chapter_files_added_and_removed(three: Path, tmp_path: Path) -> None:
    session = start(three, tmp_path)
    added = three / "book/04.md"
    added.write_text("# 넷째\n\n새 장입니다. @fig:a를 보세요.\n", encoding="utf-8")
    update = session.rebuild({added})
    assert update.ok, update.error
    assert {"04.html", "03.html", "index.html"} <= set(update.pages)
    assert_same_as_full_build(session, tmp_path)
    added.unlink()
    update = session.rebuild({added})
    assert update.ok, update.error
    assert "04.html" in update.pages and not (session.out / "04.html").exists()
    assert_same_as_full_build(session, tmp_path)


SPLIT = (
    "# 한 파일 책\n\n머리말입니다.\n\n"
    "## 첫 장\n\n첫 장 본문입니다.\n\n![그림](images/a.png){#fig:one}\n\n"
    "## 둘째 장\n\n둘째 장 본문입니다. @fig:one을 보세요.\n\n"
    "[없는 링크](https://example.invalid/x.html)\n"
)


def test_a_split_single_file_book(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book({"book.md": SPLIT}, images=["images/a.png"])
    session = start(root, tmp_path)
    pages = {p.name for p in session.out.glob("*.html")}
    assert {"ch01.html", "ch02.html"} <= pages
    source = root / "book.md"
    update = session.rebuild({edit(source, "둘째 장 본문", "고친 둘째 장 본문")})
    assert update.ok, update.error
    assert update.pages == ["ch02.html"] and update.chapters == ["ch02"]
    assert_same_as_full_build(session, tmp_path)
    # Lines added to the first chapter move the second one down its file.
    update = session.rebuild(
        {edit(source, "첫 장 본문입니다.", "첫 장 본문입니다.\n\n새 문단.\n\n또.")}
    )
    assert update.ok, update.error
    assert update.pages == ["ch01.html"]
    assert_same_as_full_build(session, tmp_path)


def test_a_broken_edit_keeps_the_last_good_pages(three: Path, tmp_path: Path) -> None:
    session = start(three, tmp_path)
    page = session.out / "03.html"
    before = page.read_bytes()
    chapter = edit(three / "book/03.md", "@fig:b를", "@fig:nothing을")
    update = session.rebuild({chapter})
    assert not update.ok and update.pages == []
    assert update.error is not None
    assert update.error.code == "REF001"
    assert update.error.location.file == chapter and update.error.location.line == 3
    assert page.read_bytes() == before
    # The next good save is incremental again.
    update = session.rebuild({edit(chapter, "@fig:nothing을", "@fig:a를")})
    assert update.ok, update.error
    assert update.mode == "incremental" and update.pages == ["03.html"]
    assert_same_as_full_build(session, tmp_path)


def test_broken_metadata_and_missing_images_are_errors(three: Path, tmp_path: Path) -> None:
    session = start(three, tmp_path)
    metadata = three / "metadata.yaml"
    good = metadata.read_text(encoding="utf-8")
    metadata.write_text(good + "subtitle: [unclosed\n", encoding="utf-8")
    update = session.rebuild({metadata})
    assert update.error is not None and update.error.location.file == metadata
    assert update.error.location.line > 0
    metadata.write_text(good, encoding="utf-8")
    assert session.rebuild({metadata}).ok
    chapter = edit(three / "book/02.md", "images/a.png", "images/missing.png")
    update = session.rebuild({chapter})
    assert update.error is not None and update.error.code.startswith("IMG")
    assert update.error.location.file == chapter


@pytest.mark.parametrize(
    ("fix", "code"),
    [("[링크](https://evil.example)", None), ("@fig:nothing", "REF001")],
    ids=["link", "unknown-reference"],
)
def test_a_fix_the_proof_refuses_is_never_shown(
    three: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fix: str, code: str | None
) -> None:
    """The page is built from the fixed text while pandoc proves it; a refused fix (here a
    rule turning 링크 into syntax) builds again from the proven text, even when the
    guess does not build at all."""
    from kobook.check import runner as check_runner
    from kobook.check.model import Finding, Rule
    from kobook.check.rules import RULES

    def syntax(doc: object, settings: object) -> Iterator[Finding]:
        text: str = doc.text  # type: ignore[attr-defined]
        start = text.find("링크")
        if start >= 0:
            yield Finding("KO006", start, start + 2, "evil", fix)

    monkeypatch.setattr(
        check_runner, "RULES", [*RULES, Rule("KO006", "evil", "warning", "fix", syntax)]
    )
    session = start(three, tmp_path)
    update = session.rebuild({edit(three / "book/02.md", "둘째 장의 본문", "링크 둘째 장의 본문")})
    assert update.ok, update.error
    assert update.pages == ["02.html"]
    page = (session.out / "02.html").read_text(encoding="utf-8")
    assert "링크 둘째 장의 본문" in page and "evil.example" not in page
    [refused] = [d for d in update.findings["02.html"] if d.code == "CHK004"]
    assert "KO006 fix not applied" in refused.message and refused.location.line == 3
    assert_same_as_full_build(session, tmp_path)


def test_findings_are_given_per_page(three: Path, tmp_path: Path) -> None:
    session = start(three, tmp_path)
    english = "\n\nThis whole paragraph was left in English and nobody translated it yet.\n"
    chapter = three / "book/02.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") + english, encoding="utf-8")
    update = session.rebuild({chapter})
    assert update.ok, update.error
    codes = {d.code for d in update.findings["02.html"]}
    assert "KO011" in codes
    assert all(d.location.file == chapter for d in update.findings["02.html"])
    assert "KO011" not in {d.code for d in update.findings["01.html"]}


def test_is_source(three: Path, tmp_path: Path) -> None:
    session = start(three, tmp_path)
    assert session.is_source(three / "book/01.md")
    assert session.is_source(three / "metadata.yaml")
    assert not session.is_source(session.out / "01.html")
    assert not session.is_source(three / ".kobook-cache/x")
    assert not session.is_source(three / "book/.01.md.swp")
    assert not session.is_source(three / "book/01.md~")
    assert not session.is_source(three / "preview.log")  # kobook preview > preview.log
    assert not session.is_source(tmp_path / "elsewhere.md")


@pytest.mark.slow
def test_the_chapter_pdf_follows_the_edited_chapter(three: Path, tmp_path: Path) -> None:
    session = start(three, tmp_path, pdf=True)
    try:
        session.rebuild({edit(three / "book/02.md", "둘째 장의 본문", "고친 본문")})
        update = session.rebuild_pdf()
        assert update.ok, update.error
        assert update.pdf == "02.pdf"
        pdf = session.out / "02.pdf"
        assert pdf.read_bytes().startswith(b"%PDF")
        assert not list(session.out.glob(".*.tmp"))
        # Nothing changed: not typeset again.
        assert session.rebuild_pdf().pdf is None
        # Numbered as in the whole book: chapter 2's figure is 그림 2 (book-wide numbering).
        from tests.checks import pdf_pages

        assert any("그림 2" in page for page in pdf_pages(pdf))
    finally:
        session.close()


class DiesWhenUnpickled:
    """A job part that ends the PDF process as it reads it (a crash mid-typesetting)."""

    def __reduce__(self) -> tuple[object, tuple[int]]:
        import os

        return (os._exit, (3,))


@pytest.mark.slow
def test_the_chapter_pdf_is_typeset_in_a_warm_process_that_survives(
    three: Path, tmp_path: Path
) -> None:
    """``--pdf`` typesets beside the pages, in a process of its own: the terminal's
    Ctrl-C does not reach it, its build errors come back with their code, and a process
    that died is reported (PREVIEW005) and started again for the next PDF."""
    import os

    from kobook.errors import KobookError

    session = start(three, tmp_path, pdf=True)
    typesetter = session._typesetter
    assert typesetter is not None
    try:
        first = typesetter.pid
        assert first is not None and first != os.getpid()
        # Ctrl-C goes to the terminal's foreground process group: not the PDF process's.
        assert os.getpgid(first) != os.getpgid(0)
        session.rebuild({edit(three / "book/01.md", "첫 장의", "고친 첫 장의")})
        update = session.rebuild_pdf()
        assert update.ok, update.error
        assert update.pdf == "01.pdf" and (session.out / "01.pdf").is_file()
        assert typesetter.pid == first

        # A character no font has: the process's GLYPH001 error, as in-process builds give it.
        session.rebuild({edit(three / "book/01.md", "고친 첫 장의", "고친 \U000f0041 첫 장의")})
        update = session.rebuild_pdf()
        assert update.error is not None and update.error.code == "GLYPH001"
        assert update.error.location.file is not None

        good = session.good
        assert good is not None
        with pytest.raises(KobookError) as stopped:
            typesetter.typeset(
                "weasyprint",
                DiesWhenUnpickled(),  # type: ignore[arg-type]
                good.docs[:1],
                session.out / "x.pdf",
                session._cache(),
                print_setup(good.book),
            )
        assert stopped.value.code == "PREVIEW005"
        assert typesetter.pid is None
        session.rebuild(
            {edit(three / "book/01.md", "고친 \U000f0041 첫 장의", "다시 고친 첫 장의")}
        )
        update = session.rebuild_pdf()
        assert update.ok, update.error
        assert update.pdf == "01.pdf"
        assert typesetter.pid not in (None, first)
    finally:
        session.close()
    assert typesetter.pid is None
