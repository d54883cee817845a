"""The pure parts of laying a book out in runs (write/weasyprint/parallel/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kobook.errors import KobookError
from kobook.load import load_book
from kobook.write.weasyprint import parallel

PAGE = (
    "<!DOCTYPE html><html><head><style>p{}</style></head><body>"
    '<section class="titlepage">T</section><nav class="toc"><a href="#c%EC%9E%A5">1장</a>'
    '<a href="#x&amp;y">2</a><a href="https://e.org">u</a></nav>'
    "<!--kobook:chapter-->\n<section id='c장'>A<span class=\"footnote note\">n</span></section>"
    "<!--kobook:chapter-->\n<section id='x&y'>B</section>\n<!--kobook:end-->\n</body></html>"
)


def test_the_html_is_cut_at_the_template_marks() -> None:
    pieces = parallel.cut(PAGE)
    assert pieces is not None
    assert len(pieces.chapters) == 2
    assert pieces.front.startswith('<section class="titlepage">')
    assert pieces.tail.strip() == "</body></html>"
    whole = pieces.start + "<body>" + pieces.front + "".join(pieces.chapters) + pieces.tail
    assert whole == PAGE.replace(parallel.CHAPTER_MARK, "").replace(parallel.END_MARK, "")


@pytest.mark.parametrize(
    "html",
    [
        PAGE.replace(parallel.END_MARK, ""),  # a book's own template without the marks
        PAGE.replace("<body>", "<body><body>"),
        PAGE.replace("</head>", ""),
    ],
)
def test_without_the_marks_there_is_no_cut(html: str) -> None:
    assert parallel.cut(html) is None


def test_one_chapter_is_not_cut() -> None:
    one = PAGE.replace(parallel.CHAPTER_MARK, "", 1).replace(">A<", ">" + "가" * 60_000 + "<")
    assert parallel.plan(one, jobs=2, sides=SIDES, folders=[]) is None


SIDES = {"twoside": True, "openright": True}


def test_contents_numbers_are_written_into_the_entries() -> None:
    pieces = parallel.cut(PAGE)
    assert pieces is not None
    front = pieces.front_document({"c장": 7, "x&y": 12})
    assert '<a href="#c%EC%9E%A5" data-page="7">' in front
    assert '<a href="#x&amp;y" data-page="12">' in front
    assert '<a href="https://e.org">' in front  # not a contents entry
    guessed = pieces.front_document({}, "000")
    assert guessed.count('data-page="000"') == 2
    assert "id='c장'" not in front  # the chapters are not in the front matter


def test_a_run_carries_the_title_and_the_footnote_counter() -> None:
    pieces = parallel.cut(PAGE)
    assert pieces is not None
    run = pieces.run_document(range(1, 2), 'A "quoted" </style><script>', 3)
    head = run.split("</head>")[0]
    assert "counter-reset: footnote 3" in head
    assert "string-set: book-title" in head
    assert "</style><script>" not in run and "<script>" not in run
    assert "id='x&y'" in run and "id='c장'" not in run
    assert 'class="titlepage"' not in run


def test_css_string_cannot_be_ended_by_the_text() -> None:
    text = parallel.css_string("a\"b'c\\d</style>e  f\n")
    assert text.startswith('"') and text.endswith('"')
    inner = text[1:-1]
    assert '"' not in inner and "'" not in inner and "<" not in inner and ">" not in inner
    assert "\\22 " in inner and "\\3c " in inner
    assert "e f" in inner  # white space collapsed as content() collapses it


def test_footnotes_are_counted_by_class() -> None:
    html = '<span class="footnote">a</span><span class="x footnote">b</span><p class="footnotes">'
    assert parallel.footnote_count(html) == 2


def test_runs_are_consecutive_and_balanced() -> None:
    weights = [0.4, 2.1, 1.2, 1.4, 1.6, 0.5, 1.4, 0.2, 0.7, 0.4, 1.4, 0.8, 0.2, 0.2, 0.2, 0.5]
    runs = parallel.runs(weights, 2)
    assert [r.start for r in runs] == [0, runs[0].stop] and runs[-1].stop == len(weights)
    heaviest = max(sum(weights[i] for i in r) for r in runs)
    best = min(
        max(sum(weights[:k]), sum(weights[k:])) for k in range(1, len(weights))
    )  # every cut tried
    assert heaviest == pytest.approx(best)
    three = parallel.runs(weights, 3)
    assert len(three) == 3 and sum(len(r) for r in three) == len(weights)
    assert parallel.runs([1.0, 1.0], 5) == [range(0, 1), range(1, 2)]  # never an empty run


def test_a_light_book_or_one_job_is_laid_out_in_one_process() -> None:
    assert parallel.plan(PAGE, jobs=2, sides=SIDES, folders=[]) is None  # far below MIN_WEIGHT
    heavy = PAGE.replace(">A<", ">" + "가" * 60_000 + "<")
    assert parallel.plan(heavy, jobs=2, sides=SIDES, folders=[]) is not None
    assert parallel.plan(heavy, jobs=1, sides=SIDES, folders=[]) is None
    # Two-sided, chapters opening on either side: a run's first page could be a left one.
    openany = {"twoside": True, "openright": False}
    assert parallel.plan(heavy, jobs=2, sides=openany, folders=[]) is None
    oneside = {"twoside": False, "openright": False}
    assert parallel.plan(heavy, jobs=2, sides=oneside, folders=[]) is not None


def test_image_weight_only_counts_files_inside_the_folders(tmp_path: Path) -> None:
    book = tmp_path / "book"
    book.mkdir()
    (book / "a.svg").write_bytes(b"<svg/>" + b" " * 100_000)
    outside = tmp_path / "secret.svg"
    outside.write_bytes(b"<svg/>" + b" " * 100_000)
    inside = parallel.weight('<img src="a.svg">', [book])
    assert inside > parallel.weight("<p></p>", [book]) + 0.1
    for source in ("../secret.svg", outside.as_uri(), str(outside), "https://e.org/a.svg"):
        assert parallel.weight(f'<img src="{source}">', [book]) == parallel.weight("", [book])


def test_a_book_stylesheet_that_counts_across_chapters_keeps_one_process(tmp_path: Path) -> None:
    folder = tmp_path / "templates" / "pdf"
    assert parallel.styles_allow_runs(folder)  # no templates of its own
    folder.mkdir(parents=True)
    extra = folder / "extra.css.j2"
    extra.write_text(".section-number { color: #8c2f1f; }\n", encoding="utf-8")
    assert parallel.styles_allow_runs(folder)
    for rule in (
        "h2 { counter-increment: sec; }",
        "@page { @bottom-right { content: counter(page) ' / ' counter(pages); } }",
        "@page :first { margin: 0; }",
        "h1 { string-set: chapter content(); }",
        "a::after { content: target-counter(attr(href), page); }",
    ):
        extra.write_text(rule, encoding="utf-8")
        assert not parallel.styles_allow_runs(folder), rule
    extra.write_text("p {}", encoding="utf-8")
    (folder / "book.css.j2").write_text("p {}", encoding="utf-8")
    assert not parallel.styles_allow_runs(folder)


def test_dangling_is_a_named_destination_the_book_lacks() -> None:
    assert parallel.dangling("nowhere", {"here"})
    assert not parallel.dangling("here", {"here"})
    assert not parallel.dangling(None, {"here"})  # a URI link has no /Dest
    assert not parallel.dangling([0, "/XYZ"], {"here"})  # an explicit destination


@pytest.mark.parametrize("value", [0, 17, "two", True, 1.5])
def test_pdf_jobs_must_be_a_small_whole_number(tmp_path: Path, value: object) -> None:
    (tmp_path / "metadata.yaml").write_text(f"title: 책\npdf:\n  jobs: {value}\n", "utf-8")
    (tmp_path / "01.md").write_text("# 하나\n", "utf-8")
    with pytest.raises(KobookError) as caught:
        load_book(tmp_path)
    assert caught.value.code == "CFG003"
    assert "pdf.jobs" in str(caught.value)
    assert caught.value.location is not None and caught.value.location.line == 3
