"""A tiny Jekyll distill site built in place: posts in section_number order, figures
numbered, answers in details boxes, footnotes and citations resolved, a missing figure
named at its include line, and nothing of Liquid, distill or kramdown left for the reader."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import kobook
from kobook.api import BuildResult
from tests.checks import pdf_pages, squash
from tests.conftest import REPO

CONFIG = "title: 작은 사이트\nlang: ko-KR\nurl: https://example.org\nbaseurl: /site\n"
FRONT = "---\nlayout: distill\ntitle: {title}\nsection_number: {number}\n{extra}---\n\n"
INTRO = FRONT.format(
    title="들어가며",
    number=0,
    extra="description: 이 책의 요약입니다.\nauthors:\n  - name: 김 저자\n"
    "    affiliations:\n      name: 연구소\n",
) + (
    "<d-article>\n\n"
    "규모를 키우는 일<d-footnote>여기서 $$N$$은 칩의 수입니다.</d-footnote>은 "
    'Transformer<d-cite key="vaswani"></d-cite>로 시작합니다.\n\n'
    '{% include figure.liquid path="assets/img/dragon.png" class="img-fluid" '
    'caption="<b>Figure:</b> 용 <b>그림</b>" %}\n\n'
    "</d-article>\n"
)
ROOFLINE = FRONT.format(title="루프라인", number=1, extra="") + (
    "## 계산 시간\n\n문장 속 $$T_\\text{math}$$ 수식.\n\n"
    "$$\\begin{align*}\nT &= a \\\\[0.5em]\nU &= b\n\\end{align*}$$\n\n"
    '<p markdown=1 class="takeaway">**요점:** 배치가 커야 합니다.</p>\n\n'
    "**문제 1:** 얼마일까요?\n\n"
    "{% details 답을 보려면 클릭하세요 %}\n\n**답:** 240입니다.\n\n{% enddetails %}\n\n"
    '{% include figure.liquid path="assets/img/missing.gif" caption="없는 그림" %}\n'
)
BIB = "@article{vaswani,\n  title={Attention Is All You Need},\n  author={Vaswani, A.},\n"
BIB += "  year={2017}\n}\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BuildResult, Path]:
    """The site, built once for the module (``make_book`` is per test)."""
    base = tmp_path_factory.mktemp("distill")
    root = base / "site"
    files = {
        "metadata.yaml": "dialect: distill\n",
        "_config.yml": CONFIG,
        "index.md": INTRO,
        "roofline.md": ROOFLINE,
        "dropdown.md": "---\nlayout: page\ntitle: 메뉴\n---\n",
        "assets/bibliography/main.bib": BIB,
    }
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content, encoding="utf-8")
    (root / "assets/img").mkdir()
    shutil.copyfile(REPO / "tests" / "data" / "pixel.png", root / "assets/img/dragon.png")
    out = base / "out"
    result = kobook.build(
        root, ["pdf", "html"], out=out, cache_dir=base / "cache", keep_going=True, offline=True
    )
    return out, result, root


def test_distill_site_builds_in_place(built: tuple[Path, BuildResult, Path]) -> None:
    out, result, root = built
    notes = "\n".join(result.notes)
    assert "distill posts ordered by section_number (index.md, roofline.md)" in notes
    assert "figure ×2" in notes and "details ×1" in notes and "footnote ×1" in notes
    codes = [d.code for d in result.diagnostics if d.severity != "info"]
    assert codes == ["IMG001"], codes
    missing = next(d for d in result.diagnostics if d.code == "IMG001")
    source = (root / "roofline.md").read_text(encoding="utf-8")
    include_line = source[: source.index("missing.gif")].count("\n") + 1
    assert missing.location.file == root / "roofline.md"
    assert missing.location.line == include_line

    text = "\n".join(pdf_pages(result.outputs["pdf"]))
    flat = squash(text)
    for leftover in ("{%", "%}", "<d-", "markdown=", "$$", "Figure:"):
        assert leftover not in text, leftover
    assert squash("그림 0.1. 용 그림") in flat  # numbered, its "Figure:" label gone
    assert "김 저자" in text
    assert "Attention Is All You Need" in text  # the citation, resolved against main.bib
    assert "칩의 수입니다" in text  # the footnote
    assert "240입니다" in text  # the answer stays readable in print

    site = out / "html"
    intro = (site / "index-2.html").read_text(encoding="utf-8")
    roofline = (site / "roofline.html").read_text(encoding="utf-8")
    for page in (intro, roofline):
        visible = re.sub(
            r"<[^>]+>", "", re.sub(r"<annotation.*?</annotation>", "", page, flags=re.S)
        )
        for leftover in ("{%", "<d-", "markdown=", "$$"):
            assert leftover not in visible, leftover
    assert re.search(r"<details[^>]*>\s*<summary>\s*답을 보려면 클릭하세요\s*</summary>", roofline)
    assert 'class="abstract"' in intro and "이 책의 요약입니다" in intro
    assert "<math" in roofline and "0.5em" in roofline  # align* with its \\[0.5em]
