"""The index's marks (transform/index_terms.py): spans, \\index{} and glossary terms."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kobook.load import load_book
from kobook.model import Doc
from kobook.parse.ast import iter_nodes
from kobook.parse.pandoc import markdown_to_ast
from kobook.transform.context import Context
from kobook.transform.index_terms import mark_index
from tests.conftest import BookMaker


def marks(doc: Doc) -> list[tuple[str, dict[str, str]]]:
    found = []
    for node in iter_nodes(doc.blocks):
        c: Any = node.get("c")
        if node["t"] == "Span" and "index" in c[0][1]:
            found.append((c[0][0], dict(c[0][2])))
    return found


def run(root: Path, text: str) -> tuple[Doc, Context]:
    book = load_book(root)
    chapter = book.chapters[0]
    ctx = Context(book=book)
    doc = Doc(chapter, markdown_to_ast(text)["blocks"])
    return mark_index(doc, ctx), ctx


def test_spans_and_latex_index_commands_become_marks(make_book: BookMaker) -> None:
    text = (
        "# 장\n\n[ZeRO]{.index}와 [병렬화]{.idx term='병렬화!텐서'} 그리고"
        " 버킷\\index{버킷}과 \\index{nabla@∇ 연산자}.\n"
    )
    root = make_book({"book/01.md": text})
    doc, ctx = run(root, text)
    found = marks(doc)
    assert [kv["term"] for _, kv in found] == ["ZeRO", "병렬화!텐서", "버킷", "∇ 연산자"]
    assert found[3][1]["sort"] == "nabla"
    assert all(ident.startswith("ix-") for ident, _ in found)
    assert len({ident for ident, _ in found}) == 4
    assert not ctx.diagnostics


def test_an_unreadable_entry_is_reported_not_dropped_in_silence(make_book: BookMaker) -> None:
    text = "# 장\n\n[]{.index} 그리고 \\index{용어|see{다른 용어}}.\n"
    root = make_book({"book/01.md": text})
    doc, ctx = run(root, text)
    assert marks(doc) == []
    assert [d.code for d in ctx.diagnostics] == ["IDX001", "IDX001"]
    assert all(d.location.line == 3 for d in ctx.diagnostics)


def test_an_authors_id_that_no_engine_reads_stays_beside_a_mark(make_book: BookMaker) -> None:
    text = "# 장\n\n[용어]{#한글-id .index}.\n"
    root = make_book({"book/01.md": text})
    doc, _ = run(root, text)
    ids = [n["c"][0][0] for n in iter_nodes(doc.blocks) if n["t"] == "Span"]
    assert "한글-id" in ids  # the authors' links still land
    assert [kv["term"] for _, kv in marks(doc)] == ["용어"]
    assert marks(doc)[0][0].startswith("ix-")


def test_glossary_terms_are_marked_at_their_first_use_in_a_chapter(make_book: BookMaker) -> None:
    text = (
        "# 장\n\n그래디언트 누적은 그래디언트를 더한다.\n\n## 절\n\n"
        "빅그래디언트는 아니다. 그래디언트 누적을 다시 쓴다.\n"
    )
    root = make_book(
        {
            "book/01.md": text,
            "glossary.yaml": "gradient: 그래디언트\ngradient accumulation: 그래디언트 누적\n",
        },
        metadata={"title": "책", "index": {"glossary": True}},
    )
    doc, _ = run(root, text)
    found = [(kv["term"], kv["original"]) for _, kv in marks(doc)]
    # Each once in the chapter; 그래디언트 inside 그래디언트 누적 is the longer term's.
    assert found == [("그래디언트 누적", "gradient accumulation"), ("그래디언트", "gradient")]
    # The mark holds the word it stands before: an empty box at a line's end made
    # WeasyPrint's justified line loose.
    para = doc.blocks[1]["c"]
    assert para[0]["t"] == "Span" and para[0]["c"][1] == [{"t": "Str", "c": "그래디언트"}]
    assert para[1] == {"t": "Space"}


def test_no_glossary_marks_unless_asked(make_book: BookMaker) -> None:
    text = "# 장\n\n그래디언트를 더한다.\n"
    root = make_book({"book/01.md": text, "glossary.yaml": "gradient: 그래디언트\n"})
    doc, _ = run(root, text)
    assert marks(doc) == []


def test_an_empty_mark_takes_the_word_after_it(make_book: BookMaker) -> None:
    """``[]{.index term=…}그래디언트를``: the mark holds the word, so no empty box is left
    at a line's end (\\index{} makes an empty mark too)."""
    text = '# 장\n\n[]{.index term="그래디언트"}그래디언트를 쓴다. \\index{버킷}버킷이다.\n'
    root = make_book({"book/01.md": text})
    doc, _ctx = run(root, text)
    held = [
        node["c"][1]
        for node in iter_nodes(doc.blocks)
        if node["t"] == "Span" and "index" in node["c"][0][1]
    ]
    assert held == [[{"t": "Str", "c": "그래디언트를"}], [{"t": "Str", "c": "버킷이다."}]]
