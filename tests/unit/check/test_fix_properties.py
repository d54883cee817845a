"""Property: ``--fix`` changes only prose, as pandoc itself reads the file.

The generator (in the style of ``test_properties.py``) writes documents that
mix Korean prose carrying every fixable problem with what must never change
and what makes the source layer and pandoc disagree: a stray backtick before
a code span, ``$`` that is money and ``$`` that is math, a bold span holding
a line of only U+00A0, full-width punctuation right before ``[`` or after
``]``, reference definitions with a comment after them, ``~~~`` and indented
code, raw HTML, and CR, CRLF or LF line endings.

The property compares pandoc's AST before and after the rules' fixes with the
prose masked out (``kobook.check.proof``): without the proof step, so that a
hole in a rule's own protection is found here, not papered over.  The proof
step itself must accept the result, and fixing is idempotent.

The examples are derandomized (the same documents on every run, so CI is
deterministic); ``KOBOOK_FIX_EXAMPLES`` raises their number for a longer hunt.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kobook.check import Settings, fix_text
from kobook.check.proof import Proof, identifiers, proven_fix, structure
from kobook.files.reading import unify_newlines
from kobook.files.textfile import line_endings, restore_newlines

from .test_properties import BAD, CLEAN

SETTINGS = Settings(fix_emphasis=True)
EXAMPLES = int(os.environ.get("KOBOOK_FIX_EXAMPLES", "400"))
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# "를 본다" after code, math, a link or a Latin word is KO013's space before a particle.
PROSE = [*BAD, *CLEAN, "한국어 문장에서", "기호를 씁니다.", "좋습니다", "참고"]
PROSE += ["를 본다", "와 함께"]
CODE = ["ls ...", '"x"', "a  b", "GPU을", "x ,y", "！[a](b)", "…", "$HOME"]
MATH = ["x", "a...b", "x_{\u00a0}", r"\text{GPU을}", "x , y"]
URLS = ["https://example.com/a...b", "https://example.com/GPU을", "images/a.png"]
ODD = ["\u00a0", "\u3000", "\u00a0\u00a0", " \u00a0 "]
PLAIN = [p for p in PROSE if "*" not in p]
FULL = ["！", "？", "，", "（", "：", "．", "－", "＋", "＝"]


@dataclass
class Doc:
    text: str  # with the generated line endings
    newline: str


@st.composite
def documents(draw: st.DrawFn) -> Doc:
    def pick(items: list[str]) -> str:
        return draw(st.sampled_from(items))

    def inline(bold: bool = False) -> str:
        """One inline piece; inside a bold span, no ``**`` of its own (bold in bold
        is not something a translator writes, and pandoc pairs it unpredictably)."""
        prose = PLAIN if bold else PROSE
        kinds = ["prose"] * 4 + ["tick", "tick", "code", "code", "code2", "math", "dmath", "money"]
        kinds += ["link", "image", "ref", "full", "auto", "cite", "comment", "html", "quote"]
        kind = pick(kinds if bold else [*kinds, "bold"])
        if kind == "tick":  # a stray backtick in prose
            return f"{pick(prose)} ` {pick(prose)}"
        if kind == "code":
            return f"`{pick(CODE)}`"
        if kind == "code2":
            return f"`` a`b {pick(CODE)} ``"
        if kind == "math":
            return f"${pick(MATH)}$"
        if kind == "dmath":
            return f"$${pick(MATH)}$$"
        if kind == "money":
            return f"${pick(['5', '10', '3.50'])} {pick(prose)}"
        if kind == "link":
            return f"[{pick(prose)}]({pick(URLS)})"
        if kind == "image":
            return f"![{pick(prose)}]({pick(URLS)})"
        if kind == "ref":
            return f"[{pick(prose)}][ref]"
        if kind == "full":  # full-width punctuation right before "[" or after "]"
            mark = pick(FULL)
            return pick([f"좋습니다{mark}[문서]({pick(URLS)})", f"[문서]{mark}{pick(prose)}"])
        if kind == "bold":
            after = pick(["", "이", " 다음", " 를"])
            return f"**{pick(ODD)}{pick(PLAIN)}{pick([*ODD, ''])}**{after}"
        if kind == "auto":
            return f"<{pick(URLS[:2])}>"
        if kind == "cite":
            return pick(["[@doe99, p. 3]", "@doe99", "[-@doe99]"])
        if kind == "comment":
            return f"<!-- {pick(prose)} -->"
        if kind == "html":
            return f'<span title="{pick(prose)}">{pick(prose)}</span>'
        if kind == "quote":
            return f'"{pick(prose)}"'
        return pick(prose)

    def line(bold: bool = False) -> str:
        return " ".join(["문장", *(inline(bold) for _ in range(draw(st.integers(1, 4))))])

    blocks = []
    for _ in range(draw(st.integers(1, 7))):
        kind = pick(
            ["para"] * 3
            + ["tick", "bold", "head", "list", "fence", "tilde", "indent"]
            + ["mathblock", "quote", "refdef", "htmlblock", "table"]
        )
        if kind == "para":
            blocks.append("\n".join(line() for _ in range(draw(st.integers(1, 3)))))
        elif kind == "tick":  # a stray backtick, a code span in the next paragraph
            blocks.append(f"{pick(PROSE)} ` {pick(PROSE)}\n\n명령은 `{pick(CODE)}` {line()}")
        elif kind == "bold":  # a bold span over lines, one of only odd spaces
            blocks.append(f"**{line(True)}\n{pick(ODD)}\n{line(True)}** 끝")
        elif kind == "head":
            blocks.append(f"{'#' * draw(st.integers(1, 3))} {line()}")
        elif kind == "list":
            marker = pick(["-", "*", "1."])
            blocks.append("\n".join(f"{marker} {line()}" for _ in range(draw(st.integers(1, 3)))))
        elif kind == "fence":
            blocks.append(f"```{pick(['', 'python'])}\n{pick(PROSE)}\n{pick(CODE)}\n```")
        elif kind == "tilde":
            blocks.append(f"~~~\n{pick(PROSE)} {pick(CODE)}\n~~~")
        elif kind == "indent":
            blocks.append(f"    {pick(PROSE)}\n    {pick(CODE)}")
        elif kind == "mathblock":
            blocks.append(f"$$\n{pick(MATH)}\n$$")
        elif kind == "quote":
            blocks.append(f"> {line()}")
        elif kind == "refdef":
            title = pick(["", f' "{pick(PROSE)}"'])
            comment = pick(["", f" <!-- {pick(PROSE)} -->"])
            blocks.append(f"[ref]: {pick(URLS)}{title}{comment}")
        elif kind == "htmlblock":
            blocks.append(f'<div title="{pick(PROSE)}">\n{pick(PROSE)}\n</div>')
        else:
            blocks.append(f"| {pick(PROSE)} | {pick(CODE)} |\n|---|---|\n| {line()} | x |")
    newline = pick(["\n", "\n", "\r\n", "\r"])
    text = "\n\n".join(blocks) + "\n"
    return Doc(text.replace("\n", newline), newline)


def fix(text: str) -> str:
    return fix_text(text, None, SETTINGS)[0]


@PROPERTY
@given(documents())
def test_fixes_change_only_prose_as_pandoc_reads_it(doc: Doc) -> None:
    text = unify_newlines(doc.text)
    fixed = fix(text)
    proof = Proof(text)
    assert proof.accepts(fixed), proof.why
    assert fix(fixed) == fixed
    # Written back, every line keeps its ending.
    assert set(line_endings(restore_newlines(fixed, line_endings(doc.text)))) == {doc.newline}


@settings(max_examples=max(EXAMPLES // 5, 20), deadline=None, derandomize=True, database=None)
@given(documents())
def test_proven_fix_is_idempotent(doc: Doc) -> None:
    text = unify_newlines(doc.text)
    once = proven_fix(text, None, SETTINGS)
    assert Proof(text).accepts(once.text)
    assert proven_fix(once.text, None, SETTINGS).text == once.text


@settings(max_examples=max(EXAMPLES // 4, 30), deadline=None, derandomize=True, database=None)
@given(
    documents(), st.sampled_from(["H100는 빠르다", "ＧＰＵ 메모리", "CPU이 느리다", "GPU을 쓴다"])
)
def test_proven_fix_keeps_every_heading_address(doc: Doc, heading: str) -> None:
    """Issue 34: a fix inside a heading changed pandoc's identifier of it, and links to
    the old one dangled.  Every identifier the document defines stays, links included."""
    text = f"# {heading}\n\n" + unify_newlines(doc.text)
    proof = Proof(text)
    before = identifiers(proof.masked(text))
    links = " ".join(f"[절](#{ident})" for ident in before)
    text += f"\n문단의 링크: {links}\n"
    before = identifiers(proof.masked(text))
    fixed = proven_fix(text, None, SETTINGS)
    after = Proof(text)
    after_masked = after.masked(fixed.text)
    assert identifiers(after_masked) == before
    assert structure(after_masked) == structure(after.masked(text))
    assert proven_fix(fixed.text, None, SETTINGS).text == fixed.text
