"""Raw HTML blocks read into the AST for Typst (``write/shared/passes/rawhtml.py``)."""

from __future__ import annotations

from typing import Any

from kobook.parse.ast import iter_nodes, stringify
from kobook.write.shared.passes import read_html_blocks

PRE = (
    "<pre><code>match <em>VALUE</em> {\n"
    "    <em>PATTERN</em> =&gt; <em>EXPRESSION</em>,\n"
    "}</code></pre>"
)


def raw(html: str) -> dict[str, Any]:
    return {"t": "RawBlock", "c": ["html", html]}


def para(text: str) -> dict[str, Any]:
    return {"t": "Para", "c": [{"t": "Str", "c": text}]}


def test_a_pre_block_becomes_a_code_block_in_its_place() -> None:
    blocks = [para("앞"), raw(PRE), para("뒤")]
    out = read_html_blocks(blocks)
    assert [b["t"] for b in out] == ["Para", "CodeBlock", "Para"]
    assert out[1]["c"][1] == "match VALUE {\n    PATTERN => EXPRESSION,\n}"


def test_blocks_inside_lists_and_tables_of_html() -> None:
    table = "<table><tr><th>열</th></tr><tr><td>칸 하나</td></tr></table>"
    item = {"t": "BulletList", "c": [[raw("<p>목록 안의 문단</p>")]]}
    out = read_html_blocks([item, raw(table)])
    assert stringify(out[0]["c"][0]) == "목록 안의 문단"
    cells = [stringify(n["c"]) for n in iter_nodes(out[1]["c"]) if n["t"] == "Plain"]
    assert out[1]["t"] == "Table" and cells == ["열", "칸 하나"]


def test_markup_alone_stays_and_no_pandoc_run_without_text() -> None:
    blocks = [raw("<br>"), raw('<div class="x"></div>'), para("글")]
    assert read_html_blocks(blocks) == [raw("<br>"), raw('<div class="x"></div>'), para("글")]


def test_images_become_their_description_and_file_links_their_text() -> None:
    html = (
        '<p>사진 <img src="/etc/shadow.png" alt="고양이"> '
        '<a href="../../secret.txt">파일</a> <a href="https://example.org">웹</a></p>'
    )
    out = read_html_blocks([{"t": "Div", "c": [["", [], []], [raw(html)]]}])
    kinds = [node["t"] for node in iter_nodes(out)]
    assert "Image" not in kinds
    links = [node["c"][2][0] for node in iter_nodes(out) if node["t"] == "Link"]
    assert links == ["https://example.org"]
    assert " ".join(stringify(out).split()) == "사진 고양이 파일 웹"
