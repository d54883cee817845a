"""Issue 8's hostile inputs for the book's boundary, one test per reproducer.

Local files into the PDF (``file:`` and ``../`` attachments, an SVG's
``<image href="file:…">``, ``\\input`` and ``\\openin`` with XeLaTeX), writes and
reads outside the book (``chapters: [/etc/passwd]``, ``check --fix`` through
such an entry, ``pdf: {filename: ../../x/pwned}``, symlinks), and the network
during a build (a listener on 127.0.0.1 that no PDF engine may reach).  Each
asserts the message with file and line, the exit code, no traceback, and that
nothing leaked or was written outside.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import zlib
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

import kobook
from kobook.errors import KobookError
from tests.checks import attached_files, pdf_pages
from tests.conftest import BookMaker, allow_loopback
from tests.e2e.test_cli import kobook as cli
from tests.listener import listening

TOKEN = "KOBOOKSECRET7731"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside the book whose text must never reach an output."""
    path = tmp_path / "outside" / "secret.txt"
    path.parent.mkdir()
    path.write_text(f"{TOKEN}\n", encoding="utf-8")
    return path


def pdf_text(pdf: Path) -> str:
    return "\n".join(pdf_pages(pdf))


def pdf_holds(pdf: Path, token: str) -> bool:
    """True when ``token`` is anywhere in the PDF, compressed streams included."""
    data = pdf.read_bytes()
    found = token.encode() in data
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        with contextlib.suppress(zlib.error):
            found = found or token.encode() in zlib.decompress(match.group(1))
    return found


def line_of(path: Path, needle: str) -> int:
    """The 1-based line of ``path`` that first holds ``needle``."""
    lines = path.read_text(encoding="utf-8").split("\n")
    return next(number for number, line in enumerate(lines, 1) if needle in line)


def files_in(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


def refused(result_stderr: str, code: str, where: str) -> None:
    """The CLI failed with ``code`` at ``where`` (file:line), as a message."""
    assert "Traceback" not in result_stderr
    assert code in result_stderr and where in result_stderr, result_stderr


# --- local files into the PDF ----------------------------------------------------------


@pytest.mark.parametrize("how", ["file-url", "relative"])
def test_attachment_of_a_file_outside_is_sec001(
    make_book: BookMaker, secret: Path, how: str
) -> None:
    root = make_book({"book/01.md": "# 장\n\n본문.\n\n[첨부](TARGET){rel=attachment}\n"})
    target = secret.as_uri() if how == "file-url" else os.path.relpath(secret, root)
    chapter = root / "book" / "01.md"
    chapter.write_text(chapter.read_text("utf-8").replace("TARGET", target), "utf-8")
    failed = cli("build", "pdf", "--project", str(root))
    assert failed.returncode == 1
    refused(failed.stderr, "SEC001", "01.md:5")
    assert "PDF attachment resolves outside the book folder" in failed.stderr
    assert not (root / "dist" / "book.pdf").exists()
    kept = cli("build", "pdf", "--keep-going", "--project", str(root))
    assert kept.returncode == 0, kept.stderr
    assert "SEC001" in kept.stderr
    pdf = root / "dist" / "book.pdf"
    assert attached_files(pdf) == [] and TOKEN.encode() not in pdf.read_bytes()
    assert "첨부" in pdf_text(pdf)  # the link text stays


@pytest.mark.parametrize("engine", ["typst", "weasyprint"])
def test_attachment_inside_the_book_still_works(make_book: BookMaker, engine: str) -> None:
    root = make_book(
        {
            "book/01.md": "# 장\n\n[자료](files/data.txt){rel=attachment}\n",
            "files/data.txt": "ATTACHED DATA\n",
        }
    )
    result = kobook.build(root, ["pdf"], engine=engine)
    assert attached_files(result.outputs["pdf"]) == [b"ATTACHED DATA\n"]
    assert "자료" in pdf_text(result.outputs["pdf"])  # the link's text stays
    assert not [d for d in result.diagnostics if d.code.startswith("SEC")]


@pytest.mark.parametrize("engine", ["typst", "weasyprint"])
def test_svg_image_of_a_file_outside_is_not_drawn(
    make_book: BookMaker, tmp_path: Path, engine: str
) -> None:
    outside = tmp_path / "outside.png"
    Image.new("RGB", (37, 23), (0, 160, 0)).save(outside)
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="40">'
        '<rect width="80" height="40" fill="#fc0"/>'
        f'<image href="{outside.as_uri()}" width="37" height="23"/></svg>'
    )
    root = make_book({"book/01.md": "# 장\n\n![그림](../images/pic.svg)\n", "images/pic.svg": svg})
    result = kobook.build(root, ["pdf"], engine=engine)
    pdf = result.outputs["pdf"]
    sizes = [i.image.size for p in PdfReader(pdf).pages for i in p.images if i.image]
    assert (37, 23) not in sizes
    [warning] = [d for d in result.diagnostics if d.code == "SEC002"]
    assert outside.as_uri() in warning.message and warning.severity == "warning"


@pytest.mark.parametrize("engine", ["typst", "weasyprint"])
def test_svg_image_of_a_file_inside_is_drawn(make_book: BookMaker, engine: str) -> None:
    """Typst reads an SVG's linked files itself: kobook writes the ones inside the book
    into the SVG it hands over, so the figure is the one WeasyPrint draws."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        ' width="80" height="40"><rect width="80" height="40" fill="#fc0"/>'
        '<image xlink:href="inner.png" width="37" height="23"/></svg>'
    )
    root = make_book({"book/01.md": "# 장\n\n![그림](../images/pic.svg)\n", "images/pic.svg": svg})
    Image.new("RGB", (37, 23), (0, 160, 0)).save(root / "images" / "inner.png")
    result = kobook.build(root, ["pdf"], engine=engine)
    pdf = result.outputs["pdf"]
    sizes = [i.image.size for p in PdfReader(pdf).pages for i in p.images if i.image]
    assert (37, 23) in sizes
    assert not [d for d in result.diagnostics if d.code.startswith("SEC")]


def test_raw_html_image_outside_is_refused_at_its_line(
    make_book: BookMaker, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.png"
    Image.new("RGB", (37, 23), (0, 160, 0)).save(outside)
    root = make_book({"book/01.md": '# 장\n\n본문.\n\n<img src="RELATIVE">\n'})
    relative = os.path.relpath(outside, root)
    chapter = root / "book" / "01.md"
    chapter.write_text(chapter.read_text("utf-8").replace("RELATIVE", relative), "utf-8")
    result = kobook.build(root, ["pdf"], engine="weasyprint")  # the engine that reads <img>
    pdf = result.outputs["pdf"]
    assert not [i for p in PdfReader(pdf).pages for i in p.images]
    [warning] = [d for d in result.diagnostics if d.code == "SEC002"]
    assert warning.location.file == chapter and warning.location.line == 5


def test_file_url_image_is_sec001(make_book: BookMaker, secret: Path, tmp_path: Path) -> None:
    png = tmp_path / "outside.png"
    Image.new("RGB", (8, 8)).save(png)
    root = make_book({"book/01.md": f"# 장\n\n본문.\n\n![그림]({png.as_uri()})\n"})
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["html"])
    error = info.value
    assert error.code == "SEC001" and error.location.line == 5
    assert error.location.file is not None and error.location.file.name == "01.md"


def test_symlinked_image_leading_out_is_sec001(make_book: BookMaker, tmp_path: Path) -> None:
    png = tmp_path / "outside.png"
    Image.new("RGB", (8, 8)).save(png)
    root = make_book({"book/01.md": "# 장\n\n![그림](../images/leak.png)\n"})
    (root / "images").mkdir()
    (root / "images" / "leak.png").symlink_to(png)
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["html"])
    assert info.value.code == "SEC001" and info.value.location.line == 3
    assert str(png) in str(info.value)
    result = kobook.build(root, ["html"], keep_going=True)
    assert not list((root / "dist" / "html").rglob("*.png"))  # not copied into the site
    assert [d.code for d in result.diagnostics if d.code.startswith("SEC")] == ["SEC001"]


AUX_QUINE = (
    r"\gdef\kbQ{\ifdefined\kbDone\else\gdef\kbDone{}\makeatletter\AtBeginDocument{"
    r"\special{pdf:fstream @aux (SECRET)}\special{pdf:put @catalog << /A @aux >>}"
    r"\immediate\write\@mainaux{\noexpand\gdef\noexpand\kbQ{\unexpanded\expandafter{\kbQ}}"
    r"\noexpand\kbQ}}\fi}\kbQ" + "\n"
)
TEX_CHAPTER = """# 장

본문이다.

```{{=latex}}
\\input{{{secret}}}
```

인라인 \\openin5={secret} \\read5 to \\kobookline \\kobookline 끝.

수식 $\\special{{pdf:fstream @leak ({secret})}}\\special{{pdf:put @catalog << /Leak @leak >>}}$ 끝.

```{{=latex}}
\\newpage
\\kobookmacro{{}}
```
"""


@pytest.mark.slow
def test_xelatex_reads_no_file_outside_without_trust(make_book: BookMaker, secret: Path) -> None:
    root = make_book(
        {"book/01.md": TEX_CHAPTER.format(secret=secret)},
        metadata={
            "title": "책",
            "header-includes": [
                "\\newcommand{\\kobookmacro}{MACROFROMHEADER}",
                f"\\AtBeginDocument{{\\input{{{secret}}}}}",
            ],
        },
    )
    # A .kobook-cache/ committed to the repository: LaTeX runs its book.aux first, and
    # this one writes itself into every new book.aux, so it would survive latexmk's reruns.
    key = hashlib.sha256(str(root / "dist" / "book.pdf").encode()).hexdigest()[:12]
    planted = root / ".kobook-cache" / "latex" / key
    planted.mkdir(parents=True)
    (planted / "book.aux").write_text(AUX_QUINE.replace("SECRET", str(secret)), "utf-8")
    (planted / ".kobook-made-here").write_text("forged", encoding="utf-8")
    (planted / "secret.tex").symlink_to(secret)
    result = cli("build", "pdf", "--engine", "xelatex", "--project", str(root))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    pdf = root / "dist" / "book.pdf"
    text = pdf_text(pdf)
    assert TOKEN not in text and not pdf_holds(pdf, TOKEN)
    assert not (planted / "secret.tex").exists()
    assert "MACROFROMHEADER" in text  # header-includes' own macros still work
    for where in ("01.md:6", "01.md:9", "01.md:11", "metadata.yaml:"):
        assert f"{where}" in result.stderr, where
    assert result.stderr.count("SEC003") >= 4
    assert "\\special{pdf:fstream" in text  # refused math is shown as its source


@pytest.mark.slow
def test_xelatex_with_trust_is_still_paranoid(make_book: BookMaker, secret: Path) -> None:
    chapter = (
        "# 장\n\n```{=latex}\n"
        f"\\IfFileExists{{{secret}}}{{\\input{{{secret}}}}}{{NOFILEFOUND}}\n"
        f"\\openin5={secret} \\ifeof5 STREAMCLOSED\\else\\read5 to\\kobookline \\kobookline\\fi\n"
        "\\immediate\\write18{touch kobook-shell-ran}\n"
        "```\n"
    )
    root = make_book({"book/01.md": chapter})
    result = cli("build", "pdf", "--engine", "xelatex", "--trust", "--project", str(root))
    assert result.returncode == 0, result.stderr
    text = pdf_text(root / "dist" / "book.pdf")
    assert "NOFILEFOUND" in text and "STREAMCLOSED" in text and TOKEN not in text
    assert "SEC003" not in result.stderr
    assert not list(root.rglob("kobook-shell-ran"))  # no shell escape
    # A plain \input of an absolute path stops XeLaTeX: an error at its line, and no PDF.
    (root / "book" / "01.md").write_text(f"# 장\n\n\\input{{{secret}}}\n", encoding="utf-8")
    (root / "dist" / "book.pdf").unlink()
    failed = cli("build", "pdf", "--engine", "xelatex", "--trust", "--project", str(root))
    assert failed.returncode == 1
    refused(failed.stderr, "SEC001", "01.md:3")
    assert f"XeLaTeX may not read {secret}" in failed.stderr
    assert TOKEN not in failed.stderr and not (root / "dist" / "book.pdf").exists()


# --- writes and reads outside the book ------------------------------------------------


@pytest.mark.parametrize("entry", ["/etc/passwd", "../outside/secret.txt"])
def test_chapters_entry_outside_is_sec001(make_book: BookMaker, secret: Path, entry: str) -> None:
    root = make_book({"book/01.md": "# 장\n"}, metadata={"title": "책", "chapters": [entry]})
    (root.parent / "outside").mkdir(exist_ok=True)
    (root.parent / "outside" / "secret.txt").write_text(TOKEN, encoding="utf-8")
    result = cli("build", "html", "--project", str(root))
    assert result.returncode == 1
    line = line_of(root / "metadata.yaml", entry)
    refused(result.stderr, "SEC001", f"metadata.yaml:{line}")
    assert f"chapter listed under 'chapters:' resolves outside the book folder: {entry}" in (
        result.stderr
    )
    assert not (root / "dist").exists()


def test_check_fix_never_writes_outside(make_book: BookMaker, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.md"
    text = "# 제목\n\n그는 말했다.....그리고 떠났다 .\n"
    outside.write_text(text, encoding="utf-8")
    root = make_book({"book/01.md": "# 장\n"}, metadata={"chapters": [str(outside)]})
    through_metadata = cli("check", "--fix", "--project", str(root))
    assert through_metadata.returncode == 1
    line = line_of(root / "metadata.yaml", str(outside))
    refused(through_metadata.stderr, "SEC001", f"metadata.yaml:{line}")
    named = cli("check", "--fix", str(outside), "--project", str(root))
    assert named.returncode == 1
    refused(named.stderr, "SEC001", "path to check resolves outside the book folder")
    (root / "book" / "link.md").symlink_to(outside)
    linked = cli("check", "--fix", str(root / "book"), "--project", str(root))
    assert linked.returncode == 1
    refused(linked.stderr, "SEC001", "link.md")
    assert outside.read_text(encoding="utf-8") == text


def test_symlinked_chapter_leading_out_is_sec001(make_book: BookMaker, secret: Path) -> None:
    root = make_book({"book/01.md": "# 장\n\n본문.\n"})
    (root / "book" / "02.md").symlink_to(secret)
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["html"])
    assert info.value.code == "SEC001"
    assert info.value.location.file == root / "book" / "02.md"


def test_summary_link_leading_out_is_sec001(make_book: BookMaker, secret: Path) -> None:
    summary = f"# Summary\n\n- [하나](one.md)\n- [둘]({os.path.relpath(secret, 'src')})\n"
    root = make_book({"src/SUMMARY.md": summary, "src/one.md": "# 하나\n"})
    summary_path = root / "src" / "SUMMARY.md"
    summary_path.write_text(
        f"# Summary\n\n- [하나](one.md)\n- [둘]({os.path.relpath(secret, root / 'src')})\n",
        encoding="utf-8",
    )
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["html"])
    assert info.value.code == "SEC001"
    assert info.value.location.file == summary_path and info.value.location.line == 4


@pytest.mark.parametrize("name", ["../../x/pwned", "ABSOLUTE"])
def test_pdf_filename_outside_the_output_folder_is_sec001(
    make_book: BookMaker, tmp_path: Path, name: str
) -> None:
    target = tmp_path / "abs" / "pwned"
    filename = str(target) if name == "ABSOLUTE" else name
    root = make_book(
        {"book/01.md": "# 장\n"}, metadata={"title": "책", "pdf": {"filename": filename}}
    )
    result = cli("build", "pdf", "--project", str(root))
    assert result.returncode == 1
    line = line_of(root / "metadata.yaml", "filename")
    refused(result.stderr, "SEC001", f"metadata.yaml:{line}")
    assert "PDF file name (pdf.filename) resolves outside the output folder" in result.stderr
    assert not list(tmp_path.rglob("pwned*")) and files_in(root / "dist") == []


def test_pdf_filename_in_a_subfolder_and_out_anywhere(make_book: BookMaker, tmp_path: Path) -> None:
    root = make_book({"book/01.md": "# 장\n"}, metadata={"pdf": {"filename": "release/책"}})
    result = kobook.build(root, ["pdf"], out=tmp_path / "chosen")
    assert result.outputs["pdf"] == tmp_path / "chosen" / "release" / "책.pdf"
    assert result.outputs["pdf"].is_file()


def test_committed_symlinks_for_dist_and_cache_are_sec001(
    make_book: BookMaker, tmp_path: Path
) -> None:
    root = make_book({"book/01.md": "# 장\n"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "dist").symlink_to(elsewhere)
    with pytest.raises(KobookError, match="output folder resolves outside"):
        kobook.build(root, ["html"])
    (root / "dist").unlink()
    (root / ".kobook-cache").symlink_to(elsewhere)
    with pytest.raises(KobookError, match="cache folder resolves outside"):
        kobook.build(root, ["html"])
    assert not list(elsewhere.iterdir())
    result = kobook.build(root, ["html"], cache_dir=tmp_path / "own-cache")  # the user's choice
    assert result.outputs["html"].is_file()


def test_metadata_and_files_it_names_stay_inside(
    make_book: BookMaker, secret: Path, tmp_path: Path
) -> None:
    root = make_book({"book/01.md": "# 장\n\n본문 [@key].\n"}, metadata={"title": "책"})
    bib = tmp_path / "outside.bib"
    bib.write_text("@book{key, title={Outside}}\n", encoding="utf-8")
    cases = {
        "bibliography": (str(bib), "SEC001", "bibliography file resolves outside"),
        "csl": ("../outside/style.csl", "SEC001", "citation style (csl) resolves outside"),
    }
    for key, (value, code, message) in cases.items():
        extra = {"bibliography": "refs.bib"} if key == "csl" else {}
        (root / "refs.bib").write_text("@book{key, title={Inside}}\n", encoding="utf-8")
        write_metadata(root, {"title": "책", key: value, **extra})
        with pytest.raises(KobookError) as info:
            kobook.build(root, ["html"])
        assert info.value.code == code and message in str(info.value), str(info.value)
        assert info.value.location.file == root / "metadata.yaml"
        assert info.value.location.line == line_of(root / "metadata.yaml", f"{key}:")
    write_metadata(root, {"title": "책", "bibliography": "refs.bib", "csl": "https://x.org/a"})
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["html"])
    assert info.value.code == "SEC002" and "downloads nothing but images" in str(info.value)
    (root / "dependent.csl").write_text(
        '<style><info><link href="https://www.zotero.org/styles/apa" rel="independent-parent"/>'
        "</info></style>",
        encoding="utf-8",
    )
    write_metadata(root, {"title": "책", "bibliography": "refs.bib", "csl": "dependent.csl"})
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["html"])
    assert info.value.code == "SEC002" and "dependent style" in str(info.value)
    # metadata.yaml itself, committed as a symlink to a file elsewhere
    (root / "metadata.yaml").unlink()
    (root / "metadata.yaml").symlink_to(secret)
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["html"])
    assert info.value.code == "SEC001" and "metadata.yaml resolves outside" in str(info.value)


def write_metadata(root: Path, data: dict[str, object]) -> None:
    import yaml

    (root / "metadata.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")


def test_glossary_symlink_leading_out_is_sec001(make_book: BookMaker, tmp_path: Path) -> None:
    glossary = tmp_path / "terms.yaml"
    glossary.write_text("GPU: 지피유\n", encoding="utf-8")
    root = make_book({"book/01.md": "# 장\n"}, metadata={"title": "책"})
    (root / "glossary.yaml").symlink_to(glossary)
    result = cli("check", "--project", str(root))
    assert result.returncode == 1
    refused(result.stderr, "SEC001", "glossary file resolves outside")


def test_templates_stay_inside_and_sandboxed(
    make_book: BookMaker, secret: Path, tmp_path: Path
) -> None:
    root = make_book({"book/01.md": "# 장\n\n본문.\n"})
    (root / "templates" / "html").mkdir(parents=True)
    (root / "templates" / "html" / "chapter.html.j2").symlink_to(secret)
    result = cli("build", "html", "--trust", "--project", str(root))
    assert result.returncode == 1
    refused(result.stderr, "SEC001", "template resolves outside the book folder")
    assert files_in(root / "dist") == []
    (root / "templates" / "html" / "chapter.html.j2").unlink()
    (root / "templates" / "html" / "chapter.html.j2").write_text(
        "{{ ''.__class__.__mro__[1].__subclasses__() }}", encoding="utf-8"
    )
    result = cli("build", "html", "--trust", "--project", str(root))
    assert result.returncode == 1
    refused(result.stderr, "SEC004", "'__class__' of a str value")


def test_latex_template_partials_stay_inside(make_book: BookMaker, secret: Path) -> None:
    root = make_book({"book/01.md": "# 장\n"})
    template = root / "templates" / "latex" / "book.latex"
    template.parent.mkdir(parents=True)
    relative = os.path.relpath(secret.with_suffix(""), template.parent)
    template.write_text(f"\\documentclass{{article}}\n${{ {relative}() }}\n", encoding="utf-8")
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["pdf"], engine="xelatex")
    assert info.value.code == "SEC001" and info.value.location.line == 2
    template.write_text("\\documentclass{article}\n\\special{pdf:fstream @x (/etc/passwd)}\n")
    with pytest.raises(KobookError) as info:
        kobook.build(root, ["pdf"], engine="xelatex")
    assert info.value.code == "SEC003" and info.value.location.line == 2


# --- no network during a build -------------------------------------------------------

NETWORK_CHAPTER = """# 네트워크

![원격 그림]({url}/markdown.png)

<img src="{url}/lone-img.png">

<p>글 가운데 <img src="{url}/inline-img.png"> 그림</p>

<link rel="stylesheet" href="{url}/link.css">

<style>@import url("{url}/import.css"); h1 {{ background: url("{url}/css-url.png"); }}</style>

<p style="background-image: url('{url}/style-attr.png')">배경이 있는 문단</p>

<object data="{url}/object.svg" type="image/svg+xml"></object>

<embed src="{url}/embed.svg" type="image/svg+xml">

![로컬 SVG](../images/pic.svg)
"""
NETWORK_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="40">'
    '<rect width="80" height="40" fill="#fc0"/>'
    '<image href="{url}/svg-image.png" width="20" height="20"/></svg>'
)
# Remote images (Markdown, and <img> tags pandoc reads on their own): fetched on purpose.
DOWNLOADS = {"/markdown.png", "/lone-img.png", "/inline-img.png"}


@pytest.mark.slow
def test_no_pdf_engine_touches_the_network(
    make_book: BookMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    allow_loopback(monkeypatch)  # kobook's own downloads may reach the listener
    with listening() as listener:
        url = f"http://127.0.0.1:{listener.port}"
        root = make_book(
            {
                "book/01.md": NETWORK_CHAPTER.format(url=url),
                "images/pic.svg": NETWORK_SVG.format(url=url),
            }
        )
        offline = kobook.build(root, ["pdf", "html"], offline=True, keep_going=True)
        assert offline.outputs["pdf"].is_file()
        assert listener.connections == [], "an offline build connected"
        online = kobook.build(root, ["pdf", "html"], keep_going=True)
        assert online.outputs["pdf"].is_file()
        # Only kobook's own downloader asked, once for each remote image.
        assert sorted(path for path, _ in listener.connections) == sorted(DOWNLOADS)
        assert all(agent.startswith("kobook/") for _, agent in listener.connections)
        seen = listener.count
        latex = kobook.build(root, ["pdf"], engine="xelatex", keep_going=True)
        assert latex.outputs["pdf"].is_file()
        assert listener.count == seen, listener.connections[seen:]
    refused = " ".join(d.message for d in online.diagnostics if d.code in ("SEC002", "HTML001"))
    assert "svg-image.png" in refused  # the SVG's <image> was refused, not fetched
