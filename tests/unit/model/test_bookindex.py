"""The index's order and groups (model/bookindex.py), decided once for every writer."""

from __future__ import annotations

from kobook.model.bookindex import Mark, arrange, group_label, sort_key, unique_pages


def mark(term: str, n: int = 1, sort: str = "", original: str = "") -> Mark:
    return Mark(term, f"ix-{n}", "c1", "1.1절", sort, original)


def test_groups_symbols_then_latin_letters_then_initial_consonants() -> None:
    terms = [
        "텐서",
        "까치",
        "가방",
        "GPU",
        "all-reduce",
        "ZeRO",
        "#태그",
        "3D 병렬화",
        "나무",
        "ㄲ 받침",
    ]
    groups = arrange([mark(t, i) for i, t in enumerate(terms)], "기호·숫자")
    assert [g.label for g in groups] == ["기호·숫자", "A", "G", "Z", "ㄱ", "ㄴ", "ㅌ"]
    assert [e.term for e in groups[0].entries] == ["#태그", "3D 병렬화"]
    # Dictionary order, doubled consonants under the single one; a bare jamo opens its
    # consonant's words.
    assert [e.term for e in groups[4].entries] == ["가방", "ㄲ 받침", "까치"]


def test_dictionary_order_inside_a_group() -> None:
    terms = ["병렬화", "버블", "배치", "빠른 경로", "분할"]
    groups = arrange([mark(t, i) for i, t in enumerate(terms)], "")
    assert [e.term for e in groups[0].entries] == ["배치", "버블", "병렬화", "분할", "빠른 경로"]


def test_latin_ignores_case_and_accents() -> None:
    assert sort_key("gpu")[:2] == sort_key("GPU")[:2]
    assert group_label("Élan", "") == "E"
    groups = arrange([mark("beta", 1), mark("Alpha", 2), mark("alpha2", 3)], "")
    assert [e.term for g in groups for e in g.entries] == ["Alpha", "alpha2", "beta"]


def test_one_entry_per_term_with_its_marks_in_reading_order() -> None:
    marks = [mark("ZeRO", 1), mark("텐서!분할", 2), mark("ZeRO", 3), mark("텐서", 4)]
    groups = arrange(marks, "")
    zero = groups[0].entries[0]
    assert (zero.term, [m.anchor for m in zero.marks]) == ("ZeRO", ["ix-1", "ix-3"])
    tensor = groups[1].entries[0]
    assert [m.anchor for m in tensor.marks] == ["ix-4"]
    assert [(s.term, [m.anchor for m in s.marks]) for s in tensor.subs] == [("분할", ["ix-2"])]


def test_a_reading_files_a_term_elsewhere_and_the_source_term_is_kept() -> None:
    groups = arrange(
        [mark("∇ 연산자", 1, sort="나블라"), mark("처리량", 2, original="throughput")], ""
    )
    assert [g.label for g in groups] == ["ㄴ", "ㅊ"]
    assert groups[1].entries[0].original == "throughput"


def test_each_page_once_in_text_order() -> None:
    assert unique_pages(["12", "12", "3", "", "12", "15"]) == ["12", "3", "15"]
