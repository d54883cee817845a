"""LEAK001/LEAK002 as a user meets them: the build summary, --strict, both PDF engines, check."""

from __future__ import annotations

from pathlib import Path

import pytest

import kobook
from kobook.errors import KobookError
from kobook.write import registry
from tests.conftest import BookMaker
from tests.e2e.test_cli import kobook as kobook_cli

LIQUID = """# 첫 장

한국어로 쓴 문단이 먼저 나온다.

{% include figure.liquid path="images/pixel.png" caption="A plot" %}

본문<d-footnote>각주로 보일 내용.</d-footnote>이 이어진다.
"""
IFRAME = """# 그림 장

한국어로 쓴 문단이 먼저 나온다.

<iframe src="plot.html" width="100%" height="400"></iframe>

<span class="keep">보이는 글</span>과 <sup>1</sup>은 그대로다.
"""


@pytest.fixture
def liquid(make_book: BookMaker) -> Path:
    return make_book({"book/01-liquid.md": LIQUID}, metadata={"title": "책"})


@pytest.fixture
def iframe(make_book: BookMaker) -> Path:
    return make_book({"book/01-iframe.md": IFRAME}, metadata={"title": "책"})


def test_build_summary_counts_leaks(liquid: Path, tmp_path: Path) -> None:
    result = kobook_cli(
        "build", "html", "--project", str(liquid), "--out", str(tmp_path / "out"), "-q"
    )
    assert result.returncode == 0, result.stderr
    assert "01-liquid.md:5:1: LEAK001 Liquid tag {% include … %}" in result.stderr
    assert "01-liquid.md:7:3: LEAK001 distill element <d-footnote>" in result.stderr
    assert "2 warning(s): LEAK001 ×2" in result.stderr


def test_strict_fails_on_leak001_and_writes_nothing(liquid: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(KobookError) as caught:
        kobook.build(liquid, ["html", "pdf"], strict=True, out=out, cache_dir=tmp_path / "c")
    assert caught.value.code == "LEAK003"
    assert [d.code for d in caught.value.diagnostics] == ["LEAK001", "LEAK001"]
    assert caught.value.location.line == 5
    assert not out.exists()
    cli = kobook_cli("build", "html", "--strict", "--project", str(liquid), "--out", str(out))
    assert cli.returncode == 1 and "LEAK003" in cli.stderr and "LEAK001" in cli.stderr


@pytest.mark.parametrize("engine", registry.pdf_engines())
def test_iframe_is_leak002_for_every_engine(iframe: Path, tmp_path: Path, engine: str) -> None:
    result = kobook.build(
        iframe, ["pdf"], engine=engine, out=tmp_path / "out", cache_dir=tmp_path / "c"
    )
    assert result.outputs["pdf"].is_file()
    leaks = [d for d in result.diagnostics if d.code.startswith("LEAK")]
    assert [(d.code, d.location.line, d.location.col) for d in leaks] == [("LEAK002", 5, 1)]
    assert "<iframe>" in leaks[0].message and leaks[0].severity == "warning"
    assert "span" not in leaks[0].message and "sup" not in leaks[0].message
    with pytest.raises(KobookError) as caught:
        kobook.build(
            iframe,
            ["pdf"],
            engine=engine,
            strict=True,
            out=tmp_path / "strict",
            cache_dir=tmp_path / "c",
        )
    assert caught.value.code == "LEAK003"
    assert [d.code for d in caught.value.diagnostics] == ["LEAK002"]
    assert not (tmp_path / "strict").exists()


def test_leak002_is_only_for_the_pdf(iframe: Path, tmp_path: Path) -> None:
    result = kobook.build(
        iframe, ["html"], strict=True, out=tmp_path / "out", cache_dir=tmp_path / "c"
    )
    assert result.outputs["html"].is_file()
    assert not [d for d in result.diagnostics if d.code.startswith("LEAK")]


def test_check_reports_leak001_with_file_and_line(liquid: Path) -> None:
    result = kobook_cli("check", "--project", str(liquid), "--select", "LEAK001", cwd=liquid)
    assert result.returncode == 1, result.stderr
    rows = result.stdout.splitlines()
    assert rows[0].startswith("book/01-liquid.md:5:1: warning LEAK001 Liquid tag {% include … %}")
    assert rows[1].startswith("book/01-liquid.md:7:3: warning LEAK001 distill element <d-footnote>")
    assert "LEAK001 ×2" in result.stderr
