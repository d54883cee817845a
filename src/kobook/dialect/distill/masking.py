"""Code and ``{% raw %}`` text hidden from every rewrite, then put back.

Nothing inside a fenced code block or an inline code span is rewritten (a
``{% details %}`` in a Jekyll tutorial's code block is an example, not a
block).  Each line piece of such text becomes a token (``\\ue000N\\ue001``):
one token per line, so the line count and every line's origin stay; the
rewrites' patterns never match a token; :func:`unmask` puts the text back.

``{% raw %}`` … ``{% endraw %}`` follow Jekyll, where Liquid runs before
Markdown: the tags go wherever they are (in code too) and the text between
them is kept literally, so it is masked like code.
"""

from __future__ import annotations

import re

from ...model.origins import Lines
from ...source.inline import code_span
from .. import Report
from .edits import Edit, apply_edits, where

TOKEN = re.compile("\ue000(\\d+)\ue001")
FENCE = re.compile(r"^[ \t]{0,3}(`{3,}(?=[^`]*$)|~{3,})")  # ```x``` on one line is a code span
RAW = re.compile(r"\{%-?\s*raw\s*-?%\}(.*?)\{%-?\s*endraw\s*-?%\}", re.S)
HIGHLIGHT = re.compile(
    r"^([ \t]*)\{%-?\s*highlight\s+([\w+#.-]+)[^%]*%\}[ \t]*\n"
    r"(.*?)\n[ \t]*\{%-?\s*endhighlight\s*-?%\}",
    re.S | re.M,
)


class Masked:
    """The texts behind the tokens of one chapter."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def token(self, text: str) -> str:
        """One token per line of ``text`` (newlines kept between them)."""
        out = []
        for piece in text.split("\n"):
            if piece:
                self.texts.append(piece)
                out.append(f"\ue000{len(self.texts) - 1}\ue001")
            else:
                out.append("")
        return "\n".join(out)


def unmask(lines: Lines, masked: Masked) -> Lines:
    """Every token replaced by the text it hides (repeatedly: a token may hide one)."""
    for _ in range(3):
        if "\ue000" not in lines.text:
            break
        lines = lines.sub(TOKEN, lambda m: masked.texts[int(m.group(1))])
    return lines


def mask_raw(lines: Lines, masked: Masked, report: Report) -> Lines:
    """``{% raw %}`` blocks: tags dropped, the text between kept literally (info DIA110)."""
    edits = []
    for match in RAW.finditer(lines.text):
        report.info("DIA110", "{% raw %} block kept literally", where(lines, match.start()))
        report.count("liquid-raw")
        edits.append(Edit(match.start(), match.end(), masked.token(match.group(1))))
    return apply_edits(lines, edits)


def highlight_blocks(lines: Lines, report: Report) -> Lines:
    """``{% highlight lang %}`` … ``{% endhighlight %}`` → a fenced code block."""

    def fence(match: re.Match[str]) -> str:
        report.count("highlight")
        indent, lang, body = match.group(1), match.group(2), match.group(3)
        return f"{indent}```{lang}\n{body}\n{indent}```"

    return lines.sub(HIGHLIGHT, fence)


def mask_code(lines: Lines, masked: Masked) -> Lines:
    """Fenced code blocks (every line, fences included) and inline code spans as tokens."""
    text = lines.text
    edits: list[Edit] = []
    offset = 0
    fence: str | None = None
    paragraph: list[tuple[int, str]] = []

    def flush() -> None:
        if paragraph:
            edits.extend(inline_code(paragraph, masked))
            paragraph.clear()

    for line in text.split("\n"):
        match = FENCE.match(line)
        if fence is None and match:
            flush()
            fence = match.group(1)
        elif fence is not None:
            closing = match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence)
            if closing and not line.strip().lstrip(fence[0]).strip():
                fence = None
                line_token = masked.token(line)
                edits.append(Edit(offset, offset + len(line), line_token))
                offset += len(line) + 1
                continue
        if fence is not None:
            if line:
                edits.append(Edit(offset, offset + len(line), masked.token(line)))
        elif line.strip():
            paragraph.append((offset, line))
        else:
            flush()
        offset += len(line) + 1
    flush()
    return apply_edits(lines, edits)


def inline_code(paragraph: list[tuple[int, str]], masked: Masked) -> list[Edit]:
    """Edits hiding the code spans of one paragraph (a span may cross its lines)."""
    start = paragraph[0][0]
    text = "\n".join(line for _offset, line in paragraph)
    edits = []
    index = 0
    while True:
        index = text.find("`", index)
        if index < 0:
            break
        if index > 0 and text[index - 1] == "\\":
            index += 1
            continue
        end = code_span(text, index, len(text))
        if end is None:
            while index < len(text) and text[index] == "`":
                index += 1
            continue
        edits.append(Edit(start + index, start + end, masked.token(text[index:end])))
        index = end
    return edits
