"""The runner: fixes to a fixed point, overlapping fixes, atomic writes, settings, files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kobook.check import Finding, Settings, check_files, check_text, fix_text, settings_from
from kobook.check.rules import BY_ID, RULES
from kobook.check.runner import apply_fixes, write_atomic
from kobook.errors import KobookError
from kobook.load import load_config
from tests.conftest import BookMaker

from .util import NFD_SCREENSHOT


def test_every_rule_of_the_design_catalogue_is_registered() -> None:
    expected = [f"KO{n:03d}" for n in range(1, 16)]
    expected += ["FIG001", "FIG002", "IMG001", "LEAK001"]
    assert [rule.id for rule in RULES] == expected
    assert all(rule.summary for rule in RULES)
    assert not BY_ID["KO011"].fixable and BY_ID["KO009"].fixable


def test_apply_fixes_first_of_overlapping_wins_and_none_is_skipped() -> None:
    text = "abcdef"
    findings = [
        Finding("X", 1, 3, "", "B"),
        Finding("X", 2, 4, "", "C"),  # overlaps the first: skipped
        Finding("X", 4, 5, "", None),  # report only
        Finding("X", 5, 6, "", ""),
    ]
    assert apply_fixes(text, findings) == "aBde"


def test_fix_text_reaches_a_fixed_point_across_rules() -> None:
    # NFC first (the whole word), then the particle on the composed word.
    text = f"{NFD_SCREENSHOT}  GPU을 ＧＰＵ을\n"
    fixed, remaining = fix_text(text, None, Settings())
    assert fixed == "스크린샷 GPU를 GPU를\n"
    assert remaining == []
    assert fix_text(fixed, None, Settings())[0] == fixed


def test_build_only_skips_rules_the_build_does_not_apply() -> None:
    text = "Figure 3과 **커널(kernel)**이라고\n"
    settings = Settings(fix_emphasis=True)
    assert {f.rule for f in check_text(text, None, settings)} >= {"FIG001", "KO010"}
    assert check_text(text, None, settings, build_only=True) == []


def test_severity_comes_from_the_rule_or_the_finding() -> None:
    text = "This paragraph was never translated into Korean by anyone at all.\n\nGPU을\n"
    severities = {f.rule: f.severity for f in check_text(text, None, Settings())}
    assert severities == {"KO011": "info", "KO009": "warning"}


def test_write_atomic_keeps_mode_and_line_endings(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(b"old\r\n")
    os.chmod(path, 0o640)
    write_atomic(path, "새 줄\r\n끝")
    assert path.read_bytes() == "새 줄\r\n끝".encode()
    assert path.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md"]


def test_settings_from_metadata(make_book: BookMaker) -> None:
    root = make_book(
        {"book/01.md": "# 장\n", "glossary.yaml": "throughput: 처리량\n"},
        metadata={
            "title": "책",
            "check": {
                "quotes": "straight",
                "ellipsis": "...",
                "fail-on": "error",
                "ignore": ["KO011"],
                "fix-emphasis": True,
                "glossary-first-use": False,
                "untranslated-min-words": 3,
            },
            "particles": {"words": {"Horovod": "호로보드"}},
        },
    )
    settings = settings_from(load_config(root / "metadata.yaml"), root)
    assert settings.quotes == "straight"
    assert settings.ellipsis == "..."
    assert settings.fail_on == "error"
    assert settings.ignore == {"KO011"}
    assert settings.fix_emphasis is True
    assert settings.glossary_first_use is False
    assert settings.untranslated_min_words == 3
    assert settings.particle_words == {"Horovod": "호로보드"}
    assert [t.korean for t in settings.glossary["terms"]] == ["처리량"]


@pytest.mark.parametrize(
    ("check", "code", "words"),
    [
        ({"quote": "x"}, "CFG008", "did you mean 'check.quotes'"),
        ({"quotes": "fancy"}, "CFG009", "check.quotes"),
        ({"fail-on": "sometimes"}, "CFG009", "check.fail-on"),
    ],
)
def test_settings_from_rejects_bad_keys_and_values(
    make_book: BookMaker, check: dict[str, str], code: str, words: str
) -> None:
    root = make_book({"book/01.md": "# 장\n"}, metadata={"title": "책", "check": check})
    with pytest.raises(KobookError) as info:
        settings_from(load_config(root / "metadata.yaml"), root)
    assert info.value.code == code
    assert words in str(info.value)


def test_missing_glossary_named_in_metadata_is_an_error(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 장\n"}, metadata={"title": "책", "glossary": "terms.yaml"})
    with pytest.raises(KobookError) as info:
        settings_from(load_config(root / "metadata.yaml"), root)
    assert info.value.code == "CFG012"


def test_check_files_fix_and_write(make_book: BookMaker) -> None:
    root = make_book(
        {"book/01.md": "# 장\n\nGPU을 쓴다. model를 본다.\n", "book/02.md": "# 둘\n\n깨끗하다.\n"},
        metadata={"title": "책"},
    )
    reports = check_files(root)
    assert [(r.path.name, [f.rule for f in r.findings]) for r in reports] == [
        ("01.md", ["KO009", "KO009"]),
        ("02.md", []),
    ]
    reports = check_files(root, fix=True)
    assert reports[0].fixed_text == "# 장\n\nGPU를 쓴다. model를 본다.\n"
    assert (root / "book/01.md").read_text(encoding="utf-8").startswith("# 장\n\nGPU을")
    assert "+GPU를 쓴다." in reports[0].diff()
    assert reports[1].diff() == ""
    reports = check_files(root, fix=True, write=True)
    assert (root / "book/01.md").read_text(encoding="utf-8") == reports[0].fixed_text
    # What is left is the report-only finding, at the right place.
    [diagnostic] = reports[0].diagnostics()
    assert (diagnostic.location.line, diagnostic.location.col) == (3, 15)


def test_check_files_select_ignore_and_unknown_rules(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": '# 장\n\nGPU을 쓴다. "한국어"\n'}, metadata={"title": "책"})
    assert {f.rule for f in check_files(root, select=["KO009"])[0].findings} == {"KO009"}
    assert {f.rule for f in check_files(root, ignore=["KO009"])[0].findings} == {"KO007"}
    for option in ({"select": ["KO999"]}, {"ignore": ["XX"]}):
        with pytest.raises(KobookError) as info:
            check_files(root, **option)  # type: ignore[arg-type]
        assert info.value.code == "CHK002"


def test_check_files_given_paths(make_book: BookMaker) -> None:
    root = make_book(
        {"book/01.md": "GPU을\n", "book/02.md": "LLM를\n", "notes/x.md": "FP32으로\n"},
        metadata={"title": "책"},
    )
    reports = check_files(root, [root / "notes"])
    assert [r.path.name for r in reports] == ["x.md"]
    with pytest.raises(KobookError) as info:
        check_files(root, [root / "gone.md"])
    assert info.value.code == "CHK001"
