"""A translation repository written for pandoc + XeLaTeX builds as it is, with both engines.

The fixture is what such repositories carry: a ``---``-fenced ``metadata.yaml``
with a fenced ``header-includes`` block that loads fancyhdr, ``date: \\today``,
a macOS font that Linux does not have, and remote images (served here from
127.0.0.1, never the internet); then the same book built ``--offline``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.checks import pdf_pages
from tests.imageserver import ImageServer

EPOCH = "1795219200"  # 2026-11-21 UTC

METADATA = """---
title: 판독 가능한 책
author: [원저자]
translators: [옮긴이]
lang: ko-KR
date: \\today
mainfont: Apple SD Gothic Neo
CJKmainfont: AppleMyungjo
header-includes:
  - |
    ```{=latex}
    \\usepackage{fancyhdr}
    \\pagestyle{fancy}
    \\fancyhead[L]{머리}
    \\newcommand{\\kobookmark}{KOBOOKMARK}
    ```
---
"""

CHAPTER = """---
title: 원격 그림
---

첫 문단은 원격 그림을 설명한다.

![원격 PNG 그림]({png}){{#fig:remote}}

@fig:remote를 보면 알 수 있다. 둘째 그림은 `<img>`로 썼다.

<img src="{svg}" alt="원격 SVG">
"""


# The command line, with downloads allowed to reach the test's image server on loopback
# (a build reaches public addresses only; nothing from a book or the environment lifts it).
ALLOWING_LOOPBACK = (
    "import ipaddress; from kobook.transform import public_http; "
    "public_http.ALLOWED_NETWORKS = (ipaddress.ip_network('127.0.0.0/8'),); "
    "from kobook.cli import run; run()"
)


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, CI="true", SOURCE_DATE_EPOCH=EPOCH)
    return subprocess.run(
        [sys.executable, "-c", ALLOWING_LOOPBACK, "build", *args, "--project", str(root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


@pytest.fixture
def repo(tmp_path: Path, server: ImageServer) -> Path:
    root = tmp_path / "pandoc-repo"
    (root / "chapters").mkdir(parents=True)
    (root / "metadata.yaml").write_text(METADATA, encoding="utf-8")
    chapter = CHAPTER.format(png=server.url("/pixel.png"), svg=server.url("/image.svg"))
    (root / "chapters" / "01-remote.md").write_text(chapter, encoding="utf-8")
    (root / "README.md").write_text("# 저장소 설명\n\n빌드 방법.\n", encoding="utf-8")
    return root


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["weasyprint", "xelatex"])
def test_pandoc_repository_builds_as_it_is(repo: Path, server: ImageServer, engine: str) -> None:
    result = cli(repo, "pdf", "html", "--engine", engine)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "chapters: chapters/**/*.md" in result.stderr
    assert "FONT002" in result.stderr and "AppleMyungjo" in result.stderr
    if engine == "xelatex":
        assert "TEX004" in result.stderr and "fancyhdr" in result.stderr
    else:
        assert "TEX005" in result.stderr  # raw LaTeX noted once as ignored
    text = "\n".join(pdf_pages(repo / "dist" / "book.pdf"))
    assert "2026년 11월 21일" in text and "\\today" not in text
    assert "저장소 설명" not in text
    assert "그림 1.1" in text and "그림 1.1을" in text
    assert "그림 없음" not in text
    assert server.requests["/pixel.png"] == 1 and server.requests["/image.svg"] == 1
    site = repo / "dist" / "html"
    pages = "".join(p.read_text(encoding="utf-8") for p in site.glob("*.html"))
    assert "127.0.0.1" not in pages
    assert len(list((site / "images" / "remote").iterdir())) == 2


@pytest.mark.slow
def test_the_same_repository_offline(repo: Path, server: ImageServer) -> None:
    failed = cli(repo, "pdf", "--offline")
    assert failed.returncode == 1 and "Traceback" not in failed.stderr
    assert "IMG002" in failed.stderr and "01-remote.md:7" in failed.stderr
    kept = cli(repo, "pdf", "html", "--offline", "--keep-going")
    assert kept.returncode == 0, kept.stderr
    assert kept.stderr.count("IMG002") >= 2
    text = "\n".join(pdf_pages(repo / "dist" / "book.pdf"))
    assert "그림 없음" in text and server.url("/pixel.png") in text.replace("\n", "")
    assert server.total == 0


SPLIT_BOOK = {
    "title.yaml": (
        "---\ntitle:\n- type: main\n  text: 흩어진 판독기\n"
        "- type: subtitle\n  text: 폴더에 나뉜 장\n"
        "creator:\n- role: author\n  text: 김작가\n- role: translator\n  text: 박번역\n"
        "identifier:\n- scheme: ISBN\n  text: 978-89-0000-000-0\nlang: ko-KR\n...\n"
    ),
    "ch01/intro.markdown": "# 처음\n\n첫 장이다.\n",
    "ch02/next.markdown": "# 다음\n\n둘째 장이다.\n",
    "ch02/aside.markdown": "# 곁가지\n\n목록에 없는 장.\n",
    "README.md": "# 책\n\n```sh\npandoc -o book.epub --toc title.yaml \\\n"
    "  ch01/intro.markdown ch02/next.markdown\n```\n",
}


def test_a_book_in_sub_folders_imports_and_builds_as_its_readme_says(tmp_path: Path) -> None:
    """Chapters in sub-folders, .markdown files, title.yaml with pandoc's structured
    title and creators, the order in the README's pandoc command (issue 29)."""
    import zipfile

    from tests.checks import epubcheck
    from tests.e2e.test_cli import kobook as kobook_cli

    root = tmp_path / "book"
    for name, text in SPLIT_BOOK.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    imported = kobook_cli("import", str(root))
    assert imported.returncode == 0, imported.stderr
    assert "the pandoc command in README.md:4" in imported.stdout
    built = kobook_cli("build", "epub", "--project", str(root), "-q")
    assert built.returncode == 0, built.stderr
    epub = root / "dist" / "book.epub"
    assert epubcheck(epub) == []
    with zipfile.ZipFile(epub) as archive:
        opf = archive.read("EPUB/content.opf").decode()
        text = "".join(archive.read(n).decode() for n in archive.namelist() if n.endswith("xhtml"))
    assert ">흩어진 판독기</dc:title>" in opf and "978-89-0000-000-0" in opf
    assert "김작가" in opf and "박번역" in opf
    assert text.index("첫 장이다") < text.index("둘째 장이다") and "곁가지" not in text
