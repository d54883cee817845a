"""Links between the files of an mdBook land where the author pointed (issue 29): read from
the linking file's folder, written as ``.md``, ``.html`` or reference links, with section
anchors as mdBook makes them and ``<a id>`` anchors, in the HTML, the EPUB and every PDF."""

from __future__ import annotations

import re
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

import kobook
from tests.checks import epubcheck
from tests.e2e.test_file_links import link_targets

SUMMARY = """# 링크 책

- [처음](intro.md)
- [안내](guide/usage.md)
"""
INTRO = """# 처음

[사용법 장](guide/usage.md)과 [준비 절](guide/usage.md#1단계-준비),
[고급 절](guide/usage.html#고급-사용)을 보라.

<a id="install-old"></a>

## 설치하기

[없는 절](guide/usage.md#없는-절)도 있다.
"""
USAGE = """# 안내

[처음 장][처음]으로 돌아가거나 [옛 설치][옛]를 보라. [이 장의 고급 절](#고급-사용).

## 1단계: 준비

준비한다.

## 고급 사용

[설치 절](../intro.html#설치하기)

[처음]: ../intro.md
[옛]: ../intro.md#install-old
"""


class Ids(HTMLParser):
    """Every id and every ``href`` of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("href"):
            self.hrefs.append(str(values["href"]))


def pages(files: dict[str, str]) -> dict[str, Ids]:
    found = {}
    for name, text in files.items():
        parser = Ids()
        parser.feed(text)
        found[name] = parser
    return found


def dangling(found: dict[str, Ids]) -> tuple[list[str], int]:
    """Internal links whose page or id does not exist, and how many internal links there are."""
    bad, count = [], 0
    for name, page in found.items():
        for href in page.hrefs:
            if re.match(r"[a-z]+:", href) or href.startswith("//"):
                continue
            file, _, fragment = href.partition("#")
            target = str(Path(name).parent / file) if file else name
            count += 1
            if target not in found or (fragment and fragment not in found[target].ids):
                bad.append(f"{name}: {href}")
    return bad, count


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mdbook-links")
    for name, text in {
        "book.toml": '[book]\ntitle = "링크 책"\nlanguage = "ko"\n',
        "src/SUMMARY.md": SUMMARY,
        "src/intro.md": INTRO,
        "src/guide/usage.md": USAGE,
    }.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_links_land_on_their_sections_in_the_html(root: Path) -> None:
    result = kobook.build(root, ["html"])
    site = result.outputs["html"].parent
    found = pages(
        {
            p.relative_to(site).as_posix(): p.read_text(encoding="utf-8")
            for p in site.rglob("*.html")
        }
    )
    bad, count = dangling(found)
    assert not bad and count >= 7, (bad, count)
    hrefs = [h for page in found.values() for h in page.hrefs]
    assert not [h for h in hrefs if h.endswith(".md") or ".md#" in h]
    texts = {name: (site / name).read_text(encoding="utf-8") for name in found}
    # Each link by its text: mdBook's id of "1단계: 준비" (pandoc's own has no "1"), an
    # ``<a id>``, a reference link, an in-page link, a link up a folder.
    for page, text, target in [
        ("intro.html", "준비 절", "usage.html#단계-준비"),
        ("intro.html", "고급 절", "usage.html#고급-사용"),
        ("intro.html", "사용법 장", "usage.html#안내"),
        ("usage.html", "옛 설치", "intro.html#install-old"),
        ("usage.html", "처음 장", "intro.html#처음"),
        ("usage.html", "이 장의 고급 절", "#고급-사용"),
        ("usage.html", "설치 절", "intro.html#설치하기"),
    ]:
        assert f'href="{target}">{text}</a>' in texts[page], (page, text)
    warned = [
        (d.location.file.name, d.location.line)
        for d in result.diagnostics
        if d.code == "LINK002" and d.location.file
    ]
    assert warned == [("intro.md", 10)], result.diagnostics


def test_links_land_on_their_sections_in_the_epub(root: Path) -> None:
    epub = kobook.build(root, ["epub"]).outputs["epub"]
    with zipfile.ZipFile(epub) as archive:
        texts = {
            n: archive.read(n).decode("utf-8")
            for n in archive.namelist()
            if n.endswith(".xhtml") and "nav" not in n
        }
    bad, count = dangling(pages(texts))
    assert not bad and count >= 7, (bad, count)
    joined = "".join(texts.values())
    for text, fragment in [("준비 절", "단계-준비"), ("옛 설치", "install-old")]:
        assert re.search(f'href="[^"]*#{fragment}">{text}</a>', joined), text
    assert epubcheck(epub) == []


def test_no_link_leaves_the_pdf(root: Path) -> None:
    """The links are resolved before any writer (every engine's file: links are
    ``test_file_links.py``'s): one engine shows it."""
    pdf = kobook.build(root, ["pdf"]).outputs["pdf"]
    assert link_targets(pdf) == []  # every link is inside the document
