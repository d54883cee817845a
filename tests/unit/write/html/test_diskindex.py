"""write/html/diskindex.py: the search index a site opened from disk reads."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from kobook.write.html.diskindex import bucket, page_sections, script, shard_key, words
from tests.conftest import REPO

PAGE = """<html><body><nav>차례 모델</nav>
<article class="chapter" data-pagefind-body>
<h1 id="ch">1장 모델</h1><p>모델을 고른다 <a class="anchor" href="#ch">#</a></p>
<h2 id="sec:a">1.1 All-Reduce<a class="anchor" href="#sec:a">#</a></h2>
<p>그래디언트는 All-Reduce로 모은다.<br>끝<annotation>\\frac{a}{b}</annotation></p>
<p class="footnote-back"><a href="#x">↩︎</a></p>
</article><footer>바닥</footer></body></html>"""


def test_a_page_is_cut_at_its_headings_without_what_nobody_searches() -> None:
    found = [(s.anchor, s.title, " ".join("".join(s.text).split())) for s in page_sections(PAGE)]
    assert found == [
        ("ch", "1장 모델", "1장 모델 모델을 고른다"),
        ("sec:a", "1.1 All-Reduce", "1.1 All-Reduce 그래디언트는 All-Reduce로 모은다. 끝"),
    ]


def test_words_are_cut_as_the_query_is() -> None:
    assert words("All-Reduce로 ZeRO-3는 모은다") == [
        "all-reduce로",
        "all",
        "reduce로",
        "zero-3는",
        "zero",
        "3는",
        "모은다",
    ]
    assert [shard_key(w) for w in ("all", "모은다", "3는")] == ["al", "모", "3는"[:2]]


def test_the_page_script_finds_the_same_shard_as_python() -> None:
    """book.js hashes a key to its shard file as bucket() does: run its function in Node."""
    node = shutil.which("node")
    assert node, "scripts/install-system-deps.sh --dev installs Node.js"
    source = (REPO / "src/kobook/templates/html/book.js").read_text(encoding="utf-8")
    body = re.search(r"var bucket = function \(key\) \{(.*?)\n      \};", source, re.S)
    assert body is not None
    keys = ["al", "모", "값", "zz", "𝑥", "é", "中"]
    program = (
        "var data = {index: {buckets: 37}};"
        f"var bucket = function (key) {{{body.group(1)}}};"
        f"console.log(JSON.stringify({json.dumps(keys)}.map(bucket)));"
    )
    done = subprocess.run([node, "-e", program], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [bucket(k, 37) for k in keys]


def test_a_script_cannot_close_its_tag_or_break_its_line(tmp_path: Path) -> None:
    text = script("text", 3, "</script><script>alert(1)</script>\u2028&")
    assert "<" not in text and ">" not in text and "\u2028" not in text
    assert text.startswith("kobookSearch.text(3,") and text.endswith(");\n")
    value = json.loads(text[len("kobookSearch.text(3,") : -3])
    assert value == "</script><script>alert(1)</script>\u2028&"
