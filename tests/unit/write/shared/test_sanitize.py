"""kobook.write.shared.sanitize: raw HTML, attributes and URLs cut down to what is safe to publish.

Each case goes through pandoc twice, as in a build: Markdown → AST (raw HTML
in fragments) → sanitize → pandoc's HTML writer, and the HTML is searched.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.errors import Diagnostic
from kobook.model import Chapter
from kobook.parse.pandoc import markdown_to_ast
from kobook.write.shared.common import blocks_to_html
from kobook.write.shared.sanitize import clean_style, sanitize_blocks, srcset_urls, url_allowed

PATH = Path("book/01-장.md")


def clean(markdown: str) -> tuple[str, list[Diagnostic]]:
    """The chapter's HTML after sanitizing, and the warnings."""
    chapter = Chapter(id="01", path=PATH, text=markdown)
    blocks, problems = sanitize_blocks(markdown_to_ast(markdown)["blocks"], chapter)
    return blocks_to_html(blocks), problems


def chapter_with(construct: str) -> str:
    """A chapter with ``construct`` starting on line 3, between two visible paragraphs."""
    return f"# 장\n\n{construct}\n\n보이는 마지막 문단.\n"


# (construct, what must not be in the HTML (lower case), what the warning names)
DANGEROUS = [
    ('<script>alert("x")</script>', ["<script", "alert"], "<script>"),
    ('앞 <script>alert("x")</script> 뒤', ["<script", "alert"], "<script>"),
    ("<SCRIPT SRC=//evil.example/x.js></SCRIPT>", ["script", "evil"], "<script>"),
    ('<img src="a.png" onerror="alert(1)">', ["onerror", "alert"], "onerror="),
    ("<img src=a.png ONERROR=alert(1)>", ["onerror", "alert"], "onerror="),
    ('<b onclick="alert(1)">굵게</b>', ["onclick", "alert"], "onclick="),
    ('<iframe src="https://evil.example/"></iframe>', ["iframe", "evil"], "<iframe>"),
    ("글 <iframe src=x.html>대체 글</iframe> 끝", ["iframe", "대체 글"], "<iframe>"),
    ("[누르기](javascript:alert(1))", ["javascript", "alert", "<a"], "javascript: URL"),
    ("[누르기](JavaScript:alert(1))", ["javascript", "alert", "<a"], "javascript: URL"),
    ("<javascript:alert(1)>", ["href", "<a"], "javascript: URL"),
    ('<a href="javascript:alert(1)">누르기</a>', ["javascript", "alert"], "javascript: URL"),
    ('<a href="JaVa&#x53;cript:alert(1)">누르기</a>', ["script:", "alert"], "javascript: URL"),
    ('<a href=" java\tscript:alert(1)">누르기</a>', ["script:", "alert"], "javascript: URL"),
    ('<a href="vbscript:msgbox(1)">누르기</a>', ["vbscript", "msgbox"], "vbscript: URL"),
    ("[누르기](data:text/html;base64,PHNjcmlwdD4=)", ["data:", "<a"], "data: URL"),
    ('<a href="data:text/html,hi">누르기</a>', ["data:"], "data: URL"),
    ("![그림](data:text/html,hi)", ["data:", "<img"], "data: URL"),
    ('<img src="x.png" srcset="javascript:alert(1) 2x">', ["javascript", "srcset"], "srcset"),
    ('<video src="v.mp4" poster="javascript:alert(1)"></video>', ["javascript"], "poster="),
    ("<style>body{display:none}</style>", ["<style", "display"], "<style>"),
    ("앞 <style>p{color:red}</style> 뒤", ["<style", "color:red", "p{"], "<style>"),
    ('<object data="x.swf"></object>', ["<object", "x.swf"], "<object>"),
    ('<embed src="x.swf">', ["<embed", "x.swf"], "<embed>"),
    (
        '<form action="https://evil.example/"><input name="q"><button>보내기</button></form>',
        ["<form", "<input", "<button", "evil"],
        "<form>",
    ),
    ('<meta http-equiv="refresh" content="0;url=https://evil.example/">', ["<meta"], "<meta>"),
    ('<link rel="stylesheet" href="https://evil.example/x.css">', ["<link", "evil"], "<link>"),
    ('<base href="https://evil.example/">', ["<base", "evil"], "<base>"),
    ("<svg><script>alert(1)</script><text>그림 글</text></svg>", ["svg", "alert"], "<svg>"),
    ("```{=HTML}\n<script>alert(1)</script>\n```", ["<script", "alert"], "<script>"),
    ('[글]{onmouseover="alert(1)"}', ["onmouseover", "alert"], "onmouseover="),
    ('::: {onclick="alert(1)"}\n상자\n:::', ["onclick", "alert"], "onclick="),
    ('[링크](https://example.org){href="javascript:alert(1)"}', ["javascript"], "href="),
    (
        '<div style="background:url(https://evil.example/x.png)">글</div>',
        ["url(", "evil"],
        "style declaration",
    ),
    ('<span style="position:fixed;top:0">글</span>', ["position", "fixed"], "position"),
    ('<p style="width: expression(alert(1))">글</p>', ["expression", "alert"], "expression"),
    ("[글]{style=\"background-image: url('https://evil.example/')\"}", ["url("], "style"),
    # The search index is kobook's: a book may not rename results or hide text from it.
    ('<p data-pagefind-ignore="all">숨긴 글</p>', ["data-pagefind"], "data-pagefind-ignore"),
    ('[글]{data-pagefind-meta="title:가짜"}', ["data-pagefind", "가짜"], "data-pagefind-meta"),
]


@pytest.mark.parametrize(("construct", "forbidden", "named"), DANGEROUS)
def test_dangerous_constructs_are_removed_and_named(
    construct: str, forbidden: list[str], named: str
) -> None:
    html, problems = clean(chapter_with(construct))
    for text in forbidden:
        assert text not in html.lower(), html
    assert "보이는 마지막 문단" in html  # the rest of the chapter is still there
    assert problems, "nothing was reported"
    assert all(p.code == "HTML001" and p.severity == "warning" for p in problems)
    assert any(named in p.message for p in problems), [p.message for p in problems]
    lines = range(3, 4 + construct.count("\n"))
    assert all(p.location.file == PATH and p.location.line in lines for p in problems)


# (construct, what must be in the HTML as written)
ALLOWED = [
    ('<span class="역할" title="설명">글</span>', '<span class="역할" title="설명">글</span>'),
    ("<sup>1</sup>과 <sub>2</sub>", "<sup>1</sup>과 <sub>2</sub>"),
    ("<kbd>Ctrl</kbd>+<kbd>C</kbd>", "<kbd>Ctrl</kbd>+<kbd>C</kbd>"),
    ('<abbr title="그래픽 처리 장치">GPU</abbr>', '<abbr title="그래픽 처리 장치">GPU</abbr>'),
    ("<mark>강조</mark> <u>밑줄</u> <s>취소</s>", "<mark>강조</mark> <u>밑줄</u> <s>취소</s>"),
    ("<details><summary>요약</summary>\n\n본문\n\n</details>", "<summary>\n요약\n</summary>"),
    ("<ruby>漢<rt>한</rt></ruby>", "<ruby>漢<rt>한</rt></ruby>"),
    ('<a href="https://example.org/">링크</a>', '<a href="https://example.org/">링크</a>'),
    ('<a href="#sec">안쪽</a>', '<a href="#sec">안쪽</a>'),
    ('<a href="other.html#x">다른 쪽</a>', '<a href="other.html#x">다른 쪽</a>'),
    ('<a name="anchor"></a>', '<a name="anchor"></a>'),
    ("[링크](https://example.org/a?b=1)", '<a href="https://example.org/a?b=1">링크</a>'),
    ("[메일](mailto:someone@example.org)", 'href="mailto:someone@example.org"'),
    ("[안쪽](#sec)", '<a href="#sec">안쪽</a>'),
    ('<img src="data:image/png;base64,iVBORw0KGgo=" alt="점">', 'src="data:image/png;base64,'),
    ("![점](data:image/png;base64,iVBORw0KGgo=)", 'src="data:image/png;base64,iVBORw0KGgo="'),
    ('<img src="images/a.png" width="40" alt="그림">', 'width="40"'),
    (
        '<img src="a.png" srcset="data:image/png;base64,iVBORw0KGgo= 1x, b.png 2x">',
        'srcset="data:image/png;base64,iVBORw0KGgo= 1x, b.png 2x"',
    ),
    ('<table><tr><td colspan="2">칸</td></tr></table>', '<td colspan="2">\n칸\n</td>'),
    ('<span style="color: red; font-weight: bold">빨강</span>', 'style="color: red; font'),
    ('[빨강]{style="color: rgb(200, 0, 0)"}', 'style="color: rgb(200, 0, 0)"'),
    ("<details open><summary>열림</summary></details>", '<details open="">'),
    ('<ol start="3"><li>셋</li></ol>', '<ol start="3">'),
    ("본문<d-footnote>각주</d-footnote>", "<d-footnote>각주</d-footnote>"),
    ("<p>문단 &amp; 기호 &lt;태그&gt;</p>", "문단 &amp; 기호 &lt;태그&gt;"),
]


@pytest.mark.parametrize(("construct", "kept"), ALLOWED)
def test_allowed_markup_is_kept_without_a_warning(construct: str, kept: str) -> None:
    html, problems = clean(chapter_with(construct))
    assert kept in html, html
    assert problems == []


def test_unknown_tags_go_but_their_text_stays_as_html002() -> None:
    html, problems = clean(chapter_with("<label>이름표</label>와 <Listing>코드</Listing>"))
    assert "이름표" in html and "코드" in html
    assert "<label" not in html.lower() and "<listing" not in html.lower()
    assert [(p.code, p.message.split(":")[0]) for p in problems] == [
        ("HTML002", "left out the tag <label>"),
        ("HTML002", "left out the tag <listing>"),
    ]
    assert "the text inside stays" in problems[0].hint


def test_unknown_attributes_are_html002_and_kramdown_markdown_is_left_to_leak001() -> None:
    html, problems = clean(chapter_with('<b markdown="1">굵게</b> <td bgcolor="red">칸</td>'))
    assert "markdown=" not in html and "bgcolor" not in html and "<b>굵게</b>" in html
    assert [(p.code, p.message.split(":")[0]) for p in problems] == [
        ("HTML002", "left out attribute bgcolor= on <td>")
    ]


def test_custom_elements_are_inert_and_keep_their_safe_attributes() -> None:
    html, problems = clean(chapter_with('<d-cite key="smith2020" onclick="x()">인용</d-cite>'))
    assert '<d-cite key="smith2020">인용</d-cite>' in html
    assert [(p.code, "onclick=" in p.message) for p in problems] == [("HTML001", True)]


def test_each_kind_is_reported_once_with_a_count_at_its_first_place() -> None:
    text = "# 장\n\n<script>a()</script>\n\n글\n\n<script>b()</script>\n"
    html, problems = clean(text)
    assert "<script" not in html and "a()" not in html and "b()" not in html
    assert len(problems) == 1
    assert "(2×)" in problems[0].message
    assert problems[0].location.line == 3


def test_text_between_a_dropped_tag_and_its_end_in_other_blocks_is_dropped() -> None:
    # pandoc hands over `<style>` and `</style>` as two fragments with the CSS between them.
    html, problems = clean("# 장\n\n앞 <style>\n\n.x { color: red }\n\n</style> 뒤\n\n다음 문단.\n")
    assert "color" not in html and "앞" in html and "뒤" in html and "다음 문단" in html
    assert [p.location.line for p in problems] == [3]


def test_an_unclosed_dropped_element_takes_the_rest_of_the_chapter_and_says_so() -> None:
    html, problems = clean("# 장\n\n앞 글 <style>\n\n.x { color: red }\n\n남은 글.\n")
    assert "color" not in html and "앞 글" in html
    assert any("unclosed <style>" in p.message for p in problems)


def test_attributes_of_kobooks_own_nodes_survive() -> None:
    html, problems = clean("# 장 {#sec:one number=3}\n\n![그림](a.png){#fig:a width=50%}\n")
    assert 'data-number="3"' in html and 'style="width:50.0%"' in html and 'id="fig:a"' in html
    assert problems == []


@pytest.mark.parametrize(
    ("url", "image", "allowed"),
    [
        ("https://example.org/x", False, True),
        ("http://example.org/x", False, True),
        ("//example.org/x", False, True),
        ("mailto:a@b.c", False, True),
        ("images/a.png", True, True),
        ("#sec", False, True),
        ("", False, True),
        ("data:image/png;base64,AAAA", True, True),
        ("data:image/png;base64,AAAA", False, False),
        ("data:text/html,x", True, False),
        ("javascript:alert(1)", False, False),
        ("  JAVASCRIPT:alert(1)", False, False),
        ("java\nscript:alert(1)", False, False),
        ("\x01javascript:alert(1)", False, False),
        ("vbscript:x", False, False),
        ("file:///etc/passwd", True, False),
    ],
)
def test_url_allowed(url: str, image: bool, allowed: bool) -> None:
    assert url_allowed(url, image=image) is allowed


@pytest.mark.parametrize(
    ("style", "kept", "removed"),
    [
        ("color: red", "color: red", []),
        ("color:red; position: fixed", "color: red", ["position: fixed"]),
        ("background: url(x.png)", "", ["background: url(x.png)"]),
        ("color: u\\72l(x)", "", ["color: u\\72l(x)"]),
        ("width: expression(alert(1))", "", ["width: expression(alert(1))"]),
        ("behavior: url(x.htc)", "", ["behavior: url(x.htc)"]),
        ("color: red; @import 'x'", "color: red", ["@import 'x'"]),
        ("margin: 0 -5000px", "", ["margin: 0 -5000px"]),
        (
            "margin-left: 1em; width: calc(100% - 2em)",
            "margin-left: 1em; width: calc(100% - 2em)",
            [],
        ),
    ],
)
def test_clean_style(style: str, kept: str, removed: list[str]) -> None:
    assert clean_style(style) == (kept, removed)


def test_srcset_urls_keep_data_urls_whole() -> None:
    assert srcset_urls("data:image/png;base64,AA,BB 1x, b.png 2x,c.png") == [
        "data:image/png;base64,AA,BB",
        "b.png",
        "c.png",
    ]
