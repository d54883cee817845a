"""KO012 (the book's glossary) and the pair extraction behind ``kobook glossary extract``."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kobook.check import Settings
from kobook.check.glossary import Term, extract_pairs, glossary_yaml, load_glossary
from kobook.errors import KobookError

from .util import fix, found, hits

DATA_PARALLELISM = Term("data parallelism", "데이터 병렬화", ("데이터 병렬 처리", "데이터 병렬성"))
GLOSSED = "데이터 병렬화(data parallelism)는 배치를 나눈다.\n\n"


def glossary(*terms: Term, first_use: bool = True) -> Settings:
    return Settings(glossary={"terms": list(terms)}, glossary_first_use=first_use)


@pytest.mark.parametrize("variant", ["데이터 병렬 처리", "데이터 병렬성"])
def test_ko012_forbidden_variant_is_reported_and_fixed(variant: str) -> None:
    settings = glossary(DATA_PARALLELISM)
    text = f"{GLOSSED}여기서 {variant}를 쓴다.\n"
    assert hits(text, "KO012", settings) == [(variant, "데이터 병렬화")]
    assert fix(text, settings) == f"{GLOSSED}여기서 데이터 병렬화를 쓴다.\n"


def test_ko012_variant_of_two_terms_is_reported_without_a_fix() -> None:
    other = Term("data parallel", "데이터 병렬", ("데이터 병렬성",))
    settings = glossary(DATA_PARALLELISM, other)
    text = f"{GLOSSED}데이터 병렬(data parallel) 방식. 여기서 데이터 병렬성이 중요하다.\n"
    flagged = hits(text, "KO012", settings)
    assert flagged == [("데이터 병렬성", None), ("데이터 병렬성", None)]
    assert fix(text, settings) == text


def test_ko012_source_term_left_in_english_is_reported() -> None:
    settings = glossary(DATA_PARALLELISM)
    text = f"{GLOSSED}이제 Data Parallelism을 쓴다.\n"
    [finding] = found(text, "KO012", settings)
    assert text[finding.start : finding.end] == "Data Parallelism"
    assert finding.replacement is None
    assert "데이터 병렬화(data parallelism)" in finding.message


def test_ko012_source_term_inside_the_gloss_is_fine() -> None:
    settings = glossary(DATA_PARALLELISM)
    assert found(GLOSSED, "KO012", settings) == []
    assert found("이를 데이터 병렬화 (data parallelism)라 한다.\n", "KO012", settings) == []


def test_ko012_english_term_in_code_is_not_reported() -> None:
    settings = glossary(DATA_PARALLELISM)
    text = f"{GLOSSED}`data parallelism` 옵션을 켠다.\n"
    assert found(text, "KO012", settings) == []


def test_ko012_first_use_without_the_original_is_an_info() -> None:
    text = "데이터 병렬화는 배치를 나눈다.\n\n데이터 병렬화(data parallelism) 설명.\n"
    [finding] = found(text, "KO012", glossary(DATA_PARALLELISM))
    assert finding.severity == "info"
    assert finding.start == 0
    assert finding.replacement is None
    assert found(text, "KO012", glossary(DATA_PARALLELISM, first_use=False)) == []


def test_ko012_only_the_first_use_counts() -> None:
    text = f"{GLOSSED}다시 데이터 병렬화를 쓴다.\n"
    assert found(text, "KO012", glossary(DATA_PARALLELISM)) == []


def test_ko012_heading_is_not_the_first_use() -> None:
    settings = glossary(DATA_PARALLELISM)
    assert found(f"# 데이터 병렬화\n\n{GLOSSED}", "KO012", settings) == []
    text = "## 데이터 병렬화\n\n데이터 병렬화는 배치를 나눈다.\n"
    [finding] = found(text, "KO012", settings)
    assert finding.start == text.index("데이터 병렬화는")


def test_ko012_heading_with_inline_code_is_not_the_first_use() -> None:
    settings = glossary(DATA_PARALLELISM)
    text = f"## `DDP`와 데이터 병렬화\n\n{GLOSSED}"
    assert found(text, "KO012", settings) == []


def test_ko012_without_a_glossary_reports_nothing() -> None:
    assert found("데이터 병렬 처리와 data parallelism\n", "KO012") == []


def test_load_glossary_short_and_long_forms(tmp_path: Path) -> None:
    path = tmp_path / "glossary.yaml"
    path.write_text(
        "data parallelism:\n  ko: 데이터 병렬화\n  variants: [데이터 병렬 처리, 데이터 병렬성]\n"
        "throughput: 처리량\n",
        encoding="utf-8",
    )
    assert load_glossary(path) == [DATA_PARALLELISM, Term("throughput", "처리량")]


def test_load_glossary_bad_entry_names_the_term(tmp_path: Path) -> None:
    path = tmp_path / "glossary.yaml"
    path.write_text("throughput:\n  variants: [처리율]\n", encoding="utf-8")
    with pytest.raises(KobookError) as info:
        load_glossary(path)
    assert info.value.code == "CFG011"
    assert "throughput" in str(info.value)


def test_extract_pairs_picks_the_common_translation() -> None:
    texts = [
        "여기서 데이터 병렬화(data parallelism)를 쓴다.",
        "이 책은 데이터 병렬화(Data Parallelism)를 다룬다.",
        "또한 데이터 병렬성(data parallelism)도 있다.",
        "처리량 (throughput)이 늘어난다.",
    ]
    pairs = extract_pairs(texts)
    candidate = pairs["data parallelism"]
    assert candidate.count == 3
    assert candidate.translations.most_common(1)[0] == ("데이터 병렬화", 2)
    assert pairs["throughput"].translations == {"처리량": 1}
    data = yaml.safe_load(glossary_yaml(pairs))
    assert data["data parallelism"] == {"ko": "데이터 병렬화", "variants": ["데이터 병렬성"]}
    assert data["throughput"] == "처리량"
    assert "throughput" not in yaml.safe_load(glossary_yaml(pairs, minimum=2))


# --- a glossary of tens of thousands of terms (issue 35) ----------------------------------


def test_a_huge_glossary_finds_the_same_as_a_small_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The text is read once per span and index, whatever the glossary's size (counted)."""
    from kobook.check import glossary as module

    filler = [Term(f"term {i}", f"낱말{i}번", (f"딴말{i}번",)) for i in range(20_000)]
    text = f"{GLOSSED}여기서 데이터 병렬성을 쓰고 Data Parallelism도 쓴다. 딴말7번도 있다.\n"
    small = [(f.start, f.message) for f in found(text, "KO012", glossary(DATA_PARALLELISM))]
    reads: list[int] = []
    original = module.TermIndex.find

    def counting(self: object, span: str) -> object:
        reads.append(len(span))
        return original(self, span)  # type: ignore[arg-type]

    monkeypatch.setattr(module.TermIndex, "find", counting)
    big = found(text, "KO012", glossary(DATA_PARALLELISM, *filler))
    extra = (text.index("딴말7번"), "glossary: write '낱말7번' for term 7, not '딴말7번'")
    assert [(f.start, f.message) for f in big] == [*small, extra]
    spans = [n for n in reads if n > 12]  # the glossary's own terms are read once, to index
    assert len(spans) <= 3 * (text.count("\n\n") + 1)  # three indexes per span of prose
