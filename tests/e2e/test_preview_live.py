"""``kobook preview``'s live script in a real browser (Chromium, as ``test_browser.py``).

A save that changes only pages puts the chapter's new text in place without a
new page (the reader keeps the scroll position and the search box), and the
reading aids of ``book.js`` are set up on the new text; anything else reloads.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kobook.preview import Session, Watcher, start
from tests.browser import until
from tests.conftest import BookMaker

CHAPTER = """# 하나

## 첫 절

첫 문단은 원래 문장이다.[^note]

```python
print("하나")
```

## 둘째 절

둘째 문단.

[^note]: 각주의 글.
"""
EDITED = CHAPTER.replace("원래 문장이다", "고친 문장이다") + (
    '\n## 셋째 절\n\n```python\nprint("둘")\n```\n'
)


@pytest.fixture
def url(make_book: BookMaker, tmp_path: Path) -> Iterator[str]:
    root = make_book(
        {"book/01-one.md": CHAPTER, "book/02-two.md": "# 둘\n\n다른 장.\n"},
        metadata={"title": "미리 보기 책"},
    )
    session = Session(root, cache_dir=tmp_path / "cache")
    assert session.build().ok
    server = start(session, port=0, keepalive=0.3)
    watcher = Watcher(session, server.publish, step_ms=30, debounce_ms=300, idle_ms=100).start()
    assert watcher.wait_ready()
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        watcher.stop()
        server.close()
        session.close()


def opened(browser: Any, url: str) -> None:
    """The first chapter open in ``browser``, marked so that a new page is seen."""
    browser.get(f"{url}/01-one.html")
    until(lambda: browser.execute_script("return document.readyState"), "complete")
    browser.execute_script("window.__kept = 1")


def shows(browser: Any, text: str) -> bool:
    return bool(
        until(
            lambda: browser.execute_script(
                # a page being reloaded may have no body yet
                "return !!document.body && document.body.textContent.includes(arguments[0])",
                text,
            ),
            True,
        )
    )


def test_an_edit_puts_the_new_text_in_place_and_sets_it_up(
    browser: Any, url: str, make_book: BookMaker
) -> None:
    opened(browser, url)
    make_book({"book/01-one.md": EDITED})
    assert shows(browser, "고친 문장이다")
    assert browser.execute_script("return window.__kept") == 1  # no new page
    assert not browser.execute_script("return document.body.textContent.includes('원래')")
    blocks = browser.execute_script("return document.querySelectorAll('article pre').length")
    buttons = browser.execute_script("return document.querySelectorAll('button.copy-code').length")
    assert (blocks, buttons) == (2, 2)  # one copy button each, none twice
    toc = browser.execute_script(
        "return [...document.querySelectorAll('nav.page-toc li')].map(li => li.textContent)"
    )
    assert len(toc) == 3 and "셋째 절" in toc[-1]  # the sections of the new text, once
    assert browser.execute_script("return document.querySelectorAll('main article').length") == 1
    note = browser.execute_script(
        "const ref = document.querySelector('article a.footnote-ref');"
        "ref.dispatchEvent(new MouseEvent('mouseenter'));"
        "const box = document.querySelector('.footnote-preview');"
        "return box && box.textContent"
    )
    assert note and "각주의 글" in note  # the new note's preview works


def test_a_new_book_title_reloads_the_page(browser: Any, url: str, make_book: BookMaker) -> None:
    opened(browser, url)
    make_book({}, metadata={"title": "새 제목의 책"})
    assert shows(browser, "새 제목의 책")
    assert browser.execute_script("return window.__kept") is None  # a new page


def test_a_new_style_sheet_reloads_the_page(browser: Any, url: str, make_book: BookMaker) -> None:
    opened(browser, url)
    make_book({"templates/html/extra.css": "body { outline: 3px solid rgb(1, 2, 3); }\n"})
    assert until(
        lambda: browser.execute_script(
            "return document.body && getComputedStyle(document.body).outlineColor"
        ),
        "rgb(1, 2, 3)",
    )
    assert browser.execute_script("return window.__kept") is None
