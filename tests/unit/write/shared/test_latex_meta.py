"""pandoc's LaTeX metadata (header-includes, documentclass, classoption) and LaTeX logs."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from kobook.errors import Location
from kobook.write.shared.latexmeta import (
    BEGIN_INCLUDES,
    class_options,
    first_error,
    ignored_latex,
    log_tail,
    preamble_includes,
    raw_latex,
    statements,
    template_packages,
)
from tests.conftest import REPO

TEMPLATE = REPO / "src/kobook/templates/latex/book.latex"
LOADED = {"geometry", "amsmath", "fontspec", "kotex", "xcolor", "graphicx", "bookmark"}


def test_string_list_and_fenced_items_become_latex() -> None:
    assert preamble_includes("\\usepackage{tikz}").latex == "\\usepackage{tikz}"
    items = ["\\usepackage{tikz}", "```{=latex}\n\\newcommand{\\kb}{KB}\n```"]
    result = preamble_includes(items, LOADED)
    assert result.latex == "\\usepackage{tikz}\n\\newcommand{\\kb}{KB}"
    assert result.diagnostics == [] and result.early == ""
    assert "```" not in preamble_includes("```{=latex}\n\\def\\x{1}\n```\n").latex


def test_fences_for_other_formats_and_inline_raw() -> None:
    text = (
        "```{=html}\n<meta name=x>\n```\n`\\usepackage{tikz}`{=latex}\n~~~{=tex}\n\\def\\y{2}\n~~~"
    )
    assert raw_latex(text) == "\\usepackage{tikz}\n\\def\\y{2}"
    assert raw_latex("```{=latex}\n\\def\\z{3}\n") == "\\def\\z{3}"  # an unclosed fence
    assert preamble_includes(None).latex == "" and preamble_includes([]).latex == ""


def test_fancyhdr_and_its_commands_are_left_out_with_a_warning() -> None:
    includes = [
        "\\usepackage{fancyhdr}",
        "\\pagestyle{fancy}",
        "\\fancyhead[L]{%\n  \\leftmark\n}",
        "\\renewcommand{\\headrulewidth}{0.4pt}",
        "\\usepackage{tikz}",
    ]
    result = preamble_includes(includes, LOADED)
    assert result.latex == "\\usepackage{tikz}"
    [warning] = result.diagnostics
    assert warning.code == "TEX004" and warning.severity == "warning"
    assert "fancyhdr" in warning.message and "scrlayer-scrpage" in warning.message
    assert "3 lines" in warning.message and "\\fancyhead" in warning.message


def test_packages_on_one_line_keep_the_others() -> None:
    result = preamble_includes("\\usepackage{amsmath,tikz, fancyhdr}", LOADED)
    assert result.latex == "\\usepackage{tikz}"
    assert {d.message.split("{")[1].split("}")[0] for d in result.diagnostics} == {
        "amsmath",
        "fancyhdr",
    }


def test_template_packages_with_options_pass_them_early() -> None:
    result = preamble_includes(["\\usepackage[table]{xcolor}", "\\usepackage{graphicx}"], LOADED)
    assert result.latex == ""
    assert result.early == "\\PassOptionsToPackage{table}{xcolor}"
    severities = {d.message.split("{")[1].split("}")[0]: d.severity for d in result.diagnostics}
    assert severities == {"xcolor": "warning", "graphicx": "info"}
    assert all("loads" in d.message for d in result.diagnostics)


def test_hyperref_options_go_to_hypersetup_and_geometry_is_dropped() -> None:
    result = preamble_includes(
        ["\\usepackage[colorlinks=false]{hyperref}", "\\usepackage[margin=1cm]{geometry}"],
        LOADED,
    )
    assert result.latex == "\\hypersetup{colorlinks=false}"
    text = " ".join(d.message for d in result.diagnostics)
    assert "papersize" in text and "hyperref" in text


def test_cjk_packages_depend_on_the_set_up() -> None:
    includes = ["\\usepackage{xeCJK}", "\\setCJKmainfont{Noto Serif CJK SC}", "\\usepackage{ctex}"]
    korean = preamble_includes(includes, LOADED, cjk="kotex")
    assert korean.latex == ""
    assert any("ko.TeX" in d.message for d in korean.diagnostics)
    chinese = preamble_includes(
        [*includes, "\\usepackage{kotex}", "\\setmainhangulfont{X}"], {"xeCJK"}, cjk="xecjk"
    )
    assert chinese.latex == "\\setCJKmainfont{Noto Serif CJK SC}"  # xeCJK is there: it works
    assert {d.message.split("{")[1].split("}")[0] for d in chinese.diagnostics} == {
        "xeCJK",
        "ctex",
        "kotex",
    }


def test_inputenc_and_comments() -> None:
    result = preamble_includes(
        "\\usepackage[utf8]{inputenc}\n% \\usepackage{fancyhdr}\n\\def\\pct{50\\%}"
    )
    assert "inputenc" not in result.latex and "\\def\\pct{50\\%}" in result.latex
    assert [d.message.count("inputenc") > 0 for d in result.diagnostics] == [True]


def test_statements_keep_multi_line_commands_together() -> None:
    assert statements("\\a{\n b\n}\n\\c") == ["\\a{\n b\n}", "\\c"]
    assert statements("\\d{50\\%}\n\\e") == ["\\d{50\\%}", "\\e"]


def test_template_packages_reads_the_builtin_template() -> None:
    names = template_packages(TEMPLATE.read_text(encoding="utf-8"))
    assert {"geometry", "fontspec", "xcolor", "tcolorbox", "hyperref"} <= names
    assert "fancyhdr" not in names


def test_classoption_is_honoured_where_it_can_be() -> None:
    settings = class_options("book", ["oneside", "openany", "a5paper", "11pt"])
    assert (settings.sides, settings.open, settings.paper, settings.fontsize) == (
        "oneside",
        "any",
        "a5",
        "11pt",
    )
    assert settings.diagnostics == []
    assert class_options(None, "twoside=false, open=any").sides == "oneside"
    default = class_options(None, None)
    assert (default.sides, default.open, default.paper) == ("twoside", "right", None)


def test_other_classes_and_options_are_named() -> None:
    where = Location(Path("metadata.yaml"), 3)
    settings = class_options("ctexbook", "oneside,UTF8,draft", language="ko", location=where)
    messages = [d.message for d in settings.diagnostics]
    assert "documentclass ctexbook is ignored" in messages[0] and "KOMA scrbook" in messages[0]
    assert settings.diagnostics[0].hint == "set lang: zh-CN in metadata.yaml"
    assert "UTF8, draft" in messages[1] and settings.sides == "oneside"
    assert (
        class_options("ctexbook", None, language="zh-Hans").diagnostics[0].hint.startswith("remove")
    )


def test_first_error_with_file_line_and_context() -> None:
    log = (
        "(./book.tex\nLaTeX2e <2023-11-01>\n"
        "./book.tex:120: Undefined control sequence.\n"
        "l.120 \\undefinedmacro\n"
        "                     {x}\n"
        "Here is how much of TeX's memory you used:\n"
    )
    error = first_error(log)
    assert error is not None
    assert error.message == "Undefined control sequence."
    assert (error.file, error.line) == ("book.tex", 120)
    assert error.context == "l.120 \\undefinedmacro {x}"


def test_first_error_bang_form_and_package_continuations() -> None:
    log = (
        "Overfull \\hbox (1.0pt too wide) in paragraph at lines 3--4\n"
        '! Package fontspec Error: The font "Nope" cannot be found; this may\n'
        "(fontspec)                be but usually is not a fontspec bug.\n"
        "\n"
        "See the fontspec package documentation for explanation.\n"
        "l.42 \\setmainfont{Nope}\n"
        "                      []\n"
    )
    error = first_error(log)
    assert error is not None
    assert error.message.startswith('Package fontspec Error: The font "Nope" cannot be found')
    assert "usually is not a fontspec bug." in error.message
    assert (error.file, error.line, error.context) == ("", 42, "l.42 \\setmainfont{Nope} []")


def test_first_error_joins_wrapped_lines_and_names_style_files() -> None:
    message = (
        "./book.tex:7: LaTeX Error: File `doesnotexist-kobook.sty' not found. Some more text here."
    )
    log = message[:79] + "\n" + message[79:] + "\n\nl.7 \\usepackage{doesnotexist-kobook}\n"
    error = first_error(log)
    assert error is not None and error.message.endswith("Some more text here.")
    sty = first_error("/usr/share/texmf/fancyhdr.sty:12: Missing number.\nl.12 \\foo\n")
    assert sty is not None and sty.file.endswith("fancyhdr.sty") and sty.line == 12


def test_no_error_line_gives_the_log_tail() -> None:
    assert first_error("This is XeTeX\nOutput written on book.xdv\n") is None
    log = (
        "Latexmk: applying rule\nxdvipdfmx:fatal: Cannot proceed without .vf or "
        '"physical" font\nNo output PDF file written.\n'
    )
    assert "xdvipdfmx:fatal" in log_tail(log)
    assert log_tail("a\nb\nc\nd\n") == "b | c | d"


def test_ignored_latex_notes_once() -> None:
    class Doc:
        blocks: ClassVar[list[dict[str, Any]]] = [
            {"t": "RawBlock", "c": ["latex", "\\clearpage"]},
            {"t": "Para", "c": [{"t": "RawInline", "c": ["tex", "\\LaTeX"]}]},
            {"t": "RawBlock", "c": ["html", "<br>"]},
        ]

    [note] = ignored_latex("\\usepackage{tikz}", [Doc()], ["HTML", "WeasyPrint PDF"])
    assert note.code == "TEX005" and note.severity == "info"
    assert "raw LaTeX (header-includes, 2 blocks or commands)" in note.message
    assert ignored_latex("\\x", [Doc()], []) == []
    assert ignored_latex(None, [], ["HTML"]) == []
    assert BEGIN_INCLUDES.startswith("%")
