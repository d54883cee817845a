"""kobook import (library): detection, metadata.yaml, idempotency, --to; check on dialect books."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from kobook import KobookError, import_repository
from kobook.check import check_files
from kobook.importer.detect import detect
from kobook.importer.metadata import (
    guess_language,
    licence_of,
    readme_translators,
    toml_translators,
)
from kobook.load import load_book
from kobook.load.config import load_config
from tests.conftest import BookMaker

DISTILL_CONFIG = "title: 사이트\nlang: ko\nurl: https://example.org\nbaseurl: /book\n"
DISTILL_POST = """---
layout: distill
title: "첫째 장"
section_number: 1
authors:
  - name: 김저자
    affiliations:
      name: 어느 연구소
  - name: 이저자
---

본문입니다.

{% include figure.liquid path="assets/img/a.png" caption="그림 설명" %}

{% details 답을 보려면 클릭하세요 %}
답입니다.
{% enddetails %}

{% unknowntag x %}
"""
SUMMARY = """# Summary

[표지](title-page.md)

- [시작하기](ch01-00.md)
    - [설치](ch01-01.md)
"""
BOOK_TOML = '[book]\ntitle = "러스트 책"\nauthors = ["Steve", "Carol"]\n'
CH01 = """# 시작하기

설치를 다룹니다.

```rust
{{#include ../listings/a.rs}}
```
"""


def markdown_book(make_book: BookMaker) -> Path:
    return make_book(
        {
            "book/01-intro.md": "# 들어가며\n\n한국어로 쓴 본문입니다. ![그림](images/a.png)\n",
            "book/02-next.md": "# 다음 장\n\n둘째 장입니다.\n\n```\n![x](images/a.png)\n```\n",
            "README.md": "# 책\n\n- 번역: 홍길동, [김철수](https://example.org)\n",
            "LICENSE": "MIT License\n\nCopyright (c) 2024\n",
        },
        images=["images/a.png"],
    )


def distill_site(make_book: BookMaker) -> Path:
    return make_book(
        {
            "_config.yml": DISTILL_CONFIG,
            "intro.md": DISTILL_POST,
            "assets/bibliography/main.bib": "@book{a, title={A}, year={2020}}\n",
            "LICENSE": "The MIT License (MIT)\n",
        },
        images=["assets/img/a.png"],
    )


def mdbook_book(make_book: BookMaker) -> Path:
    return make_book(
        {
            "book.toml": BOOK_TOML,
            "src/SUMMARY.md": SUMMARY,
            "src/title-page.md": "# 러스트 프로그래밍 언어\n\n표지입니다.\n",
            "src/ch01-00.md": CH01,
            "src/ch01-01.md": "# 설치\n\n설치 방법입니다. {% raw %}\n",
            "listings/a.rs": 'fn main() {\n    println!("hi");\n}\n',
            "LICENSE-MIT": "Permission is hereby granted, free of charge, to any person\n",
            "LICENSE-APACHE": "                              Apache License\n"
            "                        Version 2.0, January 2004\n",
            "COPYRIGHT": "This repository is licensed under ...\n",
        }
    )


# ------------------------------------------------------------------ detection


def test_detects_markdown_and_refuses_unknown(make_book: BookMaker, tmp_path: Path) -> None:
    root = markdown_book(make_book)
    found = detect(root)
    assert (found.name, found.dialect) == ("markdown", "pandoc")
    empty = tmp_path / "empty"
    (empty / "assets").mkdir(parents=True)
    (empty / "README.md").write_text("# 안내\n", "utf-8")
    with pytest.raises(KobookError) as error:
        detect(empty)
    assert error.value.diagnostic.code == "IMP002"
    for sign in ("book.toml", "_config.yml", "book/*.md"):
        assert sign in str(error.value)


def test_from_names_a_format_the_folder_lacks(make_book: BookMaker) -> None:
    root = markdown_book(make_book)
    with pytest.raises(KobookError) as error:
        detect(root, "mdbook")
    assert error.value.diagnostic.code == "IMP003"
    assert "book.toml" in str(error.value)


def test_detects_distill_and_mdbook(make_book: BookMaker, tmp_path: Path) -> None:
    site = distill_site(make_book)
    assert detect(site).dialect == "distill"
    os.rename(site, tmp_path / "site")  # make_book writes one folder: start a new one
    assert detect(mdbook_book(make_book)).dialect == "mdbook"


def test_bad_source_is_imp001(tmp_path: Path) -> None:
    with pytest.raises(KobookError) as error:
        import_repository(tmp_path / "missing")
    assert error.value.diagnostic.code == "IMP001"
    file = tmp_path / "a.md"
    file.write_text("# x\n", "utf-8")
    with pytest.raises(KobookError) as error:
        import_repository(file)
    assert error.value.diagnostic.code == "IMP001"
    assert "not a folder" in str(error.value)


# ------------------------------------------------------------------ metadata


def test_markdown_metadata_loads_validates_and_lists_chapters(make_book: BookMaker) -> None:
    root = markdown_book(make_book)
    result = import_repository(root)
    assert result.status == "written"
    config = load_config(root / "metadata.yaml")  # kobook's own loader validates it
    assert config.get("dialect") == "pandoc"
    assert config.get("chapters") == ["book/01-intro.md", "book/02-next.md"]
    assert config.translators == ["홍길동", "김철수"]
    assert config.get("lang") == "ko"
    assert config.original["licence"] == "MIT"
    text = (root / "metadata.yaml").read_text("utf-8")
    assert "# lang:" in text and "guessed from the text" in text
    assert result.chapters == ["들어가며", "다음 장"]


def test_no_translators_leaves_a_commented_line(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 장\n\n본문.\n"})
    import_repository(root)
    text = (root / "metadata.yaml").read_text("utf-8")
    assert "# translators: [" in text
    assert "translators" not in (yaml.safe_load(text) or {})


def test_readers_of_the_repository(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("intro\n\n**Translated by:** Ann Lee and Bo Kim\n", "utf-8")
    assert readme_translators(tmp_path) == ["Ann Lee", "Bo Kim"]
    (tmp_path / "book.toml").write_text('[book]\ntranslators = ["김번역"]\n', "utf-8")
    assert toml_translators(tmp_path) == ["김번역"]
    (tmp_path / "LICENSE-MIT").write_text("Permission is hereby granted, free of charge\n")
    (tmp_path / "LICENSE-APACHE").write_text("Apache License\n Version 2.0, January 2004\n")
    assert licence_of(tmp_path) == "Apache-2.0 OR MIT"
    (tmp_path / "LICENSE-APACHE").unlink()
    (tmp_path / "LICENSE-MIT").write_text("Some Custom Licence v1\n\nterms\n")
    assert licence_of(tmp_path) == "Some Custom Licence v1"


def test_language_guess_follows_the_prose_not_the_code(tmp_path: Path) -> None:
    korean = tmp_path / "ko.md"
    code = "```\n" + "let english_words = in_code_blocks_only();\n" * 50 + "```\n"
    korean.write_text(f"# 제목\n\n한국어 문단입니다. 꽤 깁니다.\n\n{code}\nA short one.\n", "utf-8")
    assert guess_language([korean]) == "ko"
    english = tmp_path / "en.md"
    prose = "An English paragraph, quite a long one, as an original has. " * 5
    english.write_text(f"# Title\n\n{prose}\n\n한글\n", "utf-8")
    assert guess_language([english]) == "en"
    # A translation in progress: its first chapter Korean, the rest still English.
    started = tmp_path / "started.md"
    started.write_text("# 제목\n\n" + "번역을 시작한 첫 장의 문단입니다. " * 10 + "\n", "utf-8")
    assert guess_language([started, *[english] * 8]) == "ko"


# ------------------------------------------------------------------ idempotency


def test_second_import_changes_nothing(make_book: BookMaker) -> None:
    root = markdown_book(make_book)
    import_repository(root)
    path = root / "metadata.yaml"
    before = path.read_bytes(), path.stat().st_mtime_ns
    again = import_repository(root)
    assert again.status == "up to date"
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def test_hand_edited_metadata_is_refused_then_forced(make_book: BookMaker) -> None:
    root = markdown_book(make_book)
    import_repository(root)
    path = root / "metadata.yaml"
    edited = path.read_text("utf-8") + "papersize: a5\n"
    path.write_text(edited, "utf-8")
    with pytest.raises(KobookError) as error:
        import_repository(root)
    assert error.value.diagnostic.code == "IMP004"
    assert "--force" in error.value.diagnostic.hint
    assert path.read_text("utf-8") == edited
    forced = import_repository(root, force=True)
    assert forced.status == "overwritten"
    assert "papersize" not in path.read_text("utf-8")


# ------------------------------------------------------------------ --to


def test_to_writes_a_plain_project_with_its_images(make_book: BookMaker, tmp_path: Path) -> None:
    root = markdown_book(make_book)
    out = tmp_path / "converted"
    result = import_repository(root, to=out)
    assert not (root / "metadata.yaml").exists()  # the source is only read
    config = load_config(out / "metadata.yaml")
    assert config.get("dialect") == "pandoc"
    assert config.get("chapters") == ["book/01-intro.md", "book/02-next.md"]
    first = (out / "book/01-intro.md").read_text("utf-8")
    assert "![그림](images/a.png)" in first and (out / "images/a.png").is_file()
    # A reference shown in a code block is text, not a file to copy or rewrite.
    assert "![x](images/a.png)" in (out / "book/02-next.md").read_text("utf-8")
    assert result.written is not None and result.written.assets == ["images/a.png"]
    book = load_book(out)
    assert [c.title for c in book.chapters] == result.chapters


def test_to_refuses_overlap_and_a_full_folder(make_book: BookMaker, tmp_path: Path) -> None:
    root = markdown_book(make_book)
    with pytest.raises(KobookError) as error:
        import_repository(root, to=root / "out")
    assert error.value.diagnostic.code == "IMP006"
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine", "utf-8")
    with pytest.raises(KobookError) as error:
        import_repository(root, to=full)
    assert error.value.diagnostic.code == "IMP005"
    import_repository(root, to=full, force=True)
    assert (full / "keep.txt").read_text("utf-8") == "mine"
    assert (full / "metadata.yaml").is_file()


def test_to_splits_one_big_file_into_chapter_files(make_book: BookMaker, tmp_path: Path) -> None:
    big = (
        "# 책 제목\n\n머리말입니다.\n\n## 첫 장\n\n본문.\n\n### 절\n\n글.\n\n## 둘째 장\n\n본문.\n"
    )
    root = make_book({"book.md": big})
    out = tmp_path / "split"
    result = import_repository(root, to=out)
    first = (out / "book" / "01-preface.md").read_text("utf-8")
    assert first.startswith("# ") and "{-}" in first.split("\n")[0]
    second = (out / "book" / "02-ch01.md").read_text("utf-8")
    assert second.startswith("# 첫 장\n") and "\n## 절\n" in second
    assert [c.title for c in load_book(out).chapters] == result.chapters


# ------------------------------------------------------------------ dialect books


def test_distill_import_metadata(make_book: BookMaker) -> None:
    root = distill_site(make_book)
    result = import_repository(root)
    config = load_config(root / "metadata.yaml")
    assert config.get("dialect") == "distill"
    assert config.get("lang") == "ko"
    assert config.original["url"] == "https://example.org/book"
    assert config.original["licence"] == "MIT"
    text = (root / "metadata.yaml").read_text("utf-8")
    assert "# chapters: " in text and "\nchapters:" not in text
    assert result.report.converted  # the figure and the details block at least
    assert any(d.location.line for d in result.report.problems)


def test_mdbook_import_metadata_and_report(make_book: BookMaker) -> None:
    root = mdbook_book(make_book)
    result = import_repository(root)
    config = load_config(root / "metadata.yaml")
    assert config.get("dialect") == "mdbook"
    assert config.title == "러스트 책"
    assert config.authors == ["Steve", "Carol"]
    assert config.get("lang") == "ko"  # book.toml names none: guessed from the Hangul
    assert config.original["licence"] == "Apache-2.0 OR MIT"
    text = (root / "metadata.yaml").read_text("utf-8")
    assert "SUMMARY.md" in text and "\nchapters:" not in text
    assert sum(result.report.converted.values()) >= 1  # the {{#include}}


def test_check_on_mdbook_reports_real_leaks_only(make_book: BookMaker) -> None:
    root = mdbook_book(make_book)
    import_repository(root)
    findings = {
        (report.path.name, d.location.line, d.message)
        for report in check_files(root)
        for d in report.diagnostics()
        if d.code == "LEAK001"
    }
    # The {{#include}} is the dialect's own; the stray Liquid tag in an mdBook book is a leak.
    assert not any(name == "ch01-00.md" for name, _line, _m in findings), findings
    assert any(name == "ch01-01.md" and line == 3 for name, line, _m in findings), findings


def test_check_on_distill_reports_real_leaks_only(make_book: BookMaker) -> None:
    root = distill_site(make_book)
    (root / "intro.md").write_text(DISTILL_POST + "\n{{#include x.md}}\n", "utf-8")
    import_repository(root, force=True)
    leaks = [
        d
        for report in check_files(root)
        for d in report.diagnostics()
        if d.code == "LEAK001" and report.path.name == "intro.md"
    ]
    lines = {d.location.line for d in leaks}
    figure_line = DISTILL_POST.split("\n").index(
        '{% include figure.liquid path="assets/img/a.png" caption="그림 설명" %}'
    )
    details_line = DISTILL_POST.split("\n").index("{% details 답을 보려면 클릭하세요 %}")
    assert figure_line + 1 not in lines and details_line + 1 not in lines
    assert any("{{#include" in d.message for d in leaks)  # mdBook syntax in a distill site


def test_check_fix_leaves_dialect_syntax_alone(make_book: BookMaker) -> None:
    source = (
        '# 장\n\n본문 "인용"...\n\n'
        '{% include figure.liquid path="a.png"\n   caption="여러 줄 "캡션"..." %}\n\n'
        '{% details 답을 "보려면"... %}\n내용.\n{% enddetails %}\n\n'
        '{{#include ../x.rs:anchor "y"...}}\n\n'
        '<d-cite key="a,b"></d-cite> <d-footnote>각주 "인용"</d-footnote>\n\n'
        '<Listing number="1-1" file-name="src/main.rs" caption="Hello "world"...">\n'
    )
    root = make_book({"book/01.md": source})
    check_files(root, fix=True, write=True)
    fixed = (root / "book/01.md").read_text("utf-8")
    assert "본문 “인용”…" in fixed  # the prose is fixed ...
    for kept in (  # ... the dialects' syntax is not
        '{% include figure.liquid path="a.png"\n   caption="여러 줄 "캡션"..." %}',
        '{% details 답을 "보려면"... %}',
        '{{#include ../x.rs:anchor "y"...}}',
        '<d-cite key="a,b">',
        '<Listing number="1-1" file-name="src/main.rs" caption="Hello "world"...">',
    ):
        assert kept in fixed


def test_hash_lines_in_a_comment_do_not_split_a_chapter(
    make_book: BookMaker, tmp_path: Path
) -> None:
    text = (
        "# 장\n\n본문.\n\n<!-- manual-regeneration\ncargo run\n# copy the output here\n-->\n\n끝.\n"
    )
    root = make_book({"book/01-one.md": text, "book/02-two.md": "# 둘\n\n본문.\n"})
    out = tmp_path / "plain"
    import_repository(root, to=out)
    assert [c.title for c in load_book(out).chapters] == ["장", "둘"]
