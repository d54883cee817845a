"""No fixer ever changes code, math, URLs, raw HTML, front matter or attributes.

Each fixing rule's "bad" text is placed in every protected context; the
context comes out byte for byte.  Every document also carries the same bad text
in ordinary prose, which must be fixed, so a fixer that stopped working (and
so trivially "protected" everything) fails here too.
"""

from __future__ import annotations

import pytest

from kobook.check import Settings, fix_text
from kobook.check.glossary import Term

from .util import NFD_SCREENSHOT

SETTINGS = Settings(
    fix_emphasis=True,
    glossary={
        "terms": [Term("data parallelism", "데이터 병렬화", ("데이터 병렬 처리",))],
    },
    glossary_first_use=False,
)

# rule -> (bad text, its fixed form in prose).  ``compact`` ones have no ASCII
# space, so they also fit inside a URL.
BAD = {
    "KO001": (f"{NFD_SCREENSHOT}을", "스크린샷을"),
    "KO002": ("보이지\u200b않는", "보이지않는"),
    "KO003": ("메모리\u00a0사용량", "메모리 사용량"),
    "KO003-run": ("메모리  사용량", "메모리 사용량"),
    "KO004": ("ＧＰＵ，", "GPU,"),
    "KO005": ("단어 .", "단어."),
    "KO006": ("입력ㆍ출력", "입력·출력"),
    "KO007": ('"한국어"', "“한국어”"),
    "KO008": ("그리고...", "그리고…"),
    "KO009": ("GPU을", "GPU를"),
    "KO010": ("**커널(kernel)**이라고", "**커널**(kernel)이라고"),
    "KO012": ("데이터 병렬 처리", "데이터 병렬화"),
    "FIG001": ("Figure 3", "그림 3"),
}
COMPACT = {"KO001", "KO002", "KO004", "KO006", "KO008", "KO009"}

CONTEXTS = {
    "inline-code": ("앞 `{bad}` 뒤", "`{bad}`"),
    "double-backtick-code": ("앞 `` a`b {bad} `` 뒤", "`` a`b {bad} ``"),
    "fenced-code": ("앞 문장.\n\n```python\n# {bad}\nx = 1  # {bad}\n```\n\n뒤", "```python"),
    "tilde-fence": ("앞 문장.\n\n~~~\n{bad}\n~~~\n\n뒤", "~~~\n{bad}\n~~~"),
    "indented-code": ("앞 문장.\n\n    {bad}\n\n뒤", "    {bad}\n"),
    # pandoc's attributes with a code span in them (the mdBook dialect writes a listing's
    # caption there): CommonMark reads no fence there, pandoc reads a code block.
    "fence-code-in-attributes": (
        '앞 문장.\n\n```{{.rust caption="`let...else` 보기"}}\n{bad}\n```\n\n뒤',
        '```{{.rust caption="`let...else` 보기"}}\n{bad}\n```',
    ),
    "fence-in-list": ("- 항목\n\n  ```\n  {bad}\n  ```\n\n뒤", "  ```\n  {bad}\n  ```"),
    "fence-in-quote": ("> 인용\n>\n> ```\n> {bad}\n> ```\n\n뒤", "> ```\n> {bad}\n> ```"),
    "inline-math": ("앞 $x{bad}y$ 뒤", "$x{bad}y$"),
    "display-math-inline": ("앞 $${bad}$$ 뒤", "$${bad}$$"),
    "display-math-block": ("앞 문장.\n\n$$\n\\text{{{bad}}}\n$$\n\n뒤", "$$\n\\text{{{bad}}}\n$$"),
    "html-attribute": ('<span title="{bad}">앞</span> 뒤', '<span title="{bad}">'),
    "html-attribute-single": (
        "앞 <img alt='{bad}' src='a.png'> 뒤",
        "<img alt='{bad}' src='a.png'>",
    ),
    "html-comment": ("앞 <!-- {bad} --> 뒤", "<!-- {bad} -->"),
    "html-block": ('<div class="x" title="{bad}">\n{bad}\n</div>\n\n뒤', "</div>"),
    "front-matter": (
        "---\ntitle: {bad}\nnote: {bad}\n---\n\n뒤",
        "---\ntitle: {bad}\nnote: {bad}\n---",
    ),
    "heading-attributes": (
        '# 제목 {{#sec:x .cls title="{bad}"}}\n\n뒤',
        '{{#sec:x .cls title="{bad}"}}',
    ),
    "span-attributes": ('[앞]{{.cls data-x="{bad}"}} 뒤', '{{.cls data-x="{bad}"}}'),
    "link-title": ('[앞](http://x/a "{bad}") 뒤', '(http://x/a "{bad}")'),
    "link-definition": ('[ref]: http://x/a "{bad}"\n\n뒤', '[ref]: http://x/a "{bad}"'),
}
URL_CONTEXTS = {
    "link-url": ("[앞](http://x/a...b/{bad}) 뒤", "(http://x/a...b/{bad})"),
    "image-url": ("![캡션](images/{bad}.png) 뒤", "(images/{bad}.png)"),
    "bare-url": ("보라 http://x/a...b/{bad}/end 뒤", "http://x/a...b/{bad}/end"),
    "www-url": ("보라 www.example.com/a...b/{bad}/end 뒤", "www.example.com/a...b/{bad}/end"),
    "autolink": ("보라 <http://x/a...b/{bad}> 뒤", "<http://x/a...b/{bad}>"),
}


def cases() -> list[object]:
    params = []
    for rule, (bad, fixed) in BAD.items():
        for name, (template, kept) in CONTEXTS.items():
            params.append(pytest.param(rule, bad, fixed, template, kept, id=f"{rule}-{name}"))
        if rule in COMPACT:
            for name, (template, kept) in URL_CONTEXTS.items():
                params.append(pytest.param(rule, bad, fixed, template, kept, id=f"{rule}-{name}"))
    return params


@pytest.mark.parametrize(("rule", "bad", "fixed", "template", "kept"), cases())
def test_protected_context_is_byte_identical(
    rule: str, bad: str, fixed: str, template: str, kept: str
) -> None:
    body = template.format(bad=bad)
    protected = kept.format(bad=bad)
    assert protected in body
    # Alone: nothing to fix at all.
    text = body + "\n"
    assert fix_text(text, None, SETTINGS)[0] == text
    # With the same bad text in prose after it: the prose is fixed, the context is not.
    text = f"{body}\n\n마지막 문장은 {bad} 끝\n"
    out, _ = fix_text(text, None, SETTINGS)
    assert out.startswith(body + "\n\n"), out
    assert out.endswith(f"마지막 문장은 {fixed} 끝\n"), out
    assert out.count(protected) == text.count(protected)


MKDOCS = """# 장

!!! note "참고"
    본문은 들여 쓴다.

??? warning "접기"
    접힌 본문.

???+ tip "열린 접기"
    열린 본문.

=== "파이썬"

    탭 본문.

그는 "인용"이라고 말했다.
"""


def test_dialect_block_markers_keep_their_straight_quotes() -> None:
    """KO007 curled the quotes of MkDocs admonition and tab titles (87 lines of one
    repository), which MkDocs needs straight; the quotes in prose are still curled."""
    out, _ = fix_text(MKDOCS, None, SETTINGS)
    for marker in ('!!! note "참고"', '??? warning "접기"', '???+ tip "열린 접기"', '=== "파이썬"'):
        assert marker in out, out
    assert "그는 “인용”이라고 말했다." in out
