"""KO001–KO008: encoding, invisible characters, spaces, full-width forms, punctuation."""

from __future__ import annotations

import unicodedata

import pytest

from kobook.check import Settings

from .util import NFD_SCREENSHOT, fix, found, hits

# KO001: NFC ---------------------------------------------------------------


def test_ko001_decomposed_hangul_is_reported_and_composed() -> None:
    text = f"{NFD_SCREENSHOT}을 첨부했다.\n"
    [finding] = found(text, "KO001")
    assert unicodedata.normalize("NFC", text[finding.start : finding.end]) == "스크린샷을"
    assert finding.replacement == "스크린샷을"
    assert finding.severity == "warning"
    fixed = fix(text)
    assert fixed == "스크린샷을 첨부했다.\n"
    assert unicodedata.is_normalized("NFC", fixed)


def test_ko001_only_the_decomposed_word_is_replaced() -> None:
    text = f"이 파일은 {NFD_SCREENSHOT} 2025-06-27 오후 3.52.11.png 이다.\n"
    assert [t for t, _ in hits(text, "KO001")] == [NFD_SCREENSHOT]
    # (KO013 would also glue 이다 to the file name: ".png이다".)
    only_nfc = Settings(select={"KO001"})
    assert fix(text, only_nfc) == "이 파일은 스크린샷 2025-06-27 오후 3.52.11.png 이다.\n"


def test_ko001_decomposed_latin_accent_is_composed_too() -> None:
    text = unicodedata.normalize("NFD", "카페(café)에서 만났다.\n")
    assert found(text, "KO001")
    assert fix(text) == "카페(café)에서 만났다.\n"


def test_ko001_composed_text_is_clean() -> None:
    text = "스크린샷을 첨부했다. 오후 3시에 café에서.\n"
    assert found(text, "KO001") == []
    assert fix(text) == text


# KO002: invisible characters ----------------------------------------------


@pytest.mark.parametrize("char", ["\u200b", "\u2060", "\ufeff", "\u00ad", "\u200c"])
def test_ko002_invisible_character_is_removed(char: str) -> None:
    text = f"보이지{char}않는 문자가 있다.\n"
    [finding] = found(text, "KO002")
    assert text[finding.start : finding.end] == char
    assert f"U+{ord(char):04X}" in finding.message
    assert finding.replacement == ""
    assert fix(text) == "보이지않는 문자가 있다.\n"


def test_ko002_zwj_between_hangul_is_removed() -> None:
    assert fix("한\u200d글\n") == "한글\n"


@pytest.mark.parametrize(
    "emoji",
    [
        pytest.param("👩\u200d💻", id="technologist"),
        pytest.param("👨\u200d👩\u200d👧", id="family"),
        pytest.param("👩\U0001f3fd\u200d💻", id="skin-tone"),
        pytest.param("🏳\ufe0f\u200d🌈", id="rainbow-flag-vs16"),
        pytest.param("❤\ufe0f\u200d🔥", id="heart-on-fire-vs16"),
    ],
)
def test_ko002_zwj_inside_an_emoji_sequence_is_kept(emoji: str) -> None:
    text = f"개발자 {emoji} 가 코드를 짠다.\n"
    assert found(text, "KO002") == []
    assert fix(text) == text


# KO003: odd spaces and runs of spaces -------------------------------------


@pytest.mark.parametrize("space", ["\u00a0", "\u3000", "\u2009", "\u202f"])
def test_ko003_odd_space_becomes_a_space(space: str) -> None:
    text = f"메모리{space}사용량이 크다.\n"
    [finding] = found(text, "KO003")
    assert finding.replacement == " "
    assert fix(text) == "메모리 사용량이 크다.\n"


@pytest.mark.parametrize("run", ["  ", "   ", "     "])
def test_ko003_run_of_spaces_between_words_becomes_one(run: str) -> None:
    text = f"메모리{run}사용량이 크다.\n"
    [(flagged, replacement)] = hits(text, "KO003")
    assert (flagged, replacement) == (run, " ")
    assert fix(text) == "메모리 사용량이 크다.\n"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("- 첫 항목\n  - 안쪽 항목\n    이어지는 줄\n", id="indentation"),
        pytest.param("첫 줄이다  \n둘째 줄이다.\n", id="hard-break"),
        pytest.param("첫 줄이다  \r\n둘째 줄이다.\r\n", id="hard-break-crlf"),
        pytest.param("| a   | 이름   |\n| --- | ------ |\n| 가   | 나     |\n", id="table-padding"),
        pytest.param("용어\n:   정의를 쓴다.\n", id="definition"),
        pytest.param("1.  첫 항목\n2.  둘째 항목\n", id="ordered-list"),
        pytest.param("-   항목이다.\n", id="bullet-list"),
        pytest.param("> 인용이다.\n>\n>     인용 속 코드  두 칸\n", id="quoted-code"),
    ],
)
def test_ko003_markdown_spacing_is_not_touched(text: str) -> None:
    assert hits(text, "KO003") == []
    assert fix(text) == text


# KO004: full-width forms ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ＧＰＵ를 쓴다.\n", "GPU를 쓴다.\n"),
        ("메모리，연산\n", "메모리,연산\n"),
        ("１２８개의 GPU\n", "128개의 GPU\n"),
        ("（예）를 보라\n", "(예)를 보라\n"),
        ("정말？\n", "정말?\n"),
    ],
)
def test_ko004_full_width_ascii_is_replaced(text: str, expected: str) -> None:
    assert found(text, "KO004")
    assert fix(text) == expected


@pytest.mark.parametrize("char", ["＊", "＿", "｀", "＄", "［", "＃"])
def test_ko004_markdown_symbol_is_reported_but_not_replaced(char: str) -> None:
    text = f"별표 {char} 기호\n"
    [(flagged, replacement)] = hits(text, "KO004")
    assert flagged == char
    assert replacement is None
    assert fix(text) == text


def test_ko004_hangul_and_cjk_punctuation_are_not_full_width_ascii() -> None:
    text = "한글과 「괄호」 그리고 『책』。\n"
    assert found(text, "KO004") == []


# KO005: space before punctuation -------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("단어 .\n", "단어.\n"),
        ("(예 )를 보라.\n", "(예)를 보라.\n"),
        ("메모리 , 연산\n", "메모리, 연산\n"),
        ("정말 ?\n", "정말?\n"),
        ("좋다 !\n", "좋다!\n"),
        ("첫째 ; 둘째\n", "첫째; 둘째\n"),
        ("정의 : 값\n", "정의: 값\n"),
    ],
)
def test_ko005_space_before_punctuation_is_removed(text: str, expected: str) -> None:
    assert found(text, "KO005")
    assert fix(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("그리고 ... 다음\n", id="ellipsis"),
        pytest.param("목록: 가, 나, 다.\n", id="normal"),
        pytest.param("시간은 3:30 이다.\n", id="time"),
        pytest.param("C#과 .NET을 쓴다.\n", id="dotnet"),
        pytest.param("설정은 .gitignore 파일에 둔다.\n", id="dotfile"),
        pytest.param("- 항목\n", id="list"),
    ],
)
def test_ko005_leaves_ellipsis_and_normal_punctuation(text: str) -> None:
    settings = Settings(ellipsis="off", ignore={"KO013"})  # KO013 glues "3:30 이다"
    assert found(text, "KO005", settings) == []
    assert fix(text, settings) == text


# KO006: jamo used as a middle dot -------------------------------------------


def test_ko006_jamo_dot_becomes_middle_dot() -> None:
    text = "입력ㆍ출력\n"
    [(flagged, replacement)] = hits(text, "KO006")
    assert (flagged, replacement) == ("ㆍ", "·")
    assert fix(text) == "입력·출력\n"


def test_ko006_middle_dot_is_clean() -> None:
    assert found("입력·출력\n", "KO006") == []


# KO007: quotes --------------------------------------------------------------


def test_ko007_straight_double_quotes_around_korean_become_curly() -> None:
    text = '이를 "한국어" 라고 부른다.\n'
    assert hits(text, "KO007") == [('"한국어"', "“한국어”")]
    # KO013 then glues the particle: “한국어”라고.
    assert fix(text, Settings(select={"KO007"})) == "이를 “한국어” 라고 부른다.\n"
    assert fix(text) == "이를 “한국어”라고 부른다.\n"


def test_ko007_straight_single_quotes_around_korean_become_curly() -> None:
    text = "이를 '한글' 표기라고 한다.\n"
    assert hits(text, "KO007") == [("'한글'", "‘한글’")]
    assert fix(text) == "이를 ‘한글’ 표기라고 한다.\n"


def test_ko007_single_quotes_followed_by_a_particle() -> None:
    # A particle glued to the closing quote is the normal Korean way to write it.
    text = "이를 '한글'이라고 한다.\n"
    assert hits(text, "KO007") == [("'한글'", "‘한글’")]
    assert fix(text) == "이를 ‘한글’이라고 한다.\n"


@pytest.mark.parametrize(
    "text",
    [
        'He said "quote" here.\n',
        "don't stop, it's fine\n",
        '영어 "quote"와 don\'t는 그대로.\n',
        "‘이미’ 곧은 “따옴표”\n",
    ],
)
def test_ko007_english_quotes_and_apostrophes_are_untouched(text: str) -> None:
    assert found(text, "KO007") == []
    assert fix(text) == text


def test_ko007_english_quote_before_korean_quote_on_one_line() -> None:
    # The English pair must stay straight; only the Korean pair becomes curly.
    text = '영어 "quote" 와 "한국어" 가 있다.\n'
    assert fix(text, Settings(select={"KO007"})) == '영어 "quote" 와 “한국어” 가 있다.\n'


def test_ko007_straight_setting_turns_curly_quotes_straight() -> None:
    settings = Settings(quotes="straight")
    assert fix("이를 “한국어”라고 ‘한글’\n", settings) == "이를 \"한국어\"라고 '한글'\n"
    text = '이를 "한국어"라고\n'
    assert found(text, "KO007", settings) == []
    assert fix(text, settings) == text


def test_ko007_off_setting_reports_nothing() -> None:
    settings = Settings(quotes="off")
    for text in ('이를 "한국어"라고\n', "이를 “한국어”라고\n"):
        assert found(text, "KO007", settings) == []
        assert fix(text, settings) == text


# KO008: ellipsis ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("그리고...\n", "그리고…\n"),
        ("그리고 。。。 끝\n", "그리고 … 끝\n"),
        ("그런데.... 음\n", "그런데… 음\n"),
    ],
)
def test_ko008_ellipsis_becomes_one_character(text: str, expected: str) -> None:
    assert found(text, "KO008")
    assert fix(text) == expected


def test_ko008_three_dots_setting() -> None:
    settings = Settings(ellipsis="...")
    assert fix("그리고…\n", settings) == "그리고...\n"
    assert found("그리고...\n", "KO008", settings) == []
    assert fix("그리고...\n", settings) == "그리고...\n"


def test_ko008_off_setting_reports_nothing() -> None:
    settings = Settings(ellipsis="off")
    for text in ("그리고...\n", "그리고…\n", "그리고 。。。\n"):
        assert found(text, "KO008", settings) == []
        assert fix(text, settings) == text


def test_ko008_two_dots_are_not_an_ellipsis() -> None:
    assert found("범위는 1..10 이다.\n", "KO008") == []
