"""The index (찾아보기) in LaTeX: the book's groups (``write/shared/bookindex.py``) as an
unnumbered chapter in two columns, each entry's page numbers read from its marks'
labels.  The same page is printed once: ``\\kobookpages`` compares each label's page
(``refcount``) with the one before, so two marks on page 12 print ``12`` once, and
every number links to its mark."""

from __future__ import annotations

from ...lang.words import Words
from ...model.bookindex import Entry, Group
from .values import latex_escape

# The macros the index uses (in the document's preamble: book.latex loads refcount and
# multicol).  ``\kobookpages{a,b,c}``: each label's page, once, linked to the label.
MACROS = r"""\makeatletter
\newcommand\kobookpages[1]{\def\kobook@last{}\def\kobook@sep{}%
  \@for\kobook@id:=#1\do{\expandafter\kobook@page\expandafter{\kobook@id}}}
\newcommand\kobook@page[1]{\edef\kobook@this{\getpagerefnumber{#1}}%
  \ifx\kobook@this\kobook@last\else
    \kobook@sep\hyperref[#1]{\kobook@this}\def\kobook@sep{, }%
    \let\kobook@last\kobook@this
  \fi}
\makeatother
\newenvironment{kobookindex}{\begin{multicols}{2}\small\setstretch{1.2}\setlength{\parindent}{0pt}%
  \setlength{\parskip}{0pt}\raggedright}{\end{multicols}}
\newcommand\kobookindexgroup[1]{\par\pagebreak[2]\vspace{1em plus .5em}%
  {\sffamily\bfseries #1\par}\nopagebreak\vspace{.3em}}
\newcommand\kobookentry[1]{\par\hangindent=2em #1}
\newcommand\kobooksubentry[1]{\par\hangindent=3em\hspace*{1em}#1}
"""


def index_latex(groups: list[Group], words: Words) -> str:
    """The index as LaTeX: an unnumbered chapter (in the contents and the bookmarks),
    then each group and its entries."""
    title = latex_escape(words.word("index"))
    lines = [
        r"\cleardoublepage\phantomsection\label{book-index}",
        rf"\addchap{{{title}}}",
        r"\begin{kobookindex}",
    ]
    for group in groups:
        lines.append(rf"\kobookindexgroup{{{latex_escape(group.label)}}}")
        for entry in group.entries:
            lines.append(rf"\kobookentry{{{entry_text(entry)}}}")
            lines += [rf"\kobooksubentry{{{entry_text(sub)}}}" for sub in entry.subs]
    lines.append(r"\end{kobookindex}")
    return "\n".join(lines)


def entry_text(entry: Entry) -> str:
    """An entry's term, its source term in parentheses, and its page numbers."""
    text = latex_escape(entry.term)
    if entry.original:
        text += latex_escape(f"({entry.original})")
    if entry.marks:
        text += r"\enskip\kobookpages{" + ",".join(m.anchor for m in entry.marks) + "}"
    return text
