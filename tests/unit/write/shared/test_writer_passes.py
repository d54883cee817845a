"""kobook.write: output passes over the AST, page layout, line-break pairs, font stacks."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kobook.errors import KobookError
from kobook.model import Config
from kobook.parse.ast import attr, iter_nodes, stringify
from kobook.parse.pandoc import markdown_to_ast
from kobook.write.shared import fonts, passes
from kobook.write.shared.layout import page_layout, points
from kobook.write.weasyprint.linebreak import keep_all_pair

Node = dict[str, Any]


def md(text: str) -> list[Node]:
    return list(markdown_to_ast(text)["blocks"])


def of_type(blocks: Any, kind: str) -> list[Node]:
    return [n for n in iter_nodes(blocks) if n["t"] == kind]


def spans(blocks: Any, cls: str) -> list[Node]:
    return [n for n in of_type(blocks, "Span") if cls in n["c"][0][1]]


def header(level: int, ident: str, title: str, number: str | None = None) -> Node:
    keyvals = [["number", number]] if number else []
    return {"t": "Header", "c": [level, attr(ident, [], keyvals), [{"t": "Str", "c": title}]]}


# --- heading_numbers ------------------------------------------------------------------


def test_heading_numbers() -> None:
    blocks = [
        header(1, "memory", "메모리", "3"),
        header(2, "act", "활성값", "3.1"),
        header(3, "deep", "깊이", "3.1.2"),
        header(2, "plain", "번호 없음"),
    ]
    out = passes.heading_numbers(blocks, Config(raw={}))
    assert [stringify(h["c"][2]) for h in out] == [
        "3장 메모리",
        "3.1 활성값",
        "3.1.2 깊이",
        "번호 없음",
    ]
    assert len(spans(out[0], "chapter-number")) == 1
    assert stringify(spans(out[1], "section-number")[0]) == "3.1"
    assert spans(out[3], "section-number") == []


def test_heading_numbers_use_caption_word() -> None:
    out = passes.heading_numbers(
        [header(1, "a", "Memory", "2")], Config(raw={"captions": {"chapter": " Chapter"}})
    )
    assert stringify(out[0]["c"][2]) == "2 Chapter Memory"


# --- equation_numbers -----------------------------------------------------------------


def test_equation_numbers() -> None:
    math = {"t": "Math", "c": [{"t": "DisplayMath"}, "a=b"]}
    blocks = [
        {
            "t": "Div",
            "c": [attr("eq:a", ["equation"], [["number", "2.3"]]), [{"t": "Para", "c": [math]}]],
        },
        {"t": "Div", "c": [attr("other", ["note"]), [{"t": "Para", "c": [math]}]]},
    ]
    out = passes.equation_numbers(blocks)
    para = out[0]["c"][1][0]
    assert para["c"][0] == math
    assert para["c"][-1]["t"] == "Span"
    assert "eqno" in para["c"][-1]["c"][0][1]
    assert stringify(para["c"][-1]) == "(2.3)"
    assert spans(out[1], "eqno") == []


# --- upright_hangul -------------------------------------------------------------------


def test_upright_hangul_in_emphasis_only() -> None:
    out = passes.upright_hangul(md("*한글 text 강조를* 밖의 한글 **굵은 한글**"))
    emph = of_type(out, "Emph")[0]
    wrapped = spans(emph, "hangul")
    assert [stringify(s) for s in wrapped] == ["한글", "강조를"]
    # Latin inside the emphasis is left alone.
    assert {"t": "Str", "c": "text"} in emph["c"]
    # Outside Emph nothing is wrapped.
    assert len(spans(out, "hangul")) == 2
    assert stringify(out) == "한글 text 강조를 밖의 한글 굵은 한글"


def test_upright_hangul_emphasis_inside_other_markup() -> None:
    out = passes.upright_hangul(md("[링크 *기울임*](https://example.com) **굵게 *둘*다**"))
    assert [stringify(s) for s in spans(out, "hangul")] == ["기울임", "둘"]


def test_upright_hangul_reaches_every_hangul_word_under_emphasis() -> None:
    # "Hangul inside emphasis is never slanted": bold or linked words inside ``*...*``
    # inherit the italic style too, so they need the upright span as well.
    out = passes.upright_hangul(md("*바깥 **굵은 안쪽** [링크 글](https://example.com) text*"))
    wrapped = sorted(stringify(s) for s in spans(out, "hangul"))
    assert wrapped == sorted(["바깥", "굵은", "안쪽", "링크", "글"])


# --- code_languages -------------------------------------------------------------------


def test_code_languages_alias() -> None:
    out = passes.code_languages(md("```cuda\n__global__ void k();\n```\n\n```python\nx = 1\n```\n"))
    cuda, python = of_type(out, "CodeBlock")
    assert cuda["c"][0][1][0] == "cpp"
    assert "cuda" in cuda["c"][0][1]
    assert python["c"][0][1] == ["python"]


@pytest.mark.parametrize(("name", "alias"), [("sh", "bash"), ("py", "python"), ("yml", "yaml")])
def test_code_languages_other_aliases(name: str, alias: str) -> None:
    [block] = passes.code_languages(md(f"```{name}\nx\n```\n"))
    assert block["c"][0][1] == [alias, name]


# --- footnotes_inline -----------------------------------------------------------------


def test_footnotes_inline() -> None:
    out = passes.footnotes_inline(md("본문[^1] 계속.\n\n[^1]: 각주 *강조* 내용.\n"))
    assert of_type(out, "Note") == []
    [note] = spans(out, "footnote")
    assert stringify(note) == "각주 강조 내용."
    assert of_type(note, "Emph")
    para = out[0]["c"]
    assert para[0] == {"t": "Str", "c": "본문"}
    assert para[1] == note


def test_footnote_with_several_blocks() -> None:
    source = "글[^n].\n\n[^n]: 첫 문단.\n\n    - 하나\n    - 둘\n"
    [note] = spans(passes.footnotes_inline(md(source)), "footnote")
    inlines = note["c"][1]
    assert {"t": "LineBreak"} in inlines
    flat = stringify(note)
    assert flat.startswith("첫 문단.\n• 하나")
    # List items must not run together ("하나• 둘").
    assert re.search(r"하나\s+• 둘$", flat), flat


# --- emoji ----------------------------------------------------------------------------


def test_emoji_wrapped() -> None:
    out = passes.emoji(md("📝 참고 → 화살표, ⚠️ 경고, plain 글"))
    wrapped = [stringify(s) for s in spans(out, "emoji")]
    assert wrapped == ["📝", "⚠️"]
    assert stringify(out) == "📝 참고 → 화살표, ⚠️ 경고, plain 글"


def test_emoji_inside_word() -> None:
    out = passes.emoji(md("좋아요👍입니다"))
    assert [stringify(s) for s in spans(out, "emoji")] == ["👍"]
    assert stringify(out) == "좋아요👍입니다"


def test_no_emoji_no_change() -> None:
    blocks = md("그냥 글 → 화살표와 ℃ 기호")
    assert passes.emoji(blocks) == blocks
    assert spans(passes.emoji(blocks), "emoji") == []


# --- rewrite_links --------------------------------------------------------------------


def test_rewrite_links() -> None:
    blocks = md("[a](#here) [b](#there) [c](https://example.com/#x) [d](#unknown)")
    page_of = {"here": "ch01.html", "there": "ch02.html"}
    out = passes.rewrite_links(blocks, page_of, "ch01.html")
    urls = [link["c"][2][0] for link in of_type(out, "Link")]
    assert urls == ["#here", "ch02.html#there", "https://example.com/#x", "#unknown"]


# --- page_layout ----------------------------------------------------------------------


def test_layout_defaults() -> None:
    layout = page_layout(Config(raw={}))
    assert (layout.width, layout.height) == ("210mm", "297mm")
    assert layout.font_size == "10pt"
    assert layout.line_height == 1.75


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_wide_pages_set_a_book_line(paper: str) -> None:
    """A4 with 25 mm margins set about 50 Korean characters a line (issue 11); a
    Korean book's line holds 35–42: the default margins of a wide page keep it there."""
    layout = page_layout(Config(raw={"papersize": paper}))
    text = points(layout.width) - points(layout.inner) - points(layout.outer)
    hangul_per_line = text / points(layout.font_size)
    assert 38 <= hangul_per_line <= 42
    assert points(layout.inner) < points(layout.outer)  # the binding side is narrower
    # Margins the book sets are kept.
    custom = page_layout(Config(raw={"papersize": paper, "geometry": "margin=2cm"}))
    assert (custom.inner, custom.outer) == ("2cm", "2cm")


def test_layout_a5() -> None:
    layout = page_layout(Config(raw={"papersize": "a5"}))
    assert (layout.width, layout.height) == ("148mm", "210mm")
    # A small page gets smaller default margins than A4.
    a4 = page_layout(Config(raw={"papersize": "a4"}))
    assert layout.top != a4.top


def test_layout_papersize_spellings() -> None:
    assert page_layout(Config(raw={"papersize": "A4paper"})).width == "210mm"
    custom = page_layout(Config(raw={"papersize": "152mm 225mm"}))
    assert (custom.width, custom.height) == ("152mm", "225mm")
    assert page_layout(Config(raw={"papersize": "신국판"})).height == "225mm"


def test_layout_geometry_margin() -> None:
    layout = page_layout(Config(raw={"geometry": "margin=2cm"}))
    assert (layout.top, layout.bottom, layout.inner, layout.outer) == ("2cm",) * 4


def test_layout_geometry_list() -> None:
    layout = page_layout(Config(raw={"geometry": ["top=2cm", "left=2.5cm", "right=18mm"]}))
    assert layout.top == "2cm"
    assert layout.inner == "2.5cm"
    assert layout.outer == "18mm"
    assert layout.bottom == page_layout(Config(raw={})).bottom


def test_layout_geometry_later_item_wins() -> None:
    layout = page_layout(Config(raw={"geometry": "margin=2cm, top=3cm"}))
    assert (layout.top, layout.bottom) == ("3cm", "2cm")


@pytest.mark.parametrize(("value", "expected"), [("11pt", "11pt"), (11, "11pt"), ("12 pt", "12pt")])
def test_layout_fontsize(value: object, expected: str) -> None:
    assert page_layout(Config(raw={"fontsize": value})).font_size == expected


def test_layout_linestretch() -> None:
    assert page_layout(Config(raw={"linestretch": 1.5})).line_height == pytest.approx(1.8)
    assert page_layout(Config(raw={"linestretch": "2"})).line_height == pytest.approx(2.4)


@pytest.mark.parametrize(
    "raw",
    [
        {"geometry": "margin=2"},
        {"geometry": ["top=two"]},
        {"fontsize": "big"},
        {"papersize": "1 2"},
    ],
)
def test_layout_bad_length_is_cfg006(raw: dict[str, object], tmp_path: Path) -> None:
    path = tmp_path / "metadata.yaml"
    with pytest.raises(KobookError) as info:
        page_layout(Config(raw=raw, path=path))
    assert info.value.code == "CFG006"
    assert info.value.location.file == path
    assert "not a length" in str(info.value)


def test_layout_unknown_papersize_is_cfg007() -> None:
    with pytest.raises(KobookError) as info:
        page_layout(Config(raw={"papersize": "b7"}))
    assert info.value.code == "CFG007"
    assert "b7" in str(info.value)


# --- keep_all_pair --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pair", "inside_word"),
    [
        ("트에", True),
        (" 에", False),
        ("에 ", False),
        ("a가", True),
        (")이", True),
        ("ab", False),
        ("가(", False),
        ("가a", True),
        ("가.", True),
        ("가", False),
        ("가나다", False),
    ],
)
def test_keep_all_pair(pair: str, inside_word: bool) -> None:
    assert keep_all_pair(pair) is inside_word


# --- fonts ----------------------------------------------------------------------------


def test_font_css_stacks() -> None:
    fontset = fonts.FontSet(["A B"], ["C"], [], ["Noto Color Emoji"])
    assert fontset.serif_css == '"A B", serif'
    assert fontset.sans_css == '"C", sans-serif'
    assert fontset.mono_css == ", monospace"
    assert fontset.emoji_css == '"Noto Color Emoji", sans-serif'


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend fontconfig knows a fixed set of fonts."""
    everything = frozenset({"Noto Serif CJK KR", "NanumGothic", "DejaVu Sans", "Noto Color Emoji"})
    korean = frozenset({"Noto Serif CJK KR", "NanumGothic"})
    monkeypatch.setattr(
        fonts, "fc_list", lambda pattern=":": korean if "ko" in pattern else everything
    )


@pytest.mark.usefixtures("installed")
def test_resolve_fonts_defaults() -> None:
    fontset = fonts.resolve_fonts(Config(raw={}))
    assert fontset.serif == ["Noto Serif CJK KR"]
    assert fontset.sans[0] == "NanumGothic"
    assert fontset.mono[0] == "NanumGothic"
    assert fontset.emoji == ["Noto Color Emoji"]


@pytest.mark.usefixtures("installed")
def test_resolve_fonts_metadata_font_first() -> None:
    fontset = fonts.resolve_fonts(Config(raw={"mainfont": "DejaVu Sans"}))
    assert fontset.serif == ["DejaVu Sans", "Noto Serif CJK KR"]


@pytest.mark.usefixtures("installed")
def test_a_font_is_found_however_its_family_name_is_spaced() -> None:
    """``Nanum Gothic`` was FONT002 "not installed" while ``NanumGothic`` is."""
    fontset = fonts.resolve_fonts(
        Config(raw={"CJKsansfont": "Nanum Gothic", "mainfont": "dejavu-sans"})
    )
    assert fontset.problems == ()
    assert fontset.sans[0] == "NanumGothic" and fontset.named["CJKsansfont"] == "NanumGothic"
    assert fontset.serif[0] == "DejaVu Sans"


@pytest.mark.usefixtures("installed")
def test_resolve_fonts_missing_font_is_a_font002_warning_and_falls_back() -> None:
    fontset = fonts.resolve_fonts(Config(raw={"CJKmainfont": "없는 글꼴"}))
    assert fontset.serif == ["Noto Serif CJK KR"]
    assert "CJKmainfont" not in fontset.named
    [problem] = fontset.problems
    assert problem.code == "FONT002" and problem.severity == "warning"
    assert "없는 글꼴" in problem.message and "Noto Serif CJK KR" in problem.message


def test_resolve_fonts_follow_the_book_language(monkeypatch: pytest.MonkeyPatch) -> None:
    chinese = frozenset({"Noto Serif CJK SC", "Noto Sans CJK SC", "Noto Sans Mono CJK SC"})
    korean = frozenset({"Noto Serif CJK KR", "Noto Sans CJK KR"})
    every = chinese | korean
    pools = {":lang=zh-cn": chinese, ":lang=ko": korean}
    monkeypatch.setattr(fonts, "fc_list", lambda pattern=":": pools.get(pattern, every))
    fontset = fonts.resolve_fonts(Config(raw={"lang": "zh-CN", "mainfont": "PingFang SC"}))
    assert fontset.serif[0] == "Noto Serif CJK SC"
    assert fontset.sans[0] == "Noto Sans CJK SC" and fontset.mono[0] == "Noto Sans Mono CJK SC"
    [problem] = fontset.problems
    assert "PingFang SC" in problem.message and "Noto Serif CJK SC" in problem.message
    assert "Noto Serif CJK SC" in problem.hint  # the hint lists fonts for the language


def test_resolve_fonts_without_hangul_is_font001(monkeypatch: pytest.MonkeyPatch) -> None:
    latin = frozenset({"DejaVu Sans"})
    monkeypatch.setattr(
        fonts, "fc_list", lambda pattern=":": frozenset() if "ko" in pattern else latin
    )
    with pytest.raises(KobookError) as info:
        fonts.resolve_fonts(Config(raw={}))
    assert info.value.code == "FONT001"
    assert "fonts-noto-cjk" in info.value.diagnostic.hint
    assert fonts.resolve_fonts(Config(raw={}), require_script=False).serif == []


def langs(blocks: Any) -> list[tuple[str, str]]:
    """(node type, lang) of every node that carries a ``lang``."""
    found = []
    for node in iter_nodes(blocks):
        if node["t"] in ("Span", "Div", "Table", "Figure"):
            keyvals = dict(node["c"][0][2])
            if "lang" in keyvals:
                found.append((node["t"], keyvals["lang"]))
    return found


ENGLISH = "Many operations we ask the computer to do can take a while to finish."


def test_untranslated_blocks_are_marked_in_the_originals_language() -> None:
    config = Config({"title": "책", "lang": "ko"})
    blocks = md(
        f"# Parallelism and Concurrency\n\n{ENGLISH}\n\n- {ENGLISH}\n\n"
        "번역한 문단에 Rust와 async가 있다.\n\n## 3.1 Hello\n\n```rust\nfn main() {{}}\n```\n"
    )
    blocks[0]["c"][1][2].append(["number", "17"])
    marked = passes.foreign_blocks(passes.heading_numbers(blocks, config), "ko", "en")
    assert langs(marked) == [("Span", "en"), ("Span", "en"), ("Div", "en")]
    heading = marked[0]["c"][2]
    assert stringify(heading[0]) == "17장" and langs(heading[0]) == []  # the label stays Korean
    assert stringify(heading[2]) == "Parallelism and Concurrency"
    assert langs(passes.foreign_blocks(md(ENGLISH), "en", "en")) == []  # an English book
    assert langs(passes.foreign_blocks(md(ENGLISH), "ja", "de")) == [("Span", "de")]


@pytest.mark.parametrize(
    ("paper", "lang", "size"),
    [
        ("46배판", "ko", ("188mm", "257mm")),
        ("변형 46배판", "ko", ("183mm", "235mm")),
        ("크라운판", "ko", ("176mm", "248mm")),
        ("crown", "en", ("176mm", "248mm")),
        ("4×6판", "ko", ("128mm", "188mm")),
        ("b5", "ko", ("182mm", "257mm")),  # the B5 Korean printers cut: JIS
        ("B5", "ja", ("182mm", "257mm")),
        ("b5", "en", ("176mm", "250mm")),  # ISO elsewhere
    ],
)
def test_korean_trim_sizes(paper: str, lang: str, size: tuple[str, str]) -> None:
    layout = page_layout(Config(raw={"papersize": paper, "lang": lang}))
    assert (layout.width, layout.height) == size


def test_link_colours_are_one_decision_and_only_colours() -> None:
    from kobook.model import Book
    from kobook.write.shared.setup import print_setup

    def colours(raw: dict[str, object]) -> tuple[str, str] | None:
        return print_setup(Book(root=Path("."), config=Config(raw=raw), chapters=[])).link_colours

    assert colours({}) == ("1F4E8C", "1F4E8C")
    assert colours({"linkcolor": "red", "urlcolor": "#00aa00"}) == ("C62828", "00AA00")
    assert colours({"linkcolor": "red; } body { display: none"}) == ("1F4E8C", "1F4E8C")
    assert colours({"print": True}) is None and colours({"colorlinks": False}) is None


def test_printed_urls_add_a_note_only_where_the_address_is_not_printed() -> None:
    blocks = md(
        "# [제목 링크](https://a.org)\n\n[글](https://b.org) <https://c.org> [안](#x)"
        "[^1]\n\n[^1]: 각주 속 [링크](https://d.org).\n"
    )
    out = passes.printed_urls(blocks)
    notes = sorted(stringify(n["c"]) for n in of_type(out, "Note"))
    # b.org gains one; c.org prints itself; the heading's and the footnote's links get none
    assert notes == ["https://b.org", "각주 속 링크."]
