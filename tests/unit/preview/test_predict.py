"""Foretelling an edited chapter's AST (``preview/predict.py``): a guess checked later.

A foretold AST is only used when it equals pandoc's (the session compares
them), so these tests check that the guess is right where it should be, and
that nothing is foretold where the old paragraph cannot be found for sure.
"""

from __future__ import annotations

from kobook.check.proof import proof_reader
from kobook.parse.pandoc import READER, markdown_to_ast
from kobook.preview.predict import edited_paragraphs, foretold, same_but_automatic_ids

OLD = "# 장\n\n첫 문단.\n둘째 줄.\n\n둘째 문단.\n\n- 목록\n- 항목\n\n끝.\n"


def blocks(text: str) -> list[object]:
    return list(markdown_to_ast(text, reader=READER)["blocks"])


def test_the_paragraph_around_an_edit() -> None:
    new = OLD.replace("둘째 줄.", "고친 둘째 줄.")
    assert edited_paragraphs(OLD, new) == ("첫 문단.\n둘째 줄.", "첫 문단.\n고친 둘째 줄.")
    added = OLD.replace("둘째 문단.", "둘째 문단.\n\n새 문단.")
    # an insertion is placed as late as it can be: the paragraph after it comes along
    assert edited_paragraphs(OLD, added) == ("- 목록\n- 항목", "새 문단.\n\n- 목록\n- 항목")
    assert edited_paragraphs(OLD, OLD) is None
    assert edited_paragraphs(OLD, OLD.replace("# 장", "# 새 장")) is None  # the first line


def test_foretold_is_pandocs_ast() -> None:
    for new in [
        OLD.replace("둘째 줄.", "*고친* 둘째 줄."),
        OLD.replace("둘째 문단.", "둘째 문단.\n\n## 새 절\n\n새 문단."),
        OLD.replace("- 항목", "- 항목\n- 새 항목"),
        OLD.replace("\n\n둘째 문단.", ""),
    ]:
        told = foretold(OLD, blocks(OLD), new, READER)
        assert told is not None and told.blocks == blocks(new)
        assert told.headings == ("##" in new)


def test_nothing_is_foretold_where_the_old_paragraph_is_not_found_once() -> None:
    twice = "# 장\n\n같은 문단.\n\n같은 문단.\n"
    assert (
        foretold(twice, blocks(twice), twice.replace("같은 문단.\n", "다른 문단.\n", 1), READER)
        is None
    )
    # the old paragraph is not in the AST given (made from another text)
    other = OLD.replace("둘째 문단.", "다른 문단.")
    assert foretold(OLD, blocks(other), OLD.replace("둘째 문단.", "새 문단."), READER) is None


def test_same_but_automatic_ids_against_pandocs_proof_reader() -> None:
    """The build's reader and one without automatic ids on the same text: equal but for
    the ids; any other difference is one.  (The proof reads with the build's reader now,
    identifiers included: its AST is the build's.)"""
    assert proof_reader(READER) == READER
    text = "# 장\n\n## 절 {#explicit}\n\n[장]으로, [절](#explicit)로, [빈](#)으로.\n"
    build = markdown_to_ast(text, reader=READER)
    proof = markdown_to_ast(text, reader=READER + "-auto_identifiers")
    assert build != proof
    assert same_but_automatic_ids(build, proof)
    # "#" stands for a heading's id only (an explicit "[빈](#)" could pass for "#장": a
    # foretold AST's links to headings are the last AST's, made from the same text)
    nowhere = markdown_to_ast(text.replace("[빈](#)", "[빈](#nowhere)"), reader=READER)
    assert not same_but_automatic_ids(nowhere, proof)
    other = markdown_to_ast(text.replace("](#explicit)", "](#elsewhere)"), reader=READER)
    assert not same_but_automatic_ids(other, proof)
    explicit = markdown_to_ast(text.replace("{#explicit}", "{#other}"), reader=READER)
    assert not same_but_automatic_ids(explicit, proof)
    changed = markdown_to_ast(text.replace("[장]으로", "장으로"), reader=READER)
    assert not same_but_automatic_ids(changed, proof)
