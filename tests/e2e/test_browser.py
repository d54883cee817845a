"""The HTML book in a real browser: Debian's Chromium, driven by Selenium through
Debian's chromedriver (nothing downloaded), the site served from 127.0.0.1.

Screenshots of the index and a chapter (light and dark, wide and phone width) are
written to ``dist/screenshots/`` for a person to open.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import SHOTS, fresh, serve, until

LIGHT = "rgb(255, 255, 255)"
DARK = "rgb(22, 24, 28)"


@pytest.fixture(scope="module")
def site(sample_site: Path) -> Path:
    return sample_site


@pytest.fixture(scope="module")
def url(site: Path) -> Iterator[str]:
    with serve(site) as address:
        yield address


def background(browser: Any) -> str:
    return str(browser.execute_script("return getComputedStyle(document.body).backgroundColor"))


def test_the_theme_button_changes_the_colours_and_a_reload_keeps_them(
    browser: Any, url: str
) -> None:
    fresh(browser, f"{url}/02-data-parallel.html")
    assert background(browser) == LIGHT
    browser.save_screenshot(str(SHOTS / "chapter-light.png"))
    browser.find_element("css selector", "button.theme-toggle").click()
    assert background(browser) == DARK
    browser.refresh()
    assert background(browser) == DARK
    assert browser.execute_script("return localStorage.getItem('kobook-theme')") == "dark"
    browser.save_screenshot(str(SHOTS / "chapter-dark.png"))
    browser.find_element("css selector", "button.theme-toggle").click()
    browser.refresh()
    assert background(browser) == LIGHT


def test_the_system_dark_setting_is_followed_until_the_reader_chooses(
    browser: Any, url: str
) -> None:
    fresh(browser, f"{url}/index.html", scheme="dark")
    assert background(browser) == DARK
    browser.find_element("css selector", "button.theme-toggle").click()
    assert background(browser) == LIGHT  # the reader's choice wins over the system's
    browser.execute_script("localStorage.clear()")


def test_the_copy_button_puts_the_code_on_the_clipboard(browser: Any, url: str) -> None:
    fresh(browser, f"{url}/01-memory.html")
    browser.execute_cdp_cmd(
        "Browser.grantPermissions",
        {"origin": url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]},
    )
    blocks = browser.find_elements("css selector", "article pre")
    # The buttons are the page's script's: on a busy machine it runs a little later.
    until(
        lambda: len(browser.find_elements("css selector", "article button.copy-code")), len(blocks)
    )
    buttons = browser.find_elements("css selector", "article button.copy-code")
    assert buttons and len(buttons) == len(blocks)
    browser.execute_script("arguments[0].scrollIntoView()", buttons[0])
    code = browser.execute_script(
        "const pre = document.querySelector('article pre');"
        "return (pre.querySelector('code') || pre).textContent;"
    )
    buttons[0].click()
    # The copy is asynchronous: read the clipboard until it holds the code (or 10 s pass).
    copied = until(
        lambda: browser.execute_async_script(
            "const done = arguments[0];"
            "navigator.clipboard.readText().then(done, e => done('ERR ' + e));"
        ),
        code,
    )
    assert copied == code and len(code) > 20
    assert "Copy" not in copied and "복사" not in copied  # the button's own label is not copied


def test_on_this_page_lists_the_sections_and_marks_the_one_on_screen(
    browser: Any, url: str
) -> None:
    fresh(browser, f"{url}/02-data-parallel.html")
    headings = browser.find_elements("css selector", "article h2[id], article h3[id]")
    # The list is the page's script's to fill, on its own time (slower on a busy machine).
    count = until(
        lambda: len(browser.find_elements("css selector", "nav.page-toc a")), len(headings)
    )
    assert count == len(headings) >= 3
    assert browser.find_element("css selector", "nav.page-toc").is_displayed()
    target = headings[len(headings) // 2]  # one the page can scroll to the top
    browser.execute_script("arguments[0].scrollIntoView()", target)
    wanted = "#" + browser.execute_script("return encodeURIComponent(arguments[0].id)", target)
    active = until(  # marked by the scroll handler, which runs after the scroll
        lambda: browser.execute_script(
            "return document.querySelector('nav.page-toc a.active').getAttribute('href')"
        ),
        wanted,
    )
    assert active == wanted
    browser.save_screenshot(str(SHOTS / "chapter-wide.png"))


def test_every_section_heading_links_to_itself(browser: Any, url: str) -> None:
    fresh(browser, f"{url}/02-data-parallel.html")
    for heading in browser.find_elements("css selector", "article h2[id], article h3[id]"):
        anchor = heading.find_element("css selector", "a.anchor")
        assert anchor.get_attribute("href").endswith("#" + heading.get_attribute("id")) or (
            browser.execute_script("return decodeURIComponent(arguments[0].hash)", anchor)
            == "#" + heading.get_attribute("id")
        )


def test_no_page_scrolls_sideways_at_phone_width(browser: Any, url: str, site: Path) -> None:
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True},
    )
    try:
        wide = []
        for page in sorted(site.glob("*.html")):
            fresh(browser, f"{url}/{page.name}")
            width = browser.execute_script("return document.documentElement.scrollWidth")
            if width > 390:
                wide.append((page.name, width))
        assert wide == []
        fresh(browser, f"{url}/index.html")
        browser.save_screenshot(str(SHOTS / "index-phone.png"))
        fresh(browser, f"{url}/02-data-parallel.html")
        browser.save_screenshot(str(SHOTS / "chapter-phone.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_site_has_its_icon(browser: Any, url: str) -> None:
    fresh(browser, f"{url}/index.html")
    icon = browser.execute_script("return document.querySelector('link[rel=icon]').href")
    assert icon.endswith("/assets/favicon.svg")
    status = browser.execute_async_script(
        "const [icon, done] = arguments;"
        "fetch(icon).then(r => done(r.status + ' ' + r.headers.get('content-type')))",
        icon,
    )
    assert status.startswith("200 image/svg")
    browser.save_screenshot(str(SHOTS / "index-wide.png"))


CODE_CONTRAST = """
function rgb(text) { return text.match(/[\\d.]+/g).slice(0, 3).map(Number); }
function lum(c) {
  const [r, g, b] = c.map(v => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function ratio(a, b) {
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}
const found = [];
for (const pre of document.querySelectorAll("pre")) {
  const panel = rgb(getComputedStyle(pre).backgroundColor);
  for (const span of pre.querySelectorAll("code span[class]")) {
    if (!span.textContent.trim()) continue;
    const r = ratio(rgb(getComputedStyle(span).color), panel);
    found.push([span.className, Math.round(r * 100) / 100]);
  }
}
return found;
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_highlighted_code_is_readable_in_both_themes(browser: Any, url: str, scheme: str) -> None:
    low: list[tuple[str, str, float]] = []
    seen = 0
    for page in ("01-memory.html", "02-data-parallel.html", "05-kernels.html"):
        fresh(browser, f"{url}/{page}", scheme)
        spans = browser.execute_script(CODE_CONTRAST)
        seen += len(spans)
        low += [(page, name, value) for name, value in spans if value < 4.5]
    assert seen > 50
    assert low == []


def test_the_phone_drawer_works_from_the_keyboard(browser: Any, url: str) -> None:
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(390, 900)
    try:
        fresh(browser, f"{url}/02-data-parallel.html")
        body = browser.find_element("css selector", "body")
        drawer = browser.find_element("id", "sidebar")
        button = browser.find_element("css selector", "button.nav-button")
        assert not drawer.is_displayed()
        for _ in range(4):  # the ☰ control is reached by Tab
            body.send_keys(Keys.TAB) if _ == 0 else browser.switch_to.active_element.send_keys(
                Keys.TAB
            )
            if browser.switch_to.active_element == button:
                break
        assert browser.switch_to.active_element == button
        button.send_keys(Keys.ENTER)
        assert until(drawer.is_displayed, True) is True
        assert button.get_attribute("aria-expanded") == "true"
        assert (
            browser.switch_to.active_element.find_element("xpath", "ancestor::nav").get_attribute(
                "id"
            )
            == "sidebar"
        )
        browser.switch_to.active_element.send_keys(Keys.ESCAPE)
        assert until(drawer.is_displayed, False) is False
        assert browser.switch_to.active_element == button
        button.click()  # a tap opens it; a link taken closes it
        assert until(drawer.is_displayed, True) is True
        drawer.find_element("css selector", "li.current a").click()
        assert until(lambda: browser.find_element("id", "sidebar").is_displayed(), False) is False
        browser.save_screenshot(str(SHOTS / "drawer-closed-phone.png"))
    finally:
        browser.set_window_size(1400, 1000)


def test_an_anchor_lands_below_the_sticky_bar_on_a_phone(browser: Any, url: str) -> None:
    browser.set_window_size(390, 900)
    try:
        fresh(browser, f"{url}/02-data-parallel.html")
        ident = browser.execute_script("return document.querySelectorAll('h2[id]')[1].id")
        browser.get(f"{url}/02-data-parallel.html#{ident}")
        gap = browser.execute_script(
            """const bar = document.querySelector('.topbar').getBoundingClientRect();
               const h = document.getElementById(arguments[0]).getBoundingClientRect();
               return h.top - bar.bottom;""",
            ident,
        )
        assert gap >= 0
    finally:
        browser.set_window_size(1400, 1000)


def test_arrow_keys_turn_the_chapter_and_the_skip_link_comes_first(browser: Any, url: str) -> None:
    from selenium.webdriver.common.keys import Keys

    fresh(browser, f"{url}/02-data-parallel.html")
    body = browser.find_element("css selector", "body")
    body.send_keys(Keys.ARROW_RIGHT)
    assert until(lambda: browser.current_url.rsplit("/", 1)[-1], "03-tensor-parallel.html") == (
        "03-tensor-parallel.html"
    )
    browser.find_element("css selector", "body").send_keys(Keys.ARROW_LEFT)
    assert until(lambda: browser.current_url.rsplit("/", 1)[-1], "02-data-parallel.html") == (
        "02-data-parallel.html"
    )
    browser.find_element("css selector", "body").send_keys(Keys.TAB)
    skip = browser.switch_to.active_element
    assert skip.get_attribute("class") == "skip-link" and skip.is_displayed()
    skip.send_keys(Keys.ENTER)
    assert until(lambda: browser.switch_to.active_element.get_attribute("id"), "main") == "main"
    box = browser.find_elements("css selector", "input.search-box")
    if box:  # typing in the search box never turns the page
        box[0].send_keys(Keys.ARROW_RIGHT)
        assert "02-data-parallel.html" in browser.current_url


def test_pages_describe_themselves_and_load_images_lazily(site: Path) -> None:
    page = (site / "01-memory.html").read_text(encoding="utf-8")
    assert '<meta name="description" content="GPU 클러스터에서' in page
    images = re.findall(r"<img\b[^>]*>", page)
    assert images and all('loading="lazy"' in img for img in images)
    # Each figure holds its place while it loads: its size from the file (SVG root, PNG
    # header), which the stylesheet scales with height: auto.
    figures = [img for img in images if 'class="math' not in img]
    assert figures and all(re.search(r' width="\d+" height="\d+"', img) for img in figures)
    assert 'src="images/memory-breakdown.svg"' in figures[0] and 'width="800"' in figures[0]
    style = (site / "assets" / "style.css").read_text(encoding="utf-8")
    printed = style[style.index("@media print") :]
    assert re.search(r"div\.equation, \.math\.display \{ break-inside: avoid", printed)


SAMPLE_PAGES = ("index.html", "01-memory.html", "05-kernels.html", "genindex.html")


@pytest.mark.parametrize("page", SAMPLE_PAGES)
def test_axe_finds_nothing_in_any_theme_or_width(browser: Any, url: str, page: str) -> None:
    from tests.a11y import VIEWS, axe

    found = {
        f"{scheme} {width}px": axe(browser, f"{url}/{page}", scheme, width)
        for scheme, width in VIEWS
    }
    assert {view: v for view, v in found.items() if v} == {}


def test_a_box_wider_than_the_phone_is_reached_by_the_keyboard(browser: Any, url: str) -> None:
    browser.set_window_size(390, 900)
    try:
        fresh(browser, f"{url}/05-kernels.html")
        boxes = browser.execute_script(
            "return [...document.querySelectorAll('article table, article pre')].map("
            "b => [b.scrollWidth > b.clientWidth + 1, b.getAttribute('tabindex')])"
        )
        assert any(wide for wide, _ in boxes), "the sample has a table wider than a phone"
        assert all(tab == "0" for wide, tab in boxes if wide)
        assert all(tab is None for wide, tab in boxes if not wide)
    finally:
        browser.set_window_size(1400, 1000)


def test_a_footnote_shows_beside_its_number_on_hover_and_focus(browser: Any, url: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    fresh(browser, f"{url}/01-memory.html")
    ref = browser.find_element("css selector", "article a.footnote-ref")
    note_id = ref.get_attribute("href").split("#", 1)[1]
    note = browser.execute_script(
        "const n = document.getElementById(arguments[0]).cloneNode(true);"
        "n.querySelectorAll('.footnote-back').forEach(b => b.remove());"
        "return n.textContent.trim()",
        note_id,
    )
    shown = (
        "const p = document.querySelector('.footnote-preview');return p ? p.textContent.trim() : ''"
    )
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", ref)
    ActionChains(browser).move_to_element(ref).perform()
    assert until(lambda: browser.execute_script(shown), note) == note and note
    assert ref.get_attribute("aria-describedby") == "footnote-preview"
    assert "↩" not in browser.execute_script(shown)
    ref_top, ref_bottom, top, bottom, right = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(), p = document.querySelector("
        "'.footnote-preview').getBoundingClientRect(); return [r.top, r.bottom, p.top, "
        "p.bottom, p.right]",
        ref,
    )
    assert 0 <= top - ref_bottom <= 10 or 0 <= ref_top - bottom <= 10  # just below or above
    assert right <= browser.execute_script("return window.innerWidth")
    browser.find_element("css selector", "body").send_keys(Keys.ESCAPE)
    assert until(lambda: browser.execute_script(shown), "") == ""
    browser.execute_script("arguments[0].focus()", ref)  # the keyboard's way in
    assert until(lambda: browser.execute_script(shown), note) == note
    browser.execute_script("arguments[0].blur()", ref)
    assert until(lambda: browser.execute_script(shown), "") == ""
