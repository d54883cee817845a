"""The registry of writers (``write/registry.py``): what api, the CLI, doctor and metadata read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
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


def test_pdf_engines_default_first(tmp_path: Path) -> None:
    engines = registry.pdf_engines()
    assert engines[0] == "typst"
    assert sorted(engines) == ["typst", "weasyprint", "xelatex"]
    assert registry.engine_for(Config(raw={}), tmp_path) == "typst"  # no engine: in metadata
    build = cli.main.commands["build"]
    [engine] = [p for p in build.params if p.name == "engine"]
    assert list(getattr(engine.type, "choices", [])) == engines


@pytest.mark.parametrize(
    ("files", "engine"),
    [
        ({}, "typst"),
        ({"templates/pdf/extra.css.j2": "h1 { color: red }"}, "weasyprint"),
        ({"templates/latex/book.latex": "$body$"}, "xelatex"),
        ({"templates/typst/book.typ": "#body"}, "typst"),
        ({"templates/html/extra.css": "a {}"}, "typst"),  # the site's style chooses no engine
        ({"templates/pdf/.keep": ""}, "typst"),  # an empty folder kept in git styles nothing
        ({"templates/pdf/x.css.j2": "", "templates/latex/book.latex": ""}, "weasyprint"),
    ],
)
def test_a_book_that_styles_an_engine_is_built_by_it(
    tmp_path: Path, files: dict[str, str], engine: str
) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert registry.engine_for(Config(raw={}), tmp_path) == engine
    # What the book names wins over its templates.
    assert registry.engine_for(Config(raw={"engine": "typst"}), tmp_path) == "typst"


def test_the_registry_names_each_writers_template_folder() -> None:
    """The folder that chooses an engine is the one its writer reads templates from."""
    from kobook.write.epub import writer as epub
    from kobook.write.html import writer as html
    from kobook.write.latex import places as latex
    from kobook.write.typst import passes as typst
    from kobook.write.weasyprint import writer as weasyprint

    folders = {w.name: w.templates for w in registry.writers()}
    assert folders == {
        "typst": typst.TEMPLATES,
        "weasyprint": weasyprint.TEMPLATES,
        "xelatex": latex.TEMPLATES,
        "html": html.TEMPLATES,
        "epub": epub.TEMPLATES,
    }


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
    assert "--engine typst or --engine weasyprint or --engine xelatex" in str(info.value)


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
    assert "typst (default)" in line and "html" in line
    assert "weasyprint (a book with templates/pdf/)" in line
    assert "xelatex (a book with templates/latex/)" in line


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
    assert "'nope'" in str(info.value) and "typst, weasyprint, xelatex" in str(info.value)
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
