""" "Keep Korean words whole" is decided once (Config.keeps_words_whole) and every writer
follows it (issue 28): ``line-breaking: syllable`` reaches the site, the EPUB, WeasyPrint,
XeLaTeX and Typst alike, and Chinese text is never held to Korean word breaking."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

import kobook
from kobook.model import Config
from kobook.write.weasyprint.writer import word_break
from tests.conftest import BookMaker

CHAPTER = "# 장\n\n데이터 병렬화를 쓰는 까닭은 메모리가 모자라기 때문이다.\n"


def test_the_decision() -> None:
    assert Config(raw={}).keeps_words_whole()
    assert not Config(raw={"lang": "en"}).keeps_words_whole()  # English rules
    assert Config(raw={"lang": "en"}).keeps_words_whole("ko")  # a Korean chapter of it
    assert not Config(raw={"line-breaking": "syllable"}).keeps_words_whole()
    assert not Config(raw={"lang": "zh-CN"}).keeps_words_whole()
    assert not Config(raw={}).keeps_words_whole("ja")
    assert word_break(False) == "normal" and word_break(True) == "keep-all"


def sources(cache: Path, suffix: str) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in cache.rglob(f"*{suffix}"))


@pytest.mark.slow
@pytest.mark.parametrize("breaking", ["word", "syllable"])
def test_every_writer_follows_the_book(make_book: BookMaker, tmp_path: Path, breaking: str) -> None:
    root = make_book({"book/01.md": CHAPTER}, metadata={"title": "책", "line-breaking": breaking})
    whole = breaking == "word"
    cache = tmp_path / "cache"
    site = kobook.build(root, ["html", "epub"], cache_dir=cache)
    page = (site.outputs["html"].parent / "ch01.html").read_text(encoding="utf-8")
    assert ('class="break-syllables"' in page) is not whole
    with zipfile.ZipFile(site.outputs["epub"]) as epub:
        css = "".join(epub.read(n).decode() for n in epub.namelist() if n.endswith(".css"))
    assert ("word-break: keep-all" in css) is whole
    kobook.build(root, ["pdf"], engine="typst", cache_dir=cache)
    assert ("#box[데이터]" in sources(cache / "typst", ".typ")) is whole
    kobook.build(root, ["pdf"], engine="xelatex", cache_dir=cache)
    assert ("\n\\XeTeXlinebreakpenalty=10000\n" in sources(cache / "latex", ".tex")) is whole
