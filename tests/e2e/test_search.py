"""The HTML book's search, typed into the search box of a real browser (Chromium).

Pagefind has no Korean stemmer: these tests pin down what kobook adds, on a book
whose chapters each hold one form of a word (``모델``, ``모델을``, ``모델의``,
``모델이``), so that a result found or missed tells which way the search failed.
A screenshot of the sample book's results goes to ``dist/screenshots/search.png``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

import kobook
from tests.browser import SHOTS, fresh, serve, until
from tests.checks import html_problems, search_records

CHAPTERS = {
    "01.md": "# 첫째 장\n\n이 장은 모델을 다룬다.\n",
    "02.md": "# 둘째 장\n\n큰 모델의 크기를 잰다.\n",
    "03.md": "# 셋째 장\n\n새 모델이 나왔다.\n",
    "04.md": "# 넷째 장\n\n모델 하나를 고른다.\n",
    "05.md": "# 다섯째 장\n\n## 집합 통신\n\n그래디언트는 All-Reduce로 모으고 ZeRO-3는 나눈다.\n",
    "06.md": "# 여섯째 장\n\n두 층 사이에 낀 값.\n",
    "07.md": "# 일곱째 장\n\n사과를 먹는다.\n",
    "08.md": (
        '# 여덟째 장\n\n위험한 글 `<img src=x onerror="window.pwned=1">` 을 그대로 보인다.\n'
    ),
}
MODEL_PAGES = ["01.html", "02.html", "03.html", "04.html"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("search")
    project = root / "project"
    (project / "book").mkdir(parents=True)
    meta = {"title": "검색 시험", "lang": "ko-KR"}
    (project / "metadata.yaml").write_text(yaml.safe_dump(meta, allow_unicode=True), "utf-8")
    for name, text in CHAPTERS.items():
        (project / "book" / name).write_text(text, encoding="utf-8")
    result = kobook.build(project, ["html"], out=root / "out", cache_dir=root / "c")
    return result.outputs["html"].parent


@pytest.fixture(scope="module")
def url(site: Path) -> Iterator[str]:
    with serve(site) as address:  # the same three lines as test_browser's, another site
        yield address


def search(browser: Any, query: str) -> list[dict[str, Any]]:
    """Type ``query`` into the box; the results as shown: page, chapter, sections, marks."""
    found = until(lambda: len(browser.find_elements("css selector", "input.search-box")), 1)
    assert found == 1, (browser.current_url, browser.title, browser.page_source[:300])
    box = browser.find_element("css selector", "input.search-box")
    box.clear()
    box.send_keys(query)
    read = (
        "const panel = document.querySelector('div.search-results');"
        "if (panel.hidden || panel.dataset.query !== arguments[0]) return null;"
        "return [...panel.querySelectorAll('li')].map(li => ({"
        "  page: li.querySelector('a.search-chapter').getAttribute('href'),"
        "  chapter: li.querySelector('a.search-chapter').textContent,"
        "  sections: [...li.querySelectorAll('a.search-section')].map(a => a.textContent),"
        "  marks: [...li.querySelectorAll('mark')].map(m => m.textContent)}))"
    )
    ready = until(lambda: browser.execute_script(read, query) is not None, True)
    assert ready, f"no results shown for {query!r}"
    return list(browser.execute_script(read, query))


def pages(found: list[dict[str, Any]]) -> list[str]:
    return sorted(result["page"] for result in found)


@pytest.fixture(params=["served", "disk"])
def page(browser: Any, url: str, site: Path, request: pytest.FixtureRequest) -> Any:
    """A chapter served over http (Pagefind), or opened from disk (``file://``: the
    scripts of ``search/disk/``): every search test holds for both."""
    fresh(browser, f"{url}/01.html" if request.param == "served" else (site / "01.html").as_uri())
    return browser


def test_a_bare_word_finds_it_with_any_particle(page: Any) -> None:
    found = search(page, "모델")
    assert pages(found) == MODEL_PAGES
    marks = {mark for result in found for mark in result["marks"]}
    assert marks == {"모델을", "모델의", "모델이", "모델"}


@pytest.mark.parametrize("query", ["모델을", "모델이", "모델의", "모델에서는"])
def test_a_word_with_a_particle_finds_the_bare_word_and_the_other_particles(
    page: Any, query: str
) -> None:
    assert pages(search(page, query)) == MODEL_PAGES


def test_a_word_that_only_ends_like_a_particle_is_searched_whole(page: Any) -> None:
    # 사이 is not 사 + 이 (after a vowel the particle is 가): 사과 must not be found.
    assert pages(search(page, "사이")) == ["06.html"]


@pytest.mark.parametrize(
    "query", ["all-reduce", "ALL-REDUCE", "All-Reduce로", "zero-3", "ZeRO-3를"]
)
def test_english_terms_match_whatever_their_case(page: Any, query: str) -> None:
    found = search(page, query)
    assert pages(found) == ["05.html"]
    assert found[0]["chapter"] == "5장 다섯째 장"
    assert found[0]["sections"] == ["5.1 집합 통신"]
    assert found[0]["marks"] and all(
        m.lower().startswith(query.lower()[:4]) for m in found[0]["marks"]
    )


def test_a_result_links_to_its_section(page: Any, url: str) -> None:
    search(page, "all-reduce")
    link = page.find_element("css selector", "div.search-results a.search-section")
    link.click()
    here = until(
        lambda: page.execute_script("return location.pathname + decodeURIComponent(location.hash)"),
        "",
    )
    assert here.rsplit("/", 1)[-1].startswith("05.html#")
    heading = page.execute_script(
        "return document.getElementById(decodeURIComponent(location.hash.slice(1))).textContent"
    )
    assert "집합 통신" in heading


def test_nothing_found_is_said(page: Any) -> None:
    assert search(page, "없는낱말") == []
    note = page.find_element("css selector", "div.search-results p.search-note").text
    assert note == "찾은 곳이 없습니다"


def test_page_text_in_an_excerpt_stays_text(page: Any) -> None:
    found = search(page, "onerror")
    assert pages(found) == ["08.html"]
    panel = page.find_element("css selector", "div.search-results")
    assert "<img" in panel.text
    assert panel.find_elements("css selector", "img") == []
    assert page.execute_script("return window.pwned") is None


def test_the_query_loses_only_korean_particles_in_a_korean_book(site: Path) -> None:
    endings = dict(json.loads((site / "search" / "particles.json").read_text("utf-8")))
    assert endings["을"] == "LC" and endings["를"] == "V" and endings["로"] == "VL"
    assert endings["으로"] == "C" and endings["에서는"] == "VLC"
    assert not (site / "search" / "pagefind-ui.js").exists()  # the site has its own few lines


def test_a_page_opened_from_disk_loads_only_what_the_query_needs(browser: Any, site: Path) -> None:
    """From ``file://`` no Pagefind: the disk index's scripts, the index and the shards
    and sections of the query, not the whole book."""
    fresh(browser, (site / "05.html").as_uri())
    assert pages(search(browser, "all-reduce")) == ["05.html"]
    loaded = browser.execute_script(
        "return [...document.querySelectorAll('script[src*=\"search/disk/\"]')]"
        ".map(s => s.src.split('/').pop())"
    )
    written = sorted(p.name for p in (site / "search" / "disk").glob("*.js"))
    assert "index.js" in loaded and set(loaded) <= set(written)
    assert len([n for n in loaded if n.startswith("t-")]) == 1  # one word, one shard
    assert len(loaded) < len(written) / 2


def test_the_sample_book_search_screenshot(sample_site: Path, browser: Any) -> None:
    with serve(sample_site) as address:
        fresh(browser, f"{address}/03-tensor-parallel.html")
        found = search(browser, "모델을")
        assert len(found) >= 4 and all(result["marks"] for result in found)
        browser.save_screenshot(str(SHOTS / "search.png"))


# --- The index itself (no browser) --------------------------------------------------


def test_only_the_chapter_pages_are_indexed_and_every_result_leads_somewhere(site: Path) -> None:
    records = search_records(site)
    assert sorted(r["url"] for r in records) == [f"/{name[:-3]}.html" for name in CHAPTERS]
    assert html_problems(site) == []  # the index's pages and section ids exist
    five = next(r for r in records if r["url"] == "/05.html")
    assert five["meta"]["title"] == "5장 다섯째 장"
    assert [a["text"] for a in five["anchors"] if a["element"] == "h2"] == ["5.1 집합 통신"]


def test_what_is_not_text_is_left_out_of_the_index(sample_site: Path) -> None:
    records = search_records(sample_site)
    content = " ".join(r["content"] for r in records)
    headings = [a["text"] for r in records for a in r["anchors"]]
    assert headings and not [h for h in headings if h.endswith("#")]  # the heading links
    assert "\\frac" not in content and "\\text" not in content  # the TeX beside the MathML
    assert "ZeRO-3" in content and "all-reduce" in content


def test_a_framed_page_of_the_book_cannot_add_results(make_book: Any) -> None:
    embedded = "<html><body data-pagefind-body><h1>가짜 결과</h1><p>미끼낱말</p></body></html>"
    root = make_book(
        {
            "book/01.md": '# 첫 장\n\n::: {.embed src="plots/a.html"}\n그림 대신 글.\n:::\n',
            "plots/a.html": embedded,
        },
        metadata={"title": "틀", "lang": "ko"},
    )
    built = kobook.build(root, ["html"], cache_dir=root / "c")
    site = built.outputs["html"].parent
    assert (site / "plots" / "a.html").is_file()  # framed by the chapter page
    records = search_records(site)
    assert len(records) == 1 and not records[0]["url"].startswith("/plots/")
    assert "미끼낱말" not in json.dumps(records, ensure_ascii=False)


def test_a_chinese_book_keeps_its_words_whole(make_book: Any) -> None:
    root = make_book(
        {"book/01.md": "# 第一章\n\n模型的训练。\n"}, metadata={"title": "书", "lang": "zh-Hans"}
    )
    site = kobook.build(root, ["html"], cache_dir=root / "c").outputs["html"].parent
    assert json.loads((site / "search" / "particles.json").read_text("utf-8")) == []
    assert "模型" in search_records(site)[0]["content"]


def test_search_can_be_turned_off(make_book: Any) -> None:
    root = make_book(
        {"book/01.md": "# 장\n\n글.\n"}, metadata={"title": "끔", "html": {"search": False}}
    )
    built = kobook.build(root, ["html"], cache_dir=root / "c")
    site = built.outputs["html"].parent
    assert not (site / "search").exists()
    assert "search-box" not in (site / "ch01.html").read_text("utf-8")
    assert not [d for d in built.diagnostics if d.code == "SEARCH001"]


@pytest.mark.parametrize(
    ("html", "wanted"),
    [
        ({"search": "yes"}, "'html.search' should be true or false"),
        ({"serch": True}, "did you mean 'html.search'"),
    ],
)
def test_a_wrong_search_setting_is_an_error(
    make_book: Any, html: dict[str, Any], wanted: str
) -> None:
    root = make_book({"book/01.md": "# 장\n"}, metadata={"title": "틀림", "html": html})
    with pytest.raises(kobook.KobookError) as raised:
        kobook.build(root, ["html"], cache_dir=root / "c")
    assert raised.value.diagnostic.code == "CFG003"
    assert wanted in raised.value.diagnostic.message


def test_without_pagefind_the_site_says_it_has_no_search(
    make_book: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("kobook.write.html.search.pagefind", lambda: None)
    root = make_book({"book/01.md": "# 장\n\n글.\n"}, metadata={"title": "없음"})
    built = kobook.build(root, ["html"], cache_dir=root / "c")
    site = built.outputs["html"].parent
    missing = [d for d in built.diagnostics if d.code == "SEARCH001"]
    assert len(missing) == 1 and missing[0].severity == "warning"
    assert "pagefind" in missing[0].hint
    assert "search-box" not in (site / "ch01.html").read_text("utf-8")
    assert not (site / "search").exists()


def test_the_preview_finds_a_word_just_written(
    browser: Any, make_book: Any, tmp_path: Path
) -> None:
    from kobook.preview import Session, start

    first = "# 첫 장\n\n모델을 고른다.\n"
    root = make_book({"book/01.md": first}, metadata={"title": "미리"})
    session = Session(root, cache_dir=tmp_path / "cache")
    assert session.build().ok
    server = start(session, port=0, keepalive=0.3)
    try:
        fresh(browser, f"{server.url}ch01.html")
        assert pages(search(browser, "모델이")) == ["ch01.html"]
        chapter = root / "book" / "01.md"
        chapter.write_text(first + "\n새로쓴낱말을 넣는다.\n", encoding="utf-8")
        assert session.rebuild({chapter}).ok
        session._search_index.wait()
        fresh(browser, f"{server.url}ch01.html")
        assert pages(search(browser, "새로쓴낱말")) == ["ch01.html"]
    finally:
        # Leave the page first: its live-reload stream would keep a server thread alive,
        # and kobook forks work ahead only in a process without other threads (forked.py).
        browser.get("about:blank")
        server.close()
        session.close()


def test_arrow_keys_walk_the_results(page: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    found = search(page, "모델")
    assert len(found) >= 2
    box = page.find_element("css selector", "input.search-box")
    box.send_keys(Keys.ARROW_DOWN)
    links = page.find_elements("css selector", "div.search-results a")
    assert page.switch_to.active_element == links[0]
    page.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    assert page.switch_to.active_element == links[1]
    page.switch_to.active_element.send_keys(Keys.ARROW_UP)
    page.switch_to.active_element.send_keys(Keys.ARROW_UP)
    assert page.switch_to.active_element == box


@pytest.mark.parametrize("query", ["모래성을", "그래프는", "ZeROX", "All-Reducer"])
def test_a_word_the_book_does_not_hold_finds_nothing(page: Any, query: str) -> None:
    # Each shares a first syllable or letters with words the book has (모델, 그래디언트,
    # ZeRO-3, All-Reduce): Pagefind's prefix fallback would show those pages.
    assert search(page, query) == []
    note = page.find_element("css selector", "div.search-results p.search-note").text
    assert note == "찾은 곳이 없습니다"
