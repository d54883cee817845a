"""Page geometry and type size from pandoc-style metadata, shared by both PDF engines.

``papersize: a5``, ``geometry: margin=2cm`` or ``[top=2cm, inner=2.5cm]``,
``fontsize: 10pt`` and ``linestretch: 1.5`` mean the same page whichever
engine draws it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...errors import KobookError
from ...model import Config

# The names metadata validation accepts.
from ...model.page import LENGTH, PAPER, PAPER_HINT, paper_name
from .latexmeta import class_options

# Chapter, section and subsection titles, in multiples of the body size: one scale for every
# engine (they had set 17.5/13/11, 14.3/12/10 and 24.5/15.6/11 pt at 10 pt).
HEADINGS = (1.75, 1.3, 1.1)
# Space above and below a chapter, section, subsection and lower title, in multiples of
# the title's own size, between the line boxes (CSS's margins); between paragraphs, of the
# body size; a title's lines 1.35 × its size apart.  One decision for every engine: XeLaTeX
# had set half a line between paragraphs and KOMA's own heading skips (70 against 75 pages).
HEADING_SPACE = ((2.5, 1.5), (1.6, 0.6), (1.3, 0.5), (1.0, 0.4))
HEADING_LINE_HEIGHT = 1.35
# The chapter's label ("3장") over its title: its size in multiples of the title's, and the
# space under it in multiples of its own.
CHAPTER_LABEL = (0.9, 0.3)
# A chapter opens low on its page (the sink): the label's baseline stands this share of
# the text block's height below the block's top.  One decision for every engine (they had
# set 2.5 em of the body, 3 em, and 2.5 × the title's size, truncated at the page's top).
CHAPTER_SINK = 0.16
PARAGRAPH_SPACE = 0.65
# Where the letters stand in a line box, for turning the spaces between line boxes into
# distances between baselines (what TeX and Typst are told): ascent less descent, in em,
# of the CJK fonts' typographic metrics (0.88 and 0.12).
LETTER_CENTRE = 0.76
# Figure and table captions: 0.9 × the body size, in the heading face, on the titles'
# leading (they had been 0.85 and 0.95 in WeasyPrint, 0.9 in Typst and XeLaTeX).
CAPTION_SCALE = 0.9
# Code in running text: 0.88 × the size of the text around it (XeLaTeX had scaled its
# monospace fonts by 0.92).
INLINE_CODE_SCALE = 0.88
# Code blocks: type at 0.8 × the body size on lines 1.3 × that apart, 6 pt inside the box
# on the left and the right.  One decision for every engine (they had set 8 pt on 10.4 pt,
# 7.9 pt on 11.5 pt and 9 pt on 12.1 pt lines at 10 pt, and wrapped at three widths).
CODE_SCALE = 0.8
CODE_LINE_HEIGHT = 1.3
CODE_INSET_PT = 6.0
# A page break leaves at least this many of a code block's lines on each side: two at a
# page's foot are turned over before they are read.
CODE_KEPT_LINES = 3


@dataclass(frozen=True)
class PageLayout:
    width: str
    height: str
    top: str
    bottom: str
    inner: str
    outer: str
    font_size: str
    line_height: float
    headings: tuple[float, float, float] = HEADINGS
    code_scale: float = CODE_SCALE
    code_line_height: float = CODE_LINE_HEIGHT
    code_inset: float = CODE_INSET_PT  # points, each side, inside the box's rule
    code_kept: int = CODE_KEPT_LINES  # a code block's lines kept on each side of a break
    inline_code_scale: float = INLINE_CODE_SCALE

    def box_margin(self, side: str) -> str:
        """The CSS page box's ``top`` or ``bottom`` margin: the text block's, less the
        half-leading.  CSS centres a line's letters in a line box of ``line_height``, so
        the first and last lines' letters stood half a leading inside the block; XeLaTeX
        and Typst set them on its edges.  With this margin every engine sets the first and
        the last line of a page in the same place, and as many lines on a page."""
        margin = points(self.top if side == "top" else self.bottom)
        half_leading = (self.line_height - 1) / 2 * points(self.font_size)
        return f"{max(margin - half_leading, 0.0):.2f}pt"

    @property
    def text_width(self) -> float:
        """The text block's width in points."""
        return points(self.width) - points(self.inner) - points(self.outer)

    @property
    def text_height(self) -> float:
        """The text block's height in points."""
        return points(self.height) - points(self.top) - points(self.bottom)

    @property
    def chapter_sink(self) -> float:
        """From the text block's top to a chapter label's baseline, in points."""
        return round(self.text_height * CHAPTER_SINK, 2)

    @property
    def chapter_sink_to_label_box(self) -> float:
        """:attr:`chapter_sink` less the part of the label's line box above its baseline:
        the space to leave above that line box (CSS's padding, Typst's spacing)."""
        above = (HEADING_LINE_HEIGHT + LETTER_CENTRE) * self.chapter_label_points / 2
        return round(max(self.chapter_sink - above, 0.0), 2)

    @property
    def body_points(self) -> float:
        return points(self.font_size)

    @property
    def code_points(self) -> float:
        """The size of code in a code block, in points."""
        return round(self.body_points * self.code_scale, 2)

    @property
    def code_pitch(self) -> float:
        """The distance between two lines of a code block, in points."""
        return round(self.code_points * self.code_line_height, 2)

    @property
    def paragraph_space(self) -> float:
        """The space between two paragraphs, over the leading, in points."""
        return round(self.body_points * PARAGRAPH_SPACE, 2)

    def heading_space(self, level: int) -> tuple[float, float]:
        """The space above and below a heading of ``level`` (1: chapter), in points."""
        before, after = HEADING_SPACE[min(level, len(HEADING_SPACE)) - 1]
        size = self.heading_points(level)
        return round(size * before, 2), round(size * after, 2)

    def heading_baselines(self, level: int) -> tuple[float, float]:
        """From the baseline of the body text before a heading of ``level`` to its first
        baseline, and from its last baseline to the body text's after it, in points: the
        :meth:`heading_space` between line boxes (CSS), as TeX and Typst place lines."""
        body, size = self.body_points, self.heading_points(level)
        before, after = self.heading_space(level)
        below_body = (self.line_height - LETTER_CENTRE) * body / 2
        above_body = (self.line_height + LETTER_CENTRE) * body / 2
        below_head = (HEADING_LINE_HEIGHT - LETTER_CENTRE) * size / 2
        above_head = (HEADING_LINE_HEIGHT + LETTER_CENTRE) * size / 2
        return round(below_body + before + above_head, 2), round(below_head + after + above_body, 2)

    @property
    def chapter_label_points(self) -> float:
        """The size of a chapter's label ("3장") over its title, in points."""
        return round(self.heading_points(1) * CHAPTER_LABEL[0], 2)

    @property
    def chapter_label_baselines(self) -> float:
        """From the chapter label's baseline to its title's first, in points."""
        label, title = self.chapter_label_points, self.heading_points(1)
        below_label = (HEADING_LINE_HEIGHT - LETTER_CENTRE) * label / 2
        above_title = (HEADING_LINE_HEIGHT + LETTER_CENTRE) * title / 2
        return round(below_label + self.chapter_label_space + above_title, 2)

    @property
    def chapter_label_space(self) -> float:
        """The space under a chapter's label, over its title's line box, in points."""
        return round(self.chapter_label_points * CHAPTER_LABEL[1], 2)

    @property
    def heading_line_height(self) -> float:
        return HEADING_LINE_HEIGHT

    @property
    def caption_points(self) -> float:
        """The size of a figure's or table's caption, in points."""
        return round(self.body_points * CAPTION_SCALE, 2)

    @property
    def code_padding(self) -> float:
        """The code box's space above its first line and below its last, in points."""
        return round(self.code_points * 0.6, 2)

    def heading_points(self, level: int) -> float:
        """The size of a heading of ``level`` (1: chapter) in points."""
        scale = self.headings[min(level, len(self.headings)) - 1] if level <= 3 else 1.0
        return round(points(self.font_size) * scale, 2)


def length(value: str, key: str, config: Config) -> str:
    match = LENGTH.match(value)
    if not match:
        raise KobookError(
            f"'{value}' in {key} is not a length",
            code="CFG006",
            file=config.path,
            hint="write it like 20mm, 2cm, 1in or 10pt",
        )
    number, unit = match.groups()
    return f"{number}{'pt' if unit == 'bp' else unit}"


# Text width on a wide page by default: about 41 Hangul at 10 pt.
WIDE_TEXT_MM = 145.0


POINTS = {"pt": 1.0, "mm": 72 / 25.4, "cm": 72 / 2.54, "in": 72.0, "pc": 12.0, "px": 0.75}


def points(length: str) -> float:
    """``"25mm"`` → 70.87 (points); a length this module already checked."""
    match = re.fullmatch(r"\s*([\d.]+)\s*([a-z]*)\s*", length)
    if not match:
        return 0.0
    return float(match.group(1)) * POINTS.get(match.group(2) or "pt", 1.0)


def page_layout(config: Config) -> PageLayout:
    """The page every engine sets: ``papersize``, ``fontsize``, ``geometry`` and
    ``linestretch``, with ``classoption``'s paper and type size where those are not
    given (a5paper, 11pt: a LaTeX user's way to say it, honoured by every engine)."""
    option = class_options(
        config.get("documentclass"), config.get("classoption"), language=config.language
    )
    paper = paper_name(str(config.get("papersize") or option.paper or "a4"), config.language)
    if paper in PAPER:
        width, height = PAPER[paper]
    else:
        parts = paper.split()
        if len(parts) != 2:
            raise KobookError(
                f"unknown papersize '{paper}'",
                code="CFG007",
                file=config.path,
                hint=PAPER_HINT,
            )
        width, height = (length(p, "papersize", config) for p in parts)
    # Pocket and 신국판-size pages (up to 160 mm wide) keep narrow margins.
    small = points(width) / POINTS["mm"] <= 160
    margins = {
        "top": "18mm" if small else "25mm",
        "bottom": "20mm" if small else "25mm",
        "inner": "18mm" if small else "25mm",
        "outer": "15mm" if small else "25mm",
    }
    # A wide page (A4, letter) with 25 mm margins sets about 50 Korean characters a
    # line, long for a book (issue 11); a Korean book's text block is 35–42.  The text
    # block stays at WIDE_TEXT, the binding side a little narrower than the outside.
    spare = points(width) / POINTS["mm"] - WIDE_TEXT_MM
    if spare > 50:
        inner = round(spare * 0.46)
        margins["inner"] = f"{inner}mm"
        margins["outer"] = f"{round(spare - inner, 1):g}mm"
    geometry = config.get("geometry") or []
    items = geometry if isinstance(geometry, list) else str(geometry).split(",")
    for item in items:
        if "=" not in str(item):
            continue
        key, value = (s.strip() for s in str(item).split("=", 1))
        size = length(value, "geometry", config)
        targets = {
            "margin": ["top", "bottom", "inner", "outer"],
            "hmargin": ["inner", "outer"],
            "vmargin": ["top", "bottom"],
            "left": ["inner"],
            "inner": ["inner"],
            "right": ["outer"],
            "outer": ["outer"],
            "top": ["top"],
            "bottom": ["bottom"],
        }.get(key, [])
        for target in targets:
            margins[target] = size
    font_size = str(config.get("fontsize") or option.fontsize or "10pt")
    if isinstance(config.get("fontsize"), (int, float)):
        font_size = f"{config.get('fontsize')}pt"
    font_size = length(font_size, "fontsize", config)
    stretch = config.get("linestretch")
    # LaTeX's baselineskip is 1.2 × size; linestretch multiplies it.  Korean text
    # wants more air than Latin: default 1.45 × 1.2 ≈ 1.75.
    line_height = round(1.2 * float(stretch), 3) if stretch else 1.75
    return PageLayout(
        width,
        height,
        margins["top"],
        margins["bottom"],
        margins["inner"],
        margins["outer"],
        font_size,
        line_height,
    )
