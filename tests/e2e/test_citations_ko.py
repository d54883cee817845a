"""Korean citations: kobook's own CSL gives ``(Tazi 외, 2025)`` in both engines and the site.

pandoc's ko locale alone prints ``(Tazi 기타 2025년)`` and a literal ``와/과``
between authors (finding 8 of issue 11).  One tiny book with one-, two- and
many-author English entries and a Korean entry is built once per module into
HTML and both PDF engines.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import kobook
from kobook.cache import Cache
from kobook.load import load_book
from kobook.normalize import normalize_book
from kobook.parse import parse_book
from kobook.parse.ast import iter_nodes, stringify
from kobook.transform import transform_book
from tests.checks import in_text_citations, korean_citation_problems, pdf_pages
from tests.conftest import BookMaker

BIB = """\
@misc{dao2023,
  author = {Dao, Tri},
  title  = {{FlashAttention-2}: Faster Attention with Better Parallelism},
  year   = {2023},
  url    = {https://arxiv.org/abs/2307.08691}
}
@article{two2020,
  author  = {Rajbhandari, Samyam and Ruwase, Olatunji},
  title   = {Memory Optimizations for Large Models},
  journal = {Journal of Parallel Computing},
  volume  = {3}, number = {2}, pages = {10--20},
  year    = {2020}
}
@inproceedings{zero2020,
  author    = {Rajbhandari, Samyam and Rasley, Jeff and Ruwase, Olatunji and He, Yuxiong},
  title     = {{ZeRO}: Memory Optimizations Toward Training Trillion Parameter Models},
  booktitle = {SC20: International Conference for High Performance Computing},
  year      = {2020},
  pages     = {1--16},
  publisher = {IEEE}
}
@article{kim2022,
  author  = {김영희 and 이민수},
  title   = {분산 학습의 이해},
  journal = {정보과학회지},
  year    = {2022},
  langid  = {korean}
}
@book{hong2021,
  author    = {홍길동 and 김철수 and 이영희},
  title     = {대규모 모델 학습},
  publisher = {한빛미디어},
  year      = {2021},
  langid    = {korean}
}
"""

CHAPTER = """# 인용

한 저자의 글은 [@dao2023]처럼 인용한다. 두 저자의 글은 [@two2020]이고,
셋 이상은 [@zero2020]처럼 첫 저자만 쓴다. 쪽을 밝히면 [@zero2020, p. 3]이 된다.
한국어 문헌 [@hong2021]도 같은 꼴이다. 두 저자는 [@kim2022]처럼 쉼표로 잇는다.
"""

# What the Korean style must print: in the text and in the reference list.
CITES = [
    "Dao, 2023",
    "Rajbhandari & Ruwase, 2020",
    "Rajbhandari 외, 2020",
    "Rajbhandari 외, 2020, p. 3",
    "홍길동 외, 2021",
    "김영희, 이민수, 2022",
]
ENTRIES = [
    "Dao, T. (2023). FlashAttention-2: Faster Attention with Better Parallelism.",
    "Rajbhandari, S., & Ruwase, O. (2020). Memory Optimizations for Large Models. "
    "Journal of Parallel Computing, 3(2), 10–20.",
    "Rajbhandari, S., Rasley, J., Ruwase, O., & He, Y. (2020). ZeRO: Memory "
    "Optimizations Toward Training Trillion Parameter Models.",
    "홍길동, 김철수, 이영희 (2021). 대규모 모델 학습. 한빛미디어.",
    "김영희, 이민수 (2022). 분산 학습의 이해. 정보과학회지.",
]


def flat(text: str) -> str:
    """Text on one line, as the entries are written: poppler reads XeLaTeX's hyphens
    as U+2011, and a word hyphenated at a line end (``Par-/allel``) is one word."""
    text = text.replace("\u2011", "-")
    text = re.sub(r"(?<=[a-z])-\n(?=[a-z])", "", text)
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The tiny book's text as each output reads: HTML site, WeasyPrint and XeLaTeX PDFs."""
    root = tmp_path_factory.mktemp("cite-book")
    (root / "book").mkdir()
    (root / "book" / "01.md").write_text(CHAPTER, encoding="utf-8")
    (root / "refs.bib").write_text(BIB, encoding="utf-8")
    (root / "metadata.yaml").write_text(
        "title: 인용 시험\nlang: ko-KR\nbibliography: refs.bib\n", encoding="utf-8"
    )
    cache = tmp_path_factory.mktemp("cite-cache")
    texts = {}
    site = kobook.build(root, ["html"], cache_dir=cache, out=tmp_path_factory.mktemp("site"))
    pages = sorted(site.outputs["html"].parent.glob("*.html"))
    raw = " ".join(p.read_text(encoding="utf-8") for p in pages)
    texts["html"] = html.unescape(re.sub(r"<[^>]+>", "", raw))
    for engine in ("weasyprint", "xelatex"):
        result = kobook.build(
            root, ["pdf"], engine=engine, cache_dir=cache, out=tmp_path_factory.mktemp(engine)
        )
        texts[engine] = "\n".join(pdf_pages(result.outputs["pdf"]))
    return texts


OUTPUTS = ["html", "weasyprint", "xelatex"]


@pytest.mark.slow
@pytest.mark.parametrize("output", OUTPUTS)
def test_in_text_citations_read_korean(built: dict[str, str], output: str) -> None:
    text = built[output]
    assert korean_citation_problems(text) == []
    assert sorted(set(in_text_citations(text))) == sorted(CITES)
    assert "기타" not in text
    assert "2020년" not in text


@pytest.mark.slow
@pytest.mark.parametrize("output", OUTPUTS)
def test_reference_list_keeps_english_entries_english(built: dict[str, str], output: str) -> None:
    text = flat(built[output])
    missing = [entry for entry in ENTRIES if flat(entry) not in text]
    assert missing == []


def cites_and_entries(
    make_book: BookMaker, metadata: dict[str, object], extra: dict[str, str] | None = None
) -> tuple[str, str]:
    """The cite texts and the reference list of the tiny book after the transforms."""
    files = {"book/01.md": CHAPTER, "refs.bib": BIB, **(extra or {})}
    root = make_book(files, metadata={"bibliography": "refs.bib", **metadata})
    book = load_book(root)
    normalize_book(book)
    docs, _ = transform_book(book, parse_book(book, Cache(None)))
    found = [n for d in docs for n in iter_nodes(d.blocks)]
    cites = " ".join(stringify(n["c"][1]) for n in found if n["t"] == "Cite")
    refs = " ".join(
        stringify(n) for n in found if n["t"] == "Div" and n["c"][0][0].startswith("refs-")
    )
    return cites, refs


def test_korean_style_is_the_default_for_korean_books(make_book: BookMaker) -> None:
    cites, refs = cites_and_entries(make_book, {"lang": "ko"})
    # 외 stays on the line of its name: a no-break space, in every engine.
    assert re.findall(r"\S+ 외", cites) == []
    assert re.findall(r"\w+\u00a0외", cites) == ["Rajbhandari\u00a0외"] * 2 + ["홍길동\u00a0외"]
    cites, refs = cites.replace("\u00a0", " "), refs.replace("\u00a0", " ")
    assert sorted(set(in_text_citations(cites))) == sorted(CITES)
    assert korean_citation_problems(cites + " " + refs) == []


@pytest.mark.parametrize("lang", ["zh-CN", "ja-JP"])
def test_chinese_and_japanese_books_keep_their_own_style(make_book: BookMaker, lang: str) -> None:
    cites, refs = cites_and_entries(make_book, {"lang": lang})
    assert "외" not in cites + refs
    assert in_text_citations(cites) == []  # pandoc's default: no comma before the year
    assert re.search(r"Rajbhandari (等|ほか)", cites), cites


CUSTOM_CSL = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><title>numbers</title><id>numbers</id><updated>2026-01-01T00:00:00+00:00</updated></info>
  <citation><layout prefix="[" suffix="]" delimiter=",">
    <text variable="citation-number"/>
  </layout></citation>
  <bibliography><layout>
    <text variable="citation-number" suffix=". "/><text variable="title"/>
  </layout></bibliography>
</style>
"""


def test_csl_in_metadata_overrides_the_korean_style(make_book: BookMaker) -> None:
    cites, refs = cites_and_entries(
        make_book, {"lang": "ko-KR", "csl": "numbers.csl"}, {"numbers.csl": CUSTOM_CSL}
    )
    assert cites.replace("\u00a0", " ") == "[1] [2] [3] [3, p. 3] [4] [5]"
    assert in_text_citations(cites) == []
    assert "1. FlashAttention-2" in refs


def test_missing_csl_is_still_an_error_with_the_file(make_book: BookMaker) -> None:
    root = make_book(
        {"book/01.md": CHAPTER, "refs.bib": BIB},
        metadata={"lang": "ko-KR", "bibliography": "refs.bib", "csl": "nowhere.csl"},
    )
    with pytest.raises(kobook.KobookError) as caught:
        kobook.build(root, ["html"], out=root / "out")
    found = caught.value.diagnostic
    assert found.code == "CITE002"
    assert Path(str(found.location.file)).name == "metadata.yaml"
    lines = (root / "metadata.yaml").read_text(encoding="utf-8").splitlines()
    assert found.location.line == 1 + next(
        i for i, line in enumerate(lines) if line.startswith("csl:")
    )
