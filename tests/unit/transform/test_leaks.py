"""LEAK001: syntax of another dialect left after the transforms, with the source line.

Each fixture puts one foreign construct on line 5 of a chapter (a heading and
a Korean paragraph come first) and runs load → normalize → parse → transform.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.cache import Cache
from kobook.check import Settings, check_text
from kobook.errors import Diagnostic
from kobook.load import load_book
from kobook.normalize import normalize_book
from kobook.parse import parse_book
from kobook.transform import PASSES, transform_book
from kobook.transform.leaks import undrawable_html
from kobook.write import registry
from tests.conftest import REPO, BookMaker

HEAD = "# 첫 장\n\n한국어로 쓴 문단이 먼저 나온다.\n\n"  # the construct starts on line 5
TAIL = "\n\n마지막 문단이다.\n"


def transformed(root: Path) -> list[Diagnostic]:
    book = load_book(root)
    normalize_book(book)
    docs = parse_book(book, Cache(root / ".kobook-cache"))
    _, ctx = transform_book(book, docs, keep_going=True, offline=True)
    return ctx.diagnostics


def leaks(make_book: BookMaker, body: str) -> list[Diagnostic]:
    root = make_book({"book/01-leak.md": HEAD + body + TAIL}, metadata={"title": "책"})
    return [d for d in transformed(root) if d.code.startswith("LEAK")]


CASES = [
    # (id, text from line 5 on, what the message names, line of the construct, its first characters)
    (
        "liquid-tag",
        '{% include figure.liquid path="images/a.png" class="img-fluid" caption="A plot" %}',
        "Liquid tag {% include … %}",
        5,
        "{%",
    ),
    ("liquid-output", "책 제목은 {{ page.title }}이다.", "Liquid output {{ page.title }}", 5, "{{"),
    (
        "mdbook",
        "{{#include ../listings/ch01/main.rs:here}}",
        "mdBook directive {{#include …}}",
        5,
        "{{#",
    ),
    (
        "mdbook-in-code",
        "```rust\n{{#rustdoc_include ../listings/ch01/main.rs}}\n```",
        "mdBook directive {{#rustdoc_include …}}",
        6,
        "{{#",
    ),
    (
        "d-footnote",
        "본문이다.<d-footnote>각주로 보일 내용.</d-footnote> 계속된다.",
        "distill element <d-footnote>",
        5,
        "<d-footnote",
    ),
    (
        "d-cite",
        '앞선 연구<d-cite key="smith2020,kim2021"></d-cite>를 따른다.',
        "distill element <d-cite>",
        5,
        "<d-cite",
    ),
    (
        "kramdown-ial",
        "강조할 문단이다.\n{: .takeaway}",
        "kramdown attribute list {: .takeaway}",
        6,
        "{:",
    ),
    (
        "markdown-attr-block",
        '<p markdown="1" class="takeaway">**요점:** 통신이 병목이다.</p>',
        'markdown="1" on <p>',
        5,
        "<p",
    ),
    (
        "markdown-attr-inline",
        '문장 안의 <span markdown="1">*강조*</span>도 있다.',
        'markdown="1" on <span>',
        5,
        "<span",
    ),
    ("label", "## 절 제목\n:label:`sec_intro`", "role :label:`…`", 6, ":label:"),
    ("numref", "그림 :numref:`fig_pipeline`를 보라.", "role :numref:`…`", 5, ":numref:"),
    ("eqref", "식 :eqref:`eq_loss`에서", "role :eqref:`…`", 5, ":eqref:"),
    ("cite", "선행 연구 :cite:`Vaswani.2017`를 참고한다.", "role :cite:`…`", 5, ":cite:"),
    (
        "begin-tab",
        ":begin_tab:`pytorch`\n파이토치 설명.\n:end_tab:",
        "tab marker :begin_tab:",
        5,
        ":begin_tab:",
    ),
    ("end-tab", "파이토치 설명.\n\n:end_tab:", "tab marker :end_tab:", 7, ":end_tab:"),
    (
        "tab-code",
        "```python\n#@tab pytorch\nx = torch.ones(3)\n```",
        "tab marker #@tab",
        6,
        "#@tab",
    ),
    ("div-fence", ":::", "unmatched :::", 5, ":::"),
    ("div-fence-opening", "문단 바로 다음 줄의\n::: note\n여는 표시.", "unmatched :::", 6, ":::"),
    ("dollars", "달러 두 개 $$ 만 남았다.", "leftover $$", 5, "$$"),
    # Other dialects' syntax in a book built as pandoc Markdown (issue 29).
    (
        "mkdocs-admonition",
        '!!! note "참고"\n    상자 안의 글.',
        "MkDocs block marker !!!",
        5,
        "!!!",
    ),
    ("mkdocs-tab", '=== "탭"\n    탭 안의 글.', "MkDocs block marker ===", 5, "==="),
    ("mkdocs-snippet", '--8<-- "shared.md"', "MkDocs snippet", 5, "--8<--"),
    ("mkdocs-icon", "집 :material-home: 아이콘.", "Material icon :material-home:", 5, ":material"),
    (
        "quarto-shortcode",
        "{{< include _common.qmd >}}",
        "Quarto/Hugo shortcode {{< include … >}}",
        5,
        "{{<",
    ),
    ("hugo-shortcode", "{{% notice tip %}}", "shortcode {{< notice … >}}", 5, "{{%"),
    ("bookdown-ref", r"그림 \@ref(fig:cars)을 보라.", "bookdown cross-reference", 5, "\\@ref"),
    ("bookdown-part", "# (PART) 첫 부 {-}", "bookdown part marker (PART)", 5, "(PART)"),
    (
        "knitr-chunk",
        '```{r cars, fig.cap="자동차"}\nplot(cars)\n```',
        "code chunk ```{r}",
        5,
        "```",
    ),
    (
        "quarto-chunk",
        "```{python}\n#| label: fig-x\nprint(1)\n```",
        "code chunk ```{python}",
        5,
        "```",
    ),
]


@pytest.mark.parametrize(
    ("body", "named", "line", "start"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_each_foreign_construct_is_leak001_at_its_line(
    make_book: BookMaker, body: str, named: str, line: int, start: str
) -> None:
    found = leaks(make_book, body)
    first = [d for d in found if named in d.message]
    assert first, [d.message for d in found]
    diagnostic = first[0]
    assert diagnostic.code == "LEAK001" and diagnostic.severity == "warning"
    assert diagnostic.location.file is not None
    assert diagnostic.location.file.name == "01-leak.md"
    source_line = (HEAD + body).split("\n")[line - 1]
    assert (diagnostic.location.line, diagnostic.location.col) == (
        line,
        source_line.index(start) + 1,
    )
    assert diagnostic.hint
    if "tab" not in named:
        assert len(found) == 1, [d.format() for d in found]


def test_begin_and_end_tab_are_two_occurrences(make_book: BookMaker) -> None:
    found = leaks(make_book, ":begin_tab:`pytorch`\n파이토치 설명.\n:end_tab:")
    assert [(d.location.line, "end_tab" in d.message) for d in found] == [(5, False), (7, True)]


def test_leaks_is_the_last_pass() -> None:
    assert PASSES[-1][0] == "leaks"


def test_repeated_constructs_each_get_their_own_line(make_book: BookMaker) -> None:
    body = (
        "앞 문단 {{ site.title }}.[^1]\n\n"  # line 5
        "가운데 문단.\n\n"
        "뒤 문단 {{ site.title }}와 {{ page.url }}.\n\n"  # line 9
        "[^1]: 각주 안의 {{ page.author }}."  # line 11: the note is read where it is used
    )
    found = leaks(make_book, body)
    placed = sorted((d.location.line, d.message.split("{{ ")[1].split(" }}")[0]) for d in found)
    assert placed == [(5, "site.title"), (9, "page.url"), (9, "site.title"), (11, "page.author")]


NOT_LEAKS = [
    ("fenced-code", '```liquid\n{% include figure.liquid path="a.png" %}\n{{ page.title }}\n```'),
    ("indented-code", "    {% raw %}\n    <d-footnote>x</d-footnote>\n    :numref:`x`"),
    ("code-block-html", '```html\n<p markdown="1">x</p>\n<d-cite key="a"></d-cite>\n```'),
    ("inline-code", "`{% if x %}`, `{{ y }}`, `<d-footnote>`, `{: .x}`, `:::` 는 코드다."),
    ("math", "식 $x^{{2}}$ 와 $$\\frac{{a}}{{b}}$$ 는 수식이다."),
    ("paired-dollars", "앞 $$a + b$$ 와 뒤 $$c$$ 는 짝이 맞다."),
    ("escaped-dollars", "그냥 글자 \\$\\$ 이다."),
    (
        "fenced-div",
        '::: note\n참고 상자 안의 글.\n:::\n\n:::: {.warning title="주의"}\n경고.\n::::',
    ),
    ("comment", "<!-- {% include hidden.html %} <d-footnote> -->"),
    ("jinja-in-code-span", "템플릿 `{{ name | upper }}`을 쓴다."),
    ("plain-html", '<span class="x">보이는 글</span>과 <sup>1</sup>'),
    ("pandoc-attributes", "[글]{.smallcaps} 과 ![](images/none.png){#fig:x width=50%}"),
    ("colons-in-prose", "비율은 3:2 이고 시간은 12:30 이다. 딕셔너리 {a: 1}."),
]


@pytest.mark.parametrize("body", [c[1] for c in NOT_LEAKS], ids=[c[0] for c in NOT_LEAKS])
def test_code_math_and_pandoc_syntax_are_not_leaks(make_book: BookMaker, body: str) -> None:
    assert leaks(make_book, body) == []


def test_sample_book_has_no_leaks() -> None:
    book = load_book(REPO)
    normalize_book(book)
    import tempfile

    with tempfile.TemporaryDirectory() as cache:
        docs = parse_book(book, Cache(Path(cache)))
        docs, ctx = transform_book(book, docs, keep_going=True, offline=True)
    assert [d for d in ctx.diagnostics if d.code.startswith("LEAK")] == []
    for engine in registry.writers():
        assert [u for d in docs for u in undrawable_html(d.blocks, engine.draws)] == []


def test_kobook_ignore_comment_silences_leak001(make_book: BookMaker) -> None:
    assert leaks(make_book, "<!-- kobook-ignore LEAK001 -->\n{{ page.title }}를 둔다.") == []


# --------------------------------------------------------------- kobook check


def test_check_rule_reports_the_same_constructs_where_written() -> None:
    text = HEAD + "\n\n".join(case[1] for case in CASES) + TAIL
    findings = check_text(text, Path("x.md"), Settings(select={"LEAK001"}))
    messages = [f.message for f in findings]
    for _, _, named, _, _ in CASES:
        assert any(named in m for m in messages), named
    first = findings[0]
    assert first.rule == "LEAK001" and first.severity == "warning" and first.replacement is None
    assert text[first.start : first.end].startswith("{% include figure.liquid")
    quiet = "\n\n".join(body for _, body in NOT_LEAKS)
    assert check_text(quiet, None, Settings(select={"LEAK001"})) == []


def test_check_skips_front_matter() -> None:
    text = '---\ntitle: "{{ site.title }}"\nlayout: distill\n---\n\n# 장\n\n{{ x }}\n'
    findings = check_text(text, None, Settings(select={"LEAK001"}))
    assert [text[f.start : f.end] for f in findings] == ["{{ x }}"]


# ------------------------------------------------------------------ LEAK002


def raw_html_blocks(html: str) -> list[dict[str, object]]:
    from kobook.parse.pandoc import markdown_to_ast

    return list(markdown_to_ast(html)["blocks"])


def test_undrawable_html_depends_on_the_engine() -> None:
    blocks = raw_html_blocks(
        '<iframe src="plot.html"></iframe>\n\n<img src="a.png">\n\n'
        '<span class="x">글</span> <sup>1</sup> <br> <b>굵게</b>\n\n'
        '<Listing number="1-1">\n\n코드\n\n</Listing>\n\n'
        "<svg><g><path d='M0 0'/><text>t</text></g></svg>\n\n"
        "<d-footnote>LEAK001 already</d-footnote>"
    )
    lost = {
        engine: [tag for tag, _ in undrawable_html(blocks, registry.get(engine).draws)]
        for engine in registry.pdf_engines()
    }
    assert lost["weasyprint"] == ["iframe", "Listing"]
    # pandoc's LaTeX and Typst writers drop raw HTML tags and keep the text between them
    assert lost["xelatex"] == lost["typst"] == ["iframe", "img", "Listing", "svg"]


def test_leak_hints_name_the_dialects_that_exist() -> None:
    """The hints once said `dialect: mdbook`/`distill` were "coming" (issue 35)."""
    from kobook.dialect import DIALECTS
    from kobook.transform.leaks import HINTS

    assert not [hint for hint in HINTS.values() if "coming" in hint]
    for name in ("mdbook", "distill"):
        assert name in DIALECTS and any(f"dialect: {name}" in hint for hint in HINTS.values())
