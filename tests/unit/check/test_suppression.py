"""``<!-- kobook-ignore RULE -->`` silences rules for the next block only."""

from __future__ import annotations

from kobook.check import Settings

from .util import fix, found

TEXT = '<!-- kobook-ignore KO009 -->\nGPU을 쓴다. "한국어"\n\n둘째 문단의 GPU을 쓴다.\n'


def test_ignore_one_rule_for_the_next_paragraph_only() -> None:
    findings = found(TEXT)
    ko009 = [f for f in findings if f.rule == "KO009"]
    assert [f.start for f in ko009] == [TEXT.index("둘째 문단의 GPU을") + len("둘째 문단의 GPU")]
    # Other rules still apply inside the silenced paragraph.
    assert [f.rule for f in findings if f.start < TEXT.index("둘째")] == ["KO007"]
    assert fix(TEXT) == (
        "<!-- kobook-ignore KO009 -->\nGPU을 쓴다. “한국어”\n\n둘째 문단의 GPU를 쓴다.\n"
    )


def test_ignore_without_rules_silences_everything_in_the_next_block() -> None:
    text = TEXT.replace("kobook-ignore KO009", "kobook-ignore")
    findings = found(text)
    second = text.index("둘째")
    assert findings
    assert all(f.start > second for f in findings)
    assert fix(text) == text.replace("둘째 문단의 GPU을", "둘째 문단의 GPU를")


def test_ignore_several_rules() -> None:
    text = TEXT.replace("KO009", "KO009, KO007")
    assert [f.rule for f in found(text)] == ["KO009"]


def test_ignore_applies_to_a_whole_list() -> None:
    text = "<!-- kobook-ignore -->\n- GPU을 쓴다.\n- LLM를 쓴다.\n\n- FP32으로 쓴다.\n"
    # One list (a blank line between items keeps it one list): all of it is silenced.
    assert found(text, "KO009") == []
    text = "<!-- kobook-ignore -->\n- GPU을 쓴다.\n\n문단.\n\n- LLM를 쓴다.\n"
    assert len(found(text, "KO009")) == 1


def test_select_and_ignore_settings() -> None:
    text = 'GPU을 쓴다. "한국어"\n'
    assert {f.rule for f in found(text, settings=Settings(select={"KO009"}))} == {"KO009"}
    assert {f.rule for f in found(text, settings=Settings(ignore={"KO009"}))} == {"KO007"}
    # A prefix selects a family of rules.
    assert {f.rule for f in found(text, settings=Settings(ignore={"KO"}))} == set()
