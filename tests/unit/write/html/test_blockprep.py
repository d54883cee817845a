"""A chapter prepared for the site block by block (``write/html/blockprep.py``) is prepared
as a whole.

``kobook preview`` keeps each block as prepared (sanitized, then the site's
passes) and prepares only the blocks a save changed; what it gives must be
:func:`~kobook.write.html.writer.prepare`'s own blocks and warnings, in the same
order, whatever the blocks kept from before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kobook.errors import Diagnostic
from kobook.load import load_book
from kobook.model import Book, Doc
from kobook.parse.pandoc import markdown_to_ast
from kobook.write.html import blockprep
from kobook.write.html.blockprep import KeptPrepare
from kobook.write.html.writer import prepare
from tests.conftest import BookMaker

# Notes of both kinds, out of block order: the attribute note (an onclick= in block 4)
# comes first in the chapter's warnings, before the raw HTML's (block 2).
NOTES = """# 장 {number="3"}

앞 <script>alert("x")</script> 뒤

[링크](javascript:alert(1))와 [안쪽](#sec) 링크.

[글]{onclick="x"}와 <img src="a.png" onerror="alert(1)"> 그림.

::: callout-details
::: callout-title
답
:::
숨긴 *답*과 [글]{onclick="y"}.
:::

<div class="note">

열린 div 안의 문단

</div>

<script>alert("둘째")</script>

끝 문단.
"""

# An unclosed <script> drops every block after it: prepared whole.
UNCLOSED = """# 장

앞 문단.

<script>

var x = 1;

보이지 않을 문단.
"""

PAGES = {"sec": "02.html", "장": "01.html"}


def doc_of(make_book: BookMaker, markdown: str) -> tuple[Doc, Book]:
    root = make_book({"book/01.md": markdown}, metadata={"title": "책"})
    book = load_book(root)
    chapter = book.chapters[0]
    ast = markdown_to_ast(chapter.text)
    return Doc(chapter, ast["blocks"], ast.get("meta", {})), book


def shown(result: tuple[list[Any], list[Diagnostic]]) -> tuple[list[Any], list[tuple[Any, ...]]]:
    blocks, problems = result
    return blocks, [(d.code, d.message, d.location, d.hint) for d in problems]


@pytest.mark.parametrize("markdown", [NOTES, UNCLOSED], ids=["notes", "unclosed-script"])
def test_block_by_block_is_prepare(make_book: BookMaker, markdown: str) -> None:
    doc, book = doc_of(make_book, markdown)
    expected = shown(prepare(doc, book, PAGES))
    kept = KeptPrepare()
    backwards = Doc(doc.chapter, doc.blocks[::-1], doc.meta)
    kept.prepare(backwards, book, PAGES)  # blocks kept from another order first
    assert shown(kept.prepare(doc, book, PAGES)) == expected
    assert shown(kept.prepare(doc, book, PAGES)) == expected  # all from kept blocks


def test_the_notes_are_counted_and_ordered_as_for_the_whole_chapter(
    make_book: BookMaker,
) -> None:
    doc, book = doc_of(make_book, NOTES)
    _blocks, problems = KeptPrepare().prepare(doc, book, PAGES)
    messages = [p.message for p in problems]
    assert messages[0].startswith("removed attribute onclick= on <span> (2×)")
    assert any("<script> and its content (2×)" in m for m in messages)


def test_an_edit_prepares_only_its_block(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc, book = doc_of(make_book, NOTES)
    kept = KeptPrepare()
    kept.prepare(doc, book, PAGES)
    prepared: list[Any] = []
    alone = blockprep.prepare_alone

    def counted(block: Any, *args: Any) -> Any:
        prepared.append(block)
        return alone(block, *args)

    monkeypatch.setattr(blockprep, "prepare_alone", counted)
    edited_md = NOTES.replace("끝 문단.", "고친 끝 문단.")
    edited, _book = doc_of(make_book, edited_md)
    assert shown(kept.prepare(edited, book, PAGES)) == shown(prepare(edited, book, PAGES))
    assert len(prepared) == 1
    # Another map of ids to pages: every block is prepared again (links may point elsewhere).
    prepared.clear()
    kept.prepare(edited, book, {**PAGES, "sec": "03.html"})
    assert len(prepared) == len(edited.blocks)


def test_a_chapter_left_dropping_is_not_kept(make_book: BookMaker) -> None:
    doc, book = doc_of(make_book, UNCLOSED)
    blocks, _problems = KeptPrepare().prepare(doc, book, PAGES)
    assert "보이지 않을" not in str(blocks)
    assert Path(doc.chapter.path).name == "01.md"
