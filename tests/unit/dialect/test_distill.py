"""The distill dialect, one construct at a time: what it becomes, and the source
line each result (or each diagnostic) points at."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.dialect import Report, convert_book
from kobook.dialect.distill import DIALECT
from kobook.load.book import load_book
from kobook.model import Chapter
from tests.conftest import BookMaker

CONFIG = "title: 사이트 제목\nlang: ko-KR\nurl: https://example.org\nbaseurl: /book\n"


def post(body: str, *, title: str = "첫 장", number: int = 1, extra: str = "") -> str:
    return f"---\nlayout: distill\ntitle: {title}\nsection_number: {number}\n{extra}---\n\n{body}\n"


def source_line(text: str, needle: str, occurrence: int = 0) -> int:
    """1-based line of ``needle``'s ``occurrence``-th appearance in a source text."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    return text.count("\n", 0, at) + 1


def converted_line(chapter: Chapter, needle: str) -> int:
    """The source line the converted text's line holding ``needle`` came from."""
    local = chapter.text.count("\n", 0, chapter.text.index(needle)) + 1
    location = chapter.where(local)
    assert location.file == chapter.path
    return location.line


def build(
    make_book: BookMaker, body: str, files: dict[str, str | bytes] | None = None, **kw: str
) -> tuple[Chapter, Report, str]:
    """A one-post site through load and the dialect stage: the chapter, the report, the source."""
    text = post(body, **kw)  # type: ignore[arg-type]
    root = make_book(
        {"_config.yml": CONFIG, "post.md": text, **(files or {})}, metadata={"dialect": "distill"}
    )
    book = load_book(root)
    report = convert_book(book)
    return book.chapters[0], report, text


def codes(report: Report) -> list[tuple[str, int]]:
    return [(d.code, d.location.line) for d in report.problems + report.notes]


# ------------------------------------------------------------ layout and metadata


def test_detect_needs_config_and_a_distill_post(make_book: BookMaker) -> None:
    root = make_book({"_config.yml": CONFIG, "a.md": post("본문")})
    reason = DIALECT.detect(root)
    assert reason is not None and "_config.yml" in reason and "layout: distill" in reason
    (root / "a.md").write_text("---\nlayout: page\ntitle: 메뉴\n---\n", encoding="utf-8")
    assert DIALECT.detect(root) is None


def test_layout_orders_posts_by_section_number(make_book: BookMaker) -> None:
    root = make_book(
        {
            "_config.yml": CONFIG,
            "zeta.md": post("영", title="시작", number=0),
            "alpha.md": post("둘", title="두 번째", number=2),
            "beta.md": post("하나", title="첫 번째", number=1),
            "menu.md": "---\nlayout: page\ntitle: 메뉴\n---\n",
            "nonumber.md": post("끝", title="부록").replace("section_number: 1\n", ""),
        },
        metadata={"dialect": "distill"},
    )
    book = load_book(root)
    assert [c.path.name for c in book.chapters] == [
        "zeta.md",
        "beta.md",
        "alpha.md",
        "nonumber.md",
    ]
    assert [c.number for c in book.chapters[:3]] == [0, 1, 2]
    assert [c.title for c in book.chapters[:3]] == ["시작", "첫 번째", "두 번째"]
    assert "distill posts ordered by section_number" in book.discovery
    # The title line load adds has the origin of the post's first body line.
    text = (root / "beta.md").read_text(encoding="utf-8")
    assert book.chapters[1].where(1).line == source_line(text, "\n\n하나") + 1


def test_metadata_from_config_and_section_zero(make_book: BookMaker) -> None:
    front = (
        "subtitle: 부제\nauthors:\n  - name: 김 저자\n    affiliations:\n      name: 연구소\n"
        "  - name: Reiner Pope<sup>*</sup>\n"
    )
    root = make_book(
        {
            "_config.yml": CONFIG,
            "index.md": post("본문", title="책 제목", number=0, extra=front),
            "assets/bibliography/main.bib": "@article{a, title={A}}\n",
        },
        metadata={"dialect": "distill"},
    )
    meta = DIALECT.metadata(root)
    assert meta["title"] == "책 제목" and meta["subtitle"] == "부제"
    assert meta["author"] == [{"name": "김 저자", "affiliation": "연구소"}, "Reiner Pope"]
    assert meta["bibliography"] == ["assets/bibliography/main.bib"]
    assert meta["original"] == {"url": "https://example.org/book"}
    book = load_book(root)
    assert book.config.authors == ["김 저자", "Reiner Pope"]
    assert book.config.lang == "ko-KR"


def test_description_becomes_the_abstract_after_the_title(make_book: BookMaker) -> None:
    chapter, report, text = build(make_book, "본문 문단.", extra="description: 이 장의 요약.\n")
    lines = chapter.text.split("\n")
    assert lines[0] == "# 첫 장"
    assert lines[1:5] == ["", "::: {.abstract}", "이 장의 요약.", ":::"]
    assert converted_line(chapter, "이 장의 요약.") == source_line(text, "description:")
    assert report.converted["abstract"] == 1


# ------------------------------------------------------------------------ figures


def test_figure_include_becomes_a_numbered_figure(make_book: BookMaker) -> None:
    body = (
        "앞 문단.\n"
        '{% include figure.liquid path="/assets/img/a-b.png" class="img-fluid" width="50%" '
        'caption="<b>Figure:</b> see <a href=\\"tpus\\">Section 2</a>, \\"quoted\\" and $x<y$" %}\n'
        "뒤 문단."
    )
    chapter, report, text = build(make_book, body)
    figure = '![See [Section 2](tpus), "quoted" and $x<y$](assets/img/a-b.png){#fig:a-b width=50%}'
    assert f"\n\n{figure}\n\n" in chapter.text  # alone in its paragraph
    assert converted_line(chapter, figure) == source_line(text, "{% include")
    assert report.converted["figure"] == 1


def test_figure_include_multi_line_single_quotes_and_html_name(make_book: BookMaker) -> None:
    body = (
        "{% include figure.html path='{{ site.baseurl }}/assets/img/x.gif' caption=\"\n"
        ' <b>Left:</b> one. <code>f(x)</code>\n"%}\n\n'
        '{% include figure.liquid path="assets/img/x.gif" %}'
    )
    chapter, report, text = build(make_book, body)
    assert "![**Left:** one. `f(x)`](assets/img/x.gif){#fig:x}" in chapter.text
    # The same image again: a second, different id.
    assert "![](assets/img/x.gif){#fig:x-2}" in chapter.text
    assert converted_line(chapter, "{#fig:x-2}") == source_line(text, "{% include", 1)
    assert report.converted["figure"] == 2


def test_figure_ids_are_unique_across_chapters(make_book: BookMaker) -> None:
    include = '{% include figure.liquid path="assets/img/same.png" %}'
    root = make_book(
        {
            "_config.yml": CONFIG,
            "a.md": post(include, number=1),
            "b.md": post(include, title="둘", number=2),
        },
        metadata={"dialect": "distill"},
    )
    book = load_book(root)
    convert_book(book)
    assert "{#fig:same}" in book.chapters[0].text
    assert "{#fig:same-2}" in book.chapters[1].text


def test_figure_include_without_path_is_named(make_book: BookMaker) -> None:
    _chapter, report, text = build(make_book, "x\n\n{% include figure.liquid caption='c' %}")
    line = source_line(text, "{% include")
    assert ("DIA106", line) in codes(report)
    assert ("DIA101", line) in codes(report)  # left in the text, named


# ------------------------------------------------------------------------ details


def test_details_nested_with_korean_label(make_book: BookMaker) -> None:
    body = (
        "질문.\n{% details 답을 보려면 클릭하세요 %}\n**답:** 42.\n"
        '{% details 더 "자세히" %}\n안쪽.\n{% enddetails %}\n{% enddetails %}\n끝.'
    )
    chapter, report, text = build(make_book, body)
    assert '\n\n::: {.details summary="답을 보려면 클릭하세요"}\n\n**답:** 42.' in chapter.text
    assert '::: {.details summary="더 \\"자세히\\""}' in chapter.text
    assert chapter.text.count("\n:::\n") == 2
    assert report.converted["details"] == 2
    assert converted_line(chapter, '{.details summary="답') == source_line(text, "{% details")
    assert converted_line(chapter, "안쪽.") == source_line(text, "안쪽.")
    assert converted_line(chapter, "끝.") == source_line(text, "끝.")


def test_unbalanced_details_warn_with_their_line(make_book: BookMaker) -> None:
    body = "{% enddetails %}\n\n문단.\n\n{% details 열기 %}\n\n내용."
    chapter, report, text = build(make_book, body)
    assert ("DIA102", source_line(text, "{% enddetails")) in codes(report)
    assert ("DIA102", source_line(text, "{% details")) in codes(report)
    assert "{% details 열기 %}" in chapter.text  # kept


# ------------------------------------------------------------------- distill tags


def test_footnote_multi_line_with_math_link_and_brackets(make_book: BookMaker) -> None:
    body = (
        "문장<d-footnote>주석 $$x_1$$와\n"
        '<a href="https://e.org">링크</a> [괄호] 그리고 ] 하나.</d-footnote> 다음.\n\n'
        "다음 문단."
    )
    chapter, report, text = build(make_book, body)
    assert (
        "문장^[주석 $x_1$와\n[링크](https://e.org) [괄호] 그리고 \\] 하나.] 다음." in chapter.text
    )
    assert converted_line(chapter, "[링크]") == source_line(text, "<a href")
    assert converted_line(chapter, "다음 문단.") == source_line(text, "다음 문단.")
    assert report.converted["footnote"] == 1


def test_footnote_of_several_paragraphs_is_a_note_after_its_paragraph(
    make_book: BookMaker,
) -> None:
    body = "문장<d-footnote>첫째.\n\n둘째.</d-footnote> 끝.\n\n다음."
    chapter, _report, text = build(make_book, body)
    assert "문장[^d1] 끝.\n\n[^d1]: 첫째.\n\n    둘째.\n\n다음." in chapter.text
    assert converted_line(chapter, "다음.") == source_line(text, "다음.")


def test_cite_keys_become_citations(make_book: BookMaker) -> None:
    body = 'Transformer<d-cite key="vaswani, shazeer2019"></d-cite>.\n\n<d-cite></d-cite>'
    chapter, report, text = build(make_book, body)
    assert "Transformer[@vaswani; @shazeer2019]." in chapter.text
    assert report.converted["citation"] == 2
    assert ("DIA122", source_line(text, "<d-cite></d-cite>")) in codes(report)


def test_wrappers_dropped_with_info_and_unknown_elements_named(make_book: BookMaker) -> None:
    body = "<d-article>\n\n본문.\n\n</d-article>\n\n<d-byline></d-byline>\n\n<d-widget>x</d-widget>"
    chapter, report, text = build(make_book, body)
    assert "<d-article>" not in chapter.text and "본문." in chapter.text
    assert "<d-byline>" not in chapter.text
    assert ("DIA120", source_line(text, "<d-article>")) in codes(report)
    assert ("DIA121", source_line(text, "<d-widget>")) in codes(report)


def test_d_code_and_d_math(make_book: BookMaker) -> None:
    body = (
        '<d-code block language="python">\nx = "{% details %}"\n</d-code>\n\n<d-math>a+b</d-math>'
    )
    chapter, report, text = build(make_book, body)
    assert '```python\nx = "{% details %}"\n```' in chapter.text  # code: never rewritten
    assert "$a+b$" in chapter.text
    assert converted_line(chapter, "```python") == source_line(text, "<d-code")
    assert not report.problems


# --------------------------------------------------------------------- kramdown math


def test_inline_and_display_dollars(make_book: BookMaker) -> None:
    body = (
        "문장 속 $$ x + y $$ 수식.\n\n"
        "$$\\begin{align*}\na &= b \\\\[0.5em]\nc &= d\n\\end{align*}$$\n\n"
        "- $$z$$\n\n"
        "코드 `$$q$$` 그대로.\n\n```\n$$w$$ in code\n```"
    )
    chapter, report, text = build(make_book, body)
    assert "문장 속 $x + y$ 수식." in chapter.text
    assert "$$\\begin{align*}\na &= b \\\\[0.5em]\nc &= d\n\\end{align*}$$" in chapter.text
    assert "- $$z$$" in chapter.text  # a list item of only math: display (kramdown)
    assert "`$$q$$`" in chapter.text and "$$w$$ in code" in chapter.text
    assert report.converted["math-inline"] == 1 and report.converted["math-display"] == 2
    assert converted_line(chapter, "c &= d") == source_line(text, "c &= d")


def test_display_block_with_blank_lines_is_one_formula(make_book: BookMaker) -> None:
    body = "$$\n\\def\\red#1{#1}\n\n\\red{x}\n$$\n\n뒤 $$y$$ 문장."
    chapter, _report, text = build(make_book, body)
    assert "$$\n\\def\\red#1{#1}\n\\red{x}\n$$" in chapter.text
    assert "뒤 $y$ 문장." in chapter.text
    assert converted_line(chapter, "\\red{x}") == source_line(text, "\\red{x}")


def test_unclosed_dollars_warn_with_their_line(make_book: BookMaker) -> None:
    _chapter, report, text = build(make_book, "앞.\n\n열린 $$x 수식.\n\n뒤.")
    assert ("DIA140", source_line(text, "열린")) in codes(report)


def test_single_dollar_math_loses_kramdown_escapes(make_book: BookMaker) -> None:
    body = "합 $[F]\\\\{U_Y\\\\} \\to F$ 그리고 $$\\\\{a\\\\}$$."
    chapter, _report, text = build(make_book, body)
    assert "$[F]\\{U_Y\\} \\to F$" in chapter.text
    assert "$\\\\{a\\\\}$" in chapter.text  # $$ math is verbatim in kramdown
    assert converted_line(chapter, "U_Y") == source_line(text, "U_Y")


# ------------------------------------------------------------------ markdown=1 HTML


def test_takeaway_paragraph_becomes_a_callout(make_book: BookMaker) -> None:
    body = '앞 문단\n<p markdown=1 class="takeaway">**요점:** $$B$$가 크다.</p>\n뒤 문단'
    chapter, report, text = build(make_book, body)
    assert "\n\n::: {.callout-takeaway}\n\n**요점:** $B$가 크다.\n\n:::\n\n" in chapter.text
    assert converted_line(chapter, "**요점:**") == source_line(text, "<p markdown=1")
    assert converted_line(chapter, "뒤 문단") == source_line(text, "뒤 문단")
    assert report.converted["takeaway"] == 1


def test_markdown_div_heading_and_bold(make_book: BookMaker) -> None:
    body = (
        '<div markdown=1 class="algorithm">\n\n1. 첫 단계\n2. 둘째\n</div>\n\n'
        '<h3 markdown=1 class="next-section">다음은 [2부](tpus)입니다.</h3>\n\n'
        '<b markdown=1 style="color: red;">퀴즈:</b> 문제.\n\n'
        "<div markdown=1>\n열림"
    )
    chapter, report, text = build(make_book, body)
    assert "::: {.algorithm}\n\n1. 첫 단계\n2. 둘째\n\n:::" in chapter.text
    assert "::: {.next-section}\n\n다음은 [2부](tpus)입니다.\n\n:::" in chapter.text
    assert "**퀴즈:** 문제." in chapter.text
    assert converted_line(chapter, "2. 둘째") == source_line(text, "2. 둘째")
    assert ("DIA130", source_line(text, "<div markdown=1>\n")) in codes(report)


def test_html_heading_becomes_markdown(make_book: BookMaker) -> None:
    chapter, _report, text = build(make_book, '<h3 id="jit">jax.jit: <i>auto</i></h3>\n\n본문.')
    assert "### jax.jit: *auto* {#jit}" in chapter.text
    assert converted_line(chapter, "### jax.jit") == source_line(text, "<h3")


# ------------------------------------------------------------------------- embeds


def test_l_page_iframe_becomes_an_embed_with_its_static_image(make_book: BookMaker) -> None:
    body = (
        '앞.\n\n<div class="l-page">\n  <iframe src="{{ \'assets/plotly/p.html\' | relative_url }}"'
        ' frameborder=\'0\' height="400px" width="100%"></iframe>\n</div>\n\n'
        '<iframe src="/assets/plotly/q.html"></iframe>'
    )
    files: dict[str, str | bytes] = {"assets/plotly/p.html": "<p>x</p>", "assets/plotly/p.svg": ""}
    chapter, report, text = build(make_book, body, files)
    assert (
        '::: {.embed src="assets/plotly/p.html" image="assets/plotly/p.svg" '
        'height="400px" width="100%"}\n:::' in chapter.text
    )
    assert '::: {.embed src="assets/plotly/q.html"}\n:::' in chapter.text
    assert converted_line(chapter, "p.html") == source_line(text, '<div class="l-page">')
    assert report.converted["embed"] == 2


# ------------------------------------------------------------------------- Liquid


def test_liquid_decorations_and_leftovers(make_book: BookMaker) -> None:
    body = (
        "{% raw %}{{ kept }} {% details x %}{% endraw %}\n\n"
        "{% comment %}\n숨김\n{% endcomment %}\n\n"
        "제목: {{ site.title }}, 쪽: {{ page.title }}, 없음: [{{ site.nothing }}]\n\n"
        "{% tabs t %}\n\n"
        "```\n{% details in code %}\n```\n\n`{{ inline }}`\n\n"
        "{% cite a b %}"
    )
    chapter, report, text = build(make_book, body)
    assert "{{ kept }} {% details x %}" in chapter.text
    assert "숨김" not in chapter.text
    assert "제목: 사이트 제목, 쪽: 첫 장, 없음: []" in chapter.text
    assert "{% details in code %}" in chapter.text and "`{{ inline }}`" in chapter.text
    assert "[@a; @b]" in chapter.text
    found = codes(report)
    assert ("DIA101", source_line(text, "{% tabs")) in found
    assert ("DIA110", source_line(text, "{% raw")) in found
    assert ("DIA111", source_line(text, "{% comment")) in found
    assert ("DIA112", source_line(text, "{{ site.title")) in found
    assert [c for c, _ in found].count("DIA101") == 1  # code is not Liquid left over


@pytest.mark.parametrize("name", ["figure.liquid", "figure.html"])
def test_convert_keeps_one_origin_per_line(make_book: BookMaker, name: str) -> None:
    body = (
        f'{{% include {name} path="a.png" caption="c" %}}\n\n'
        "{% details d %}\n\nx\n\n{% enddetails %}"
    )
    chapter, _report, _text = build(make_book, body)
    assert len(chapter.origins) == chapter.text.count("\n") + 1
    assert all(path == chapter.path for path, _line in chapter.origins)
    assert isinstance(chapter.path, Path)
