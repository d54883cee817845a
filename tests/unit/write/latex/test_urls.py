"""Web addresses written as text break at their seams in XeLaTeX (latex/passes.py)."""

from __future__ import annotations

from kobook.write.latex.passes import breakable_urls


def test_a_text_address_gets_break_points_at_its_seams() -> None:
    address = "https://github.com/huggingface/picotron/blob/main/tensor_parallel.py"
    blocks = [{"t": "Para", "c": [{"t": "Str", "c": f"주소는{address}"}]}]
    inlines = breakable_urls(blocks)[0]["c"]
    assert "".join(i["c"] for i in inlines if i["t"] == "Str") == f"주소는{address}"
    breaks = [i for i in inlines if i["t"] == "RawInline"]
    assert breaks and all(i["c"] == ["latex", "\\allowbreak{}"] for i in breaks)
    pieces = [i["c"] for i in inlines if i["t"] == "Str"]
    assert "https://" in pieces[1] and pieces[-1] == ".py"  # a piece starts at a dot
    assert any(p.startswith("_parallel") for p in pieces)


def test_links_code_and_plain_words_are_left_alone() -> None:
    link = {"t": "Link", "c": [["", [], []], [{"t": "Str", "c": "https://a.b/c"}], ["x", ""]]}
    code = {"t": "Code", "c": [["", [], []], "https://a.b/c"]}
    word = {"t": "Str", "c": "a/b.c"}
    blocks = [{"t": "Para", "c": [link, code, word]}]
    assert breakable_urls(blocks) == blocks
