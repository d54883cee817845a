"""The constructs dialects emit, rendered in the site and in both PDF engines.

One tiny book in the intermediate Markdown (the pandoc dialect: written
directly) holds a details box (nested, Markdown in its summary), a takeaway
callout, an abstract, listings (a printed number, an automatic one, a file
name alone, a file name with ``_`` and ``#``), embedded pages (framed, remote,
missing, with and without a static image) and authors with affiliations.  It is
built once per output; each test reads what a reader would see.  Parts and
appendices come from a layout (a test dialect), a GIF from Pillow.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import textwrap
import types
from pathlib import Path
from typing import Any

import pytest
import yaml

import kobook
from kobook.dialect import DIALECTS, Dialect, Layout, Unit
from tests.conftest import REPO

CHAPTER = textwrap.dedent(
    """\
    # 설치하기

    ::: {.abstract}
    이 장에서는 러스트를 설치하고 첫 프로그램을 작성합니다.
    :::

    본문 문단입니다. @lst:hello를 보세요.

    ::: {.details summary="**답** 보기"}
    정답은 마흔둘입니다.

    ::: {.details summary="더 자세히"}
    안쪽 상자입니다.
    :::
    :::

    ::: {.callout-takeaway}
    핵심을 정리한 문단입니다.
    :::

    ``` {#lst:hello .rust listing="1-1" filename="src/main_x#1.rs"
         caption="*Hello*를 출력하는 `main` 프로그램"}
    fn main() { println!("Hello, world!"); }
    ```

    ``` {.toml filename="Cargo_%&.toml"}
    [package]
    ```

    ``` {#lst:auto .python caption="자동 번호 예제"}
    print(1)
    ```

    ::: {.embed src="../assets/plotly/x.html" image="../assets/plotly/x.png"
           caption="대화형 그래프"}
    그래프를 볼 수 없다면 웹 페이지를 보세요.
    :::

    ::: {.embed src="../assets/plotly/y.html"}
    정적 이미지가 없는 그래프입니다.
    :::

    ::: {.embed src="https://example.com/plot.html"}
    원격 그래프입니다.
    :::

    ::: {.embed src="../assets/plotly/missing.html"}
    없는 그래프입니다.
    :::
    """
)
MISSING_LINE = CHAPTER.split("\n").index('::: {.embed src="../assets/plotly/missing.html"}') + 1
PLOT = b'<html><body><script>document.body.textContent = "plot"</script></body></html>'
METADATA = {
    "title": "시험 책",
    "author": [
        {"name": "Jacob Austin", "affiliation": "Google DeepMind"},
        {"name": "홍길동", "affiliation": "서울대학교"},
    ],
}


def write_book(root: Path) -> Path:
    files: dict[str, str | bytes] = {
        "book/01-install.md": CHAPTER,
        "book/02-next.md": "# 다음 장\n\n@lst:auto 참고.\n",
        "assets/plotly/x.html": PLOT,
        "assets/plotly/y.html": PLOT,
        "assets/plotly/x.png": (REPO / "tests" / "data" / "pixel.png").read_bytes(),
        "metadata.yaml": yaml.safe_dump(METADATA, allow_unicode=True),
    }
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def pdf_text(path: Path) -> str:
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True)
    return out.stdout.decode("utf-8")


def build(root: Path, formats: list[str], engine: str = "weasyprint") -> Any:
    out = root / f"dist-{engine}"
    return kobook.build(
        root, formats, engine=engine, out=out, keep_going=True, cache_dir=root / ".cache"
    ), out


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    root = write_book(tmp_path_factory.mktemp("dialect-html"))
    result, out = build(root, ["html"])
    return result, out / "html"


@pytest.fixture(scope="module", params=["weasyprint", "xelatex"])
def printed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Any, str]:
    root = write_book(tmp_path_factory.mktemp(f"dialect-{request.param}"))
    result, out = build(root, ["pdf"], request.param)
    return result, pdf_text(next(out.glob("*.pdf")))


def codes(result: Any) -> list[str]:
    return [d.code for d in result.diagnostics]


def page(site: tuple[Any, Path], name: str = "01-install.html") -> str:
    return (site[1] / name).read_text(encoding="utf-8")


# --- the site -------------------------------------------------------------------------


def test_details_are_collapsible_with_their_label(site: tuple[Any, Path]) -> None:
    html = page(site)
    assert html.count('<details class="details">') == 2  # the nested one too
    summary = re.search(r"<summary>\s*(.*?)\s*</summary>", html, re.S)
    assert summary is not None and summary.group(1) == "<strong>답</strong> 보기"
    inner = html.index("더 자세히")
    assert html.index("<details", html.index("정답은")) < inner < html.rindex("</details>")
    assert "안쪽 상자입니다." in html


def test_takeaway_and_abstract(site: tuple[Any, Path]) -> None:
    html = page(site)
    box = re.search(
        r'<div class="callout callout-takeaway">\s*<div class="callout-title">\s*(\S+)', html
    )
    assert box is not None and box.group(1) == "핵심"
    abstract = re.search(r'<div class="abstract">\s*<p>(.*?)</p>', html, re.S)
    assert abstract is not None and abstract.group(1).startswith("이 장에서는")
    assert html.index('class="abstract"') < html.index("본문 문단입니다")


def test_listings_are_numbered_with_file_names(site: tuple[Any, Path]) -> None:
    html = page(site)
    caption = re.search(
        r'<div id="lst:hello" class="listing"[^>]*>\s*'
        r'<div class="listing-caption">\s*(.*?)\s*</div>',
        html,
        re.S,
    )
    assert caption is not None
    assert caption.group(1).startswith('<span class="caption-label">예제\u00a01-1.</span> ')
    assert caption.group(1).endswith("<em>Hello</em>를 출력하는 <code>main</code> 프로그램")
    assert "<code>src/main_x#1.rs</code>" in html
    assert '<div class="listing listing-unnumbered">' in html  # a file name alone: no number
    assert "Cargo_%&amp;.toml" in html
    assert ">예제\u00a01-1</a>을 보세요" in html  # the particle agrees with 1-1 (일)
    auto = re.search(r'<div id="lst:auto" class="listing" data-number="([^"]+)"', html)
    assert auto is not None and auto.group(1) == "1.1"  # numbered like figures
    assert 'href="01-install.html#lst:auto"' in page(site, "02-next.html")


def test_embeds_are_sandboxed_frames_of_a_copy(site: tuple[Any, Path]) -> None:
    html = page(site)
    frames = re.findall(r"<iframe[^>]*>", html)
    assert len(frames) == 2  # x.html and y.html; not the remote one, not the missing one
    for frame in frames:
        assert 'sandbox="allow-scripts"' in frame and "allow-same-origin" not in frame
    assert 'src="assets/plotly/x.html"' in frames[0]
    assert (site[1] / "assets" / "plotly" / "x.html").read_bytes() == PLOT
    assert '<a href="https://example.com/plot.html">' in html
    assert "내장 페이지 없음" in html and "missing.html" in html
    assert "그림\u00a01.1." in html  # the static image's caption under the frame


def test_missing_embed_is_a_warning_with_its_line(site: tuple[Any, Path]) -> None:
    result = site[0]
    found = [d for d in result.diagnostics if d.code == "EMB001"]
    assert len(found) == 1
    assert found[0].location.file.name == "01-install.md"
    assert found[0].location.line == MISSING_LINE
    assert not [c for c in codes(result) if c.startswith("LEAK") or c.startswith("HTML")]


def test_affiliations_on_the_title_page(site: tuple[Any, Path]) -> None:
    index = (site[1] / "index.html").read_text(encoding="utf-8")
    authors = index.index("Jacob Austin, 홍길동")
    assert index.index("Google DeepMind, 서울대학교") > authors


# --- both PDFs ------------------------------------------------------------------------


def test_print_shows_every_construct(printed: tuple[Any, str]) -> None:
    result, text = printed
    assert [d.format() for d in result.diagnostics if d.code.startswith("LOST")] == []
    flat = " ".join(text.replace("\u2011", "-").split())  # XeTeX: 1‑1 (non-breaking hyphen)
    assert "답 보기" in flat and "정답은 마흔둘입니다." in flat  # open, with its label
    assert "더 자세히" in flat and "안쪽 상자입니다." in flat
    assert "핵심" in flat and "핵심을 정리한 문단입니다." in flat
    assert "이 장에서는 러스트를 설치하고" in flat
    assert "예제 1-1. Hello를 출력하는 main 프로그램" in flat
    assert "src/main_x#1.rs" in flat and "Cargo_%&.toml" in flat
    assert flat.count("파일명:") == 2
    assert "예제 1.1. 자동 번호 예제" in flat
    assert "예제 1-1을 보세요" in flat
    assert "그림 1.1. 대화형 그래프" in flat  # the static image stands for the page
    assert "정적 이미지가 없는 그래프입니다." in flat
    assert "[대화형 자료: assets/plotly/y.html]" in flat  # no image: a note with the path
    assert "https://example.com/plot.html" in flat
    assert "[내장 페이지 없음: ../assets/plotly/missing.html]" in flat
    assert "Google DeepMind, 서울대학교" in flat
    assert flat.index("Jacob Austin") < flat.index("Google DeepMind")
    assert not [c for c in codes(result) if c.startswith("LEAK") or c.startswith("MATH")]


# --- parts and appendices (from a layout) --------------------------------------------


class PartsDialect(Dialect):
    """A layout with a part and an appendix, as mdBook's SUMMARY.md gives them."""

    name = "parts-test"

    def layout(self, root: Path, config: Any) -> Layout:
        book = root / "book"
        return Layout(
            [
                Unit([(book / "00.md", 0)], kind="preface"),
                Unit([(book / "01.md", 0)], part="제1부 시작하기"),
                Unit([(book / "02.md", 0)]),
                Unit([(book / "03.md", 0)], kind="appendix"),
            ],
            "test layout",
        )


@pytest.fixture
def parts_book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    module = types.ModuleType("kobook_parts_test_dialect")
    module.DIALECT = PartsDialect()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(DIALECTS, "parts-test", module.__name__)
    root = tmp_path / "parts"
    for name, text in {
        "00.md": "# 들어가며\n\n서문.\n",
        "01.md": "# 첫 장\n\n첫 장 본문.\n",
        "02.md": "# 둘째 장\n\n둘째 장 본문.\n",
        "03.md": "# 용어집\n\n부록 본문.\n",
    }.items():
        (root / "book").mkdir(parents=True, exist_ok=True)
        (root / "book" / name).write_text(text, encoding="utf-8")
    (root / "metadata.yaml").write_text("title: 부 시험\ndialect: parts-test\n", encoding="utf-8")
    return root


def page_texts(pdf: Path) -> list[str]:
    return [" ".join(p.split()) for p in pdf_text(pdf).split("\f")]


@pytest.mark.parametrize("engine", ["weasyprint", "xelatex"])
def test_parts_get_a_page_of_their_own(parts_book: Path, engine: str) -> None:
    _, out = build(parts_book, ["pdf"], engine)
    pages = page_texts(next(out.glob("*.pdf")))
    part = next(i for i, t in enumerate(pages) if t == "제1부 시작하기")
    assert part % 2 == 0  # a recto page (pages count from 1)
    assert "첫 장" in " ".join(pages[part + 1 : part + 3])
    assert any(t == "부록" for t in pages[part + 1 :])  # the appendices open their own part
    contents = next(t for t in pages if "차례" in t).replace(" ", "")  # pdftotext: 첫장
    assert contents.index("제1부시작하기") < contents.index("첫장")
    assert contents.index("둘째장") < contents.index("부록") < contents.index("용어집")


def test_parts_group_the_site_contents(parts_book: Path) -> None:
    _, out = build(parts_book, ["html"])
    for name, lists in (("index.html", 2), ("01.html", 1)):  # the index: sidebar and contents
        html = (out / "html" / name).read_text(encoding="utf-8")
        html = html[html.index('<nav class="sidebar"') :]  # not the page's <title>
        groups = re.findall(r'<li class="toc-part">([^<]+)</li>', html)
        assert groups == ["제1부 시작하기", "부록"] * lists, name
        assert html.index("제1부 시작하기") < html.index("첫 장") < html.index("부록")
        assert html.index("부록") < html.index("용어집")


# --- GIF: the animation on the site, its first frame on paper -------------------------


def two_frame_gif() -> bytes:
    from PIL import Image

    frames = [Image.new("RGB", (40, 30), colour) for colour in ((220, 0, 0), (0, 0, 220))]
    buffer = io.BytesIO()
    frames[0].save(
        buffer, format="GIF", save_all=True, append_images=frames[1:], duration=200, loop=0
    )
    return buffer.getvalue()


def pdf_image_colours(pdf: Path) -> list[tuple[int, int, int]]:
    from pypdf import PdfReader

    colours = []
    for pdf_page in PdfReader(pdf).pages:
        for image in pdf_page.images:
            pixel = image.image.convert("RGB").getpixel((5, 5))
            colours.append(tuple(pixel))
    return colours


@pytest.mark.parametrize("engine", ["weasyprint", "xelatex"])
def test_gif_prints_its_first_frame(make_book: Any, engine: str) -> None:
    gif = two_frame_gif()
    root = make_book(
        {
            "book/01.md": "# 장\n\n![움직이는 그림](../images/anim.gif){#fig:anim}\n",
            "images/anim.gif": gif,
        },
        metadata={"title": "GIF"},
    )
    _, out = build(root, ["pdf"], engine)
    colours = [c for c in pdf_image_colours(next(out.glob("*.pdf"))) if c != (255, 255, 255)]
    assert colours and all(r > 180 and b < 60 for r, _g, b in colours)  # red: frame 1


def test_gif_stays_animated_on_the_site(make_book: Any) -> None:
    from PIL import Image

    gif = two_frame_gif()
    root = make_book(
        {
            "book/01.md": "# 장\n\n![움직이는 그림](../images/anim.gif){#fig:anim}\n",
            "images/anim.gif": gif,
        },
        metadata={"title": "GIF"},
    )
    _, out = build(root, ["html"])
    copied = out / "html" / "images" / "anim.gif"
    assert copied.read_bytes() == gif
    with Image.open(copied) as image:
        assert image.n_frames == 2
    pages = [p.read_text(encoding="utf-8") for p in (out / "html").glob("*.html")]
    assert any('src="images/anim.gif"' in html for html in pages)
