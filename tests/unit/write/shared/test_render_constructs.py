"""The transforms of the constructs dialects emit (details, takeaway, listings, embeds)
and authors with affiliations, on tiny books through load → parse → transform."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kobook.cache import Cache
from kobook.errors import KobookError
from kobook.load import load_book
from kobook.load.config import load_config
from kobook.model import Doc
from kobook.normalize import normalize_book
from kobook.parse import parse_book
from kobook.parse.ast import iter_nodes, keyval, stringify
from kobook.transform import Context, transform_book
from kobook.write.shared import passes

BookMaker = Callable[..., Path]
NBSP = "\u00a0"


def run(
    make_book: BookMaker, text: str, metadata: dict[str, object] | None = None, **files: str
) -> tuple[list[Doc], Context]:
    root = make_book({"book/01.md": text, **files}, metadata=metadata or {"title": "책"})
    book = load_book(root)
    normalize_book(book)
    docs = parse_book(book, Cache(None))
    return transform_book(book, docs, keep_going=True)


def divs(docs: list[Doc], cls: str) -> list[dict[str, Any]]:
    return [
        n for d in docs for n in iter_nodes(d.blocks) if n["t"] == "Div" and cls in n["c"][0][1]
    ]


def text(value: Any) -> str:
    return stringify(value).replace(NBSP, " ")


def test_details_become_a_details_callout_with_a_markdown_summary(make_book: BookMaker) -> None:
    docs, _ = run(
        make_book,
        '# 장\n\n::: {.details summary="**답** 보기"}\n정답.\n\n::: {.details}\n안쪽.\n:::\n:::\n',
    )
    boxes = divs(docs, "callout-details")
    assert len(boxes) == 2
    title = boxes[0]["c"][1][0]
    assert "callout-title" in title["c"][0][1]
    assert title["c"][1][0]["c"][0]["t"] == "Strong"  # **답** parsed
    assert text(title) == "답 보기"
    assert text(boxes[1]["c"][1][0]) == "자세히"  # no summary: the language's word
    html = passes.details_html(docs[0].blocks)
    raws = [n["c"][1] for n in iter_nodes(html) if n["t"] == "RawBlock"]
    assert raws.count('<details class="details">') == 2 and raws.count("</details>") == 2


@pytest.mark.parametrize(
    ("lang", "word"),
    [
        ("ko", "핵심"),
        ("en", "Takeaway"),
        ("zh-Hans", "要点"),
        ("zh-Hant", "要點"),
        ("ja", "ポイント"),
    ],
)
def test_takeaway_callout_in_each_language(make_book: BookMaker, lang: str, word: str) -> None:
    docs, _ = run(
        make_book, "# 장\n\n::: {.callout-takeaway}\n요점.\n:::\n", {"title": "t", "lang": lang}
    )
    (box,) = divs(docs, "callout-takeaway")
    assert text(box["c"][1][0]) == word


def test_listing_with_printed_number_file_and_markdown_caption(make_book: BookMaker) -> None:
    docs, ctx = run(
        make_book,
        "# 장\n\n@lst:hi를 보라.\n\n"
        '``` {#lst:hi .rust listing="1-1" filename="src/a_b.rs" caption="*Cargo*의 `x`"}\n'
        "fn main() {}\n```\n",
    )
    (listing,) = divs(docs, "listing")
    assert listing["c"][0][0] == "lst:hi" and keyval(listing["c"][0], "number") == "1-1"
    caption, file_line, code = listing["c"][1]
    assert text(caption) == "예제 1-1. Cargo의 x"
    assert [n["t"] for n in iter_nodes(caption) if n["t"] in ("Emph", "Code")] == ["Emph", "Code"]
    assert text(file_line) == "파일명: src/a_b.rs"
    assert code["t"] == "CodeBlock" and code["c"][0][0] == ""
    assert not [kv for kv in code["c"][0][2] if kv[0] in ("listing", "caption", "filename")]
    assert ctx.targets["lst:hi"].text == "예제 1-1"
    ref = next(n for n in iter_nodes(docs[0].blocks) if n["t"] == "Link")
    assert text(ref["c"][1]) == "예제 1-1"
    assert "을 보라" in text(docs[0].blocks)  # 1-1 ends in 일: 을, not 를


def test_listing_numbers_like_figures_and_file_alone_has_none(make_book: BookMaker) -> None:
    docs, _ = run(
        make_book,
        '# 장\n\n``` {.py caption="첫째"}\na\n```\n\n``` {.toml filename="Cargo.toml"}\nb\n```\n\n'
        "``` {#lst:c .py}\nc\n```\n",
    )
    numbered = [keyval(d["c"][0], "number") for d in divs(docs, "listing")]
    assert numbered == ["1.1", None, "1.2"]
    (alone,) = divs(docs, "listing-unnumbered")
    assert [b["c"][0][1] for b in alone["c"][1][:1]] == [["listing-file"]]


def test_embeds_checked_with_file_and_line(make_book: BookMaker) -> None:
    source = (
        "# 장\n\n"
        '::: {.embed src="../p/ok.html" image="../p/ok.png"}\n대체.\n:::\n\n'
        '::: {.embed src="../p/none.html"}\n없음.\n:::\n\n'
        '::: {.embed src="javascript:alert(1)"}\n스크립트.\n:::\n\n'
        '::: {.embed src="../p/ok.html" image="../p/gone.png"}\n그림 없음.\n:::\n'
    )
    docs, ctx = run(make_book, source, None, **{"p/ok.html": "<p>x</p>", "p/ok.png": "png"})
    found = {d.code: d.location.line for d in ctx.diagnostics}
    lines = source.split("\n")
    assert found["EMB001"] == lines.index('::: {.embed src="../p/none.html"}') + 1
    assert found["EMB003"] == lines.index('::: {.embed src="javascript:alert(1)"}') + 1
    assert (
        found["EMB002"] == lines.index('::: {.embed src="../p/ok.html" image="../p/gone.png"}') + 1
    )
    embeds = divs(docs, "embed")
    assert [keyval(e["c"][0], "src") for e in embeds] == ["p/ok.html", None, "p/ok.html"]
    assert embeds[0]["c"][1][0]["t"] == "Figure"  # the static image stands for the page
    assert "내장 페이지 없음" in text(embeds[1]) and "없음." in text(embeds[1])
    assert "대화형 자료" in text(embeds[2])  # no image: the note with the path
    html = passes.embeds_html(docs[0].blocks)
    frames = [
        n["c"][1] for n in iter_nodes(html) if n["t"] == "RawBlock" and "<iframe" in n["c"][1]
    ]
    assert len(frames) == 2 and all('sandbox="allow-scripts"' in f for f in frames)


def test_embed_outside_the_book_is_refused(make_book: BookMaker, tmp_path: Path) -> None:
    outside = tmp_path / "outside.html"
    outside.write_text("<p>secret</p>", encoding="utf-8")
    root = make_book({"book/01.md": f'# 장\n\n::: {{.embed src="../../{outside.name}"}}\n:::\n'})
    book = load_book(root)
    docs = parse_book(book, Cache(None))
    with pytest.raises(KobookError) as caught:
        transform_book(book, docs)
    assert caught.value.code == "SEC001" and caught.value.diagnostic.location.line == 3


def test_authors_with_affiliations(tmp_path: Path) -> None:
    path = tmp_path / "metadata.yaml"
    path.write_text(
        "title: 책\nauthor:\n  - {name: A, affiliation: Google}\n  - B\n"
        "  - {name: C, affiliation: [Google, {name: KAIST}]}\n",
        encoding="utf-8",
    )
    config = load_config(path)
    assert config.authors == ["A", "B", "C"]
    assert config.affiliations == ["Google", "KAIST"]


def test_author_entry_without_a_name_is_cfg003_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "metadata.yaml"
    path.write_text("title: 책\nauthor:\n  - {affiliation: Google}\n", encoding="utf-8")
    with pytest.raises(KobookError) as caught:
        load_config(path)
    assert caught.value.code == "CFG003" and caught.value.diagnostic.location.line == 2


def test_an_empty_header_cell_becomes_a_data_cell() -> None:
    from kobook.write.shared.tables import empty_header_cells

    html = '<tr><th></th><th style="text-align: left;"> </th><th>이름</th></tr>'
    assert empty_header_cells(html) == (
        '<tr><td></td><td style="text-align: left;"></td><th>이름</th></tr>'
    )
