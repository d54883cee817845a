"""Repositories laid out the way other tools lay them out build as they are (front matter,
pandoc-fenced metadata, chapter discovery), and the build says what it chose."""

from __future__ import annotations

from tests.checks import pdf_pages
from tests.conftest import BookMaker
from tests.e2e.test_cli import kobook

POST = """---
layout: distill
title: "{title}"
description: "{title} in one line"
# Add a table of contents to your post.
#   - make sure that TOC names match the actual section names
toc:
  - name: {section}
authors:
  - name: Jacob Austin
    affiliations:
      name: Google DeepMind
---

첫 문단은 {title}에 관한 글이다.

## {section}

본문의 둘째 문단이다.
"""


def test_jekyll_posts_build_one_chapter_each_without_front_matter_text(
    make_book: BookMaker,
) -> None:
    root = make_book(
        {
            "roofline.md": POST.format(title="루프라인", section="시간은 어디에"),
            "tpus.md": POST.format(title="TPU", section="TPU란"),
            "README.md": "# 이 저장소는\n\n책이 아니다.\n",
            "README_en.md": "# About this repository\n",
        }
    )
    result = kobook("build", "pdf", "html", "--project", str(root))
    assert result.returncode == 0, result.stderr
    assert "chapters: the Markdown files at the top of the project" in result.stderr
    assert "roofline.md, tpus.md" in result.stderr
    text = "\n".join(pdf_pages(root / "dist" / "book.pdf"))
    for leaked in ("layout", "distill", "Add a table", "Jacob Austin", "이 저장소는", "About this"):
        assert leaked not in text
    assert "1장" in text and "2장" in text and "3장" not in text
    assert "루프라인" in text and "시간은 어디에" in text
    pages = sorted(p.name for p in (root / "dist" / "html").glob("*.html"))
    assert pages == ["index.html", "roofline.html", "tpus.html"]


def test_pandoc_fenced_metadata_and_a_one_file_book(make_book: BookMaker) -> None:
    root = make_book(
        {
            "metadata.yaml": "---\ntitle: 펜스 안의 책\nlang: ko-KR\ntoc: true\n...\n",
            "book.md": "# 책\n\n## 첫째\n\n글.\n\n## 둘째\n\n글.\n",
        }
    )
    result = kobook("build", "pdf", "--project", str(root))
    assert result.returncode == 0, result.stderr
    text = "\n".join(pdf_pages(root / "dist" / "book.pdf"))
    assert "펜스 안의 책" in text and "2장" in text
