"""The book's boundary: paths (kobook.boundary), WeasyPrint's fetcher, the LaTeX screen."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pypdf import PdfReader

from kobook.boundary import has_scheme, inside, is_file_url, within
from kobook.errors import KobookError
from kobook.transform.links import outside_reason
from kobook.write.latex.screen import (
    chapter_refusal,
    defined_names,
    refusal,
    template_partials,
)
from kobook.write.weasyprint.fetch import BookFetcher
from tests.checks import attached_files
from tests.listener import listening


@pytest.fixture
def book(tmp_path: Path) -> Path:
    root = tmp_path / "book"
    (root / "images").mkdir(parents=True)
    (root / "images" / "a.png").write_bytes(b"png")
    (tmp_path / "secret.txt").write_text("SECRET", encoding="utf-8")
    return root


# --- inside() --------------------------------------------------------------------------


def test_inside_returns_the_resolved_path(book: Path) -> None:
    assert inside(book / "images" / "a.png", book, what="image") == book / "images" / "a.png"
    assert inside(book / "images" / ".." / "images" / "a.png", book, what="image").name == "a.png"
    assert inside(book, book, what="the book itself") == book.resolve()


@pytest.mark.parametrize("written", ["../secret.txt", "images/../../secret.txt", "/etc/passwd"])
def test_paths_leading_out_are_sec001_with_where_they_were_written(
    book: Path, written: str
) -> None:
    metadata = book / "metadata.yaml"
    with pytest.raises(KobookError) as info:
        inside(book / written, book, what="chapter file", file=metadata, line=7)
    error = info.value
    assert error.code == "SEC001"
    assert error.location.file == metadata and error.location.line == 7
    assert "chapter file resolves outside the book folder" in str(error)
    assert written in str(error) and error.diagnostic.hint


def test_symlinks_are_followed(book: Path, tmp_path: Path) -> None:
    (book / "images" / "leak.png").symlink_to(tmp_path / "secret.txt")
    (book / "outside").symlink_to(tmp_path)
    (book / "images" / "same.png").symlink_to(book / "images" / "a.png")
    for path in (book / "images" / "leak.png", book / "outside" / "secret.txt"):
        with pytest.raises(KobookError) as info:
            inside(path, book, what="image")
        assert info.value.code == "SEC001" and str(tmp_path / "secret.txt") in str(info.value)
    assert inside(book / "images" / "same.png", book, what="image") == book / "images" / "a.png"


def test_a_second_allowed_folder(book: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    assert inside(cache / "x.png", book, what="image", also=[cache]) == cache / "x.png"
    assert within(cache / "x.png", cache) and not within(cache / "x.png", book)
    # A sibling whose name starts like the root is not inside it.
    assert not within(tmp_path / "book-other" / "x", book)


def test_url_kinds() -> None:
    assert is_file_url("file:///etc/passwd") and is_file_url(" FILE:/etc/passwd")
    assert not is_file_url("images/file.png")
    assert has_scheme("https://x") and has_scheme("data:image/png;base64,") and has_scheme("//h/x")
    assert not has_scheme("images/a.png") and not has_scheme("../a.png")


def test_attachment_targets(book: Path) -> None:
    assert outside_reason("images/a.png", book) == ""
    assert outside_reason("#sec", book) == ""
    assert "resolves to" in outside_reason("../../../../etc/passwd", book)
    assert "resolves to /etc/passwd" in outside_reason("/etc/passwd", book)
    assert "file: URL" in outside_reason("file:///etc/passwd", book)
    assert "inside the book" in outside_reason("https://example.com/a.zip", book)


# --- the LaTeX screen ----------------------------------------------------------------------

REFUSED = [
    r"\input{/etc/hostname}",
    r"\include{x}",
    r"\openin5=/etc/hostname \read5 to \x",
    r"\immediate\write18{touch x}",
    r"\immediate\openout3=x.txt",
    r"\catcode`\|=0 |input x",
    r"\csname input\endcsname{x}",
    r"^^5cinput{x}",
    r"\special{pdf:fstream @x (/etc/passwd)}",
    r"\begin{input}/etc/hostname",
    r"\begin{spe\empty cial}",
    r"\expandafter\begin\expandafter{\x}",
    r"\makeatletter\@@input x",
    r"\ExplSyntaxOn \file_input:n {x}",
    r"\csuse{input}",
    r"\UseName{input}",
    r"\lstinputlisting{/etc/passwd}",
    r"\IfFileExists{/etc/passwd}{a}{b}",
    r"\XeTeXpdffile x",
    r"\scantokens{x}",
    r"\lccode`\a=`\i \lowercase{\begin{anput}}",
]


@pytest.mark.parametrize("tex", REFUSED)
def test_file_shell_and_name_building_tex_is_refused(tex: str) -> None:
    assert refusal(tex)
    assert chapter_refusal(tex, frozenset({"x"}), frozenset())


@pytest.mark.parametrize(
    "tex",
    [
        r"\frac{a}{b} + \sum_{i=1}^n x_i \text{input size}",
        r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}",
        r"\def\RR{\mathbb{R}} \RR^n",
        r"\usepackage{xcolor}\newcommand{\kobookplain}{PLAIN}",
        r"\makeatletter\renewcommand\@maketitle{}\makeatother",
        r"\includegraphics[height=1em]{assets/x.png}",
    ],
)
def test_ordinary_math_and_preamble_tex_pass(tex: str) -> None:
    assert refusal(tex) == ""


def test_chapter_raw_latex_is_layout_and_header_macros_only() -> None:
    allowed = r"\newpage \vspace{1em}\noindent\textbf{굵게} 100\% \begin{center}x\end{center}"
    assert chapter_refusal(allowed, frozenset(), frozenset()) == ""
    assert chapter_refusal(r"\kobookplain{}", frozenset(), frozenset()) == "\\kobookplain"
    assert chapter_refusal(r"\kobookplain{}", frozenset({"kobookplain"}), frozenset()) == ""
    assert chapter_refusal(r"\begin{box}x\end{box}", frozenset(), frozenset()) == "\\begin{box}"
    assert chapter_refusal(r"\begin{box}x\end{box}", frozenset(), frozenset({"box"})) == ""
    assert chapter_refusal(r"\def\x{y}", frozenset(), frozenset()) == "\\def"


def test_defined_names() -> None:
    commands, environments = defined_names(
        r"\newcommand{\a}{A} \renewcommand*\b[1]{} \def\c#1{} \let\d=\relax"
        r" \DeclareMathOperator{\argmax}{arg\,max} \newenvironment{box}{}{} \newtheorem{thm}{T}"
    )
    assert commands == {"a", "b", "c", "d", "argmax"}
    assert environments == {"box", "thm"}


def test_template_partials() -> None:
    template = "$common.latex()$\n${ ../../etc/hostname() }\n$/etc/x()$\n$for(a)$$a$$endfor$"
    assert template_partials(template) == ["common.latex", "../../etc/hostname", "/etc/x"]


# --- WeasyPrint's URL fetcher ------------------------------------------------------------


def test_fetcher_allows_the_book_the_cache_and_data(book: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    fetcher = BookFetcher([book, cache])
    assert fetcher.allowed((book / "images" / "a.png").as_uri())
    assert fetcher.allowed((cache / "x.png").as_uri())
    assert fetcher.allowed("data:image/png;base64,iVBORw0K")
    (book / "images" / "leak.png").symlink_to(tmp_path / "secret.txt")
    for url in (
        (tmp_path / "secret.txt").as_uri(),
        (book / "images" / "leak.png").as_uri(),
        (book / "images" / ".." / ".." / "secret.txt").as_uri(),
        "file://otherhost/etc/passwd",
        "http://127.0.0.1:1/x.css",
        "https://example.com/x.png",
        "ftp://example.com/x.png",
    ):
        assert not fetcher.allowed(url), url
        with pytest.raises(ValueError):
            fetcher.fetch(url)
    assert len(fetcher.refused) == 7


def every_kind_of_reference(url: str, secret_png: Path) -> str:
    """HTML naming a server in the 8 ways of the issue (and a local file outside the book)."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="30">'
        f'<image href="{url}/svg-image.png" width="20" height="20"/>'
        f'<image href="{secret_png.as_uri()}" x="30" width="20" height="20"/></svg>'
    )
    return (
        f"""<html><head>
<link rel="stylesheet" href="{url}/link.css">
<style>@import url("{url}/import.css"); h1 {{ background: url("{url}/css-url.png"); }}</style>
</head><body><h1>제목</h1>
<p><img src="{url}/markdown.png"> <img src="{secret_png.as_uri()}"></p>
<p style="background-image: url('{url}/style-attr.png')">배경</p>
<object data="{url}/object.svg" type="image/svg+xml"></object>
<embed src="{url}/embed.svg" type="image/svg+xml">
<img src="images/pic.svg">
<p><a rel="attachment" href="{url}/attached.bin">a</a>
<a rel="attachment" href="../secret.txt">b</a></p>
</body></html>""",
        svg,
    )


def test_weasyprint_reads_nothing_outside_and_connects_nowhere(book: Path, tmp_path: Path) -> None:
    import weasyprint
    from PIL import Image
    from weasyprint.urls import URLFetcher

    secret_png = tmp_path / "secret.png"
    Image.new("RGB", (37, 23), (0, 200, 0)).save(secret_png)
    with listening() as listener:
        html, svg = every_kind_of_reference(f"http://127.0.0.1:{listener.port}", secret_png)
        (book / "images" / "pic.svg").write_text(svg, encoding="utf-8")
        fetcher = BookFetcher([book])
        out = tmp_path / "guarded.pdf"
        weasyprint.HTML(string=html, base_url=f"{book}/", url_fetcher=fetcher).write_pdf(out)
        assert listener.connections == []
        # The same page with WeasyPrint's own fetcher does connect: the listener sees it.
        plain = tmp_path / "plain.pdf"
        weasyprint.HTML(string=html, base_url=f"{book}/", url_fetcher=URLFetcher()).write_pdf(plain)
        assert listener.count >= 8
    refused = " ".join(fetcher.refused)
    for name in ("link.css", "import.css", "css-url.png", "markdown.png", "style-attr.png"):
        assert name in refused
    for name in ("object.svg", "embed.svg", "svg-image.png", "attached.bin"):
        assert name in refused
    assert secret_png.as_uri() in refused and (tmp_path / "secret.txt").as_uri() in refused
    assert attached_files(out) == []
    assert attached_files(plain) == [b"SECRET"]  # WeasyPrint alone embeds the file
    assert image_sizes(out) == []  # neither the secret PNG nor the SVG's <image> was drawn
    assert (37, 23) in image_sizes(plain)


def image_sizes(pdf: Path) -> list[tuple[int, int]]:
    sizes = []
    for page in PdfReader(pdf).pages:
        for image in page.images:
            sizes.append(image.image.size if image.image is not None else (0, 0))
    return sizes


def test_no_proxy_variables_needed(monkeypatch: pytest.MonkeyPatch, book: Path) -> None:
    """The fetcher refuses before any proxy or socket is involved."""
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:1")
    fetcher = BookFetcher([book])
    with pytest.raises(ValueError, match="does not let the PDF engine read"):
        fetcher.fetch("http://example.com/x.png")
    assert os.environ["http_proxy"]


def test_the_pdf_engine_may_read_the_book_the_cache_and_kobooks_downloads_only(
    book: Path, tmp_path: Path
) -> None:
    import tempfile

    from kobook.cache import Cache
    from kobook.load import load_book
    from kobook.write.shared.setup import print_setup

    (book / "book").mkdir()
    (book / "book" / "01.md").write_text("# 장\n", encoding="utf-8")
    loaded = load_book(book)
    folders = print_setup(loaded, Cache(tmp_path / "cache")).folders
    assert book in folders and tmp_path / "cache" in folders
    assert Path(tempfile.gettempdir()) not in folders  # only its kobook-remote folder
    assert not BookFetcher(folders).allowed((tmp_path / "secret.txt").as_uri())


def test_latex_work_folder_from_elsewhere_is_emptied(tmp_path: Path) -> None:
    from kobook.write.shared.workdir import Assets, own_workdir, remove_links

    workdir = tmp_path / "latex" / "key"
    workdir.mkdir(parents=True)
    (workdir / "book.aux").write_text("\\special{pdf:fstream @x (/etc/passwd)}", "utf-8")
    (workdir / ".kobook-made-here").write_text("copied from a repository", "utf-8")
    own_workdir(workdir)
    assert sorted(p.name for p in workdir.iterdir()) == [".kobook-made-here"]
    (workdir / "book.aux").write_text("\\relax", "utf-8")
    own_workdir(workdir)  # made here: kept, so latexmk reuses its files
    assert (workdir / "book.aux").read_text("utf-8") == "\\relax"
    (workdir / "leak.tex").symlink_to(tmp_path / "secret.txt")
    image = tmp_path / "a.png"
    image.write_bytes(b"png")
    assets = Assets()
    name = assets.name(image)
    remove_links(workdir)
    assets.link(workdir)
    assert not (workdir / "leak.tex").is_symlink()
    assert name.startswith("assets/") and (workdir / name).resolve() == image
