"""``--fix`` changes only prose, proves it with pandoc, and writes files the way they came.

One test per reproducer of issue 8 ("``--fix`` changes code, math and links",
and the ``--fix`` parts of "Other data loss"): each asserts the file's bytes
after ``--fix``: what must not change is byte for byte the same, and the
prose next to it is fixed (so a fixer that stopped working fails too).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from kobook.check import Settings, check_files
from kobook.check import proof as proof_module
from kobook.check import runner as check_runner
from kobook.check.model import Finding, Rule
from kobook.check.proof import PendingFix, masked_ast, proven_fix, proves_prose_only
from kobook.check.report import run_check
from kobook.check.rules import RULES
from kobook.files.textfile import read_text_file, restore_newlines
from kobook.load import load_book
from kobook.normalize import normalize_book
from tests.conftest import BookMaker

from .util import hits


def fix_book(make_book: BookMaker, files: dict[str, str | bytes]) -> Path:
    """A book holding ``files``, after ``kobook check --fix``."""
    root = make_book(files, metadata={"title": "책"})
    check_files(root, fix=True, write=True)
    return root


def read(root: Path, name: str = "book/01.md") -> str:
    return (root / name).read_bytes().decode("utf-8")


# The reproducers: code, math and links ------------------------------------


def test_a_stray_backtick_does_not_hide_a_later_code_span(make_book: BookMaker) -> None:
    text = "# 장\n\n한국어 문장에서 ` 기호를 씁니다...\n\n명령은 `ls ...` 입니다...\n"
    root = fix_book(make_book, {"book/01.md": text})
    assert read(root) == "# 장\n\n한국어 문장에서 ` 기호를 씁니다…\n\n명령은 `ls ...` 입니다…\n"


def test_a_line_of_only_nbsp_inside_bold_is_not_blanked(make_book: BookMaker) -> None:
    text = "# 장\n\n**굵게 시작하는 문장이\n\u00a0\n[링크](https://x.org) 끝**입니다...\n"
    root = fix_book(make_book, {"book/01.md": text})
    assert read(root) == text.replace("입니다...", "입니다…")
    [(flagged, replacement)] = hits(text, "KO003")
    assert (flagged, replacement) == ("\u00a0", None)  # reported, to fix by hand


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        pytest.param(
            "좋습니다！[문서](https://example.com/doc) 정말？\n",
            "좋습니다！[문서](https://example.com/doc) 정말?\n",
            id="bang-before-link",
        ),
        pytest.param(
            "[문서]（https://x.org） 정말？\n", "[문서]（https://x.org） 정말?\n", id="paren"
        ),
        pytest.param("－ 항목이 아니다？\n", "－ 항목이 아니다?\n", id="dash-at-line-start"),
        pytest.param("１．첫째인가？\n", "１．첫째인가?\n", id="number-at-line-start"),
        pytest.param("[각주]：설명？\n", "[각주]：설명?\n", id="colon-after-bracket"),
        pytest.param("저자 ＠doe 참고？\n", "저자 ＠doe 참고?\n", id="at-sign"),
    ],
)
def test_full_width_forms_never_become_markdown_syntax(text: str, fixed: str) -> None:
    result = proven_fix(text, None, Settings())
    assert result.text == fixed
    assert result.refused == 0  # the rule knew, the proof did not have to step in
    assert proves_prose_only(text, fixed)


def test_space_before_an_image_is_not_punctuation() -> None:
    text = "**굵게** ![그림](a.png) 문장 .\n"
    assert [flagged for flagged, _ in hits(text, "KO005")] == [" "]
    assert proven_fix(text, None, Settings()).text == "**굵게** ![그림](a.png) 문장.\n"


@pytest.mark.parametrize(
    "definition",
    [
        '[ref]: https://x.org/a...b\n  "제목..."\n',
        '[ref]:\n  https://x.org/a...b\n  "GPU을..."\n',
        '[ref]: https://x.org/a...b "제목..." <!-- 주석... -->\n',
    ],
)
def test_reference_definitions_and_comments_after_them_are_kept(
    make_book: BookMaker, definition: str
) -> None:
    text = f"# 장\n\n[링크][ref] <!-- 주석... --> 본문...\n\n{definition}"
    root = fix_book(make_book, {"book/01.md": text})
    assert read(root) == text.replace("본문...", "본문…")


def test_dollar_edge_cases_keep_math_and_money(make_book: BookMaker) -> None:
    text = (
        "# 장\n\n값은 $5 그리고 $x...y$ 이다...\n\n"
        "돈 $5 and $10 이다...\n\n"
        "a $x$5 b...$ c...\n\n"
        "$$a...b$$ 와 \\$x... 이다\n"
    )
    root = fix_book(make_book, {"book/01.md": text})
    after = read(root)
    assert "$x...y$" in after and "$5 b...$" in after and "$$a...b$$" in after
    assert after.count("…") == 4  # the prose ones: 이다… twice, c…, \$x…
    assert proves_prose_only(text, after)


def test_cr_only_file_is_read_as_lines_fixed_and_written_back_with_cr(
    make_book: BookMaker,
) -> None:
    text = (
        '# 장\r\r본문 "인용" 문장...\r\r~~~\r코드 ... "x"\r~~~\r\r'
        '    들여 쓴 코드 ...\r\r<div title="a...b">\r</div>\r'
    )
    root = make_book({"book/01.md": text.encode()}, metadata={"title": "책"})
    [report] = check_files(root)
    lines = [d.location.line for d in report.diagnostics()]
    assert lines == [3, 3]  # KO007 and KO008 on line 3, not everything on line 1
    check_files(root, fix=True, write=True)
    assert read(root) == text.replace('"인용" 문장...', "“인용” 문장…", 1)
    # The build reads the same file as lines too (it was one <h1> before).
    [chapter] = load_book(root).chapters
    assert chapter.title == "장"
    assert "\r" not in chapter.text and "~~~\n코드" in chapter.text


# The proof: the last line ----------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param('그는 "안녕"이라고 했다.\n', "그는 “안녕”이라고 했다.\n", id="KO007-quoted"),
        pytest.param("단어 . 그리고\n", "단어. 그리고\n", id="KO005-merges-nodes"),
        pytest.param("메모리\u00a0사용량\n", "메모리 사용량\n", id="KO003-splits-nodes"),
        pytest.param("[링크](u)\u200b\n", "[링크](u)\n", id="KO002-empty-run"),
        pytest.param("**“강조”**를 본다\n", "“**강조**”를 본다\n", id="KO010-quotes-out"),
        pytest.param("# “제목”\n", '# "제목"\n', id="heading-id-from-text"),
    ],
)
def test_the_proof_accepts_prose_changes(before: str, after: str) -> None:
    assert proves_prose_only(before, after)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param("명령 `ls ...`\n", "명령 `ls …`\n", id="code"),
        pytest.param("식 $a...b$\n", "식 $a…b$\n", id="math"),
        pytest.param("[문서](https://a.org)\n", "[문서](https://b.org)\n", id="link-target"),
        pytest.param("좋다！[문서](u)\n", "좋다![문서](u)\n", id="link-becomes-image"),
        pytest.param("[글]{.a}\n", "[글]{.b}\n", id="attribute"),
        pytest.param("**굵게\n\u00a0\n끝**\n", "**굵게\n \n끝**\n", id="paragraph-split"),
        pytest.param("<b>x</b> 글\n", "<i>x</i> 글\n", id="raw-html"),
        pytest.param("# 제목 {#a}\n", "# 제목 {#b}\n", id="explicit-id"),
        pytest.param("글[^1]\n\n[^1]: 각주\n", "글[^1]\n\n[^1]：각주\n", id="note"),
        pytest.param("---\ntitle: a...b\n---\n\n글\n", "---\ntitle: a…b\n---\n\n글\n", id="yaml"),
    ],
)
def test_the_proof_rejects_changes_outside_prose(before: str, after: str) -> None:
    assert not proves_prose_only(before, after)


def test_masked_ast_hides_text_and_keeps_structure() -> None:
    one = masked_ast('가 "나" **다** [라](https://x.org) `코드`\n')
    two = masked_ast("전혀 다른 “글” **이다** [링크](https://x.org) `코드`\n")
    assert one == two
    assert masked_ast("가 `코드`\n") != masked_ast("가 `코드2`\n")


@pytest.fixture
def evil_rule(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A rule whose "fix" turns the word 링크 into a link: a structure change."""

    def linkify(doc: object, settings: Settings) -> Iterator[Finding]:
        text: str = doc.text  # type: ignore[attr-defined]
        start = text.find("링크")
        while start >= 0:
            yield Finding("KO006", start, start + 2, "evil", "[링크](https://evil.example)")
            start = text.find("링크", start + 2)

    rule = Rule("KO006", "evil", "warning", "fix", linkify)
    monkeypatch.setattr(check_runner, "RULES", [*RULES, rule])
    yield


@pytest.mark.usefixtures("evil_rule")
def test_a_fix_that_changes_structure_is_not_written_and_is_reported(
    make_book: BookMaker,
) -> None:
    text = "# 장\n\n이 링크는 GPU을 쓴다.\n"
    root = make_book({"book/01.md": text}, metadata={"title": "책"})
    [report] = check_files(root, fix=True, write=True)
    # The safe fix in the same file is still applied, the structural one is not.
    assert read(root) == "# 장\n\n이 링크는 GPU를 쓴다.\n"
    [refused] = [f for f in report.findings if f.rule == "CHK004"]
    assert "KO006 fix not applied" in refused.message
    assert "Link" in refused.message  # what it would have changed
    assert read(root)[refused.start : refused.end] == "링크"


def test_a_file_pandoc_cannot_read_is_left_alone() -> None:
    """No proof, no write: pandoc fails on a broken YAML block in the middle."""
    text = "글이다...\n\n---\ntitle: [unclosed\n---\n\n본문이다...\n"
    result = proven_fix(text, None, Settings())
    assert result.text == text
    assert [f.rule for f in result.findings] == ["CHK004", "CHK004"]
    assert "pandoc could not read the file" in result.findings[0].message


@pytest.mark.usefixtures("evil_rule")
def test_the_build_uses_the_unfixed_text_and_reports_it(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 장\n\n이 링크는 GPU을 쓴다.\n"}, metadata={"title": "책"})
    book = load_book(root)
    report = normalize_book(book)
    assert book.chapters[0].text == "# 장\n\n이 링크는 GPU를 쓴다.\n"
    [diagnostic] = [d for d in report.remaining if d.code == "CHK004"]
    assert diagnostic.location.file == root / "book/01.md"
    assert diagnostic.location.line == 3


@pytest.mark.usefixtures("evil_rule")
def test_a_pending_fix_guesses_and_its_proof_corrects_the_guess() -> None:
    """The guess (what ``kobook preview`` builds meanwhile) has every fix; the result only
    the proven ones."""
    pending = PendingFix("이 링크는 GPU을 쓴다.\n", None, Settings())
    assert "[링크](https://evil.example)" in pending.guess.text
    result = pending.result()
    assert result.text == "이 링크는 GPU를 쓴다.\n"
    assert [f.rule for f in result.findings] == ["CHK004"]
    assert result.refused == 1


def test_fixes_of_several_passes_are_proven_in_one_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """Full-width ＧＰＵ becomes GPU, then its particle is fixed: the fixed point is
    proven once against the original, with pandoc started after the first pass."""
    parsed: list[str] = []
    real = proof_module.proof_ast

    def counted(text: str, **options: str) -> object:
        parsed.append(text)
        return real(text, **options)

    monkeypatch.setattr(proof_module, "proof_ast", counted)
    told: list[str] = []
    pending = PendingFix("ＧＰＵ을 쓴다.\n", None, Settings(), on_candidate=told.append)
    assert told == ["GPU을 쓴다.\n", "GPU를 쓴다.\n"]
    result = pending.result()
    assert result == pending.guess
    assert result.text == "GPU를 쓴다.\n" and result.findings == []
    # The original, the first pass's text (started before the second pass was known) and
    # the fixed point: no parse per pass to prove each one.
    assert sorted(parsed) == sorted(["ＧＰＵ을 쓴다.\n", *told])


# Writing the file ------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(b'# \xec\x9e\xa5\r\n\r\nGPU\xec\x9d\x84 "\xed\x95\x9c"\r\n', id="crlf"),
        pytest.param(b"# \xec\x9e\xa5\r\rGPU\xec\x9d\x84\r", id="cr"),
        pytest.param(b"# \xec\x9e\xa5\n\r\nGPU\xec\x9d\x84\r\n\n", id="mixed"),
        pytest.param(b"\xef\xbb\xbf# \xec\x9e\xa5\n\nGPU\xec\x9d\x84\n", id="bom"),
    ],
)
def test_line_endings_and_bom_are_kept(make_book: BookMaker, raw: bytes) -> None:
    root = fix_book(make_book, {"book/01.md": raw})
    after = (root / "book/01.md").read_bytes()
    expected = raw.replace("GPU을".encode(), "GPU를".encode())
    expected = expected.replace('"한"'.encode(), "“한”".encode())
    assert after == expected


def test_restore_newlines_uses_the_common_style_when_lines_change() -> None:
    assert restore_newlines("a\nb\nc", ("\r\n", "\r\n")) == "a\r\nb\r\nc"
    assert restore_newlines("a\nb", ("\r\n", "\r\n", "\n")) == "a\r\nb"


def test_mode_is_kept(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 장\n\nGPU을 쓴다.\n"}, metadata={"title": "책"})
    os.chmod(root / "book/01.md", 0o640)
    check_files(root, fix=True, write=True)
    assert read(root) == "# 장\n\nGPU를 쓴다.\n"
    assert stat.S_IMODE((root / "book/01.md").stat().st_mode) == 0o640


def test_a_symlinked_chapter_stays_a_link_and_its_target_is_fixed(make_book: BookMaker) -> None:
    root = make_book(
        {"shared/chapter.md": "# 장\n\nGPU을 쓴다.\n", "book/.keep": ""}, metadata={"title": "책"}
    )
    (root / "book/01.md").symlink_to(Path("../shared/chapter.md"))
    [report] = check_files(root, fix=True, write=True)
    assert not [f for f in report.findings if f.rule == "CHK005"]
    assert (root / "book/01.md").is_symlink()
    assert os.readlink(root / "book/01.md") == "../shared/chapter.md"
    assert read(root, "shared/chapter.md") == "# 장\n\nGPU를 쓴다.\n"
    assert sorted(p.name for p in (root / "book").iterdir()) == [".keep", "01.md"]


def test_a_read_only_file_is_skipped_with_a_message(
    make_book: BookMaker, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "# 장\n\nGPU을 쓴다.\n"
    root = make_book({"book/01.md": text}, metadata={"title": "책"})
    os.chmod(root / "book/01.md", 0o444)
    code = run_check(
        root, [], fix=True, diff=False, output_format="text", select=[], ignore=[], stats=False
    )
    out = capsys.readouterr()
    assert code == 1
    assert read(root) == text
    assert stat.S_IMODE((root / "book/01.md").stat().st_mode) == 0o444
    assert "book/01.md:1:1: error CHK005 not written: file is read-only" in out.out
    assert "fixed 0 file(s)" in out.err


def test_a_read_only_folder_is_skipped_with_a_message(make_book: BookMaker) -> None:
    text = "# 장\n\nGPU을 쓴다.\n"
    root = make_book({"book/01.md": text}, metadata={"title": "책"})
    os.chmod(root / "book", 0o555)
    try:
        [report] = check_files(root, fix=True, write=True)
    finally:
        os.chmod(root / "book", 0o755)
    assert read(root) == text
    [skipped] = [f for f in report.findings if f.rule == "CHK005"]
    assert "folder" in skipped.message and "read-only" in skipped.message
    assert sorted(p.name for p in (root / "book").iterdir()) == ["01.md"]


def test_a_concurrent_change_is_not_lost(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program appends while the fixes are computed: its lines stay."""
    root = make_book({"book/01.md": "# 장\n\nGPU을 쓴다.\n"}, metadata={"title": "책"})
    path = root / "book/01.md"
    import kobook.check as check_module

    real = check_module.proven_fix

    def append_meanwhile(*args: object, **kwargs: object) -> object:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        with path.open("a", encoding="utf-8") as handle:
            handle.write("다른 프로그램이 쓴 줄.\n")
        return result

    monkeypatch.setattr(check_module, "proven_fix", append_meanwhile)
    [report] = check_files(root, fix=True, write=True)
    assert read(root) == "# 장\n\nGPU을 쓴다.\n다른 프로그램이 쓴 줄.\n"
    [skipped] = [f for f in report.findings if f.rule == "CHK005"]
    assert "changed while kobook was fixing it" in skipped.message
    assert report.fixed_text == report.doc_text  # not counted as fixed


def test_the_text_file_round_trip_is_exact() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "a.md"
        raw = "\ufeff가\r\n나\r다\n".encode()
        path.write_bytes(raw)
        source = read_text_file(path)
        assert source.text == "가\n나\n다\n"
        assert source.encode(source.text) == raw


# --diff ----------------------------------------------------------------------


def test_diff_with_fixes_pending_exits_1_and_says_so(
    make_book: BookMaker, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_book({"book/01.md": "# 장\n\nGPU을 쓴다.\n"}, metadata={"title": "책"})
    code = run_check(
        root, [], fix=False, diff=True, output_format="text", select=[], ignore=[], stats=False
    )
    out = capsys.readouterr()
    assert code == 1
    assert "+GPU를 쓴다." in out.out
    assert "--fix would change 1 file(s)" in out.err
    assert "no problems found" not in out.err
    assert read(root) == "# 장\n\nGPU을 쓴다.\n"
    (root / "book/01.md").write_text("# 장\n\nGPU를 쓴다.\n", encoding="utf-8")
    assert (
        run_check(
            root, [], fix=False, diff=True, output_format="text", select=[], ignore=[], stats=False
        )
        == 0
    )
    assert "no problems found" in capsys.readouterr().err


def test_cli_diff_exit_code_and_read_only_message(make_book: BookMaker) -> None:
    """Through ``kobook check`` in a subprocess: exit codes and messages, no traceback."""
    from tests.e2e.test_check_cli import check as check_cli

    root = make_book({"book/01.md": "# 장\n\nGPU을 쓴다.\n"}, metadata={"title": "책"})
    result = check_cli(root, "--diff")
    assert result.returncode == 1, result.stderr
    assert "--fix would change 1 file(s)" in result.stderr
    assert "no problems found" not in result.stderr
    os.chmod(root / "book/01.md", 0o444)
    result = check_cli(root, "--fix")
    assert result.returncode == 1
    assert "book/01.md:1:1: error CHK005 not written: file is read-only" in result.stdout
    assert "Traceback" not in result.stderr
    assert read(root) == "# 장\n\nGPU을 쓴다.\n"


def test_other_dialects_syntax_keeps_its_quotes(make_book: BookMaker) -> None:
    """Shortcodes, Liquid tags, Quarto attributes and chunk headers need straight quotes
    (issue 29): the prose beside them is fixed, they stay byte for byte."""
    kept = [
        '{{< video "https://example.com/a.mp4" >}}',
        '{% include figure.liquid path="a.png" caption="그림" %}',
        '{{% notice "tip" %}}',
        '![캡션](a.png){#fig-x fig-alt="설명" width="50%"}',
        '::: {.callout-note title="제목"}',
        '```{r label, fig.cap="캡션"}',
        '#| fig-cap: "그림"',
    ]
    text = (
        f'# 장\n\n그는 "좋다"고 했다. {kept[0]} 그리고 {kept[1]}.\n\n{kept[2]}\n\n{kept[3]}\n\n'
        f"{kept[4]}\n본문.\n:::\n\n{kept[5]}\n{kept[6]}\nplot(1)\n```\n"
    )
    root = fix_book(make_book, {"book/01.md": text})
    fixed = read(root)
    assert "“좋다”" in fixed
    for construct in kept:
        assert construct in fixed, construct
