"""``check --fix`` keeps every heading's address (issue 34): a fix in a heading's text keeps
the identifier links use, in the same file, from another chapter and in the HTML site."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

import kobook
from kobook.check import check_files
from tests.checks import html_problems
from tests.conftest import REPO, BookMaker, sample_copy

HEADINGS = {
    "KO001": unicodedata.normalize("NFD", "스크린샷 보기"),
    "KO003": "메모리\u00a0사용량",
    "KO004": "ＧＰＵ 메모리",
    "KO007": '"한글" 표기',
    "KO009": "H100는 빠르다",
    "KO012": "데이터 병렬 처리 개요",
}


def section_ids(site: Path) -> set[str]:
    """Every page#id of the site's section headings (their addresses)."""
    found = set()
    for page in site.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        found |= {f"{page.name}#{i}" for i in re.findall(r'<h[1-4][^>]*\sid="([^"]+)"', html)}
    return found


@pytest.mark.parametrize("rule", sorted(HEADINGS))
def test_a_fixed_heading_keeps_its_address(make_book: BookMaker, rule: str) -> None:
    heading = HEADINGS[rule]
    root = make_book(
        {
            "book/01.md": f"# 첫 장\n\n## {heading}\n\n본문이다.\n",
            "book/02.md": "# 둘째 장\n\n본문이다.\n",
            "glossary.yaml": (
                "data parallelism:\n  ko: 데이터 병렬화\n  variants: [데이터 병렬 처리]\n"
            ),
        },
        metadata={"title": "책"},
    )
    before = kobook.build(root, ["html"], out=root / "before")
    page = before.outputs["html"].parent / "01.html"
    ident = re.findall(r'<h2[^>]*\sid="([^"]+)"', page.read_text(encoding="utf-8"))[0]
    (root / "book" / "01.md").write_text(
        f"# 첫 장\n\n## {heading}\n\n본문이다. [앞 절](#{ident})\n", encoding="utf-8"
    )
    (root / "book" / "02.md").write_text(
        f"# 둘째 장\n\n[첫 장의 절](01.md#{ident})을 보라.\n", encoding="utf-8"
    )
    [report, *_] = check_files(root, [root / "book" / "01.md"], fix=True, write=True)
    fixed = (root / "book" / "01.md").read_text(encoding="utf-8")
    assert fixed != f"# 첫 장\n\n## {heading}\n\n본문이다. [앞 절](#{ident})\n", rule
    assert not [f for f in report.findings if f.rule == "CHK004"], report.findings
    after = kobook.build(root, ["html"], out=root / "after")
    site = after.outputs["html"].parent
    assert html_problems(site) == []
    assert f"01.html#{ident}" in section_ids(site)


@pytest.mark.slow
def test_the_sample_serves_every_section_at_its_address_after_fix(tmp_path: Path) -> None:
    project = sample_copy(tmp_path)
    for chapter in sorted((project / "book").glob("*.md"))[:2]:
        text = chapter.read_text(encoding="utf-8")
        # a fixable problem in every section heading of two chapters
        marked = re.sub(r"^(##+ [^{\n]*?)(\s*\{[^}\n]*\})?$", r"\1 ＧＰＵ을\2", text, flags=re.M)
        chapter.write_text(marked, "utf-8")
    before = kobook.build(project, ["html"], out=tmp_path / "before", cache_dir=tmp_path / "c")
    check_files(project, fix=True, write=True)
    assert "ＧＰＵ을" not in (sorted((project / "book").glob("*.md"))[0]).read_text("utf-8")
    after = kobook.build(project, ["html"], out=tmp_path / "after", cache_dir=tmp_path / "c")
    old = section_ids(before.outputs["html"].parent)
    assert old <= section_ids(after.outputs["html"].parent)
    assert html_problems(after.outputs["html"].parent) == []
    assert REPO.is_dir()
