"""Code highlighting: one palette for every writer, readable in light and dark.

pandoc's ``pygments`` style puts comments at 2.7:1 on a light panel, and the site's
dark theme kept those light-page colours on a dark panel (``self`` at 1.1:1).  Here
each token class has a light and a dark colour, each at least 4.5:1 (WCAG AA)
against the code panel it is drawn on (:data:`PANEL`, which the site's stylesheet
uses too), kept close to pygments' hues in light and to KDE's Breeze Dark in dark.
The light colours go to pandoc as a theme file (HTML, EPUB, the PDF engines that
read pandoc's highlighting); the dark ones are CSS over the same classes.
"""

from __future__ import annotations

import atexit
import functools
import json
import shutil
import tempfile
from pathlib import Path
from typing import NamedTuple

# The code panel's background in each theme (style.css ``--panel``; EPUB's ``pre``).
PANEL = {"light": "#f5f6f8", "dark": "#1f2329", "epub": "#f6f6f6"}
AA = 4.5


class Style(NamedTuple):
    """One token class: pandoc's CSS class, its light and dark colours, its weight."""

    css: str
    light: str
    dark: str
    bold: bool
    italic: bool


# pandoc's token types (skylighting), each with its CSS class.
TOKENS: dict[str, Style] = {
    "Alert": Style("al", "#db0000", "#95da4c", True, False),
    "Annotation": Style("an", "#3f727f", "#4e9f6d", True, True),
    "Attribute": Style("at", "#617020", "#3896d3", False, False),
    "BaseN": Style("bn", "#307854", "#f67400", False, False),
    "BuiltIn": Style("bu", "#007b00", "#849192", False, False),
    "Char": Style("ch", "#4070a0", "#3daee9", False, False),
    "Comment": Style("co", "#3f727f", "#8f9091", False, True),
    "CommentVar": Style("cv", "#3f727f", "#849192", True, True),
    "Constant": Style("cn", "#880000", "#27aeae", False, False),
    "ControlFlow": Style("cf", "#007020", "#fdbc4b", True, False),
    "DataType": Style("dt", "#902000", "#3896d3", False, False),
    "DecVal": Style("dv", "#307854", "#f67400", False, False),
    "Documentation": Style("do", "#ba2121", "#d4747f", False, True),
    "Error": Style("er", "#db0000", "#e26a76", True, False),
    "Extension": Style("ex", "#1b1b1b", "#0099ff", False, False),
    "Float": Style("fl", "#307854", "#f67400", False, False),
    "Function": Style("fu", "#06287e", "#b278ca", False, False),
    "Import": Style("im", "#007b00", "#27ae60", True, False),
    "Information": Style("in", "#3f727f", "#e86c00", True, True),
    "Keyword": Style("kw", "#007020", "#cfcfc2", True, False),
    "Operator": Style("op", "#666666", "#cfcfc2", False, False),
    "Other": Style("ot", "#007020", "#27ae60", False, False),
    "Preprocessor": Style("pp", "#936000", "#27ae60", False, False),
    "SpecialChar": Style("sc", "#4070a0", "#3daee9", False, False),
    "SpecialString": Style("ss", "#ac4c73", "#e26a76", False, False),
    "String": Style("st", "#4070a0", "#f55959", False, False),
    "Variable": Style("va", "#19177c", "#27aeae", False, False),
    "VerbatimString": Style("vs", "#4070a0", "#e26a76", False, False),
    "Warning": Style("wa", "#3f727f", "#e26a76", True, True),
}


def luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    value = colour.lstrip("#")
    channels = [int(value[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def theme() -> dict[str, object]:
    """The light palette as a pandoc highlighting theme."""
    return {
        "text-color": None,
        "background-color": None,
        "line-number-color": "#6a6f75",
        "line-number-background-color": None,
        "text-styles": {
            name: {
                "text-color": style.light,
                "background-color": None,
                "bold": style.bold,
                "italic": style.italic,
                "underline": False,
            }
            for name, style in TOKENS.items()
        },
    }


@functools.cache
def theme_file() -> Path:
    """The theme, written once per process into a private temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="kobook-highlight-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "kobook.theme"
    path.write_text(json.dumps(theme(), indent=1), encoding="utf-8")
    return path


def highlight_option() -> str:
    """pandoc's option that highlights with kobook's palette."""
    return f"--syntax-highlighting={theme_file()}"


def dark_css() -> str:
    """The dark colours over pandoc's classes: under the site's ``data-theme="dark"``
    and, unless the reader chose light, the system's dark setting."""
    rules = "\n".join(f"  code span.{s.css} {{ color: {s.dark}; }}" for s in TOKENS.values())
    chosen = rules.replace("  code span.", '  :root[data-theme="dark"] code span.')
    system = rules.replace("  code span.", '  :root:not([data-theme="light"]) code span.')
    return (
        "/* kobook: code colours on the dark panel (write/shared/highlight.py) */\n"
        f"{chosen}\n@media (prefers-color-scheme: dark) {{\n{system}\n}}\n"
    )


# TextMate scopes for each token class: Typst highlights code itself (pandoc's
# ``idiomatic`` highlighting) with a ``.tmTheme``; the same palette, by these scopes.
SCOPES: dict[str, str] = {
    "Comment": "comment",
    "Documentation": "comment.block.documentation, string.quoted.docstring",
    "Keyword": "keyword, storage.modifier",
    "ControlFlow": "keyword.control",
    "Import": "keyword.control.import, keyword.other.import, meta.import",
    "Operator": "keyword.operator, punctuation.accessor",
    "DataType": "storage.type, support.type, entity.name.type, support.class",
    "DecVal": "constant.numeric",
    "Char": "constant.character",
    "SpecialChar": "constant.character.escape",
    "String": "string",
    "SpecialString": "string.regexp, string.interpolated",
    "Constant": "constant.language, constant.other, support.constant",
    "Function": "entity.name.function, support.function, meta.function-call",
    "BuiltIn": "support.function.builtin, variable.language",
    "Variable": "variable.parameter, variable.other.member",
    "Attribute": "entity.other.attribute-name, meta.attribute",
    "Preprocessor": "meta.preprocessor, keyword.control.directive",
    "Annotation": "meta.annotation, storage.type.annotation, meta.decorator",
    "Error": "invalid",
}
PLAIN_TEXT = "#1b1b1b"  # the site's --fg: code that is no token


def tmtheme() -> str:
    """The light palette as a TextMate theme (a property list), for Typst's raw blocks."""

    def entry(scope: str, style: Style) -> str:
        faces = " ".join(f for f, on in (("bold", style.bold), ("italic", style.italic)) if on)
        face = f"<key>fontStyle</key><string>{faces}</string>" if faces else ""
        return (
            f"<dict><key>scope</key><string>{scope}</string><key>settings</key><dict>"
            f"<key>foreground</key><string>{style.light}</string>{face}</dict></dict>"
        )

    rules = "".join(entry(scope, TOKENS[name]) for name, scope in SCOPES.items())
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<plist version="1.0"><dict><key>name</key><string>kobook</string>'
        "<key>settings</key><array><dict><key>settings</key><dict>"
        f"<key>foreground</key><string>{PLAIN_TEXT}</string></dict></dict>{rules}"
        "</array></dict></plist>"
    )
