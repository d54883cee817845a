"""The XeLaTeX engine: same book, same numbers, same structure as the WeasyPrint PDF."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from pypdf import PdfReader

import kobook
from kobook.cache import Cache
from kobook.errors import KobookError
from kobook.load import load_book
from kobook.normalize import normalize_book
from kobook.parse import parse_book
from kobook.parse.ast import iter_nodes, stringify
from kobook.transform import transform_book
from tests import checks as layout
from tests.checks import pdf_pages, split_words, squash, words_off_page
from tests.conftest import COUNTERS, PLAYBOOK, BookMaker, need_corpus

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def both(sample_build: Callable[[str], kobook.BuildResult]) -> dict[str, kobook.BuildResult]:
    return {engine: sample_build(engine) for engine in ("weasyprint", "xelatex")}


def captions(pdf: Path) -> list[str]:
    return re.findall(r"(?:그림|표)\s\d+\.\d+\.", "\n".join(pdf_pages(pdf)))


def test_headings_are_the_same_in_both_engines(both: dict[str, kobook.BuildResult]) -> None:
    weasy = layout.outline_titles(both["weasyprint"].outputs["pdf"])
    latex = layout.outline_titles(both["xelatex"].outputs["pdf"])
    assert len(weasy) >= 25
    assert weasy == latex


def test_captions_are_the_same_in_both_engines(both: dict[str, kobook.BuildResult]) -> None:
    weasy = captions(both["weasyprint"].outputs["pdf"])
    latex = captions(both["xelatex"].outputs["pdf"])
    assert len(weasy) >= 10
    # Same captions; XeLaTeX may set a figure a page later (it floats: !htbp), after a table.
    assert sorted(squash(c) for c in weasy) == sorted(squash(c) for c in latex)
    for kind in ("그림", "표"):  # each kind still in its own numbering order
        in_order = [squash(c) for c in latex if squash(c).startswith(kind)]
        assert in_order == [squash(c) for c in weasy if squash(c).startswith(kind)]


def test_footnotes_are_all_in_both_engines(both: dict[str, kobook.BuildResult]) -> None:
    book = load_book(REPO)
    normalize_book(book)
    docs, _ = transform_book(book, parse_book(book, Cache(None)))

    def words(blocks: list) -> str:
        # Hangul only: math is an image in one engine and text in the other.
        return re.sub(r"[^가-힣]", "", stringify(blocks))

    notes = [words(n["c"])[:14] for d in docs for n in iter_nodes(d.blocks) if n["t"] == "Note"]
    assert len(notes) >= 10
    counts = {}
    for engine, result in both.items():
        text = re.sub(r"[^가-힣]", "", "\n".join(pdf_pages(result.outputs["pdf"])))
        counts[engine] = sum(1 for note in notes if note in text)
    assert counts["weasyprint"] == counts["xelatex"] == len(notes)


def test_cross_reference_texts_agree(both: dict[str, kobook.BuildResult]) -> None:
    pattern = re.compile(r"(?:그림|표|식)\s\(?\d+\.\d+\)?(?:을|를|은|는|이|가|과|와|로|으로)")
    found = {
        engine: sorted(set(pattern.findall("\n".join(pdf_pages(r.outputs["pdf"])))))
        for engine, r in both.items()
    }
    assert len(found["weasyprint"]) >= 5
    assert found["weasyprint"] == found["xelatex"]


def test_page_counts_are_close(both: dict[str, kobook.BuildResult]) -> None:
    weasy = len(PdfReader(both["weasyprint"].outputs["pdf"]).pages)
    latex = len(PdfReader(both["xelatex"].outputs["pdf"]).pages)
    assert abs(latex - weasy) <= 0.25 * weasy, (weasy, latex)


def test_xelatex_pdf_is_clean(both: dict[str, kobook.BuildResult]) -> None:
    result = both["xelatex"]
    pdf = result.outputs["pdf"]
    assert not [d for d in result.diagnostics if d.code.startswith("GLYPH")]
    text = "\n".join(pdf_pages(pdf))
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "book").glob("*.md")))
    assert split_words(text, source) == []
    assert words_off_page(pdf, margin=14 * 72 / 25.4) == []
    code = "".join(re.findall(r"^```.*?^```", source, flags=re.S | re.M))
    for token in ("**", "](", ":::", "{#", "\\frac", "\\text"):
        assert text.count(token) <= code.count(token), token
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
    assert "CJK" in fonts and " no " not in fonts.split("\n", 2)[2]
    assert "차례" in text and "옮김" in text and "원서" in text


def test_xelatex_draws_emoji_as_images(both: dict[str, kobook.BuildResult]) -> None:
    reader = PdfReader(both["xelatex"].outputs["pdf"])
    small_images = 0
    for page in reader.pages:
        for x in ((page.get("/Resources") or {}).get("/XObject") or {}).values():
            x = x.get_object()
            if x.get("/Subtype") == "/Image" and int(x.get("/Width", 0)) < 200:
                small_images += 1
    assert small_images >= 2  # 🚀, 📝, 💡 drawn from the emoji font


def test_engine_from_metadata_and_template_override(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book({"book/01.md": "# 장\n\n본문이다.\n"}, metadata={"engine": "xelatex"})
    template = (REPO / "src/kobook/templates/latex/book.latex").read_text(encoding="utf-8")
    (root / "templates" / "latex").mkdir(parents=True)
    (root / "templates" / "latex" / "book.latex").write_text(
        "% my own template\n" + template, encoding="utf-8"
    )
    result = kobook.build(root, ["pdf"], cache_dir=tmp_path / "cache")
    assert result.outputs["pdf"].is_file()
    texs = list((tmp_path / "cache" / "latex").rglob("book.tex"))
    assert texs and texs[0].read_text(encoding="utf-8").startswith("% my own template")


def test_missing_glyph_is_reported_and_fails(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book({"book/01.md": "# 장\n\n이 문자 \U000f0000 는 어느 글꼴에도 없다.\n"})
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["pdf"], engine="xelatex", cache_dir=tmp_path / "c")
    assert info.value.code == "GLYPH001"
    text = str(info.value)
    assert "U+F0000" in text and "01.md:3" in text
    result = kobook.build(
        root, ["pdf"], engine="xelatex", cache_dir=tmp_path / "c", keep_going=True
    )
    assert result.outputs["pdf"].is_file()
    assert any(d.code == "GLYPH001" for d in result.diagnostics)


def test_latex_error_names_the_chapter(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book(
        {
            "book/01.md": "# 하나\n\n첫 장.\n",
            "book/02.md": "# 둘\n\n둘째 장.\n\n```{=latex}\n\\undefinedkobookcommand\n```\n",
        }
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "kobook",
            "build",
            "pdf",
            "--engine",
            "xelatex",
            "--trust",  # the broken raw LaTeX must reach XeLaTeX (else SEC003 leaves it out)
            "--project",
            str(root),
            "--cache-dir",
            str(tmp_path / "c"),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "TEX001" in result.stderr and "02.md" in result.stderr
    assert "undefinedkobookcommand" in result.stderr or "Undefined control" in result.stderr
    assert len(result.stderr.splitlines()) < 10  # a message, not the log
    assert not (root / "dist" / "book.pdf").exists()


@pytest.fixture(scope="module")
def playbook_xe(
    playbook_build: Callable[[str], tuple[kobook.BuildResult, Path]],
) -> tuple[kobook.BuildResult, Path]:
    """The corpus playbook through XeLaTeX (built once for the run), and its cache folder."""
    return playbook_build("xelatex")


@pytest.mark.slow
def test_corpus_playbook_through_xelatex(playbook_xe: tuple[kobook.BuildResult, Path]) -> None:
    result, cache = playbook_xe
    pdf = result.outputs["pdf"]
    assert not [d for d in result.diagnostics if d.code.startswith("GLYPH")]
    # The ledger: nothing lost (② once read as ➁, a glyph two code points share).
    assert not [d.format() for d in result.diagnostics if d.code.startswith("LOST")]
    log = next((cache / "latex").rglob("book.log")).read_text(errors="replace")
    assert "Missing character" not in log
    text = "\n".join(pdf_pages(pdf))
    assert "𝑣" in text or "v" in text
    need_corpus(COUNTERS)
    out = subprocess.run(
        [sys.executable, str(COUNTERS), str(pdf), str(PLAYBOOK / "The UltraScale Playbook.md")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    counts = dict(re.findall(r"(\w+)=(\d+)", out.strip().splitlines()[-1]))
    assert counts and all(v == "0" for v in counts.values()), out
    # figures float (pandoc's htbp): no page left white before one (issue 11, finding 9)
    assert layout.figure_gaps(pdf) == []


def test_gif_fonts_and_syllable_breaking_in_xelatex(make_book: BookMaker, tmp_path: Path) -> None:
    from PIL import Image

    root = make_book(
        {"book/01.md": "# 장\n\n![움직이는 그림](images/anim.gif)\n\n본문이다 🚀.\n"},
        metadata={"CJKmainfont": "NanumMyeongjo", "line-breaking": "syllable", "papersize": "b5"},
    )
    frames = [Image.new("RGB", (60, 30), color) for color in ((200, 0, 0), (0, 0, 200))]
    (root / "images").mkdir(exist_ok=True)
    frames[0].save(root / "images" / "anim.gif", save_all=True, append_images=frames[1:])
    result = kobook.build(root, ["pdf"], engine="xelatex", cache_dir=tmp_path / "c")
    pdf = result.outputs["pdf"]
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
    assert "NanumMyeongjo" in fonts
    box = PdfReader(pdf).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (516, 728)  # JIS B5 (ko)
    tex = next((tmp_path / "c" / "latex").rglob("book.tex")).read_text(encoding="utf-8")
    assert "\n\\XeTeXlinebreakpenalty=10000" not in tex  # syllable: xetexko keeps its breaks
    converted = list((tmp_path / "c" / "latex-img").rglob("*.png"))
    assert converted, "the GIF was not converted"
    with Image.open(converted[0]) as first:
        assert first.convert("RGB").getpixel((5, 5)) == (200, 0, 0)  # the first frame
    assert "그림 1.1." in "\n".join(pdf_pages(pdf)).replace("\u00a0", " ")


# Issue 11: what a Korean typesetter found on the XeLaTeX pages, read from glyph positions.
PLAYBOOK_SOURCE = PLAYBOOK / "The UltraScale Playbook.md"


def sample_source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "book").glob("*.md")))


@pytest.fixture(params=["sample", "playbook"])
def xe_book(
    request: pytest.FixtureRequest, both: dict[str, kobook.BuildResult]
) -> tuple[Path, str, list[str]]:
    """``(pdf, source, chapter titles)`` of the sample book or the corpus playbook via XeLaTeX."""
    if request.param == "sample":
        return both["xelatex"].outputs["pdf"], sample_source(), titles_of(REPO)
    result, _ = request.getfixturevalue("playbook_xe")
    source = PLAYBOOK_SOURCE.read_text(encoding="utf-8")
    return result.outputs["pdf"], source, titles_of(PLAYBOOK)


def titles_of(project: Path) -> list[str]:
    return [c.title for c in load_book(project).chapters]


@pytest.mark.slow
def test_xelatex_keeps_particles_with_latin_words(xe_book: tuple[Path, str, list[str]]) -> None:
    pdf, source, _ = xe_book
    # GPU / 가, (row) / 을, 모델 / (LLM)의 on the corpus before issue 11.
    assert layout.glued_breaks("\f".join(pdf_pages(pdf)), source) == []


@pytest.mark.slow
def test_xelatex_has_no_loose_lines(xe_book: tuple[Path, str, list[str]]) -> None:
    # "About 1 em": a word kept with its particle or citation (keep_glued) can leave the
    # line before it up to ~1.1 em loose, which beats sticking out into the margin.  Since
    # syllables no longer spread (issue 32: ko.TeX's glue between them stretches 0.01 em,
    # not 0.04), the word spaces take that slack alone: two lines of the sample reach
    # 1.35-1.38 em (a first line before ``GPT-3(175B)``, a URL before its particle), as
    # tests/e2e/test_texture.py allows every engine.
    pdf = xe_book[0]
    assert len(layout.loose_lines(pdf, ceiling=1.0)) <= 6, layout.loose_lines(pdf, 1.0)
    assert layout.loose_lines(pdf, ceiling=1.6) == []


@pytest.mark.slow
def test_xelatex_running_heads(xe_book: tuple[Path, str, list[str]]) -> None:
    pdf, _, titles = xe_book
    openings = layout.chapter_openings(pdf, titles)
    assert len(openings) == len(titles)
    assert [(page, head) for page, _, head in openings if head] == []
    assert [page for page, _, _ in openings if page % 2 == 0] == []  # two-sided: recto
    # 차례 over the preface, 15장 토론 페이지 over the References before issue 11.
    assert layout.foreign_running_heads(pdf, [*titles, "차례"]) == []


@pytest.mark.slow
def test_xelatex_tables_and_code_boxes(xe_book: tuple[Path, str, list[str]]) -> None:
    pdf, source, _ = xe_book
    assert layout.broken_cell_words(pdf, source) == []
    assert layout.text_outside_boxes(pdf) == []


def test_xelatex_citations_read_korean(both: dict[str, kobook.BuildResult]) -> None:
    text = "\n".join(pdf_pages(both["xelatex"].outputs["pdf"]))
    assert layout.korean_citation_problems(text) == []
    assert any(" 외, " in cite for cite in layout.in_text_citations(text))
