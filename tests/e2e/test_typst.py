"""The Typst engine: the XeLaTeX engine's parity and corpus tests, run for Typst too."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

import kobook
from kobook.cache import Cache
from kobook.cli import main
from kobook.errors import KobookError
from kobook.load import load_book
from kobook.normalize import normalize_book
from kobook.parse import parse_book
from kobook.parse.ast import iter_nodes, stringify
from kobook.transform import transform_book
from kobook.write.shared.seams import identifier_seams
from kobook.write.typst.diagnostics import diagnostic_of
from kobook.write.typst.passes import CHAPTER_MARK
from kobook.write.typst.words import box_words, distribute
from tests import checks as layout
from tests.checks import pdf_pages, split_words, squash, words_off_page
from tests.conftest import COUNTERS, PLAYBOOK, SCALING, BookMaker, need_corpus

REPO = Path(__file__).resolve().parents[2]
INVISIBLE = ("\u2060", "\u200b", "\ufeff", "\u00ad")

Sample = Callable[[str], kobook.BuildResult]


def captions(pdf: Path) -> list[str]:
    return re.findall(r"(?:그림|표)\s\d+\.\d+\.", "\n".join(pdf_pages(pdf)).replace("\u00a0", " "))


def sample_source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "book").glob("*.md")))


def test_headings_are_those_of_weasyprint(sample_build: Sample) -> None:
    weasy = layout.outline_titles(sample_build("weasyprint").outputs["pdf"])
    typst = layout.outline_titles(sample_build("typst").outputs["pdf"])
    assert len(weasy) >= 25
    assert typst == weasy


def test_captions_are_those_of_weasyprint(sample_build: Sample) -> None:
    weasy = captions(sample_build("weasyprint").outputs["pdf"])
    typst = captions(sample_build("typst").outputs["pdf"])
    assert len(weasy) >= 10
    # Same captions; a figure floats to a page's foot, so it may follow a table set after it.
    assert sorted(squash(c) for c in typst) == sorted(squash(c) for c in weasy)
    for kind in ("그림", "표"):  # each kind still in its own numbering order
        in_order = [squash(c) for c in typst if squash(c).startswith(kind)]
        assert in_order == [squash(c) for c in weasy if squash(c).startswith(kind)]


def test_footnotes_are_all_there(sample_build: Sample) -> None:
    book = load_book(REPO)
    normalize_book(book)
    docs, _ = transform_book(book, parse_book(book, Cache(None)))
    notes = [
        re.sub(r"[^가-힣]", "", stringify(n["c"]))[:14]
        for d in docs
        for n in iter_nodes(d.blocks)
        if n["t"] == "Note"
    ]
    assert len(notes) >= 10
    text = re.sub(r"[^가-힣]", "", "\n".join(pdf_pages(sample_build("typst").outputs["pdf"])))
    assert [note for note in notes if note not in text] == []


def test_cross_reference_texts_agree(sample_build: Sample) -> None:
    pattern = re.compile(r"(?:그림|표|식)\s\(?\d+\.\d+\)?(?:을|를|은|는|이|가|과|와|로|으로)")
    found = {
        engine: sorted(
            set(pattern.findall("\n".join(pdf_pages(sample_build(engine).outputs["pdf"]))))
        )
        for engine in ("weasyprint", "typst")
    }
    assert len(found["weasyprint"]) >= 5
    assert found["typst"] == found["weasyprint"]


def test_page_count_is_close_to_weasyprint(sample_build: Sample) -> None:
    weasy = len(PdfReader(sample_build("weasyprint").outputs["pdf"]).pages)
    typst = len(PdfReader(sample_build("typst").outputs["pdf"]).pages)
    assert abs(typst - weasy) <= 0.25 * weasy, (weasy, typst)


def test_typst_pdf_is_clean(sample_build: Sample) -> None:
    result = sample_build("typst")
    pdf = result.outputs["pdf"]
    assert not [d for d in result.diagnostics if d.code.startswith(("GLYPH", "TYP"))]
    text = "\n".join(pdf_pages(pdf))
    source = sample_source()
    assert split_words(text, source) == []
    assert layout.glued_breaks("\f".join(pdf_pages(pdf)), source) == []
    assert [c for c in INVISIBLE if c in text] == []
    assert words_off_page(pdf, margin=14 * 72 / 25.4) == []
    # A wrapped code line's ↪ is drawn from the math font: Typst's fallback had found it in
    # the colour emoji font, a coloured picture in the code box.
    with pdfplumber.open(pdf) as opened:
        marks = {c["fontname"] for page in opened.pages for c in page.chars if "↪" in c["text"]}
    assert marks and not [name for name in marks if "Emoji" in name], marks
    code = "".join(re.findall(r"^```.*?^```", source, flags=re.S | re.M))
    for token in ("**", "](", ":::", "{#", "\\frac", "\\text", "#box", "#cite"):
        assert text.count(token) <= code.count(token), token
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True).stdout
    rows = [line.split() for line in fonts.splitlines()[2:] if line.strip()]
    assert any("CJKkr" in row[0] for row in rows)  # the Hangul fonts, embedded
    assert [row[0] for row in rows if row[-5] != "yes"] == []  # every font embedded
    assert any(m in row[0] for row in rows for m in ("LatinModernMath", "STIXTwoMath"))  # as others
    assert "차례" in text and "옮김" in text and "원서" in text


def test_typst_running_heads_and_boxes(sample_build: Sample) -> None:
    pdf = sample_build("typst").outputs["pdf"]
    titles = [c.title for c in load_book(REPO).chapters]
    openings = layout.chapter_openings(pdf, titles)
    assert len(openings) == len(titles)
    assert [(page, head) for page, _, head in openings if head] == []  # none on an opening
    assert [page for page, _, _ in openings if page % 2 == 0] == []  # two-sided: recto
    assert layout.foreign_running_heads(pdf, [*titles, "차례"]) == []
    assert layout.broken_cell_words(pdf, sample_source()) == []
    assert layout.text_outside_boxes(pdf) == []


def test_typst_contents_and_title_page_read_as_printed(sample_build: Sample) -> None:
    """The contents prints ``1장 학습 …`` on one line in the text's colour, not the label on
    a line of its own in link blue; the title page's lines are centred, not justified."""
    pdf = sample_build("typst").outputs["pdf"]
    titles = [c.title for c in load_book(REPO).chapters if c.kind == "chapter"]
    with pdfplumber.open(pdf) as doc:
        toc = next(p for p in doc.pages if "차례" in (p.extract_text() or "")[:10])
        lines = (toc.extract_text() or "").split("\n")
        colours = {tuple(c["non_stroking_color"] or ()) for c in toc.chars if c["text"].strip()}
        rows: dict[int, list[float]] = {}
        for char in doc.pages[0].chars:
            rows.setdefault(round(char["top"]), []).extend((char["x0"], char["x1"]))
    first = titles[0]
    assert any(re.match(rf"1장\s*{re.escape(first)}\s*[.… ]*\s*1$", line) for line in lines), lines
    assert not [line for line in lines if re.fullmatch(r"\d+장", line.strip())]
    assert all(len(c) <= 1 or max(c) < 0.2 for c in colours), colours  # black or grey only
    # The 원서 block's lines (the long ones) are ragged: justified, all but its last ran the
    # same width, margin to margin.
    long = [max(xs) - min(xs) for _, xs in sorted(rows.items()) if len(xs) > 40][:-1]
    assert len(long) >= 2 and max(long) - min(long) > 1, long


def test_typst_blank_pages_carry_no_folio(sample_build: Sample) -> None:
    """A blank verso before a chapter (or the contents) that opens on a recto is blank:
    no page number, no running head, as the other engines print it."""
    pages = pdf_pages(sample_build("typst").outputs["pdf"])
    lone = [i + 1 for i, text in enumerate(pages) if re.fullmatch(r"\s*([0-9]+|[ivxl]+)\s*", text)]
    blank = [i + 1 for i, text in enumerate(pages) if not text.strip()]
    assert lone == [] and blank, (lone, blank)


def test_typst_lines_break_long_code_names_at_seams(sample_build: Sample) -> None:
    """A whole-word box cannot be letter-spaced or hyphenated, so Typst's lines stay a
    little looser than WeasyPrint's; a long code name is boxed piece by piece, so the
    paragraph builder may break it at a seam (9 lines over 1 em and a worst of 1.8 em
    before, 7 and 1.55 em after, of about 870 full lines)."""
    pdf = sample_build("typst").outputs["pdf"]
    names = set(re.findall(r"`([^`\s]{8,})`", sample_source()))
    broken = layout.broken_names(pdf, names)
    assert broken  # the DDP callout's DistributedData|Parallel
    assert [(a, b) for a, b in broken if len(a) not in identifier_seams(a + b)] == []
    gaps = layout.word_gaps(pdf)
    assert len(gaps) > 300
    assert len(layout.loose_lines(pdf, 1.0)) <= 0.01 * len(gaps)
    assert layout.loose_lines(pdf, 1.6) == []


def test_typst_citations_read_korean(sample_build: Sample) -> None:
    text = "\n".join(pdf_pages(sample_build("typst").outputs["pdf"]))
    assert layout.korean_citation_problems(text) == []
    assert re.search(r"\(\w+ 외, \d{4}\)", text)


# --- Korean words in boxes ---------------------------------------------------------------


def s(text: str) -> dict:
    return {"t": "Str", "c": text}


SPACE = {"t": "Space"}


def typst_of(inlines: list) -> str:
    out = []
    for node in inlines:
        if node["t"] == "RawInline":
            out.append(node["c"][1])
        elif node["t"] == "Space":
            out.append(" ")
        else:
            out.append(stringify(node) if node["t"] != "Strong" else f"*{typst_of(node['c'])}*")
    return "".join(out)


def test_every_hangul_word_is_one_box() -> None:
    inlines = [s("GPU를"), SPACE, s("쓴다"), SPACE, s("(LLM)"), SPACE, s("in"), SPACE, s("English")]
    assert typst_of(box_words(inlines)) == "#box[GPU를] #box[쓴다] (LLM) in English"


def test_emphasis_is_split_at_its_spaces_so_its_last_word_keeps_its_particle() -> None:
    strong = {"t": "Strong", "c": [s("액티베이션"), SPACE, s("재계산")]}
    assert len(distribute([strong, s("이다.")])) == 4
    assert typst_of(box_words([strong, s("이다.")])) == "#box[*액티베이션*] #box[*재계산*이다.]"


def test_a_footnote_ends_a_word_and_its_text_is_boxed_too() -> None:
    note = {"t": "Note", "c": [{"t": "Para", "c": [s("각주"), SPACE, s("본문")]}]}
    out = box_words([s("단어"), note])
    assert out[-1]["t"] == "Note"
    assert typst_of(out[-1]["c"][0]["c"]) == "#box[각주] #box[본문]"


# --- Engine choice, templates, errors ------------------------------------------------------


def test_engine_from_metadata_and_template_override(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book({"book/01.md": "# 장\n\n본문이다.\n"}, metadata={"engine": "typst"})
    template = (REPO / "src/kobook/templates/typst/book.typ").read_text(encoding="utf-8")
    (root / "templates" / "typst").mkdir(parents=True)
    (root / "templates" / "typst" / "book.typ").write_text(
        "// my own template\n" + template, encoding="utf-8"
    )
    result = kobook.build(root, ["pdf"], cache_dir=tmp_path / "cache", trust=True)
    assert result.outputs["pdf"].is_file()
    sources = list((tmp_path / "cache" / "typst").rglob("book.typ"))
    assert sources and sources[0].read_text(encoding="utf-8").startswith("// my own template")


def test_cli_builds_with_typst(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book({"book/01.md": "# 장\n\n**GPU**를 쓴다.\n"})
    out = CliRunner().invoke(
        main,
        ["build", "pdf", "--engine", "typst", "--project", str(root), "--cache-dir", str(tmp_path)],
    )
    assert out.exit_code == 0, out.output
    pdf = root / "dist" / "book.pdf"
    assert "GPU를 쓴다." in "\n".join(pdf_pages(pdf))


def test_missing_glyph_is_reported_and_fails(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book({"book/01.md": "# 장\n\n이 문자 \U000f0000 는 어느 글꼴에도 없다.\n"})
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["pdf"], engine="typst", cache_dir=tmp_path / "c")
    assert info.value.code == "GLYPH001"
    assert "U+F0000" in str(info.value) and "01.md:3" in str(info.value)
    assert not (root / "dist" / "book.pdf").exists()
    result = kobook.build(root, ["pdf"], engine="typst", cache_dir=tmp_path / "c", keep_going=True)
    assert result.outputs["pdf"].is_file()
    assert any(d.code == "GLYPH001" for d in result.diagnostics)


def test_a_typst_message_names_the_chapter_and_line(make_book: BookMaker) -> None:
    """Typst's line in book.typ → the chapter (by the mark above it) and the source line
    its text came from."""
    root = make_book({"book/01.md": "# 하나\n\n첫 장.\n", "book/02.md": "# 둘\n\n둘째 장이다.\n"})
    book = load_book(root)
    source = "\n".join(
        [
            "#set page()",
            f"{CHAPTER_MARK}01",
            "= 하나",
            f"{CHAPTER_MARK}02",
            "= 둘",
            "#box[둘째] #box[장이다.]",
        ]
    )
    message = "warning: a note\n  ┌─ x.typ:1:1\n\nerror: boom\n  ┌─ book.typ:6:1\n  │\n"
    found = diagnostic_of(book, source, message, "TYP001", "error")
    assert found.message == "Typst: boom"
    assert found.location.file == root / "book" / "02.md" and found.location.line == 3
    warning = diagnostic_of(book, source, message, "TYP002", "warning")
    assert warning.message == "Typst: a note"


def test_typst_error_is_a_message_not_a_traceback(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book({"book/01.md": "# 하나\n\n첫 장.\n"})
    (root / "templates" / "typst").mkdir(parents=True)
    (root / "templates" / "typst" / "book.typ").write_text(
        '#panic("kobook-test-failure")\n{{ body }}\n', encoding="utf-8"
    )
    command = [sys.executable, "-m", "kobook", "build", "pdf", "--engine", "typst", "--trust"]
    command += ["--project", str(root), "--cache-dir", str(tmp_path / "c")]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 1
    assert "TYP001" in result.stderr and "kobook-test-failure" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) < 10
    assert not (root / "dist" / "book.pdf").exists()


def test_math_typst_cannot_set_is_drawn_instead(make_book: BookMaker, tmp_path: Path) -> None:
    """pandoc writes ``\\otimes`` as ``times.circle``, a symbol Typst renamed, and an empty
    fraction as ``frac(, )``: each failed the whole build (the corpus scaling book did)."""
    chapter = "# 장\n\n곱은 $A \\otimes B$ 이고 분수는 $\\frac{}{}$ 이며 합은 $a+b$ 이다.\n"
    root = make_book({"book/01.md": chapter})
    result = kobook.build(root, ["pdf"], engine="typst", cache_dir=tmp_path / "c")
    text = "\n".join(pdf_pages(result.outputs["pdf"]))
    assert "곱은" in text and "합은" in text
    assert "times.circle" not in text and "frac(" not in text
    svgs = list((tmp_path / "c").rglob("*.svg"))
    assert svgs  # drawn by ziamath, as the WeasyPrint engine draws every formula
    source = next((tmp_path / "c" / "typst").rglob("book.typ")).read_text(encoding="utf-8")
    assert "$a + b$" in source  # what Typst can set, Typst sets


def test_mdbook_code_tags_are_languages(make_book: BookMaker, tmp_path: Path) -> None:
    chapter = "# 장\n\n```rust,ignore,does_not_compile\nfn main() {}\n```\n"
    root = make_book({"book/01.md": chapter})
    result = kobook.build(root, ["pdf"], engine="typst", cache_dir=tmp_path / "c")
    assert not [d for d in result.diagnostics if d.code == "TYP002"]
    source = next((tmp_path / "c" / "typst").rglob("book.typ")).read_text(encoding="utf-8")
    assert "```rust\n" in source


def test_raw_typst_from_the_book_is_not_run(make_book: BookMaker, tmp_path: Path) -> None:
    """A pull request's raw Typst could read any file under the compiler's root."""
    chapter = '# 장\n\n본문.\n\n```{=typst}\n#read("/etc/hostname")\n```\n\n`#x`{=typst}\n'
    root = make_book({"book/01.md": chapter})
    result = kobook.build(root, ["pdf"], engine="typst", cache_dir=tmp_path / "c")
    assert [d.code for d in result.diagnostics if d.code == "TYP003"] == ["TYP003"]
    source = next((tmp_path / "c" / "typst").rglob("book.typ")).read_text(encoding="utf-8")
    assert "#read(" not in source


# --- The corpus playbook -------------------------------------------------------------------


@pytest.fixture(scope="module")
def playbook_typst(
    playbook_build: Callable[[str], tuple[kobook.BuildResult, Path]],
) -> kobook.BuildResult:
    return playbook_build("typst")[0]


@pytest.mark.slow
def test_corpus_playbook_through_typst(playbook_typst: kobook.BuildResult) -> None:
    pdf = playbook_typst.outputs["pdf"]
    assert not [d for d in playbook_typst.diagnostics if d.code.startswith("GLYPH")]
    assert not [d.format() for d in playbook_typst.diagnostics if d.code.startswith("LOST")]
    text = "\n".join(pdf_pages(pdf))
    assert [c for c in INVISIBLE if c in text] == []
    need_corpus(COUNTERS)
    source = PLAYBOOK / "The UltraScale Playbook.md"
    out = subprocess.run(
        [sys.executable, str(COUNTERS), str(pdf), str(source)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    counts = dict(re.findall(r"(\w+)=(\d+)", out.strip().splitlines()[-1]))
    assert counts and all(v == "0" for v in counts.values()), out
    assert layout.glued_breaks("\f".join(pdf_pages(pdf)), source.read_text(encoding="utf-8")) == []
    titles = [c.title for c in load_book(PLAYBOOK).chapters]
    openings = layout.chapter_openings(pdf, titles)
    assert len(openings) == len(titles)
    assert [(page, head) for page, _, head in openings if head] == []


def test_figures_float_to_the_foot_never_above_a_title(
    playbook_typst: kobook.BuildResult,
) -> None:
    """Issue 32: a figure that did not fit left its page a third to half white (five pages
    of the playbook); now it floats to the foot of the page (or the next), the text after
    it filling the page, and never to the top, above the chapter's title."""
    pdf = playbook_typst.outputs["pdf"]
    assert layout.figure_gaps(pdf) == []
    # Never above a chapter's title: on each opening page, no drawing above its label.
    openings = 0
    for page, text in zip(layout._layout(pdf), pdf_pages(pdf), strict=True):
        if not re.match(r"\s*\d+장\n", text):
            continue
        openings += 1
        label = next(line for line in page.lines if re.fullmatch(r"\d+장", line.text.strip()))
        drawn = [s for s in page.shapes if s.bottom - s.top > 20 and s.bottom <= label.top]
        assert drawn == [], page.number
    assert openings > 10


@pytest.mark.slow
def test_corpus_distill_book_through_typst(tmp_path: Path) -> None:
    """The scaling book's math: pandoc writes symbols Typst 0.14 renamed (``times.circle``)
    and ziamath draws a few with no size; every formula is set, drawn, or shown as TeX."""
    need_corpus(SCALING / "index.md")
    result = kobook.build(
        SCALING,
        ["pdf"],
        engine="typst",
        keep_going=True,
        offline=True,
        out=tmp_path / "out",
        cache_dir=tmp_path / "cache",
    )
    pdf = result.outputs["pdf"]
    assert len(PdfReader(pdf).pages) > 100
    assert not [d for d in result.diagnostics if d.code.startswith("TYP")]
    shown_as_tex = [d for d in result.diagnostics if d.code == "MATH001"]
    assert len(shown_as_tex) <= 10, shown_as_tex
    # The ledger: every construct is there; the formulas shown as TeX are MATH001's.
    assert not [d.format() for d in result.diagnostics if d.code.startswith("LOST")]
    assert list((tmp_path / "cache").rglob("*.svg"))  # formulas Typst could not set, drawn


def test_a_small_raster_image_has_the_size_weasyprint_gives_it(
    make_book: BookMaker, tmp_path: Path
) -> None:
    """One CSS pixel per image pixel, as in the WeasyPrint PDF and the HTML book (Typst
    took 72 dpi: a third larger); a wide image still fits the text width."""
    from PIL import Image

    root = make_book(
        {"book/01.md": "# 장\n\n![작은 그림](images/small.png)\n\n![넓은 그림](images/wide.png)\n"}
    )
    (root / "images").mkdir()
    Image.new("RGB", (300, 100), "red").save(root / "images/small.png", dpi=(72, 72))
    Image.new("RGB", (3000, 100), "blue").save(root / "images/wide.png")
    pdf = kobook.build(root, ["pdf"], engine="typst", cache_dir=tmp_path / "c").outputs["pdf"]
    listing = subprocess.run(
        ["pdfimages", "-list", str(pdf)], capture_output=True, text=True, check=True
    ).stdout.splitlines()[2:]
    ppi = {int(line.split()[3]): int(line.split()[12]) for line in listing}
    assert ppi[300] == 96
    width = float(PdfReader(pdf).pages[0].mediabox.width)
    assert ppi[3000] > 3000 / (width / 72)  # narrower than the page: fitted to the text


def test_natural_widths_read_no_file_outside_the_book(tmp_path: Path) -> None:
    from PIL import Image

    from kobook.write.shared.passes import natural_widths

    book, outside = tmp_path / "book", tmp_path / "outside.png"
    book.mkdir()
    for path in (book / "in.png", outside):
        Image.new("RGB", (300, 100)).save(path)

    def image(url: str) -> dict:
        return {"t": "Image", "c": [["", [], []], [], [url, ""]]}

    blocks = [{"t": "Para", "c": [image("in.png"), image("../outside.png"), image(str(outside))]}]
    found = natural_widths(blocks, [book], 450.0)[0]["c"]
    assert found[0]["c"][0][2] == [["width", "50.00%"]]
    assert found[1]["c"][0][2] == [] and found[2]["c"][0][2] == []


def test_a_reference_to_an_equation_is_a_link(make_book: BookMaker, tmp_path: Path) -> None:
    """The equation's label is on the raw Typst that ends it: the reference kept its text
    but lost its link, as if the label were missing."""
    root = make_book({"book/01.md": "# 장\n\n$$a+b=c$$ {#eq:sum}\n\n식 @eq:sum을 보라.\n"})
    pdf = kobook.build(root, ["pdf"], engine="typst", cache_dir=tmp_path / "c").outputs["pdf"]
    reader = PdfReader(pdf)
    page = next(p for p in reader.pages if "식(1.1)을" in squash(p.extract_text()))
    links = [a.get_object() for a in page.get("/Annots") or []]
    assert [a for a in links if a.get("/Subtype") == "/Link" and a.get("/Dest")]


FIGURE_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100">'
    '<text x="10" y="30" font-family="Arial">Arial 한글</text>'
    '<text x="10" y="60" font-family="sans-serif">sans 한글</text>'
    '<text x="10" y="90">default 한글</text></svg>'
)


def test_svg_text_is_set_in_the_books_fonts(make_book: BookMaker, tmp_path: Path) -> None:
    """Issue 32: Typst's SVG renderer has no generic families: a figure's sans-serif labels
    came out in the first face it knew (the body's Noto Serif here; the handwriting UnPen
    where system fonts are seen).  The figure now names the book's stack for its family
    after its own fonts, so its labels are in the book's sans-serif face."""
    root = make_book(
        {
            "book/01.md": "# 그림\n\n본문이다.\n\n![글자가 든 그림](images/t.svg)\n",
            "book/images/t.svg": FIGURE_SVG,
        },
        metadata={"title": "그림", "lang": "ko-KR"},
    )
    result = kobook.build(root, ["pdf"], engine="typst", out=tmp_path / "out")
    with pdfplumber.open(result.outputs["pdf"]) as pdf:
        labels = [
            char["fontname"].split("+")[-1]
            for page in pdf.pages
            if "Arial" in (page.extract_text() or "")
            for char in page.chars
            if char["text"] in "Arialsndefut"
        ]
    assert labels and all("Sans" in name for name in labels), set(labels)


def test_links_to_anchors_at_a_paragraphs_start_are_kept(
    make_book: BookMaker, tmp_path: Path
) -> None:
    """``<a id="…"></a>`` lines a translation keeps for the original's links (the Korean
    Rust book's ch15-02) became bare labels pandoc put at a paragraph's start, where Typst
    attaches them to nothing, and the compiler stopped at the links to them (TYP001)."""
    anchors = '<a id="old-one"></a>\n<a id="old-two"></a>\n'
    root = make_book(
        {
            "book/01.md": "# 하나\n\n[둘째 장의 앞](02.md#old-one), [또](02.md#old-two).\n",
            "book/02.md": f"# 둘\n\n{anchors}\n## 새 제목\n\n본문.\n",
        }
    )
    result = kobook.build(root, ["pdf"], engine="typst", cache_dir=tmp_path / "cache")
    pdf = result.outputs["pdf"]
    [page] = [n for n, text in enumerate(pdf_pages(pdf)) if "둘째 장의 앞" in text]
    links = [
        annot.get_object()
        for annot in PdfReader(pdf).pages[page].get("/Annots") or []
        if annot.get_object().get("/Subtype") == "/Link"
    ]
    # Both are still links (one annotation per boxed word), each to a place in the book.
    assert len(links) >= 2 and all("/Dest" in link for link in links)
