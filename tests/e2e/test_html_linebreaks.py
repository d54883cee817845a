"""The site's Korean lines, laid out by Chromium: no word broken beside a bracket or quote.

``word-break: keep-all`` keeps Hangul, Latin letters and digits together, but a
browser still breaks ``(LLM) / 의``, ``“인용” / 을`` and ``모델 / (LLM)``; the
site keeps such words in a ``span.nobr`` (``write/shared/passes/words.py``).  Each page is
laid out at many widths in headless Chromium (a measuring script in a copy of
the page, beside the site's own style sheet), and every line break inside a
word (no space on either side) is collected.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import kobook
from kobook.write.shared.passes import glued
from tests.conftest import BookMaker

WORDS = (
    "모델(LLM)의 계산(compute)을 “인용”을 ‘작은’과 「책」을 [참고]를 100%를 x²을 "
    "GPU가 4로 **모델**(LLM)의 [GPU](https://example.com)(장치)를 값(x)는 끝이다. "
)
CHAPTER = "# 줄바꿈\n\n" + "\n\n".join(WORDS * n for n in (2, 3, 5)) + "\n"

# Lays ``main`` out at widths from 80 to 420 px; the touching pairs lines break between
# (within one paragraph, list item, cell or heading).
MEASURE = """<script>
const pairs = {};
let lines = 0;
const blocks = [...document.querySelectorAll('main p, main li, main td, main h1, main h2')];
const texts = blocks.map(block => {
  const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
  const found = [];
  while (walker.nextNode()) found.push(walker.currentNode);
  return found;
});
for (let width = 80; width <= 420; width += 4) {
  document.querySelector('main').style.width = width + 'px';
  for (const nodes of texts) {
    let before = null, top = null;
    for (const node of nodes) {
      const range = document.createRange();
      for (let i = 0; i < node.length; i++) {
        const char = node.data[i];
        range.setStart(node, i); range.setEnd(node, i + 1);
        const rects = range.getClientRects();
        if (!rects.length) { before = char; continue; }
        const broken = top !== null && rects[0].top > top + 2;
        lines += broken;
        if (broken && before && before.trim() && char.trim()) {
          pairs[before + char] = (pairs[before + char] || 0) + 1;
        }
        before = char; top = rects[0].top;
      }
    }
  }
}
document.body.setAttribute('data-pairs', JSON.stringify({lines, pairs}));
</script>"""


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("Chromium is missing: bash scripts/install-system-deps.sh --dev installs it")
    return found


def broken_pairs(page: Path, tmp: Path) -> tuple[int, dict[str, int]]:
    """How many lines broke, and the touching character pairs they broke between, over
    all widths."""
    measured = page.with_name("measured-" + page.name)
    measured.write_text(
        page.read_text(encoding="utf-8").replace("</body>", MEASURE + "</body>"), encoding="utf-8"
    )
    dom = subprocess.run(
        [
            chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            f"--user-data-dir={tmp / 'chromium'}",
            "--virtual-time-budget=20000",
            "--dump-dom",
            measured.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    found = re.search(r"data-pairs=\"([^\"]*)\"", dom)
    assert found, dom[:500]
    measured_json = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    return int(measured_json["lines"]), dict(measured_json["pairs"])


@pytest.mark.slow
def test_no_korean_word_is_broken_beside_a_bracket_or_quote(
    make_book: BookMaker, tmp_path: Path
) -> None:
    root = make_book({"book/01.md": CHAPTER, "book/02.md": "# 둘째\n\n본문.\n"})
    out = tmp_path / "out"
    kobook.build(root, ["html"], out=out, cache_dir=tmp_path / "cache", offline=True)
    page = out / "html" / "01.html"
    lines, pairs = broken_pairs(page, tmp_path)
    assert lines > 500  # the widths did make lines break
    inside_words = {pair: n for pair, n in pairs.items() if glued(pair[0], pair[1])}
    assert inside_words == {}
    # The same page without the kept words: Chromium breaks them (the check can fail).
    bare = page.with_name("bare.html")
    bare.write_text(page.read_text(encoding="utf-8").replace('class="nobr"', ""), "utf-8")
    cut = {pair: n for pair, n in broken_pairs(bare, tmp_path)[1].items() if glued(*pair)}
    assert any(pair[0] in ")”]」%" for pair in cut), cut  # (LLM) / 의
    assert any(pair[1] in "(“[「" for pair in cut), cut  # 모델 / (LLM)
