"""WeasyPrint line breaking as kobook patches it (``write/weasyprint/linebreak.py``)."""

from __future__ import annotations

import base64
import re
import subprocess
from pathlib import Path

import pytest

from kobook.write.shared.seams import identifier_seams
from kobook.write.weasyprint.linebreak import (
    LONGEST_HYPHENATED,
    SEAM_MARK,
    Bounded,
    fits_without_trailing_space,
    hangul_tokens,
    install,
)
from tests.checks import broken_names, hyphenated, pdf_pages, squash, word_gaps


def widths(table: dict[str, float | None]) -> object:
    return lambda run: table[run]


@pytest.mark.parametrize(
    ("text", "white_space", "measured", "fits"),
    [
        ("조각으로 나눠 랭크 ", "normal", 300.0, True),  # fits once the space hangs
        ("조각으로 나눠 랭크 ", "normal", 310.0, False),  # too wide even without it
        ("조각으로 나눠 랭크 ", "normal", None, False),  # needs two lines anyway
        ("조각으로 나눠 랭크", "normal", 300.0, False),  # no trailing space: nothing hangs
        ("조각으로 나눠 랭크 ", "pre", 300.0, False),  # preserved spaces do not hang
        ("   ", "normal", 0.0, False),
    ],
)
def test_fits_without_trailing_space(
    text: str, white_space: str, measured: float | None, fits: bool
) -> None:
    table = {text.rstrip(" "): measured}
    assert fits_without_trailing_space(text, white_space, 305.0, widths(table)) is fits  # type: ignore[arg-type]


SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="27" height="21" viewBox="0 0 27 21">'
    '<rect width="27" height="21" fill="black"/></svg>'
)


def test_a_run_after_an_inline_image_is_not_cut_after_its_first_word(tmp_path: Path) -> None:
    """The sample book's ``옵티마이저 상태를 $N_d$조각으로 나눠 …``: the run after the
    formula ends in a space and fits only once that space hangs; it was cut after
    ``조각으로``, leaving a first line with nine-em word gaps."""
    install()
    import weasyprint

    image = "data:image/svg+xml;base64," + base64.b64encode(SVG.encode()).decode()
    math = f'<img style="width:1.36em;height:1.04em;vertical-align:-0.3em" src="{image}">'
    words = "조각으로 나눠 랭크마다 한 조각씩만 갖게 한다. 랭크 "
    html = (
        "<html lang='ko'><style>@page { size: 120mm 80mm; margin: 10mm }"
        "body { font-family: 'Noto Serif CJK KR'; font-size: 10pt; text-align: justify;"
        " word-break: keep-all }</style><body>"
        f"<p>옵티마이저 상태를 {math}{words}{math}는 전체 파라미터 가운데 번째 조각만 "
        "책임지고 갱신한다.</p></body></html>"
    )
    # Page widths around the one where the run ends exactly at the margin, its
    # trailing space beyond it (139–139.5 mm with Noto Serif CJK at 10 pt).
    cut = []
    for tenths in range(1300, 1420, 5):
        pdf = tmp_path / f"p{tenths}.pdf"
        weasyprint.HTML(string=html.replace("120mm", f"{tenths / 10}mm")).write_pdf(pdf)
        first = first_line(pdf)
        if "나눠" not in first:
            cut.append((tenths / 10, first))
    assert cut == []


def first_line(pdf: Path) -> str:
    """The first line as laid out (poppler's -layout keeps a line with an image whole)."""
    out = subprocess.run(
        ["pdftotext", "-layout", "-enc", "UTF-8", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.splitlines()[0]


# --- weasy_breaks: a loose line takes words from the line before it ----------------------

PARAGRAPH = (
    "<p>PyTorch에는 데이터 병렬화 구현이 두 가지 있다. <code>DistributedDataParallel</code>(DDP)은"
    " 이 절에서 설명한 고전적인 방식으로, 모든 랭크가 모델 상태 전체를 들고 있다."
    " <code>FullyShardedDataParallel</code>(FSDP)은 다음 절의 ZeRO-3에 해당하는 방식으로, 모델"
    " 상태를 랭크들에 나눠 둔다. 스텝은 이렇게 진행된다. 모든 랭크가 BF16 파라미터 전체로 순전파와"
    " 역전파를 한다. 그다음 그래디언트를 all-reduce하는 대신 reduce-scatter해서, 각자 자기가 책임진"
    " 조각의 평균 그래디언트만 받는다.</p>"
)


def justified(width: int) -> str:
    style = (
        f"@page {{ size: {width}mm 250mm; margin: 10mm }}"
        "body { font-family: 'Noto Serif CJK KR'; font-size: 10pt; line-height: 1.6;"
        " text-align: justify; word-break: keep-all }"
        "code { font-family: 'DejaVu Sans Mono'; font-size: 0.85em }"
    )
    return f"<html lang='ko'><style>{style}</style><body>{PARAGRAPH * 3}</body></html>"


def test_loose_lines_share_their_slack_with_the_line_before(tmp_path: Path) -> None:
    """Long code names leave greedy lines with 2–8 em gaps; balanced pairs of lines
    never do worse, do much better on several widths, and set the same letters."""
    from kobook.write.weasyprint import breaks as weasy_breaks
    from kobook.write.weasyprint import justify as weasy_justify

    install()
    weasy_justify.install()
    weasy_breaks.install()
    import weasyprint

    improved = 0
    for width in range(100, 160, 6):
        worst = {}
        texts = {}
        for balance in (False, True):
            token = weasy_breaks.BALANCE.set(balance)
            try:
                pdf = tmp_path / f"w{width}-{balance}.pdf"
                weasyprint.HTML(string=justified(width)).write_pdf(pdf)
            finally:
                weasy_breaks.BALANCE.reset(token)
            worst[balance] = max(gap for _, _, gap in word_gaps(pdf))
            # pdftotext may read a line's end after the next line's code: compare letters.
            texts[balance] = sorted(squash("".join(pdf_pages(pdf))))
        assert texts[True] == texts[False]  # nothing lost
        assert worst[True] <= worst[False] + 0.02, (width, worst)
        improved += worst[True] < worst[False] - 0.3
    assert improved >= 3


# --- Latin words in Korean text hyphenate as English, only to spare a loose line ---------

HYPHENATED = (
    "<p>3장의 링 어텐션이 GPU들 사이에서 하는 일과 FlashAttention이 SM 안에서 하는 일은 구조가"
    " 같다. 액티베이션 재계산(activation recomputation)은 그래디언트 체크포인팅(gradient"
    " checkpointing)이라고도 부른다. <code>torch.utils.checkpoint</code>는 재계산을 맡는다.</p>"
)


def hyphen_style(hyphens: str) -> str:
    return (
        "@page { size: 105mm 250mm; margin: 10mm }"
        "body { font-family: 'Noto Serif CJK KR'; font-size: 10pt; line-height: 1.6;"
        " text-align: justify; word-break: keep-all; hyphenate-limit-zone: 2.5em;"
        " hyphenate-limit-chars: 7 3 3; hyphenate-character: '-' }"
        f"p {{ hyphens: {hyphens} }} code {{ hyphens: manual; font-family: 'DejaVu Sans Mono' }}"
    )


def test_latin_words_in_korean_text_hyphenate_as_english(tmp_path: Path) -> None:
    """WeasyPrint finds no hyphenation patterns for ``ko``: the Latin words of a Korean
    paragraph hyphenate as English (``FlashAtten‐tion이``), never a Hangul word or code."""
    install()
    import weasyprint

    ends = []
    for width in range(70, 100, 3):
        html = f"<html lang='ko'><style>{hyphen_style('auto')}</style><body>"
        html += HYPHENATED * 2 + "</body></html>"
        pdf = tmp_path / f"h{width}.pdf"
        weasyprint.HTML(string=html.replace("105mm", f"{width}mm")).write_pdf(pdf)
        ends += hyphenated(pdf)
    assert len(ends) >= 3  # the Latin words did break, at several widths
    for end in ends:
        assert re.search(r"[A-Za-z]{3}$", end), end  # in a Latin word, after 3 letters
        assert "torch" not in end, end  # never inside code
    words = {re.sub(r".*[(]", "", end) for end in ends}
    assert {w for w in words if not any(w in source for source in SOURCE_WORDS)} == set()


SOURCE_WORDS = ("FlashAttention", "activation", "recomputation", "gradient", "checkpointing")


def test_no_hyphenation_unless_asked(tmp_path: Path) -> None:
    install()
    import weasyprint

    for width in range(70, 100, 6):
        html = f"<html lang='ko'><style>{hyphen_style('manual')}</style><body>"
        html += HYPHENATED * 2 + "</body></html>"
        pdf = tmp_path / f"m{width}.pdf"
        weasyprint.HTML(string=html.replace("105mm", f"{width}mm")).write_pdf(pdf)
        assert hyphenated(pdf) == []


# --- code names break at their seams, without a hyphen, only to spare a loose line -------


@pytest.mark.parametrize(
    ("token", "seams"),
    [
        ("DistributedDataParallel", [11, 15]),
        ("torch.float32", [5]),  # the period starts the next line (Chicago 14.18)
        ("bucket_cap_mb", [6, 10]),
        ("smsp__pcsamp", [4]),  # a run of underscores stays together
        ("std::vector", [5]),
        ("GPT", []),  # capitals in a row are one word
        ("FSDP2", []),
        ("a.b", []),
        ("x->next_node", [7]),  # ``x`` is shorter than the left limit
        ("optimizer.step()", [9]),
    ],
)
def test_identifier_seams(token: str, seams: list[int]) -> None:
    assert identifier_seams(token, 3, 3) == seams


NAMES = (
    "<p>PyTorch에는 데이터 병렬화 구현이 두 가지 있다. <code>DistributedDataParallel</code>(DDP)은"
    " 고전적인 방식이고 <code>FullyShardedDataParallel</code>(FSDP)은 ZeRO-3에 해당한다."
    " 버킷 크기는 <code>bucket_cap_mb</code>로, 정밀도는 <code>torch.float32</code>로 정한다.</p>"
)


def name_pdf(tmp_path: Path, width: int, character: str) -> Path:
    import weasyprint

    style = (
        f"@page {{ size: {width}mm 250mm; margin: 10mm }}"
        "body { font-family: 'Noto Serif CJK KR'; font-size: 10pt; line-height: 1.6;"
        " text-align: justify; word-break: keep-all; hyphenate-limit-zone: 2.5em;"
        " hyphenate-limit-chars: 7 3 3 }"
        f"code {{ font-family: 'DejaVu Sans Mono'; font-size: 0.88em;"
        f" hyphenate-character: '{character}' }}"
    )
    pdf = tmp_path / f"n{width}-{ord(character)}.pdf"
    html = f"<html lang='ko'><style>{style}</style><body>{NAMES * 2}</body></html>"
    weasyprint.HTML(string=html).write_pdf(pdf)
    return pdf


def test_code_names_break_at_seams_to_spare_a_loose_line(tmp_path: Path) -> None:
    """With ``hyphenate-character: "↪"`` (SEAM_MARK) a code name that would leave its line
    loose breaks at a seam and nowhere else, and the line ends with the mark; the letters
    are all there; lines get no looser."""
    from kobook.write.weasyprint import breaks as weasy_breaks
    from kobook.write.weasyprint import justify as weasy_justify

    install()
    weasy_justify.install()
    weasy_breaks.install()
    names = {
        "DistributedDataParallel",
        "FullyShardedDataParallel",
        "bucket_cap_mb",
        "torch.float32",
    }
    seamed = spared = measured = 0
    for width in range(85, 135, 5):  # text 65–115 mm: a callout to a small book page
        pdf = name_pdf(tmp_path, width, SEAM_MARK)
        kept = name_pdf(tmp_path, width, "-")
        assert broken_names(kept, names) == []  # no seam mode: names stay whole
        for first, rest in broken_names(pdf, names):
            assert first.endswith(SEAM_MARK), (width, first, rest)
            first = first.removesuffix(SEAM_MARK)
            assert len(first) in identifier_seams(first + rest, 3, 3), (width, first, rest)
            seamed += 1
        text = "".join(pdf_pages(pdf)).replace(SEAM_MARK, "")
        assert sorted(squash(text)) == sorted(squash("".join(pdf_pages(kept))))
        gaps = [gap for _, _, gap in word_gaps(pdf)]
        measured += bool(gaps)  # at the narrowest widths code outnumbers body text
        worst = max(gaps, default=0.0)
        before = max(gap for _, _, gap in word_gaps(kept))
        assert worst <= before + 0.05, (width, worst, before)
        # Whole names left gaps of 1.9–13 em; what stays over 1 em is a line no name ends.
        assert worst <= 1.25, (width, worst)  # letters open by 0.08 em at most
        spared += before > 1.5
    assert seamed >= 4 and spared >= 4 and measured >= 4


# --- bounded work (issue 27) -------------------------------------------------------------


def test_hangul_tokens_are_the_words_that_hold_hangul() -> None:
    text = "GPU를 쓰는 all-reduce 연산(통신)이다 x\u3131y"
    spans = hangul_tokens(text.encode("utf-8"))
    data = text.encode("utf-8")
    assert [data[a:b].decode() for a, b in spans] == ["GPU를", "쓰는", "연산(통신)이다", "x\u3131y"]
    long = ("a" * 10_000 + " 한글 ").encode()
    assert [long[a:b].decode() for a, b in hangul_tokens(long)] == ["한글"]


def test_words_past_the_longest_are_not_hyphenated() -> None:
    import pyphen

    dictionary = Bounded(pyphen.Pyphen(lang="en_US"))
    assert list(dictionary.iterate("hyphenation"))
    assert list(dictionary.iterate("hyphenation" * 5)) == []
    assert dictionary.positions("a" * (LONGEST_HYPHENATED + 1)) == []


def test_a_word_of_ten_thousand_letters_is_laid_out(tmp_path: Path) -> None:
    """Each line of the word ends without a hyphenation attempt (the calls are counted)."""
    import kobook
    from kobook.write.weasyprint import linebreak

    calls: list[int] = []
    original = Bounded.iterate

    def counting(self: Bounded, word: str) -> object:
        calls.append(len(word))
        return original(self, word)

    project = tmp_path / "book"
    (project / "book").mkdir(parents=True)
    (project / "book" / "01.md").write_text(
        "# 긴 낱말\n\n본문 " + "a" * 10_001 + " 끝.\n", encoding="utf-8"
    )
    Bounded.iterate = counting  # type: ignore[method-assign]
    try:
        result = kobook.build(project, ["pdf"], engine="weasyprint", out=tmp_path / "out")
    finally:
        Bounded.iterate = original  # type: ignore[method-assign]
    text = squash("".join(pdf_pages(result.outputs["pdf"])))
    assert text.count("a") >= 10_001 and "끝" in text  # every letter, over several pages
    assert linebreak.LONGEST_HYPHENATED < 100 and all(n > 100 for n in calls)
