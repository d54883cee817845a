"""The registry of writers (``write/registry.py``): what api, the CLI, doctor and metadata read."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from click.testing import CliRunner

from kobook import cli
from kobook.doctor import engines_line
from kobook.errors import KobookError
from kobook.load import load_config
from kobook.model import Config
from kobook.write import registry
from tests.conftest import BookMaker


def test_every_engine_and_the_html_and_epub_writers_are_registered() -> None:
    outputs = {writer.name: writer.output for writer in registry.writers()}
    assert outputs == {
        "weasyprint": "pdf",
        "xelatex": "pdf",
        "typst": "pdf",
        "html": "html",
        "epub": "epub",
    }
    for writer in registry.writers():
        assert writer.summary and "\n" not in writer.summary
        assert registry.get(writer.name) is writer


def test_pdf_engines_default_first() -> None:
    engines = registry.pdf_engines()
    assert engines[0] == "weasyprint"
    assert sorted(engines) == ["typst", "weasyprint", "xelatex"]
    assert registry.engine_for(Config(raw={})) == "weasyprint"  # no engine: in metadata
    build = cli.main.commands["build"]
    [engine] = [p for p in build.params if p.name == "engine"]
    assert list(getattr(engine.type, "choices", [])) == engines


def test_unknown_name_is_a_clear_error() -> None:
    with pytest.raises(KobookError) as info:
        registry.get("nope")
    text = str(info.value)
    assert info.value.code == "CFG005"
    assert "nope" in text
    for name in ("weasyprint", "xelatex", "typst", "html", "epub"):
        assert name in text
    with pytest.raises(KobookError) as info:
        registry.get("html", output="pdf")  # a writer, but not a PDF engine
    assert "--engine weasyprint or --engine xelatex or --engine typst" in str(info.value)


def test_listing_the_writers_imports_none() -> None:
    code = (
        "import sys, kobook.cli, kobook.doctor, kobook.load.config, kobook.model\n"
        "import kobook.write.registry\n"
        "loaded = [m for m in sys.modules if m.startswith('weasyprint')"
        " or m == 'typst'"
        " or m.split('.')[:3] in (['kobook', 'write', 'html'], ['kobook', 'write', 'latex'],"
        " ['kobook', 'write', 'typst'])]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_doctor_lists_the_engines() -> None:
    line = engines_line()
    assert "weasyprint (default)" in line and "xelatex" in line and "html" in line
    assert "typst" in line


def test_cli_unknown_engine_is_a_message(make_book: BookMaker) -> None:
    root = make_book({"book/01.md": "# 장\n\n본문\n"}, metadata={"title": "책"})
    result = CliRunner().invoke(cli.main, ["build", "--engine", "nope", "--project", str(root)])
    assert result.exit_code != 0
    assert "nope" in result.output and "weasyprint" in result.output
    assert "xelatex" in result.output and "typst" in result.output
    assert "Traceback" not in result.output
    assert not (root / "dist").exists()


def test_metadata_unknown_engine_is_a_clear_error(
    make_book: BookMaker, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    root = make_book({"book/01.md": "# 장\n\n본문\n"}, metadata={"title": "책", "engine": "nope"})
    with pytest.raises(KobookError) as info:
        load_config(root / "metadata.yaml")
    assert info.value.code == "CFG005"
    assert info.value.diagnostic.location.line > 0
    assert "'nope'" in str(info.value) and "weasyprint, xelatex, typst" in str(info.value)
    # What the user sees from ``kobook build``: one message, exit 1, no traceback.
    monkeypatch.setattr(sys, "argv", ["kobook", "build", "-q", "--project", str(root)])
    with pytest.raises(SystemExit) as exit_info:
        cli.run()
    assert exit_info.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
    assert "CFG005" in err and "nope" in err
    assert not (root / "dist").exists()


def test_the_formats_are_the_registrys_outputs() -> None:
    """``formats:``, ``kobook build FORMAT`` and ``all`` read one list: the writers'."""
    from kobook.api import expand_formats
    from kobook.load.config import validate

    assert registry.formats() == ("pdf", "html", "epub")
    assert expand_formats(["all"]) == list(registry.formats())
    validate({"formats": ["epub", "all"]}, None)
    with pytest.raises(KobookError) as info:
        validate({"formats": ["docx"]}, None)
    assert info.value.code.startswith("CFG")
    choices = cli.main.commands["build"].params[0].type.choices  # type: ignore[attr-defined]
    assert list(choices) == [*registry.formats(), "all"]
